//! Grouping on the PostgreSQL profile: the planner's choice between a
//! HashAggregate and a GroupAggregate (over an index read in order or a
//! Sort), and the costs PostgreSQL 15 prints for them. Every figure below
//! was printed by PostgreSQL 15 for the same script.

use indexlab_engine::scenario::run_pg;

/// Each EXPLAIN's plan of `script`, as text.
fn plans(script: &str) -> Vec<String> {
    let (r, _) = run_pg(script, &[]);
    assert!(r.error.is_none(), "{:?}", r.error);
    r.statements
        .iter()
        .filter_map(|s| s.outcome.explain.as_ref().map(|e| e.join("\n")))
        .collect()
}

/// 10 000 rows over 63 pages; `a` has 100 values, `b` 7, `w` 1 000.
const TABLE: &str = "create table t (id int primary key, a int, b int, w text);
    insert into t select g, g % 100, g % 7, 'x' || (g % 1000) from generate_series(1, 10000) g;
    vacuum analyze t;\n";

#[test]
fn without_an_order_many_rows_are_hashed() {
    let p = plans(&format!(
        "{TABLE}explain select count(*) from t;
         explain select a, count(*) from t group by a;
         explain select a, b, count(*) from t group by a, b;
         explain select a from t group by a;"
    ));
    // cost_agg: 10 000 transitions of count(*) over the Seq Scan's 163.
    assert_eq!(
        p[0].lines().next().unwrap(),
        "Aggregate  (cost=188.00..188.01 rows=1 width=8)"
    );
    // Plus one hash per key per row, and a tuple cost per group out.
    assert!(
        p[1].starts_with("HashAggregate  (cost=213.00..214.00 rows=100 width=12)\n  Group Key: a"),
        "{}",
        p[1]
    );
    // 100 × 7 groups at most, clamped to a tenth of the table: 700.
    assert!(
        p[2].starts_with("HashAggregate  (cost=238.00..245.00 rows=700 width=16)"),
        "{}",
        p[2]
    );
    // GROUP BY without aggregates hashes too (no transition costs).
    assert!(
        p[3].starts_with("HashAggregate  (cost=188.00..189.00 rows=100 width=4)"),
        "{}",
        p[3]
    );
}

#[test]
fn an_order_by_sorts_the_groups_or_reads_them_in_order() {
    let p = plans(&format!(
        "{TABLE}explain select a, count(*) from t group by a order by a;
         explain select b, avg(a) from t group by b order by 2;
         explain select w, count(*) from t group by w order by w;"
    ));
    // 100 groups hashed, then sorted: cheaper than sorting 10 000 rows.
    assert_eq!(
        p[0].lines().take(4).collect::<Vec<_>>(),
        [
            "Sort  (cost=217.32..217.57 rows=100 width=12)",
            "  Sort Key: a",
            "  ->  HashAggregate  (cost=213.00..214.00 rows=100 width=12)",
            "        Group Key: a",
        ]
    );
    // avg's division per group; its numeric result is 32 bytes wide.
    assert_eq!(
        p[1].lines().take(3).collect::<Vec<_>>(),
        [
            "Sort  (cost=213.19..213.20 rows=7 width=36)",
            "  Sort Key: (avg(a))",
            "  ->  HashAggregate  (cost=213.00..213.09 rows=7 width=36)",
        ]
    );
    assert!(p[2].starts_with("Sort  ("), "{}", p[2]);
}

#[test]
fn one_group_per_row_is_cheaper_sorted_than_hashed_then_sorted() {
    // PostgreSQL 15: GroupAggregate (cost=65.83..83.33 rows=1000 width=12)
    // over a Sort of the 1 000 rows.
    let p = plans(
        "create table t (id int primary key, v int, w text);
         insert into t select g, g % 10, 'x' || g from generate_series(1, 1000) g;
         analyze t;
         explain select w, count(*) from t group by w order by w;",
    );
    assert_eq!(
        p[0].lines().collect::<Vec<_>>(),
        [
            "GroupAggregate  (cost=65.83..83.33 rows=1000 width=12)",
            "  Group Key: w",
            "  ->  Sort  (cost=65.83..68.33 rows=1000 width=4)",
            "        Sort Key: w",
            "        ->  Seq Scan on t  (cost=0.00..16.00 rows=1000 width=4)",
        ]
    );
}

