//! ALTER TABLE … ADD and DROP COLUMN. Each expected answer is PostgreSQL
//! 15's for the same script (`psql -A -t`, a fresh cluster): what goes with
//! a dropped column (its indexes, statistics objects, a generated column
//! under CASCADE), the rows after it, and the tuples, which keep the dropped
//! attribute as a NULL; a column added with a volatile default or a serial,
//! which rewrites the table.

use crate::psql;

const SCRIPT: &str = r"create extension pageinspect;
create table t (a int primary key, b bigint, c text, d int, e int generated always as (d + 1) stored);
create index t_d on t (d);
create index t_bd on t (b, d);
create index t_cl on t (lower(c)) where a > 10;
create index t_inc on t (a) include (b);
create statistics t_s on c, d from t;
create statistics t_sb on b, d from t;
insert into t (a, b, c, d) select g, g * 10, 'Row' || g, g % 7 from generate_series(1, 500) g;
alter table t drop column d;
alter table t drop column b;
select indexname, indexdef from pg_indexes where tablename = 't' order by 1;
\d t
alter table t drop column if exists b;
alter table t drop column ctid;
alter table t drop column zz;
alter table t drop column d cascade;
select indexname from pg_indexes where tablename = 't' order by 1;
select * from t where a <= 3 order by a;
select a from t where lower(c) = 'row42';
insert into t values (501, 'Row501');
select a, c from t where lower(c) = 'row501';
select pg_relation_size('t');
vacuum full t;
select pg_relation_size('t');
select lp, lp_len, t_infomask2, t_hoff, t_bits from heap_page_items(get_raw_page('t', 0)) where lp <= 2;
alter table t add column f int default 4;
insert into t (a, c) values (1000, 'x');
select * from t where a in (1, 1000) order by a;
create table u (id bigint, pad int, v text);
alter table u drop column pad;
insert into u select g, 'v' || g from generate_series(1, 1000) g;
select pg_relation_size('u');
select lp, lp_len, t_infomask2, t_hoff, t_bits, t_data from heap_page_items(get_raw_page('u', 0)) where lp <= 2;
\d u
";

const POSTGRES: &str = r"@@12
t_cl|CREATE INDEX t_cl ON public.t USING btree (lower(c)) WHERE (a > 10)
t_d|CREATE INDEX t_d ON public.t USING btree (d)
t_pkey|CREATE UNIQUE INDEX t_pkey ON public.t USING btree (a)
@@13
a|integer||not null|
c|text|||
d|integer|||
e|integer|||generated always as (d + 1) stored
@@18
t_cl
t_pkey
@@19
1|Row1
2|Row2
3|Row3
@@20
42
@@22
501|Row501
@@23
32768
@@25
24576
@@26
1|33|5|24|10100000
2|33|5|24|10100000
@@29
1|Row1|4
1000|x|4
@@33
49152
@@34
1|35|3|24|10100000|\x0100000000000000077631
2|35|3|24|10100000|\x0200000000000000077632
@@35
id|bigint|||
v|text|||
";

#[test]
fn drop_column_answers_and_sizes_as_postgresql_does() {
    psql::assert_rows_after_errors(SCRIPT, POSTGRES);
}

#[test]
fn drop_column_errors_and_notices_are_postgresqls() {
    let (r, errors) = psql::run(SCRIPT);
    assert_eq!(
        errors,
        [
            "cannot drop column d of table t because other objects depend on it\nDETAIL:  column e of table t depends on column d of table t",
            "cannot drop system column \"ctid\"",
            "column \"zz\" of relation \"t\" does not exist",
        ]
    );
    let notices = |line| r.statements[psql::at(&r, line)].outcome.notices.clone();
    assert_eq!(
        notices(14),
        ["column \"b\" of relation \"t\" does not exist, skipping"]
    );
    assert_eq!(notices(17), ["drop cascades to column e of table t"]);
}

#[test]
fn a_statistics_object_naming_the_column_goes_with_it() {
    let (r, _) = psql::run(SCRIPT);
    let footers = &r.statements[psql::at(&r, 13)].outcome.footers;
    assert!(
        footers.iter().any(|f| f.contains("\"public.t_s\"")),
        "{footers:?}"
    );
    assert!(!footers.iter().any(|f| f.contains("t_sb")), "{footers:?}");
}

