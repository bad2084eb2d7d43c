//! The yb profile chooses a two-table join as YugabyteDB's default planner
//! does: PostgreSQL's join costs over its heuristic scan costs, each table
//! assumed to hold 1 000 rows. The shapes are those YugabyteDB's regression
//! test `yb_fetch_limits_joins` prints for two tables joined on their
//! primary keys: a Nested Loop, the first-written table outside; a Batched
//! Nested Loop once `yb_bnl_batch_size` is above 1; a Hash Join only when
//! hinted.

use crate::yb_plans::{answers_as_pg, explains, figure};

const TABLES: &str = "create table t_large (a int primary key, v text);
    create table t_small (a int primary key, w text);
    insert into t_large select g, 'v' || g % 50 from generate_series(1, 5000) g;
    insert into t_small select g, 'v' || g % 70 from generate_series(1, 5000) g;\n";

fn title(plan: &[String]) -> &str {
    plan[0]
        .split("  (")
        .next()
        .unwrap()
        .split(" (")
        .next()
        .unwrap()
}

fn has(plan: &[String], text: &str) -> bool {
    plan.iter().any(|l| l.contains(text))
}

#[test]
fn a_primary_key_join_is_a_nested_loop_with_the_first_table_outside() {
    let p = explains(&format!(
        "{TABLES}explain (analyze, dist, costs off) select * from t_large join t_small on t_large.a = t_small.a;
         explain (analyze, dist, costs off) select * from t_small join t_large on t_large.a = t_small.a;"
    ));
    for (plan, outer, inner) in [(&p[0], "t_large", "t_small"), (&p[1], "t_small", "t_large")] {
        assert_eq!(title(plan), "Nested Loop", "{plan:?}");
        assert!(has(plan, &format!("->  Seq Scan on {outer}")), "{plan:?}");
        assert!(
            has(plan, &format!("Index Scan using {inner}_pkey on {inner}")),
            "{plan:?}"
        );
        assert!(has(plan, "loops=5000"), "{plan:?}");
    }
}

#[test]
fn the_estimates_are_yugabytedb_s_and_the_why_names_the_cheaper_way() {
    let script =
        format!("{TABLES}explain select * from t_large join t_small on t_large.a = t_small.a;");
    let (r, _) = indexlab_engine::scenario::run_yb(&script, &[]);
    let s = r.statements.last().unwrap();
    let plan = s.outcome.explain.clone().unwrap();
    // 100 for the Seq Scan of 1 000 assumed rows, then 999 lookups that
    // find no partner at 0.114 each (0.1 for the row, 4 for the page
    // shared among 1 000 loops, 0.01 for the row fetched).
    assert!(
        plan[0].starts_with("Nested Loop  (cost=0.00..213.89 rows=1000"),
        "{plan:?}"
    );
    assert!(has(&plan, "(cost=0.00..0.11 rows=1 "), "{plan:?}");
    let why = &s.outcome.why[0];
    assert!(why.starts_with("Nested Loop: "), "{why}");
    assert!(why.contains("a Hash Join: 215.14"), "{why}");
    assert!(why.contains("assumes 1000 rows of a table"), "{why}");
}

#[test]
fn a_join_on_a_column_without_a_unique_index_hashes_one_side() {
    let p = explains(&format!(
        "{TABLES}create index t_large_v on t_large (v);
         explain (costs off) select * from t_small join t_large on t_large.v = t_small.w;
         explain (costs off) select * from t_large join t_small on t_large.a = t_small.a where t_small.w = 'v3';"
    ));
    // Ten rows guessed for each lookup of t_large_v: a thousand lookups
    // cost more than hashing a side.
    assert_eq!(title(&p[0]), "Hash Join", "{:?}", p[0]);
    assert!(
        has(&p[0], "Hash Cond: (t_small.w = t_large.v)"),
        "{:?}",
        p[0]
    );
    // A condition on t_small without an index leaves its rows at 1 000;
    // the loop over t_large looks each up by its primary key.
    assert_eq!(title(&p[1]), "Nested Loop", "{:?}", p[1]);
}

#[test]
fn a_batch_size_above_one_batches_the_loop_and_hints_are_followed() {
    let p = explains(&format!(
        "{TABLES}set yb_bnl_batch_size = 1024;
         explain (analyze, dist, costs off) select * from t_large join t_small on t_large.a = t_small.a;
         set yb_bnl_batch_size = 1;
         explain (costs off) /*+ HashJoin(t_small t_large) */ select * from t_small join t_large on t_large.a = t_small.a;
         explain (costs off) /*+ Leading((t_small t_large)) */ select * from t_large join t_small on t_large.a = t_small.a;"
    ));
    assert_eq!(title(&p[0]), "YB Batched Nested Loop Join", "{:?}", p[0]);
    // 5 000 outer rows in batches of 1 024: five loops of the inner scan.
    assert!(has(&p[0], "loops=5)"), "{:?}", p[0]);
    assert_eq!(figure(&p[0], "Storage Table Rows Scanned"), 5000);
    assert_eq!(title(&p[1]), "Hash Join", "{:?}", p[1]);
    assert!(has(&p[1], "->  Seq Scan on t_small"), "{:?}", p[1]);
    assert_eq!(title(&p[2]), "Nested Loop", "{:?}", p[2]);
    assert!(p[2][1].contains("Seq Scan on t_small"), "{:?}", p[2]);
}

#[test]
fn a_side_with_few_rows_goes_outside_instead_of_being_scanned_per_row() {
    let p = explains(
        "create table a (id int primary key, x int);
         create table b (id int, y int, primary key (id asc));
         insert into a select g, g % 100 from generate_series(1, 2000) g;
         insert into b select g, g % 50 from generate_series(1, 3000) g;
         explain (analyze, dist, costs off) select * from a join b on a.id = b.y where b.id < 10;",
    );
    // b's range key bounds its read to a hundred guessed rows: b outside,
    // each of its rows looking a up by a's primary key. (Before, the join
    // was by rule: a outside, all of b read once per row of a.)
    assert_eq!(title(&p[0]), "Nested Loop", "{:?}", p[0]);
    assert!(has(&p[0], "Index Scan using b_pkey on b"), "{:?}", p[0]);
    assert!(has(&p[0], "Index Scan using a_pkey on a"), "{:?}", p[0]);
    assert!(has(&p[0], "Index Cond: (id = b.y)"), "{:?}", p[0]);
}

#[test]
fn every_join_answers_as_postgresql_does() {
    let queries = [
        "select t_large.a, w from t_large join t_small on t_large.a = t_small.a where t_large.a < 20 order by 1",
        "select count(*) from t_small join t_large on t_large.v = t_small.w",
        "select t_small.a from t_small join t_large using (a) where v = 'v7' order by 1 limit 5",
        "select count(*) from t_large, t_small where t_large.a = t_small.a and t_small.w like 'v1%'",
    ];
    // An index whose later key column is an expression can be looked up
    // by its first.
    let script = format!(
        "{TABLES}create index t_large_v on t_large (v);
         create index t_small_a_lw on t_small (a, lower(w));\n{};",
        queries.join(";\n")
    );
    let rows = answers_as_pg(&script, queries.len());
    assert!(rows.iter().all(|r| !r.is_empty()));
}