#[test]
fn an_index_in_group_order_streams_groups_under_a_limit() {
    let p = plans(&format!(
        "{TABLE}create index t_id_a on t (id, a);
         explain select id, count(*) from t group by id order by id limit 5;
         explain (analyze, costs off, timing off)
           select id, count(*) from t group by id order by id limit 5;"
    ));
    // The index on (id, a) gives the order (the newest of two equally cheap
    // indexes): no hash table, no Sort, and the LIMIT stops the scan at the
    // first row of the sixth group, as PostgreSQL 15 does.
    assert_eq!(
        p[0].lines().collect::<Vec<_>>(),
        [
            "Limit  (cost=0.29..0.49 rows=5 width=12)",
            "  ->  GroupAggregate  (cost=0.29..420.29 rows=10000 width=12)",
            "        Group Key: id",
            "        ->  Index Only Scan using t_id_a on t  (cost=0.29..270.29 rows=10000 width=4)",
        ]
    );
    assert!(
        p[1].contains("GroupAggregate (actual rows=5 loops=1)"),
        "{}",
        p[1]
    );
    assert!(
        p[1].contains("Index Only Scan using t_id_a on t (actual rows=6 loops=1)"),
        "{}",
        p[1]
    );
}

#[test]
fn a_filtered_table_holds_fewer_groups() {
    // `estimate_num_groups` thins the 100 values by the 1 % of rows kept:
    // 100 × (1 − 0.99^100) = 63, as PostgreSQL 15 estimates.
    let p = plans(&format!(
        "{TABLE}create index t_a on t (a);
         explain select a, count(*) from t where a = 3 group by a;"
    ));
    assert!(p[0].starts_with("GroupAggregate  (cost="), "{}", p[0]);
    assert!(
        p[0].lines().next().unwrap().ends_with("rows=63 width=12)"),
        "{}",
        p[0]
    );
}

#[test]
fn distinct_aggregates_sort_and_enable_hashagg_off_disables_hashing() {
    let p = plans(&format!(
        "{TABLE}explain (costs off) select b, count(distinct a) from t group by b;
         set enable_hashagg = off;
         explain (costs off) select b, count(*) from t group by b;"
    ));
    // A hash table cannot feed count(DISTINCT a) its values in order.
    assert_eq!(
        p[0].lines().collect::<Vec<_>>(),
        [
            "GroupAggregate",
            "  Group Key: b",
            "  ->  Sort",
            "        Sort Key: b",
            "        ->  Seq Scan on t"
        ]
    );
    assert!(p[1].starts_with("GroupAggregate"), "{}", p[1]);
}

#[test]
fn the_rows_are_the_same_whichever_node_groups_them() {
    let q = "select b, count(*), sum(a), min(w) from t group by b order by b;";
    let rows = |setting: &str| {
        let (r, _) = run_pg(&format!("{TABLE}{setting}{q}"), &[]);
        assert!(r.error.is_none(), "{:?}", r.error);
        r.statements.last().unwrap().outcome.rows.clone()
    };
    let hashed = rows("");
    assert_eq!(hashed.len(), 7);
    assert_eq!(hashed, rows("set enable_hashagg = off;"));
}

#[test]
fn distinct_hashes_or_keeps_the_first_of_each_value_in_order() {
    let p = plans(&format!(
        "{TABLE}explain select distinct a, b from t;
         explain select distinct id from t order by id limit 5;
         explain (analyze, costs off, timing off) select distinct id from t order by id limit 5;
         set enable_hashagg = off;
         explain select distinct a from t;"
    ));
    assert!(
        p[0].starts_with(
            "HashAggregate  (cost=213.00..220.00 rows=700 width=8)\n  Group Key: a, b"
        ),
        "{}",
        p[0]
    );
    // The primary key's order gives each value once, in order: a Unique
    // hands a value up at its first row, so the LIMIT stops the scan at 5.
    assert_eq!(
        p[1].lines().collect::<Vec<_>>(),
        [
            "Limit  (cost=0.29..0.43 rows=5 width=4)",
            "  ->  Unique  (cost=0.29..295.29 rows=10000 width=4)",
            "        ->  Index Only Scan using t_pkey on t  (cost=0.29..270.29 rows=10000 width=4)",
        ]
    );
    assert!(
        p[2].contains("Index Only Scan using t_pkey on t (actual rows=5 loops=1)"),
        "{}",
        p[2]
    );
    assert_eq!(
        p[3].lines().collect::<Vec<_>>(),
        [
            "Unique  (cost=827.39..877.39 rows=100 width=4)",
            "  ->  Sort  (cost=827.39..852.39 rows=10000 width=4)",
            "        Sort Key: a",
            "        ->  Seq Scan on t  (cost=0.00..163.00 rows=10000 width=4)",
        ]
    );
    let rows = |setting: &str| {
        let (r, _) = run_pg(
            &format!("{TABLE}{setting}select distinct b from t order by b desc;"),
            &[],
        );
        r.statements.last().unwrap().outcome.rows.clone()
    };
    assert_eq!(rows(""), rows("set enable_hashagg = off;"));
    assert_eq!(rows("").len(), 7);
}