/// On YugabyteDB: columns added and dropped over rows already written, in
/// secondary indexes, a generated column, a table keyed by ybctid, a
/// transaction. PostgreSQL 15's answers.
const YB_SCRIPT: &str = r"create table t (id int primary key, a int, b text, c int, e int generated always as (c * 2) stored);
create index t_a on t (a);
create index t_cb on t (c) include (b);
create index t_bl on t (lower(b)) where a > 3;
create unique index t_ab on t (a, b);
insert into t (id, a, b, c) select g, g % 10, 'B' || g, g from generate_series(1, 50) g;
alter table t add column f int default 7;
alter table t add column g text;
insert into t (id, a, b, c, g) values (51, 1, 'B51', 51, 'gee');
select * from t where id in (1, 51) order by id;
select count(*) from t where f = 7;
alter table t drop column c cascade;
select * from t where id <= 2 order by id;
select id, b from t where a = 3 order by id;
select id from t where lower(b) = 'b44';
alter table t drop column a;
select * from t where id in (1, 51) order by id;
update t set g = 'upd', f = null where id = 1;
select * from t where id in (1, 2) order by id;
insert into t (id, b) values (52, 'x');
select * from t where id >= 50 order by id;
alter table t add column h int not null default 0;
select id, h from t where id in (1, 52) order by id;
\d t
alter table t drop column if exists zz;
select count(*), count(g), sum(f) from t;
create table n (a int, b text, c int);
insert into n select g, 'b' || g, g from generate_series(1, 20) g;
alter table n drop column b;
begin;
insert into n values (22, 22);
update n set c = -c where a <= 2;
select * from n where a <= 2 or a > 19 order by a;
commit;
alter table n add column d int default 5, add column e text;
select * from n where a <= 2 or a > 19 order by a;
update n set e = 'E' where a = 1;
delete from n where a = 2;
select * from n where a <= 3 or a > 19 order by a;
select count(*), sum(c), sum(d) from n;
";

const YB_POSTGRES: &str = r"@@10
1|1|B1|1|2|7|
51|1|B51|51|102|7|gee
@@11
51
@@13
1|1|B1|7|
2|2|B2|7|
@@14
3|B3
13|B13
23|B23
33|B33
43|B43
@@15
44
@@17
1|B1|7|
51|B51|7|gee
@@19
1|B1||upd
2|B2|7|
@@21
50|B50|7|
51|B51|7|gee
52|x|7|
@@23
1|0
52|0
@@24
id|integer||not null|
b|text|||
f|integer|||7
g|text|||
h|integer||not null|0
@@26
52|2|357
@@33
1|-1
2|-2
20|20
22|22
@@36
1|-1|5|
2|-2|5|
20|20|5|
22|22|5|
@@39
1|-1|5|E
3|3|5|
20|20|5|
22|22|5|
@@40
20|228|100
";

#[test]
fn yugabytedb_reads_rows_written_before_a_column_was_added_or_dropped() {
    psql::assert_rows_yb(YB_SCRIPT, YB_POSTGRES);
    // Column by column (each its own DocDB entry, by column id) too.
    let unpacked = format!("set yb_enable_packed_row = false;\n{YB_SCRIPT}");
    let shifted: String = YB_POSTGRES
        .split("@@")
        .filter(|b| !b.is_empty())
        .map(|b| {
            let (line, rows) = b.split_once('\n').unwrap();
            format!("@@{}\n{rows}", line.parse::<u32>().unwrap() + 1)
        })
        .collect();
    psql::assert_rows_yb(&unpacked, &shifted);
}

