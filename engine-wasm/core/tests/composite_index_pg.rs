//! A composite index on the PostgreSQL profile: conditions on its later
//! columns bound the scan when those before are fixed by an equality (an
//! `Index Cond` over several columns, reading only their leaves), and an
//! index on (a, b) read for `a = 1` gives b's order, so `ORDER BY b LIMIT`
//! needs no Sort. Every plan, cost and buffer total below was printed by
//! PostgreSQL 15 for the same script.

use indexlab_engine::scenario::run_pg;

use crate::pg_plans;
use pg_plans::plans;

/// 30 000 rows (every row in ANALYZE's sample); `a` has 10 values and b
/// numbers a's rows, so each (a, b) is one row.
const TABLE: &str = "create table t (id int primary key, a int, b int, w text);
    insert into t select g, g % 10, g / 10, 'x' || g from generate_series(1, 30000) g;
    create index t_ab on t (a, b);
    vacuum analyze t;\n";

const EXPLAIN: &str = "explain (analyze, buffers, timing off, summary off)";

#[test]
fn a_fixed_first_column_leaves_the_index_in_the_second_columns_order() {
    let p = plans(&format!(
        "{TABLE}{EXPLAIN} select * from t where a = 1 order by b limit 10;
         {EXPLAIN} select * from t where a = 3 order by b desc limit 3;"
    ));
    assert_eq!(
        p[0],
        [
            "Limit  (cost=0.29..3.12 rows=10 width=18) (actual rows=10 loops=1)",
            "  Buffers: 3",
            "  ->  Index Scan using t_ab on t  (cost=0.29..848.61 rows=3000 width=18) (actual rows=10 loops=1)",
            "        Index Cond: (a = 1)",
            "        Buffers: 3",
        ]
    );
    assert_eq!(
        p[1][2],
        "  ->  Index Scan Backward using t_ab on t  (cost=0.29..848.61 rows=3000 width=18) (actual rows=3 loops=1)"
    );
    assert_eq!(
        p[1][0],
        "Limit  (cost=0.29..1.14 rows=3 width=18) (actual rows=3 loops=1)"
    );
}

#[test]
fn later_columns_bound_the_scan_after_an_equality() {
    let p = plans(&format!(
        "{TABLE}{EXPLAIN} select * from t where a = 1 and b > 2990;
         {EXPLAIN} select a, b from t where a in (1, 2, 3) and b < 5;
         {EXPLAIN} select a, b from t where a in (1, 2, 3) and b < 5;
         {EXPLAIN} select * from t where a = 7 and b between 10 and 30;
         {EXPLAIN} select * from t where b = 5 and a = 5;"
    ));
    // One leaf: the scan starts at (1, 2990), not at a = 1's 3 000 entries.
    assert_eq!(
        p[0],
        [
            "Bitmap Heap Scan on t  (cost=4.39..37.68 rows=10 width=18) (actual rows=9 loops=1)",
            "  Recheck Cond: ((a = 1) AND (b > 2990))",
            "  Heap Blocks: exact=1",
            "  Buffers: 3",
            "  ->  Bitmap Index Scan on t_ab  (cost=0.00..4.39 rows=10 width=0) (actual rows=9 loops=1)",
            "        Index Cond: ((a = 1) AND (b > 2990))",
            "        Buffers: 2",
        ]
    );
    // One descent per value of the IN list (root and leaf), each bounded
    // by b < 5, and the visibility map's page once. (PostgreSQL's first
    // IN list in a session also counts 3 catalog pages it reads to sort
    // the array; the second run, compared here, has none.)
    assert_eq!(
        p[2],
        [
            "Index Only Scan using t_ab on t  (cost=0.29..13.16 rows=15 width=8) (actual rows=15 loops=1)",
            "  Index Cond: ((a = ANY ('{1,2,3}'::integer[])) AND (b < 5))",
            "  Heap Fetches: 0",
            "  Buffers: 7",
        ]
    );
    // BETWEEN is two conditions in the list, as PostgreSQL's parser makes it.
    assert_eq!(
        p[3][1],
        "  Recheck Cond: ((a = 7) AND (b >= 10) AND (b <= 30))"
    );
    assert_eq!(
        p[3][0],
        "Bitmap Heap Scan on t  (cost=4.62..77.94 rows=26 width=18) (actual rows=21 loops=1)"
    );
    assert_eq!(p[3][3], "  Buffers: 4");
    // Conditions print in the index's column order, whatever the WHERE's.
    assert_eq!(
        p[4],
        [
            "Index Scan using t_ab on t  (cost=0.29..8.31 rows=1 width=18) (actual rows=1 loops=1)",
            "  Index Cond: ((a = 5) AND (b = 5))",
            "  Buffers: 3",
        ]
    );
}

