//! Merge Join on the PostgreSQL profile: both sides in join-key order (an
//! index read in order, or a Sort) and one pass pairing them, stopping as
//! soon as a side runs out. Every plan, cost, row count and buffer total
//! below was printed by PostgreSQL 15 for the same script.

use crate::pg_plans;
use pg_plans::plans;

const EXPLAIN: &str = "explain (analyze, buffers, timing off, summary off)";

/// t1's ids run to 6 020; t2's keys `a` only to 217.
const TWO: &str = "create table t1 (id int primary key, a int, b int, c text, pad text);
    insert into t1 select i, (i * 7919) % 10, i / 602, 'v' || (i / 602), repeat('x', 20)
      from generate_series(1, 6020) i;
    vacuum analyze t1;
    create table t2 (id int primary key, a int, b int, c text, pad text);
    insert into t2 select i, (i * 7919) % 218, i / 10, 'v' || (i / 10), repeat('x', 20)
      from generate_series(1, 218) i;
    analyze t2;\n";

#[test]
fn the_pass_stops_reading_the_outer_index_past_the_inner_sides_last_key() {
    let p = plans(&format!(
        "{TWO}{EXPLAIN} select t1.id from t1 join t2 on t2.a = t1.id where t2.b < 12;"
    ));
    assert_eq!(
        p[0],
        [
            "Merge Join  (cost=9.11..17.43 rows=119 width=4) (actual rows=119 loops=1)",
            "  Merge Cond: (t1.id = t2.a)",
            "  Buffers: 5",
            // 216 of 6 020 index entries: the first id past t2's largest key
            // ends the pass.
            "  ->  Index Only Scan using t1_pkey on t1  (cost=0.28..166.58 rows=6020 width=4) (actual rows=216 loops=1)",
            "        Heap Fetches: 0",
            "        Buffers: 3",
            "  ->  Sort  (cost=8.83..9.12 rows=119 width=4) (actual rows=119 loops=1)",
            "        Sort Key: t2.a",
            "        Sort Method: quicksort  Memory: 25kB",
            "        Buffers: 2",
            "        ->  Seq Scan on t2  (cost=0.00..4.72 rows=119 width=4) (actual rows=119 loops=1)",
            "              Filter: (b < 12)",
            "              Rows Removed by Filter: 99",
            "              Buffers: 2",
        ]
    );
}

#[test]
fn an_aggregate_over_the_join_is_costed_from_the_joins_estimate() {
    let (r, _) = indexlab_engine::scenario::run_pg(
        &format!("{TWO}explain select count(*) from t1 join t2 on t2.a = t1.id where t2.b < 12;"),
        &[],
    );
    let s = r.statements.last().unwrap();
    let plan = s.outcome.explain.as_ref().unwrap();
    // PostgreSQL 15: one cpu_operator_cost per joined row, then the result.
    assert_eq!(plan[0], "Aggregate  (cost=17.73..17.74 rows=1 width=8)");
    assert_eq!(
        plan[1],
        "  ->  Merge Join  (cost=9.11..17.43 rows=119 width=0)"
    );
    assert!(
        s.outcome
            .notices
            .iter()
            .all(|n| !n.contains("rough figures")),
        "{:?}",
        s.outcome.notices
    );
}

#[test]
fn a_filtered_index_scan_can_feed_the_merge_and_the_rows_are_postgresqls() {
    let p = plans(&format!(
        "{TWO}explain select t1.id, t2.id from t1 join t2 on t2.a = t1.id where t1.a = 9;"
    ));
    assert_eq!(
        p[0],
        [
            "Merge Join  (cost=12.93..22.90 rows=22 width=8)",
            "  Merge Cond: (t1.id = t2.a)",
            "  ->  Index Scan using t1_pkey on t1  (cost=0.28..235.63 rows=602 width=4)",
            "        Filter: (a = 9)",
            "  ->  Sort  (cost=12.65..13.19 rows=218 width=8)",
            "        Sort Key: t2.a",
            "        ->  Seq Scan on t2  (cost=0.00..4.18 rows=218 width=8)",
        ]
    );
    let (r, _) = indexlab_engine::scenario::run_pg(
        &format!(
            "{TWO}select count(*), sum(t1.id), sum(t2.id) from t1 join t2 on t2.a = t1.id
             where t1.a = 9;"
        ),
        &[],
    );
    let rows = &r.statements.last().unwrap().outcome.rows;
    // PostgreSQL 15: 22 | 2332 | 2612.
    assert_eq!(
        format!("{rows:?}"),
        r#"[[Some("22"), Some("2332"), Some("2612")]]"#
    );
}

/// Every key of `a` repeats 40 times and of `b` 10 times.
const DUPLICATES: &str = "create table a (id int primary key, k int, pad text);
    insert into a select i, i % 50, repeat('x', 30) from generate_series(1, 2000) i;
    create index a_k on a (k);
    create table b (id int primary key, k int);
    insert into b select i, (i % 40) + 5 from generate_series(1, 400) i;
    create index b_k on b (k);
    vacuum analyze a; vacuum analyze b;
    set enable_hashjoin = off; set enable_nestloop = off;\n";

