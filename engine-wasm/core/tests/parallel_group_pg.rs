//! GROUP BY computed in parts on the PostgreSQL profile: on a table big
//! enough for two workers, each process groups its share of the rows into
//! partial groups, and only those cross to the leader (through a Gather, or
//! sorted through a Gather Merge), which combines them. Every plan, cost and
//! row count below was printed by PostgreSQL 15 for the same script; where
//! PostgreSQL printed something else, the comment says what and why.

use crate::pg_plans::plans;
use indexlab_engine::scenario::run_pg;

/// 350 000 rows on 3 272 pages (two workers); `region` has 8 values,
/// `amount` 1 000.
const SALES: &str = "create table sales (id int, region int, amount int, note text);
    insert into sales select g, g % 8, g % 1000, md5(g::text) from generate_series(1, 350000) g;
    vacuum analyze sales;\n";

const EXPLAIN: &str = "explain (analyze, buffers, timing off, summary off)";

#[test]
fn few_groups_are_hashed_in_each_process_then_merged_in_order() {
    let p = plans(&format!(
        "{SALES}{EXPLAIN} select region, count(*), sum(amount) from sales group by region;"
    ));
    // PostgreSQL 15 printed `Buffers: 3286` on the three nodes above the
    // Partial HashAggregate: each worker's Sort first reads its comparison
    // function from the catalog (7 pages each), which IndexLab does not
    // model.
    assert_eq!(
        p[0],
        [
            "Finalize GroupAggregate  (cost=6824.30..6826.37 rows=8 width=20) (actual rows=8 loops=1)",
            "  Group Key: region",
            "  Buffers: 3272",
            "  ->  Gather Merge  (cost=6824.30..6826.17 rows=16 width=20) (actual rows=24 loops=1)",
            "        Workers Planned: 2",
            "        Workers Launched: 2",
            "        Buffers: 3272",
            "        ->  Sort  (cost=5824.28..5824.30 rows=8 width=20) (actual rows=8 loops=3)",
            "              Sort Key: region",
            "              Sort Method: quicksort  Memory: 25kB",
            "              Buffers: 3272",
            "              Worker 0:  Sort Method: quicksort  Memory: 25kB",
            "              Worker 1:  Sort Method: quicksort  Memory: 25kB",
            "              ->  Partial HashAggregate  (cost=5824.08..5824.16 rows=8 width=20) (actual rows=8 loops=3)",
            "                    Group Key: region",
            "                    Buffers: 3272",
            "                    ->  Parallel Seq Scan on sales  (cost=0.00..4730.33 rows=145833 width=8) (actual rows=116667 loops=3)",
            "                          Buffers: 3272",
        ]
    );
}

#[test]
fn many_groups_are_gathered_unsorted_and_hashed_again() {
    let p = plans(&format!(
        "{SALES}{EXPLAIN} select region, amount, count(*) from sales group by region, amount;"
    ));
    // 8 × 1 000 groups guessed: sorting them in each process would cost
    // more than hashing them again in the leader.
    assert_eq!(
        p[0],
        [
            "Finalize HashAggregate  (cost=8624.08..8704.08 rows=8000 width=16) (actual rows=1000 loops=1)",
            "  Group Key: region, amount",
            "  Buffers: 3272",
            "  ->  Gather  (cost=6824.08..8504.08 rows=16000 width=16) (actual rows=3000 loops=1)",
            "        Workers Planned: 2",
            "        Workers Launched: 2",
            "        Buffers: 3272",
            "        ->  Partial HashAggregate  (cost=5824.08..5904.08 rows=8000 width=16) (actual rows=1000 loops=3)",
            "              Group Key: region, amount",
            "              Buffers: 3272",
            "              ->  Parallel Seq Scan on sales  (cost=0.00..4730.33 rows=145833 width=8) (actual rows=116667 loops=3)",
            "                    Buffers: 3272",
        ]
    );
}