#[test]
fn later_columns_after_a_range_are_checked_in_the_index() {
    let p = plans(&format!(
        "{TABLE}{EXPLAIN} select * from t where a > 7 and b = 55;
         {EXPLAIN} select * from t where a >= 8 and b between 50 and 60;
         {EXPLAIN} select id from t where b = 55;"
    ));
    // a > 7 bounds the scan (6 000 entries over 18 leaves); b = 55 is
    // checked on each entry, so only its 2 rows are fetched from the heap.
    assert_eq!(
        p[0],
        [
            "Index Scan using t_ab on t  (cost=0.29..136.28 rows=2 width=18) (actual rows=2 loops=1)",
            "  Index Cond: ((a > 7) AND (b = 55))",
            "  Buffers: 19",
        ]
    );
    assert_eq!(
        p[1],
        [
            "Bitmap Heap Scan on t  (cost=143.29..221.33 rows=28 width=18) (actual rows=22 loops=1)",
            "  Recheck Cond: ((a >= 8) AND (b >= 50) AND (b <= 60))",
            "  Heap Blocks: exact=1",
            "  Buffers: 19",
            "  ->  Bitmap Index Scan on t_ab  (cost=0.00..143.29 rows=28 width=0) (actual rows=22 loops=1)",
            "        Index Cond: ((a >= 8) AND (b >= 50) AND (b <= 60))",
            "        Buffers: 18",
        ]
    );
    // Checking b = 55 over the whole index costs more than the table.
    assert_eq!(
        p[2][0],
        "Seq Scan on t  (cost=0.00..566.00 rows=10 width=4) (actual rows=10 loops=1)"
    );
}

#[test]
fn the_rows_are_postgresqls() {
    let (r, _) = run_pg(
        &format!(
            "{TABLE}select id, b from t where a = 3 order by b desc limit 3;
             select count(*) from t where a in (1, 2, 3) and b < 5;
             select count(*) from t where a = 1 and b > 2990;
             select count(*) from t where a = 9 and b >= 2999;
             select count(*), sum(id) from t where a > 7 and b between 50 and 60;"
        ),
        &[],
    );
    assert!(r.error.is_none(), "{:?}", r.error);
    let rows: Vec<Vec<Vec<String>>> = r
        .statements
        .iter()
        .map(|s| {
            s.outcome
                .rows
                .iter()
                .map(|row| row.iter().map(|c| c.clone().unwrap_or_default()).collect())
                .collect()
        })
        .collect();
    let n = rows.len();
    assert_eq!(
        rows[n - 5],
        [["29993", "2999"], ["29983", "2998"], ["29973", "2997"]]
    );
    assert_eq!(rows[n - 4], [["15"]]);
    assert_eq!(rows[n - 3], [["9"]]);
    // 29 999 is a = 9, b = 2999; 30 000 is a = 0.
    assert_eq!(rows[n - 2], [["1"]]);
    assert_eq!(rows[n - 1], [["22", "12287"]]);
}

#[test]
fn is_null_and_is_not_null_are_index_conditions() {
    let p = plans(
        "create table tn (id int primary key, a int, b int, pad text);
         insert into tn select g, case when g % 50 = 0 then null else g % 1000 end,
           case when g % 7 = 0 then null else g end, repeat('x', 40)
           from generate_series(1, 30000) g;
         create index tn_b_desc on tn (b desc);
         create index tn_ab on tn (a, b);
         vacuum analyze tn;
         explain (analyze, buffers, timing off, summary off)
           select a, b from tn where a is null and b > 29000;
         explain (analyze, buffers, costs off, timing off, summary off)
           select * from tn where b is null;
         explain (analyze, costs off, timing off, summary off)
           select id, b from tn where b is not null order by b desc limit 3;",
    );
    // IS NULL fixes a as an equality would, so b > 29000 bounds the scan.
    assert_eq!(
        p[0],
        [
            "Index Only Scan using tn_ab on tn  (cost=0.29..4.63 rows=17 width=8) (actual rows=17 loops=1)",
            "  Index Cond: ((a IS NULL) AND (b > 29000))",
            "  Heap Fetches: 0",
            "  Buffers: 3",
        ]
    );
    // A DESC index keeps its NULLs first: the scan reads just them.
    assert_eq!(
        p[1][..2],
        [
            "Index Scan using tn_b_desc on tn (actual rows=4285 loops=1)",
            "  Index Cond: (b IS NULL)",
        ]
    );
    // IS NOT NULL reads the values and leaves the NULL entries out.
    assert_eq!(
        p[2],
        [
            "Limit (actual rows=3 loops=1)",
            "  ->  Index Scan using tn_b_desc on tn (actual rows=3 loops=1)",
            "        Index Cond: (b IS NOT NULL)",
        ]
    );
}
