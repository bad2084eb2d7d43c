//! YugabyteDB's partition hash, as `yb_hash_code()` returns it and as it
//! places rows: the expected values are YugabyteDB's own, from its regression
//! test `yb_hash_code` (`src/postgres/src/test/regress/expected/yb_hash_code.out`),
//! so a reader checking IndexLab against a real cluster gets the same numbers.

use crate::common;

use common::{error, rows, run_yb_ok};
use indexlab_engine::scenario::{run_pg, run_yb};

fn column(r: &indexlab_engine::scenario::Report, statement: usize) -> Vec<String> {
    rows(r, statement)
        .into_iter()
        .map(|row| row.join("|"))
        .collect()
}

#[test]
fn yb_hash_code_of_values_is_yugabytedbs() {
    let r = run_yb_ok(
        "select yb_hash_code(1,2,3);
select yb_hash_code(1,2,'abc'::text);
select yb_hash_code(1), yb_hash_code(1::smallint), yb_hash_code(1::float8);",
        &[],
    );
    assert_eq!(column(&r, 0), ["57262"]);
    assert_eq!(column(&r, 1), ["33808"]);
    assert_eq!(column(&r, 2), ["4624|13059|4391"]);
}

/// A hash-sharded table's rows are stored in hash order, so a scan returns
/// them in the order YugabyteDB's does: the regression test's listings.
#[test]
fn a_scan_returns_rows_in_hash_order_by_column_type() {
    let r = run_yb_ok(
        "create table i (x int primary key);
insert into i select generate_series(1, 20);
select yb_hash_code(x), x from i limit 8;
create table s (x smallint primary key);
insert into s select generate_series(1, 20);
select yb_hash_code(x), x from s limit 6;
create table d (x double precision primary key);
insert into d select generate_series(1, 20);
select yb_hash_code(x), x from d limit 6;
create table t (x text primary key);
insert into t select generate_series(800001, 800020);
select yb_hash_code(x), x from t limit 6;",
        &[],
    );
    assert_eq!(
        column(&r, 2),
        [
            "2675|5", "4624|1", "7321|11", "14321|13", "15839|16", "16842|12", "18581|15",
            "20056|6"
        ]
    );
    assert_eq!(
        column(&r, 5),
        ["1049|4", "2923|14", "13059|1", "16740|13", "18377|20", "26637|2"]
    );
    assert_eq!(
        column(&r, 8),
        ["1454|19", "4391|1", "7352|4", "13543|6", "14302|20", "16387|13"]
    );
    assert_eq!(
        column(&r, 11),
        [
            "887|800018",
            "3842|800012",
            "4509|800015",
            "8102|800005",
            "13531|800013",
            "16739|800014"
        ]
    );
}

#[test]
fn yb_hash_code_filters_rows() {
    let r = run_yb_ok(
        "create table p (x int primary key, y int);
insert into p select i, i from generate_series(1, 10000) i;
select * from p where yb_hash_code(x) = 10427;
select count(*) from p where yb_hash_code(x) < 512;
select x from p where yb_hash_code(x, y) < 512 limit 5;
select x from p where yb_hash_code(x, y) = 10;
select x, yb_hash_code(x) from p where x in (1, 2, 3, 4) and yb_hash_code(x) < 50000 order by x;",
        &[],
    );
    assert_eq!(column(&r, 2), ["3381|3381"]);
    assert_eq!(column(&r, 3), ["85"]);
    assert_eq!(column(&r, 4), ["1862", "5530", "5796", "243", "9891"]);
    assert_eq!(column(&r, 5), ["2430", "8867"]);
    assert_eq!(column(&r, 6), ["1|4624", "2|49348", "4|40623"]);
}

#[test]
fn yb_hash_code_errors_are_yugabytedbs() {
    let fails = |sql: &str| error(&run_yb(sql, &[]).0);
    assert_eq!(
        fails("select yb_hash_code('asdf');"),
        "undefined datatype given to yb_hash_code"
    );
    assert_eq!(
        fails("select yb_hash_code('{\"a\": 1}'::jsonb);"),
        "Unsupported datatype given to yb_hash_code\n\
         DETAIL:  Only types supported by HASH key columns are allowed"
    );
    // A type YugabyteDB hashes by an encoding IndexLab does not model.
    assert!(fails("select yb_hash_code(1.5);").contains("not supported by IndexLab"));
    // PostgreSQL has no such function.
    assert_eq!(
        error(&run_pg("select yb_hash_code(1, 'a'::text);", &[]).0),
        "function yb_hash_code(integer, text) does not exist"
    );
}

