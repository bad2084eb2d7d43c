//! What experiments ask PostgreSQL about its storage, answered from the pg
//! profile's own pages: where a row lives (`ctid`, and the page number as
//! `(ctid::text::point)[0]`). Each expected answer is PostgreSQL 15's for the
//! same script; the differential tester checks the same on random scripts.

use crate::common;

use common::{error, rows};
use indexlab_engine::scenario::{run_pg, run_yb};

#[test]
fn ctid_is_where_the_heap_put_the_row() {
    let script = "create table t0 (id int primary key, v text);
insert into t0 select generate_series(1,1000), 'x';
select ctid, id from t0 order by id limit 2;
select ctid, * from t0 where id = 500;
select (ctid::text::point)[0] as page, count(*) from t0 group by 1 order by 1;
delete from t0 where (ctid::text::point)[0] = 1;
select count(*), max(ctid) from t0;
select * from t0 order by ctid desc limit 1;
select '(3,4)'::tid, '(1.5,2)'::point;\n";
    let r = run_pg(script, &[]).0;
    assert_eq!(r.error, None);
    assert_eq!(rows(&r, 2), [["(0,1)", "1"], ["(0,2)", "2"]]);
    // `*` is the table's own columns: ctid is named or not shown.
    assert_eq!(rows(&r, 3), [["(2,48)", "500", "x"]]);
    assert_eq!(
        rows(&r, 4),
        [
            ["0", "226"],
            ["1", "226"],
            ["2", "226"],
            ["3", "226"],
            ["4", "96"]
        ]
    );
    assert_eq!(r.statements[5].outcome.tag, "DELETE 226");
    assert_eq!(rows(&r, 6), [["774", "(4,96)"]]);
    assert_eq!(rows(&r, 7), [["1000", "x"]]);
    assert_eq!(rows(&r, 8), [["(3,4)", "(1.5,2)"]]);
}

#[test]
fn ctid_is_refused_where_it_would_not_be_postgresql_s_answer() {
    let base = "create table t (id int primary key);\ninsert into t values (1);\n";
    // A condition on ctid is PostgreSQL's Tid Scan, which IndexLab lacks.
    let r = run_pg(
        &format!("{base}select id from t where ctid = '(0,1)';\n"),
        &[],
    )
    .0;
    assert!(error(&r).contains("Tid Scan"), "{}", error(&r));
    // YugabyteDB has no heap addresses.
    let r = run_yb(&format!("{base}select ctid from t;\n"), &[]).0;
    assert!(
        error(&r).contains("ctid, xmin and xmax on YugabyteDB"),
        "{}",
        error(&r)
    );
    // No column may take a system column's name.
    let r = run_pg("create table bad (ctid int);\n", &[]).0;
    assert_eq!(
        error(&r),
        "column name \"ctid\" conflicts with a system column name"
    );
}

/// pg_class's figures change only when VACUUM, ANALYZE or CREATE INDEX write
/// them: each expected row is PostgreSQL 15's after the same script.
#[test]
fn pg_class_keeps_what_vacuum_analyze_and_create_index_measured() {
    let q = "select relname, relkind, relpages, reltuples, relallvisible, relhasindex \
             from pg_class where relname like 'demo%' and relname <> 'demo_n' order by relname;\n";
    let script = format!(
        "create table demo (id bigserial primary key, v text, n int);
{q}insert into demo (v, n) select 'x' || i, i % 10 from generate_series(1, 5000) i;
{q}create index demo_n on demo (n);
{q}delete from demo where id % 3 = 0;
vacuum demo;
{q}insert into demo (v, n) select 'y', 1 from generate_series(1, 3000);
analyze demo;
{q}select relname, pg_table_size(oid) from pg_class where relname in ('demo', 'demo_id_seq') order by 1;
select relpages, reltuples from pg_class where oid = 'demo'::regclass;
truncate demo;
{q}create table e (a int);
analyze e;
create index e_a on e (a);
select relname, relpages, reltuples, relhasindex from pg_class where relname in ('e', 'e_a') order by 1;
drop index e_a;
vacuum e;
select relhasindex from pg_class where relname = 'e';\n"
    );
    let r = run_pg(&script, &[]).0;
    assert_eq!(r.error, None, "{:?}", r.error);
    let row = |s: &str| s.split(' ').map(String::from).collect::<Vec<_>>();
    let rows_at = |i: usize| rows(&r, i);
    // A new table is unmeasured (-1); its primary key, built empty, is not.
    let created = [
        row("demo r 0 -1 0 t"),
        row("demo_id_seq S 1 1 0 f"),
        row("demo_pkey i 1 0 0 f"),
    ];
    assert_eq!(rows_at(1), created);
    // A load changes nothing in pg_class.
    assert_eq!(rows_at(3), created);
    // CREATE INDEX measures the table (not the other index).
    assert_eq!(rows_at(5)[0], row("demo r 32 5000 0 t"));
    assert_eq!(rows_at(5)[2], row("demo_pkey i 1 0 0 f"));
    // VACUUM counts the live rows, marks the pages all-visible, and measures
    // the index it removed entries from.
    assert_eq!(rows_at(8)[0], row("demo r 32 3334 32 t"));
    assert_eq!(rows_at(8)[2], row("demo_pkey i 16 3334 0 f"));
    // ANALYZE measures the table and every index.
    assert_eq!(rows_at(11)[0], row("demo r 38 6334 0 t"));
    assert_eq!(rows_at(11)[2], row("demo_pkey i 24 6334 0 f"));
    assert_eq!(rows_at(12), [row("demo 352256"), row("demo_id_seq 8192")]);
    assert_eq!(rows_at(13), [row("38 6334")]);
    // TRUNCATE gives new files: unmeasured again.
    assert_eq!(rows_at(15)[0], row("demo r 0 -1 0 t"));
    assert_eq!(rows_at(15)[2], row("demo_pkey i 0 -1 0 f"));
    // An analyzed empty table is measured (0 rows), and its first index too.
    assert_eq!(rows_at(19), [row("e 0 0 t"), row("e_a 1 0 f")]);
    // relhasindex stays until VACUUM finds no index.
    assert_eq!(rows_at(22), [row("f")]);
}

