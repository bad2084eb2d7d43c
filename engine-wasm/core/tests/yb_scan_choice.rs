//! The yb profile chooses a table's scan as YugabyteDB's default planner
//! does, by its heuristic costs (`yb_scan.c`): rows guessed from which key
//! columns have a condition, a tenth more for an index that must then read
//! the table, a Sort paid where the read does not give the ORDER BY; EXPLAIN
//! prints those estimates.

use indexlab_engine::scenario::run_yb;

const TABLE: &str = "create table t (id int primary key, k int, v int, pad text);
    insert into t select g, g % 100, g, repeat('x', 50) from generate_series(1, 2000) g;
    create index t_k on t (k);
    create index t_incl on t (k) include (v);\n";

/// Each statement's plan (EXPLAIN's lines) and why.
fn plans(script: &str) -> Vec<(Vec<String>, Vec<String>)> {
    let (r, _) = run_yb(script, &[]);
    assert!(r.error.is_none(), "{:?}", r.error);
    r.statements
        .iter()
        .filter_map(|s| {
            let plan = s.outcome.explain.clone()?;
            Some((plan, s.outcome.why.clone()))
        })
        .collect()
}

#[test]
fn a_covering_index_is_read_alone_whichever_was_created_first() {
    let p = plans(&format!(
        "{TABLE}explain (analyze, dist, costs off) select k, v from t where k = 3;
         explain (analyze, dist, costs off) select * from t where k = 3;"
    ));
    // The newer t_incl holds v: no read of the table, one request, not two.
    assert!(
        p[0].0[0].starts_with("Index Only Scan using t_incl on t"),
        "{:?}",
        p[0].0
    );
    assert!(p[0]
        .0
        .iter()
        .any(|l| l.trim() == "Storage Index Read Requests: 1"));
    assert!(!p[0]
        .0
        .iter()
        .any(|l| l.contains("Storage Table Read Requests")));
    // Needing pad, both indexes must read the table: equal costs, and the
    // newest index (listed first) keeps the tie.
    assert!(
        p[1].0[0].starts_with("Index Scan using t_incl on t"),
        "{:?}",
        p[1].0
    );
    let why = &p[0].1[0];
    assert!(
        why.starts_with(
            "Index Only Scan using t_incl: YugabyteDB's default planner reads no column statistics"
        ),
        "{why}"
    );
    // Both are hash-sharded on k, so k = 3 binds their whole key: ten rows
    // guessed in a thousand, each (0.1 + 0.0025 for the condition); t_k
    // adds a tenth to the 0.1 for reading the table. `cost_index` adds one
    // page (4) and 0.01 a row fetched to both.
    assert!(why.contains("guess ten rows in a thousand"), "{why}");
    assert!(
        why.contains("(estimated cost 5.12; an Index Scan using t_k: 5.22, a Seq Scan: 102.50)"),
        "{why}"
    );
}

#[test]
fn the_primary_key_beats_an_index_on_the_same_rows_and_no_condition_reads_all() {
    let p = plans(&format!(
        "{TABLE}create index t_id_k on t (id, k);
         explain (costs off) select * from t where id = 7;
         explain (costs off) select * from t where v = 7;"
    ));
    // One row of a unique key, read from the table itself.
    assert_eq!(p[0].0[0], "Index Scan using t_pkey on t");
    assert_eq!(p[1].0[0], "Seq Scan on t");
    assert!(p[1].1[0].contains("guess every row"), "{:?}", p[1].1);
}

#[test]
fn an_order_by_is_weighed_against_a_sort_of_the_rows_a_condition_finds() {
    let p = plans(
        "create table o (id int, k int, v int, primary key (id asc));
         create index o_k on o (k asc);
         insert into o select g, g % 10, g from generate_series(1, 500) g;
         explain (costs off) select * from o order by id limit 5;
         explain (costs off) select * from o where k = 3 order by id;",
    );
    // No condition: the primary key gives the order, no Sort.
    assert_eq!(p[0].0[1].trim(), "->  Index Scan using o_pkey on o");
    // A condition on o_k: a hundred guessed rows and a Sort of them cost
    // less than reading every row of the primary key in order.
    assert_eq!(p[1].0[0], "Sort");
    assert!(
        p[1].0
            .iter()
            .any(|l| l.contains("Index Scan using o_k on o")),
        "{:?}",
        p[1].0
    );
}

#[test]
fn explain_prints_yugabytedb_s_estimates() {
    // The figures YugabyteDB's documentation prints for a table without
    // statistics: every row of 1 000 assumed under a filter, a primary-key
    // lookup's heuristic plus the page and the row `cost_index` adds.
    let p = plans(
        "create table test (a int primary key, b int);
         insert into test values (1, 1), (2, 2), (3, 3);
         explain select * from test where b = 1;
         explain select * from test where a = 999;
         create table demo (a int, b int, v text, primary key (a asc, b asc));
         explain select * from demo where b = 500;",
    );
    assert_eq!(
        p[0].0[0],
        "Seq Scan on test  (cost=0.00..102.50 rows=1000 width=8)"
    );
    assert_eq!(
        p[1].0[0],
        "Index Scan using test_pkey on test  (cost=0.00..4.11 rows=1 width=8)"
    );
    // A condition on part of a range key: a tenth of the rows guessed, and
    // DocDB skips to them.
    assert_eq!(
        p[2].0[0],
        "Index Scan using demo_pkey on demo  (cost=0.00..15.25 rows=100 width=40)"
    );
    let why = &p[2].1[0];
    assert!(why.contains("a condition on part of the key"), "{why}");
    assert!(why.contains("DocDB then skips"), "{why}");
}

#[test]
fn analyze_s_row_count_replaces_the_thousand_rows_assumed() {
    // YugabyteDB's documentation: the same query before and after ANALYZE
    // of a three-row table (the column statistics stay unread).
    let p = plans(
        "create table test (a int primary key, b int);
         insert into test values (1, 1), (2, 2), (3, 3);
         explain select * from test where b = 1;
         analyze test;
         explain select * from test where b = 1;
         insert into test select g, g from generate_series(4, 100) g;
         explain select * from test where b = 1;",
    );
    assert_eq!(
        p[0].0[0],
        "Seq Scan on test  (cost=0.00..102.50 rows=1000 width=8)"
    );
    assert_eq!(
        p[1].0[0],
        "Seq Scan on test  (cost=0.00..0.31 rows=3 width=8)"
    );
    // The count is ANALYZE's, not the table's now.
    assert_eq!(p[2].0[0], p[1].0[0]);
}
