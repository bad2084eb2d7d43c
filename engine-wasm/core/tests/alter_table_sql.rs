//! ALTER TABLE as experiments use it. Each expected answer is PostgreSQL 15's
//! for the same script.

use crate::common;

use crate::psql;

use common::{error, rows};
use indexlab_engine::scenario::{run_pg, run_yb};

const TABLE: &str = "create table t (id int, v text, n int);
insert into t select i, 'v' || i, i % 3 from generate_series(1, 500) i;\n";

#[test]
fn keys_columns_renames_and_fillfactor_as_postgresql_applies_them() {
    let script = format!(
        "{TABLE}alter table t add constraint t_pk primary key (id);
alter table t set (autovacuum_enabled = false, fillfactor = 50);
alter table t add column w int default 7;
alter table t add column z text;
insert into t values (501, 'x', 1, 8, 'zz');
select id, v, n, w, z from t where id in (1, 501) order by id;
select pg_relation_size('t'), count(*) from t;
select relname, relnatts from pg_class where relname in ('t', 't_pk') order by 1;
alter table t add unique (v);
alter table t rename column n to m;
select m from t where id = 2;
alter table t rename to t2;
alter table t2 drop constraint t_v_key;
insert into t2 select i, 'q', 1 from generate_series(1000, 1400) i;
select pg_relation_size('t2');\n"
    );
    let r = run_pg(&script, &[]).0;
    assert_eq!(r.error, None, "{:?}", r.error);
    // The added column reads its default on old rows; no tuple was rewritten.
    assert_eq!(
        rows(&r, 7),
        [["1", "v1", "1", "7", "NULL"], ["501", "x", "1", "8", "zz"]]
    );
    assert_eq!(rows(&r, 8), [["32768", "501"]]);
    assert_eq!(rows(&r, 9), [["t", "5"], ["t_pk", "1"]]);
    assert_eq!(rows(&r, 12), [["2"]]);
    // Inserts after SET (fillfactor = 50) leave half of each new page free.
    assert_eq!(rows(&r, 16), [["65536"]]);
    assert!(r.statements[3].outcome.notices[0].contains("no autovacuum"));
}

#[test]
fn alter_table_refuses_what_postgresql_refuses_before_changing_anything() {
    for (action, expected) in [
        (
            "alter table t add primary key (n)",
            "could not create unique index \"t_pkey\"",
        ),
        (
            "alter table t add column id int",
            "column \"id\" of relation \"t\" already exists",
        ),
        (
            "alter table t add column q int not null",
            "column \"q\" of relation \"t\" contains null values",
        ),
        (
            "alter table t drop constraint nope",
            "constraint \"nope\" of relation \"t\" does not exist",
        ),
        (
            "alter table t rename column nope to x",
            "column \"nope\" does not exist",
        ),
        (
            "alter table t set (fillfactor = 5)",
            "value 5 out of bounds for option \"fillfactor\"",
        ),
        (
            "alter table t add primary key (id) not deferrable initially deferred",
            "constraint declared INITIALLY DEFERRED must be DEFERRABLE",
        ),
    ] {
        let r = run_pg(&format!("{TABLE}{action};\n"), &[]).0;
        assert!(error(&r).contains(expected), "{action}: {}", error(&r));
    }
    // Two primary keys.
    let r = run_pg(
        &format!(
            "{TABLE}alter table t add primary key (id);\nalter table t add primary key (v);\n"
        ),
        &[],
    )
    .0;
    assert_eq!(
        error(&r),
        "multiple primary keys for table \"t\" are not allowed"
    );
    // Every action is checked before any is applied.
    let r = run_pg(
        &format!("{TABLE}alter table t add column k int, add primary key (n);\n"),
        &[],
    )
    .0;
    assert!(error(&r).contains("could not create unique index"));
}