#[test]
fn colocation_is_yugabytedbs_answer_in_a_database_without_it() {
    let r = run_yb_ok(
        "create table a (id int primary key) with (colocation = false);
insert into a values (1);",
        &[],
    );
    assert!(r.statements[0].outcome.notices[0].contains("tablets of its own"));
    assert_eq!(
        error(
            &run_yb(
                "create table b (id int primary key) with (colocation = true);",
                &[]
            )
            .0
        ),
        "cannot set colocation true on a non-colocated database"
    );
    assert_eq!(
        error(
            &run_pg(
                "create table b (id int primary key) with (colocation = false);",
                &[]
            )
            .0
        ),
        "unrecognized parameter \"colocation\""
    );
    assert_eq!(
        error(
            &run_pg(
                "create table b (id int primary key) with (fillfactr = 50);",
                &[]
            )
            .0
        ),
        "unrecognized parameter \"fillfactr\""
    );
}

/// `yb_hash_code()` of exactly a key's hash columns is a range of the hash
/// space, read as one: an Index Scan whose Index Cond is the condition, in
/// the tablets holding those hashes only (YugabyteDB's regression test shows
/// the same plans).
#[test]
fn a_hash_code_range_is_an_index_condition() {
    let r = run_yb_ok(
        "create table p (x int primary key, y int) split into 4 tablets;
insert into p select i, i from generate_series(1, 10000) i;
explain (analyze, dist, costs off, timing off, summary off) select * from p where yb_hash_code(x) < 512;
explain (analyze, dist, costs off, timing off, summary off) select count(*) from p where yb_hash_code(x) between 16384 and 49151;
explain (costs off) select * from p where yb_hash_code(x, y) < 512;
explain (costs off) select * from p where yb_hash_code(x) < 512.5;
select count(*) from p where yb_hash_code(x) between 16384 and 49151;",
        &[],
    );
    let plan = |i: usize| r.statements[i].outcome.explain.clone().unwrap_or_default();
    assert_eq!(
        plan(2)[0],
        "Index Scan using p_pkey on p (actual rows=85 loops=1)"
    );
    assert_eq!(plan(2)[1], "  Index Cond: (yb_hash_code(x) < 512)");
    // One tablet of four holds hashes 0..511: one read request.
    assert!(plan(2).contains(&"  Storage Table Read Requests: 1".to_string()));
    // The middle half of the hash space is the middle two tablets.
    let requests: Vec<f64> = plan(3)
        .iter()
        .filter_map(|l| common::number_after(l, "Storage Table Read Requests: "))
        .collect();
    assert_eq!(requests.len(), 1);
    assert!(requests[0] >= 2.0, "{:?}", plan(3));
    // Not the key's hash, or not a whole number: a filter.
    assert_eq!(plan(4)[0], "Seq Scan on p");
    assert_eq!(plan(5)[0], "Seq Scan on p");
    let half: i64 = rows(&r, 6)[0][0].parse().unwrap();
    assert!((4500..5500).contains(&half), "{half}");
}

/// YugabyteDB's `(a, b) HASH`: the rows are sharded by the hash of both
/// columns, so an equality on both finds them with one read, one on `a`
/// alone cannot, and `yb_hash_code(a, b)` is the key's hash.
#[test]
fn a_key_hashed_on_two_columns() {
    let r = run_yb_ok(
        "create table m (a int, b int, r int, primary key ((a, b) hash, r desc));
insert into m select i % 10, i % 7, i from generate_series(1, 1000) i;
explain (costs off) select * from m where a = 3 and b = 5;
select r from m where a = 3 and b = 5 limit 3;
explain (costs off) select * from m where a = 3;
select count(*) from m where a = 3;
explain (costs off) select * from m where yb_hash_code(a, b) < 10000;
select count(*) from m where yb_hash_code(a, b) < 10000;
select count(*) from m where yb_hash_code(a, b) < 10000 and a + b >= 0;",
        &[],
    );
    let plan = |i: usize| r.statements[i].outcome.explain.clone().unwrap_or_default();
    assert_eq!(
        plan(2),
        [
            "Index Scan using m_pkey on m",
            "  Index Cond: ((a = 3) AND (b = 5))"
        ]
    );
    // Within the hash, the range column in its DESC order.
    assert_eq!(column(&r, 3), ["943", "873", "803"]);
    // DocDB checks the condition itself (expression pushdown).
    assert_eq!(plan(4), ["Seq Scan on m", "  Storage Filter: (a = 3)"]);
    assert_eq!(column(&r, 5), ["100"]);
    assert_eq!(plan(6)[1], "  Index Cond: (yb_hash_code(a, b) < 10000)");
    // The index condition finds the rows a filter over every row finds.
    assert_eq!(column(&r, 7), column(&r, 8));
    // PostgreSQL has no key groups: its grammar stops at the comma.
    assert_eq!(
        error(
            &run_pg(
                "create table m (a int, b int, primary key ((a, b) hash));",
                &[]
            )
            .0
        ),
        "syntax error at or near \",\""
    );
}
