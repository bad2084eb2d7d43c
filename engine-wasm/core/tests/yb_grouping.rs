//! GROUP BY on the YugabyteDB profile, chosen as YugabyteDB's default
//! planner chooses it: PostgreSQL's HashAggregate against GroupAggregate,
//! over YugabyteDB's heuristic read costs, with no column statistics (a
//! table of 1 000 rows unless ANALYZE counted them; a column of 200
//! distinct values unless a unique index makes each distinct). The
//! figures come from those rules: `cost_agg` over `Seq Scan (cost=0.00..
//! 100.00 rows=1000)`.

use crate::yb_plans::explains;

const RANGE: &str = "create table r (id int, k int, primary key (id asc));
    insert into r select i, i % 10 from generate_series(1, 2000) i;
    create index r_k on r (k asc);\n";

#[test]
fn without_an_order_a_thousand_guessed_rows_are_hashed() {
    let e = explains(&format!(
        "{RANGE}explain select k, count(*) from r group by k;
         explain select id, count(*) from r group by id;"
    ));
    // 1 000 rows × (count + one key compare) × 0.0025 over the Seq Scan's
    // 100, then 200 default groups × cpu_tuple_cost.
    assert_eq!(
        e[0],
        [
            "HashAggregate  (cost=105.00..107.00 rows=200 width=12)",
            "  Group Key: k",
            "  ->  Seq Scan on r  (cost=0.00..100.00 rows=1000 width=4)",
        ]
    );
    // The primary key makes every id distinct: 1 000 groups.
    assert_eq!(
        e[1][0],
        "HashAggregate  (cost=105.00..115.00 rows=1000 width=12)"
    );
}

#[test]
fn under_a_limit_the_range_index_gives_groups_in_order_and_stops_early() {
    let e = explains(&format!(
        "{RANGE}explain select k, count(*) from r group by k limit 1;
         explain (analyze, dist, costs off, summary off, timing off)
             select k, count(*) from r group by k limit 1;"
    ));
    assert_eq!(
        e[0],
        [
            "Limit  (cost=0.00..0.60 rows=1 width=12)",
            "  ->  GroupAggregate  (cost=0.00..121.00 rows=200 width=12)",
            "        Group Key: k",
            "        ->  Index Only Scan using r_k on r  (cost=0.00..114.00 rows=1000 width=4)",
        ]
    );
    // The first group's 200 rows and the next group's first, which ends
    // it; the one read request fetched a page of 1 024 entries.
    assert_eq!(
        e[1][3],
        "        ->  Index Only Scan using r_k on r (actual rows=201 loops=1)"
    );
    assert!(
        e[1].contains(&"              Storage Index Read Requests: 1".to_string()),
        "{:?}",
        e[1]
    );
}

#[test]
fn analyze_s_row_count_scales_the_estimates() {
    let e = explains(&format!(
        "{RANGE}analyze r;
         explain select k, count(*) from r group by k;"
    ));
    assert_eq!(
        e[0],
        [
            "HashAggregate  (cost=210.00..212.00 rows=200 width=12)",
            "  Group Key: k",
            "  ->  Seq Scan on r  (cost=0.00..200.00 rows=2000 width=4)",
        ]
    );
}