#[test]
fn yugabytedb_adds_unique_keys_and_renames_and_names_what_it_refuses() {
    let r = run_yb(
        &format!(
            "{TABLE}alter table t add unique (v);
alter table t rename column n to m;
select m from t where v = 'v2';
alter table t drop constraint t_v_key;
alter table t set (fillfactor = 70);\n"
        ),
        &[],
    )
    .0;
    assert_eq!(r.error, None, "{:?}", r.error);
    assert_eq!(rows(&r, 4), [["2"]]);
    // A column added over rows already written: they read its default.
    let r = run_yb(
        &format!("{TABLE}alter table t add column w int default 3;\nselect w, count(*) from t group by w;\n"),
        &[],
    )
    .0;
    assert_eq!(r.error, None, "{:?}", r.error);
    assert_eq!(rows(&r, 3), [["3", "500"]]);
    let r = run_yb(
        &format!("{TABLE}alter table t add primary key (id);\n"),
        &[],
    )
    .0;
    assert!(
        error(&r).contains("ADD PRIMARY KEY on YugabyteDB"),
        "{}",
        error(&r)
    );
}

#[test]
fn create_table_with_fillfactor_leaves_room_as_postgresql_does() {
    let r = run_pg(
        "create table f (id int, v text) with (fillfactor = 30, autovacuum_enabled = false);
insert into f select i, 'x' from generate_series(1, 1000) i;
select pg_relation_size('f');\n",
        &[],
    )
    .0;
    assert_eq!(r.error, None, "{:?}", r.error);
    // PostgreSQL 15: 15 pages for 1000 rows at 30 %.
    assert_eq!(rows(&r, 2), [["122880"]]);
    let r = run_pg(
        "create table g (id int) with (parallel_workers = 2);\n",
        &[],
    )
    .0;
    assert!(error(&r).contains("parallel_workers"), "{}", error(&r));
    let r = run_pg(
        "create table h (id int);\ncreate index on h (id) with (fillfactor = 70);\n",
        &[],
    )
    .0;
    assert!(error(&r).contains("CREATE INDEX … WITH"), "{}", error(&r));
}

/// ADD COLUMN … GENERATED ALWAYS AS (…) STORED rewrites the table as
/// PostgreSQL's ATRewriteTable does: the live rows inserted anew (dead ones
/// left behind, the ALTER's xmin), indexes rebuilt, pg_class measured by
/// the index build (or unmeasured without one). Expected rows: psql 15.
#[test]
fn a_stored_generated_column_rewrites_the_table() {
    psql::assert_rows(
        "create table demo (id int primary key, username text);
insert into demo select g, 'number' || g from generate_series(1, 1000) g;
delete from demo where id % 10 = 0;
alter table demo add column upper_username text generated always as (upper(username)) stored;
select relpages, reltuples from pg_class where relname = 'demo';
select ctid, xmin = (select xmin from demo where id = 1), upper_username from demo where id in (1, 999) order by id;
create index demo_upper_stored on demo (upper_username);
select count(*) from demo where upper_username = 'NUMBER42';
insert into demo (id, username) values (5000, 'abc');
select upper_username from demo where id = 5000;
select pg_relation_size('demo'), pg_relation_size('demo_pkey');
create table e (a int);
alter table e add column b int generated always as (a * 2) stored;
select relpages, reltuples from pg_class where relname = 'e';",
        "@@5
6|900
@@6
(0,1)|t|NUMBER1
(5,115)|t|NUMBER999
@@8
1
@@10
ABC
@@11
49152|40960
@@14
0|-1
",
    );
}

/// A unique index whose build meets two equal keys fails whole, with
/// PostgreSQL's message, and leaves no index behind (the name is free).
#[test]
fn a_failed_unique_index_build_leaves_nothing() {
    let mut errors = Vec::new();
    let (report, _) =
        indexlab_engine::scenario::run_profile_continuing::<indexlab_engine::pg::PgEngine>(
            "create table x (a int);
insert into x values (1), (1);
create unique index x_a on x (a);
create index x_a on x (a desc);
\\d x",
            &[],
            &mut |e| errors.push(e.message),
        );
    assert_eq!(
        errors,
        ["could not create unique index \"x_a\"\nDETAIL:  Key (a)=(1) is duplicated."]
    );
    let footers = &report.statements.last().unwrap().outcome.footers;
    assert_eq!(footers[1..], ["    \"x_a\" btree (a DESC)"]);
}