#[test]
fn having_order_by_and_limit_sit_above_the_finalize() {
    let p = plans(&format!(
        "{SALES}explain select region, avg(amount) from sales group by region
             having count(*) > 10 order by avg(amount) desc limit 3;
         explain select region from sales group by region;"
    ));
    // The HAVING keeps a third of the groups (a default inequality), and
    // the partial rows carry avg's array state and the HAVING's count.
    assert_eq!(
        p[0],
        [
            "Limit  (cost=6826.44..6826.44 rows=3 width=36)",
            "  ->  Sort  (cost=6826.44..6826.44 rows=3 width=36)",
            "        Sort Key: (avg(amount)) DESC",
            "        ->  Finalize GroupAggregate  (cost=6824.30..6826.41 rows=3 width=36)",
            "              Group Key: region",
            "              Filter: (count(*) > 10)",
            "              ->  Gather Merge  (cost=6824.30..6826.17 rows=16 width=44)",
            "                    Workers Planned: 2",
            "                    ->  Sort  (cost=5824.28..5824.30 rows=8 width=44)",
            "                          Sort Key: region",
            "                          ->  Partial HashAggregate  (cost=5824.08..5824.16 rows=8 width=44)",
            "                                Group Key: region",
            "                                ->  Parallel Seq Scan on sales  (cost=0.00..4730.33 rows=145833 width=8)",
        ]
    );
    // Without aggregates the leader's node is a Group.
    assert_eq!(
        p[1][..4],
        [
            "Group  (cost=6095.14..6097.05 rows=8 width=4)",
            "  Group Key: region",
            "  ->  Gather Merge  (cost=6095.14..6097.01 rows=16 width=4)",
            "        Workers Planned: 2",
        ]
    );
}

#[test]
fn without_workers_one_process_hashes_every_row() {
    let p = plans(&format!(
        "{SALES}set max_parallel_workers_per_gather = 0;
         explain select region, count(*) from sales group by region;"
    ));
    assert_eq!(
        p[0],
        [
            "HashAggregate  (cost=8522.00..8522.08 rows=8 width=12)",
            "  Group Key: region",
            "  ->  Seq Scan on sales  (cost=0.00..6772.00 rows=350000 width=4)",
        ]
    );
}

#[test]
fn the_answer_is_every_group_combined_in_key_order() {
    let (r, _) = run_pg(
        &format!(
            "{SALES}explain select region, count(*), sum(amount) from sales group by region;
             select region, count(*), sum(amount) from sales group by region;"
        ),
        &[],
    );
    assert!(r.error.is_none(), "{:?}", r.error);
    let rows = &r.statements.last().unwrap().outcome.rows;
    let text: Vec<String> = rows
        .iter()
        .map(|row| {
            row.iter()
                .flatten()
                .cloned()
                .collect::<Vec<_>>()
                .join(" | ")
        })
        .collect();
    assert_eq!(
        text,
        [
            "0 | 43750 | 21700000",
            "1 | 43750 | 21743750",
            "2 | 43750 | 21787500",
            "3 | 43750 | 21831250",
            "4 | 43750 | 21875000",
            "5 | 43750 | 21918750",
            "6 | 43750 | 21962500",
            "7 | 43750 | 22006250",
        ]
    );
    let why = r.statements[r.statements.len() - 2].outcome.why.join(" ");
    assert!(why.contains("Finalize GroupAggregate"), "{why}");
    assert!(why.contains("only partial groups cross"), "{why}");
}

#[test]
fn a_group_key_the_where_fixes_groups_the_gathered_rows_in_order() {
    // `where seance_id = 1000` fixes the key: any read is in group order,
    // so a GroupAggregate sits straight on the Gather of the few rows the
    // workers keep (PostgreSQL 15's plan, costs within the output list's
    // `||`, which IndexLab does not charge).
    let p = plans(
        "create table price (id int primary key, seance_id int, price int);
         insert into price select g, g % 500000, g % 300 from generate_series(1, 1000000) g;
         vacuum analyze price;
         explain select min(price), max(price) from price where seance_id = 1000 group by seance_id;",
    );
    assert_eq!(
        p[0],
        [
            "GroupAggregate  (cost=1000.00..11614.57 rows=2 width=12)",
            "  Group Key: seance_id",
            "  ->  Gather  (cost=1000.00..11614.53 rows=2 width=8)",
            "        Workers Planned: 2",
            "        ->  Parallel Seq Scan on price  (cost=0.00..10614.33 rows=1 width=8)",
            "              Filter: (seance_id = 1000)",
        ]
    );
}