#[test]
fn a_repeated_outer_key_reads_the_inner_rows_again() {
    let p = plans(&format!(
        "{DUPLICATES}{EXPLAIN} select count(*) from a join b on a.k = b.k where a.id < 300;
         {EXPLAIN} select count(*) from a join b on a.k = b.k;"
    ));
    // 299 rows of a sorted, handed 2 430 times: each run of equal keys
    // again for every one of b's 10 rows with that key.
    assert_eq!(
        p[0][1..],
        [
            "  Buffers: 7",
            "  ->  Merge Join  (cost=32.69..82.10 rows=2392 width=0) (actual rows=2400 loops=1)",
            "        Merge Cond: (b.k = a.k)",
            "        Buffers: 7",
            "        ->  Index Only Scan using b_k on b  (cost=0.15..14.15 rows=400 width=4) (actual rows=400 loops=1)",
            "              Heap Fetches: 0",
            "              Buffers: 2",
            "        ->  Sort  (cost=31.80..32.55 rows=299 width=4) (actual rows=2430 loops=1)",
            "              Sort Key: a.k",
            "              Sort Method: quicksort  Memory: 25kB",
            "              Buffers: 5",
            "              ->  Index Scan using a_pkey on a  (cost=0.28..19.51 rows=299 width=4) (actual rows=299 loops=1)",
            "                    Index Cond: (id < 300)",
            "                    Buffers: 5",
        ]
    );
    // Reading 40 rows again per repeated key costs more than keeping them:
    // a Materialize hands them back, and a_k is read once (PostgreSQL
    // 15: 16 201 rows handed). Its cost differs: PostgreSQL deduplicates
    // a_k's equal keys, IndexLab does not yet.
    let join = &p[1][2..];
    assert!(join[0].starts_with("  ->  Merge Join"), "{join:?}");
    assert!(join[0].ends_with("(actual rows=16000 loops=1)"), "{join:?}");
    assert!(join[6].starts_with("        ->  Materialize"), "{join:?}");
    assert!(join[6].ends_with("(actual rows=16201 loops=1)"), "{join:?}");
    // The pass ends at a's first key past b's last (44): 1 801 of 2 000.
    assert!(join[8].ends_with("(actual rows=1801 loops=1)"), "{join:?}");
}

#[test]
fn the_setting_and_the_hints_take_merge_join_away_or_ask_for_it() {
    let table = "create table t (id int primary key, a int, b int);
        insert into t select g, g % 100, g % 7 from generate_series(1, 10000) g;
        vacuum analyze t;
        create table u (id int primary key, t_id int);
        insert into u select g, g * 3 from generate_series(1, 50) g;
        analyze u;\n";
    let p = plans(&format!(
        "{table}explain select * from t join u on u.t_id = t.id;
         set enable_mergejoin = off;
         explain select * from t join u on u.t_id = t.id;
         reset enable_mergejoin;
         /*+ NoMergeJoin(t u) */ explain select * from t join u on u.t_id = t.id;
         set enable_mergejoin = off;
         /*+ MergeJoin(t u) */ explain select * from t join u on u.t_id = t.id;"
    ));
    // PostgreSQL 15's plans and costs, with the setting and without.
    assert_eq!(p[0][0], "Merge Join  (cost=3.20..9.24 rows=50 width=20)");
    assert_eq!(p[1][0], "Hash Join  (cost=2.12..195.12 rows=50 width=20)");
    assert!(p[2][0].starts_with("Hash Join"), "{:?}", p[2]);
    // A disabled method is still the one a hint asks for.
    assert!(p[3][0].starts_with("Merge Join"), "{:?}", p[3]);
}

#[test]
fn an_order_by_on_the_key_needs_no_sort_above_a_merge_join() {
    let p = plans(&format!(
        "{TWO}explain select t1.id, t2.id from t1 join t2 on t2.a = t1.id where t2.b < 12
           order by t1.id;
         set enable_mergejoin = off;
         explain select t1.id, t2.id from t1 join t2 on t2.a = t1.id where t2.b < 12
           order by t1.id;"
    ));
    // PostgreSQL 15: the Merge Join's rows already come in t1.id order.
    assert_eq!(p[0][0], "Merge Join  (cost=9.11..17.43 rows=119 width=8)");
    // Any other join needs the Sort, and pays for it.
    assert_eq!(p[1][0], "Sort  (cost=120.53..120.83 rows=119 width=8)");
    assert_eq!(p[1][1], "  Sort Key: t1.id");
    assert_eq!(
        p[1][2],
        "  ->  Nested Loop  (cost=0.28..116.43 rows=119 width=8)"
    );
}

#[test]
fn a_limit_over_a_join_takes_its_share_of_the_joins_cost() {
    let p = plans(&format!(
        "{TWO}set enable_mergejoin = off;
         explain select t1.id, t2.id from t1 join t2 on t2.a = t1.id where t2.b < 12 limit 5;"
    ));
    // PostgreSQL 15: 5 of the Nested Loop's 119 rows.
    assert_eq!(p[0][0], "Limit  (cost=0.28..5.16 rows=5 width=8)");
    assert_eq!(
        p[0][1],
        "  ->  Nested Loop  (cost=0.28..116.43 rows=119 width=8)"
    );
}