#[test]
fn a_unique_over_a_wider_index_gets_a_result_to_project() {
    // The index-only scan hands up the index's columns (b, a); a Unique
    // cannot project, so PostgreSQL 15 puts a Result above it, costed as
    // the Unique. Over an index of exactly the DISTINCT's column, none.
    let p = plans(
        "create table r (id int primary key, a int, b int);
         insert into r select g, g % 50, g % 13 from generate_series(1, 20000) g;
         create index r_b_incl on r (b) include (a);
         vacuum analyze r;
         explain (costs off) select distinct b from r order by b limit 5;
         explain (costs off) select distinct id from r order by id limit 5;",
    );
    assert_eq!(
        p[0].lines().collect::<Vec<_>>(),
        [
            "Limit",
            "  ->  Result",
            "        ->  Unique",
            "              ->  Index Only Scan using r_b_incl on r",
        ]
    );
    assert!(!p[1].contains("Result"), "{}", p[1]);
}

#[test]
fn a_having_without_aggregates_is_moved_to_the_where() {
    // PostgreSQL 15: a HAVING part that holds no aggregate checks the
    // group key, so `subquery_planner` moves it to WHERE, where an index
    // can find the rows; one with an aggregate or a volatile call stays.
    let p = plans(&format!(
        "{TABLE}create index t_a on t (a);
         vacuum analyze t;
         explain (costs off) select a, count(*) from t group by a having a = 1;
         explain (costs off) select a, count(*) from t group by a having a < 3 and count(*) > 5;
         explain (costs off) select a, count(*) from t group by a having random() > 2;"
    ));
    assert_eq!(
        p[0],
        "GroupAggregate\n  Group Key: a\n  ->  Index Only Scan using t_a on t\n        Index Cond: (a = 1)"
    );
    assert_eq!(
        p[1],
        "GroupAggregate\n  Group Key: a\n  Filter: (count(*) > 5)\n  ->  Index Only Scan using t_a on t\n        Index Cond: (a < 3)"
    );
    assert!(p[2].contains("Filter: (random() > 2)"), "{}", p[2]);
}

#[test]
fn two_bounds_on_an_expression_without_statistics_make_a_default_range() {
    // `addRangeClause` pairs `x > a AND x < b` whatever x is; without
    // statistics for x the range keeps 0.5 % of the rows (not a third of
    // a third). PostgreSQL 15 printed each of these estimates.
    let script = "create table u (id int primary key, k int, v int);
        insert into u select i, i % 10, i % 100 from generate_series(1, 10000) i;
        vacuum analyze u;
        explain select * from u where v + 0 > 5 and v + 0 < 10;
        explain select * from u where v * 2 between 10 and 20 and k < 5;
        explain select k, count(*) from u group by k having count(*) > 5 and count(*) < 2000;
        explain select k, max(v) from u group by k having max(v) between 5 and 50 or min(v) < 3;";
    let p = plans(script);
    let first: Vec<&str> = p.iter().map(|e| e.lines().next().unwrap()).collect();
    assert_eq!(
        first,
        [
            "Seq Scan on u  (cost=0.00..255.00 rows=50 width=12)",
            "Seq Scan on u  (cost=0.00..280.00 rows=25 width=12)",
            "HashAggregate  (cost=205.00..205.15 rows=1 width=12)",
            "HashAggregate  (cost=230.00..230.17 rows=3 width=8)",
        ]
    );
}
