//! A LIMIT on the PostgreSQL profile: the planner weighs what each plan
//! costs up to the rows the LIMIT wants (`get_cheapest_fractional_path`), so
//! a join that starts returning rows sooner can win; and a Seq Scan under a
//! LIMIT stops at the page its last row was on, as PostgreSQL's executor
//! stops pulling. Every plan, cost, row count and buffer total below was
//! printed by PostgreSQL 15 for the same script.

use crate::pg_plans;
use pg_plans::plans;

const EXPLAIN: &str = "explain (analyze, buffers, timing off, summary off)";

const TABLES: &str = "create table big (id int primary key, k int, pad text);
    insert into big select g, g % 1000, repeat('x', 20) from generate_series(1, 20000) g;
    create table small (id int primary key, v int);
    insert into small select g, g from generate_series(1, 1000) g;
    vacuum analyze big; vacuum analyze small;\n";

#[test]
fn a_limit_turns_a_hash_join_into_a_nested_loop_that_starts_sooner() {
    let p = plans(&format!(
        "{TABLES}explain select * from big b join small s on s.id = b.k;
         explain select * from big b join small s on s.id = b.k limit 500;
         explain select * from big b join small s on s.id = b.k where s.v < 500 limit 3;"
    ));
    assert_eq!(
        p[0][0],
        "Hash Join  (cost=27.50..428.22 rows=20000 width=37)"
    );
    assert_eq!(
        p[1][..2],
        [
            "Limit  (cost=0.29..28.84 rows=500 width=37)",
            "  ->  Nested Loop  (cost=0.29..1142.46 rows=20000 width=37)",
        ]
    );
    assert_eq!(
        p[1][3],
        "        ->  Memoize  (cost=0.29..0.30 rows=1 width=8)"
    );
    assert_eq!(p[2][0], "Limit  (cost=0.29..0.63 rows=3 width=37)");
    assert_eq!(
        p[2][1],
        "  ->  Nested Loop  (cost=0.29..1144.96 rows=9980 width=37)"
    );
}

#[test]
fn the_outer_scan_stops_where_the_limit_was_met() {
    let p = plans(&format!(
        "{TABLES}{EXPLAIN} select * from big b join small s on s.id = b.k limit 5;
         {EXPLAIN} select * from big limit 5;"
    ));
    assert_eq!(
        p[0],
        [
            "Limit  (cost=0.29..0.57 rows=5 width=37) (actual rows=5 loops=1)",
            "  Buffers: 16",
            "  ->  Nested Loop  (cost=0.29..1142.46 rows=20000 width=37) (actual rows=5 loops=1)",
            "        Buffers: 16",
            "        ->  Seq Scan on big b  (cost=0.00..348.00 rows=20000 width=29) (actual rows=5 loops=1)",
            "              Buffers: 1",
            "        ->  Memoize  (cost=0.29..0.30 rows=1 width=8) (actual rows=1 loops=5)",
            "              Cache Key: b.k",
            "              Cache Mode: logical",
            "              Hits: 0  Misses: 5  Evictions: 0  Overflows: 0  Memory Usage: 1kB",
            "              Buffers: 15",
            "              ->  Index Scan using small_pkey on small s  (cost=0.28..0.29 rows=1 width=8) (actual rows=1 loops=5)",
            "                    Index Cond: (id = b.k)",
            "                    Buffers: 15",
        ]
    );
    assert_eq!(
        p[1],
        [
            "Limit  (cost=0.00..0.09 rows=5 width=29) (actual rows=5 loops=1)",
            "  Buffers: 1",
            "  ->  Seq Scan on big  (cost=0.00..348.00 rows=20000 width=29) (actual rows=5 loops=1)",
            "        Buffers: 1",
        ]
    );
}

#[test]
fn the_why_names_the_share_the_limit_wants() {
    let (r, _) = indexlab_engine::scenario::run_pg(
        &format!("{TABLES}explain select * from big b join small s on s.id = b.k limit 500;"),
        &[],
    );
    let why = &r.statements.last().unwrap().outcome.why[0];
    assert!(why.starts_with("Nested Loop with Memoize:"), "{why}");
    assert!(
        why.ends_with(
            "(estimated cost 28.84; a Hash Join: 37.52; a LIMIT wants only the first 500 of \
             about 20000 rows, so each plan is costed up to there, and one that starts \
             returning rows sooner gains)."
        ),
        "{why}"
    );
}

#[test]
fn a_hash_join_under_a_limit_hashes_its_inner_side_whole_and_probes_until_the_limit() {
    let p = plans(
        "create table a (id int primary key, x int, pad text);
         insert into a select g, g % 500, repeat('y', 30) from generate_series(1, 20000) g;
         create table b (id int primary key, y int, w int);
         insert into b select g, g % 500, g from generate_series(1, 2000) g;
         vacuum analyze a; vacuum analyze b;
         explain (analyze, buffers, timing off, summary off)
           select a.id, b.w from a join b on b.y = a.x limit 10;",
    );
    assert_eq!(
        p[0],
        [
            "Limit  (cost=56.00..56.16 rows=10 width=8) (actual rows=10 loops=1)",
            "  Buffers: 12",
            "  ->  Hash Join  (cost=56.00..1373.00 rows=80000 width=8) (actual rows=10 loops=1)",
            "        Hash Cond: (a.x = b.y)",
            "        Buffers: 12",
            // Three outer rows give the ten: four partners each.
            "        ->  Seq Scan on a  (cost=0.00..367.00 rows=20000 width=8) (actual rows=3 loops=1)",
            "              Buffers: 1",
            "        ->  Hash  (cost=31.00..31.00 rows=2000 width=8) (actual rows=2000 loops=1)",
            "              Buckets: 2048  Batches: 1  Memory Usage: 95kB",
            "              Buffers: 11",
            "              ->  Seq Scan on b  (cost=0.00..31.00 rows=2000 width=8) (actual rows=2000 loops=1)",
            "                    Buffers: 11",
        ]
    );
}
