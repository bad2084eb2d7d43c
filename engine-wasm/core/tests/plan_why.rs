//! "Why this plan": each cost-based choice on the pg profile comes with one
//! sentence naming the fact that decided it and the estimated costs of what
//! it beat. The costs it quotes are the ones EXPLAIN prints when the
//! beaten plan is forced instead, so the sentence cannot disagree with the
//! plans it compares.

use indexlab_engine::scenario::{run_pg, Report};

const TABLE: &str = "create table t (id int primary key, a int, b int);
    insert into t select g, g % 100, g % 7 from generate_series(1, 10000) g;
    create index t_a on t (a);
    vacuum analyze t;
    create table u (id int primary key, t_id int);
    insert into u select g, g * 3 from generate_series(1, 50) g;
    analyze u;\n";

fn run(script: &str) -> Report {
    let (r, _) = run_pg(&format!("{TABLE}{script}"), &[]);
    assert!(r.error.is_none(), "{:?}", r.error);
    r
}

/// The why sentences of each EXPLAIN.
fn whys(r: &Report) -> Vec<Vec<String>> {
    r.statements
        .iter()
        .filter(|s| s.outcome.explain.is_some())
        .map(|s| s.outcome.why.clone())
        .collect()
}

/// The total cost on the first line of each EXPLAIN.
fn totals(r: &Report) -> Vec<String> {
    r.statements
        .iter()
        .filter_map(|s| s.outcome.explain.as_ref())
        .map(|lines| {
            let first = &lines[0];
            let cost = &first[first.find("..").unwrap() + 2..];
            cost[..cost.find(' ').unwrap()].to_string()
        })
        .collect()
}

#[test]
fn a_bitmap_scan_says_how_many_rows_and_what_the_seq_scan_would_cost() {
    let r = run("explain select * from t where a < 10;
         set enable_bitmapscan = off;
         set enable_indexscan = off;
         explain select * from t where a < 10;");
    let why = &whys(&r)[0];
    assert_eq!(why.len(), 1, "{why:?}");
    let s = &why[0];
    assert!(
        s.starts_with("Bitmap Heap Scan: about 1000 of 10000 rows match"),
        "{s}"
    );
    // The Seq Scan it beat, at the cost EXPLAIN gives it when forced.
    let t = totals(&r);
    assert!(
        s.contains(&format!("(estimated cost {}; ", t[0])),
        "{s} {t:?}"
    );
    assert!(s.contains(&format!("a Seq Scan: {}", t[1])), "{s} {t:?}");
}

#[test]
fn an_index_in_order_under_a_limit_needs_no_sort() {
    let r = run("explain select * from t order by id limit 10;
         set enable_indexscan = off;
         explain select * from t order by id limit 10;");
    let s = &whys(&r)[0][0];
    assert!(
        s.contains("t_pkey hands the rows over already in ORDER BY order, so no Sort is needed, and the LIMIT stops it after 10 rows"),
        "{s}"
    );
    let t = totals(&r);
    assert!(
        s.contains(&format!("a Seq Scan then a Sort: {}", t[1])),
        "{s} {t:?}"
    );
}

#[test]
fn a_grouping_and_a_join_say_what_the_other_method_would_cost() {
    let r = run("explain select a, count(*) from t group by a;
         set enable_hashagg = off;
         explain select a, count(*) from t group by a;
         reset enable_hashagg;
         explain select * from t join u on u.t_id = t.id;
         set enable_mergejoin = off;
         explain select * from t join u on u.t_id = t.id;
         set enable_hashjoin = off;
         explain select * from t join u on u.t_id = t.id;");
    let w = whys(&r);
    let t = totals(&r);
    let agg = &w[0][0];
    assert!(
        agg.starts_with("HashAggregate: about 10000 rows fold into about 100 groups"),
        "{agg}"
    );
    assert!(
        agg.contains(&format!("a GroupAggregate: {}", t[1])),
        "{agg} {t:?}"
    );
    // The scan under it has its own sentence.
    assert!(w[0][1].starts_with("Seq Scan: "), "{:?}", w[0]);
    // PostgreSQL 15 merges: t_pkey gives t in order, u's 50 rows are
    // sorted, and the pass stops past u's largest key (3 × 50).
    let merge = &w[2][0];
    assert!(
        merge.starts_with("Merge Join: t comes in key order from t_pkey and the about 50 rows of u are sorted; one pass pairs equal keys and stops once u's keys run out (no later row of t can match), so only about 150 of t's 10000 rows are read"),
        "{merge}"
    );
    assert!(
        merge.contains(&format!("a Hash Join: {}", t[3])),
        "{merge} {t:?}"
    );
    let join = &w[3][0];
    assert!(
        join.starts_with("Hash Join: the about 50 rows of u are hashed once and each of the about 10000 rows of t probes"),
        "{join}"
    );
    assert!(
        join.contains(&format!("a Nested Loop of index lookups: {}", t[4])),
        "{join} {t:?}"
    );
}

#[test]
fn a_plan_without_a_choice_has_no_sentence_and_yb_names_its_heuristic() {
    let r = run("create table v (x int);
         insert into v select generate_series(1, 500);
         analyze v;
         explain select count(*) from v;");
    // The Aggregate had no alternative; the Seq Scan under it did not
    // either, and says no index could serve it.
    let w = &whys(&r)[0];
    assert_eq!(w.len(), 1, "{w:?}");
    assert_eq!(
        w[0],
        "Seq Scan: about 500 of 500 rows are wanted and no index can find them, so all 3 \
         pages of v are read (estimated cost 8.00; nothing else could run it)."
    );
    let (yb, _) = indexlab_engine::scenario::run_yb(
        "create table t (id int primary key); explain select * from t where id = 1;",
        &[],
    );
    // YugabyteDB's default planner chooses by its heuristic costs, and says so.
    let why = &yb.statements[1].outcome.why;
    assert_eq!(why.len(), 1, "{why:?}");
    assert!(
        why[0].starts_with(
            "Index Scan using t_pkey: YugabyteDB's default planner reads no column statistics"
        ),
        "{why:?}"
    );
}