#[test]
fn yugabytedb_writes_new_rows_without_the_dropped_column() {
    // A row written before DROP COLUMN keeps the dropped value's bytes (its
    // version's packing skips them); a row written after has none.
    let script = "create table k (id int primary key, pad text, v int);
insert into k values (1, repeat('x', 200), 1);
alter table k drop column pad;
insert into k values (2, 2);
select * from k order by id;";
    let r = indexlab_engine::scenario::run_yb(script, &[]).0;
    assert_eq!(r.error, None, "{:?}", r.error);
    let rows = &r.statements[4].outcome.rows;
    assert_eq!(rows.len(), 2);
    // The packed row sent to DocDB: 200 bytes of padding, then none.
    let sent = |i: usize| r.statements[i].metrics.get("rpc_bytes");
    assert!(sent(1) > sent(3) + 190.0, "{} vs {}", sent(1), sent(3));
}

#[test]
fn dropping_every_column_or_a_yugabytedb_key_is_refused_by_name() {
    let (_, errors) = psql::run(
        "create table v (a int, b int generated always as (a * 2) stored);
alter table v drop column a cascade;",
    );
    assert_eq!(
        errors,
        ["dropping every column of a table (IndexLab has no table without columns) is not supported by IndexLab"]
    );
    let yb = indexlab_engine::scenario::run_yb(
        "create table v (a int primary key, b int);
alter table v drop column a;",
        &[],
    )
    .0;
    let e = yb.error.expect("refused");
    assert!(
        e.message
            .contains("dropping a primary key column on YugabyteDB"),
        "{}",
        e.message
    );
}

/// After Luca Ferrari's "Why Dropping a Column does not Reclaim Disk Space"
/// (fluca1978.github.io, 2020), scaled down: a volatile default rewrites the
/// table, DROP COLUMN frees nothing, VACUUM FULL does.
const REWRITE_SCRIPT: &str = r"create table foo (i int);
insert into foo select generate_series(1, 100000);
select pg_size_pretty(pg_relation_size('foo'));
alter table foo add column t text default md5(random()::text);
select pg_size_pretty(pg_relation_size('foo'));
select count(*), count(distinct t), min(length(t)) from foo;
alter table foo drop column t;
select pg_size_pretty(pg_relation_size('foo'));
insert into foo values (0);
vacuum full foo;
select pg_size_pretty(pg_relation_size('foo'));
alter table foo add column s serial;
select min(s), max(s), count(*) from foo;
select i, s from foo where i <= 3 order by i;
create table e (a int);
alter table e add column b float8 default random();
insert into e (a) values (1);
select count(*) from e where b between 0 and 1;
";

const REWRITE_POSTGRES: &str = r"@@3
3544 kB
@@5
6672 kB
@@6
100000|100000|32
@@8
6672 kB
@@11
3544 kB
@@13
1|100001|100001
@@14
0|100001
1|1
2|2
3|3
@@18
1
";

#[test]
fn a_volatile_default_or_a_serial_rewrites_the_table_as_postgresql_does() {
    psql::assert_rows(REWRITE_SCRIPT, REWRITE_POSTGRES);
}

#[test]
fn pageinspect_shows_a_dropped_columns_bytes_in_the_tuples_written_before() {
    // PostgreSQL 15's heap_page_items: the first tuple still holds 'abc';
    // those written after the drop, and all after VACUUM FULL, a NULL.
    psql::assert_rows(
        "create extension pageinspect;
create table w (id int, pad text, v bigint);
insert into w values (1, 'abc', 10), (2, null, 20);
alter table w drop column pad;
insert into w values (3, 30);
update w set v = 11 where id = 1;
select lp, lp_len, t_infomask2, t_hoff, t_bits, t_data from heap_page_items(get_raw_page('w', 0)) order by lp;
vacuum full w;
select lp, lp_len, t_infomask2, t_hoff, t_bits, t_data from heap_page_items(get_raw_page('w', 0)) order by lp;
",
        r"@@7
1|40|16387|24||\x01000000096162630a00000000000000
2|40|3|24|10100000|\x02000000000000001400000000000000
3|40|3|24|10100000|\x03000000000000001e00000000000000
4|40|32771|24|10100000|\x01000000000000000b00000000000000
@@9
1|40|3|24|10100000|\x02000000000000001400000000000000
2|40|3|24|10100000|\x03000000000000001e00000000000000
3|40|3|24|10100000|\x01000000000000000b00000000000000
",
    );
}