#[test]
fn pg_class_queries_must_rule_out_postgresql_s_own_relations() {
    let base = "create table t (id int primary key);\n";
    for (query, expected) in [
        (
            "select relname from pg_class;",
            "may list PostgreSQL's own relations",
        ),
        (
            "select relname from pg_class where relpages > 0;",
            "may list PostgreSQL's own relations",
        ),
        (
            "select relname from pg_class where relname like 't%';",
            "may list PostgreSQL's own relations",
        ),
        (
            "select * from pg_class where relname = 't';",
            "SELECT * from pg_class",
        ),
        (
            "select relfilenode from pg_class where relname = 't';",
            "pg_class.relfilenode",
        ),
        (
            "select oid from pg_class where relname = 't';",
            "pg_class.oid as a number",
        ),
    ] {
        let r = run_pg(&format!("{base}{query}\n"), &[]).0;
        assert!(error(&r).contains(expected), "{query}: {}", error(&r));
    }
    let r = run_yb(
        &format!("{base}select relpages from pg_class where relname = 't';\n"),
        &[],
    )
    .0;
    assert!(
        error(&r).contains("pg_class on YugabyteDB"),
        "{}",
        error(&r)
    );
}

#[test]
fn real_prints_with_float4_digits_and_float8_goes_scientific_where_postgresql_does() {
    let r = run_pg(
        "create table t (id int primary key);
insert into t select generate_series(1, 1000);
analyze t;
select reltuples, reltuples * 1000, reltuples * reltuples, reltuples * 1000000000000 from pg_class where relname = 't';
select 1e15::float8, 123456789012345::float8, 0.0001::float8, 0.00001::float8;\n",
        &[],
    )
    .0;
    assert_eq!(r.error, None, "{:?}", r.error);
    // real * int is float8 (fixed up to 15 digits); real * real stays real.
    assert_eq!(rows(&r, 3), [["1000", "1000000", "1e+06", "1e+15"]]);
    assert_eq!(
        rows(&r, 4),
        [["1e+15", "123456789012345", "0.0001", "1e-05"]]
    );
}

/// A scan prunes a nearly full page it reads (`heap_page_prune_opt`): after
/// three updates of every row, the `count(*)` frees the dead versions'
/// space and line pointers, and the next INSERT takes line pointer 43.
/// Expected rows are PostgreSQL 15's for the same script.
#[test]
fn a_scan_prunes_a_nearly_full_page_and_an_insert_reuses_its_space() {
    let script = "create table t1 (id int, a int not null, b int, primary key (id));
insert into t1 select g, g % 6, g % 2 from generate_series(1, 42) g;
update t1 set a = a * 2;
update t1 set id = id + 7000;
update t1 set a = a + 2;
select count(*) from t1;
insert into t1 values (7060, 7, null);
select ctid, * from t1 where id = 7060;
select ctid from t1 order by ctid limit 3;
";
    let r = run_pg(script, &[]).0;
    assert_eq!(error(&r), "");
    assert_eq!(rows(&r, 7), [["(0,43)", "7060", "7", "NULL"]]);
    assert_eq!(rows(&r, 8), [["(0,43)"], ["(0,127)"], ["(0,128)"]]);
}
