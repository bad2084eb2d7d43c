//! Sequences: CREATE SEQUENCE in PostgreSQL's grammar (options in any
//! order, AS type, bounds, CYCLE), `nextval`, `currval`, `setval`,
//! `lastval`, a column DEFAULT of `nextval` evaluated row by row, values
//! that a ROLLBACK does not give back, DROP SEQUENCE, and PostgreSQL's
//! errors. Expected rows and errors: psql 15, `-A -t`, each query's rows
//! after `@@` and its line.

use crate::psql;

const SCRIPT: &str = r#"create sequence s;
select nextval('s'), nextval('s');
select currval('s'), lastval();
select nextval('s') from generate_series(1, 3);
create table t (id bigint default nextval('s'), v text);
insert into t (v) values ('a'), ('b');
insert into t (v) select 'x' || g from generate_series(1, 2) g;
insert into t values (nextval('s'), 'c');
select * from t order by id;
select setval('s', 100), nextval('s'), currval('s');
select setval('s', 200, false), nextval('s');
create sequence d increment by -2 start with 10 minvalue 5 maxvalue 10;
select nextval('d'), nextval('d'), nextval('d');
select nextval('d');
create sequence c3 as smallint maxvalue 3 cycle;
select nextval('c3') from generate_series(1, 5);
create sequence if not exists s;
create table s (id int);
select currval('d2');
create sequence z;
select currval('z');
drop sequence z, d;
drop sequence if exists z;
select nextval('z');
create sequence bad increment by 0;
create sequence bad2 minvalue 10 maxvalue 5;
create sequence bad3 start with 0;
begin;
select nextval('s');
rollback;
select nextval('s');
select pg_relation_size('s'), pg_table_size('s');
select relname, relkind, relpages, reltuples from pg_class where relname = 's';"#;

const POSTGRES: &str = r#"@@2
1|2
@@3
2|2
@@4
3
4
5
@@9
6|a
7|b
8|x1
9|x2
10|c
@@10
100|101|101
@@11
200|200
@@13
10|8|6
@@16
1
2
3
1
2
@@29
201
@@31
202
@@32
8192|8192
@@33
s|S|1|1
"#;

#[test]
fn sequences_answer_as_postgresql_does() {
    psql::assert_rows_after_errors(SCRIPT, POSTGRES);
    let (_, errors) = psql::run(SCRIPT);
    assert_eq!(
        errors,
        [
            "nextval: reached minimum value of sequence \"d\" (5)",
            "relation \"s\" already exists",
            "relation \"d2\" does not exist",
            "currval of sequence \"z\" is not yet defined in this session",
            "relation \"z\" does not exist",
            "INCREMENT must not be zero",
            "MINVALUE (10) must be less than MAXVALUE (5)",
            "START value (0) cannot be less than MINVALUE (1)"
        ]
    );
}

/// The same sequences on YugabyteDB, whose query layer is PostgreSQL's
/// (its statements up to the first error).
#[test]
fn sequences_answer_the_same_on_yugabytedb() {
    let script: Vec<&str> = SCRIPT.lines().take(11).collect();
    let expected = POSTGRES
        .split_once("@@13\n")
        .map_or(POSTGRES, |(head, _)| head);
    psql::assert_rows_yb(&script.join("\n"), expected);
}

/// nextval and currval inside a DO block run on the engine's sequences.
/// Expected rows: psql 15.
#[test]
fn a_do_block_draws_from_a_sequence() {
    let script = "create sequence s;
create table t (id int, v int);
do $$ declare n bigint; begin for i in 1..3 loop n := nextval('s'); insert into t values (n, currval('s') * 10); end loop; end $$;
select * from t order by id;";
    let expected = "@@4\n1|10\n2|20\n3|30\n";
    psql::assert_rows(script, expected);
    psql::assert_rows_yb(script, expected);
}
