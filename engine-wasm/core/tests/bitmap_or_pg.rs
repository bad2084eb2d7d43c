//! BitmapOr on the PostgreSQL profile: `a = 5 OR b = 7`, which no one index
//! finds, read through one Bitmap Index Scan per arm, the bitmaps ORed and
//! each marked heap page read once. Every plan, cost and buffer total below
//! was printed by PostgreSQL 15 for the same script.

use crate::pg_plans;
use indexlab_engine::scenario::run_pg;
use pg_plans::plans;

const TABLE: &str = "create table o (id int primary key, a int, b int, c int, pad text);
    insert into o select g, g % 1000, (g * 7) % 1000, g % 10, repeat('x', 40)
      from generate_series(1, 20000) g;
    create index o_a on o (a);
    create index o_b on o (b);
    vacuum analyze o;\n";

const EXPLAIN: &str = "explain (analyze, buffers, timing off, summary off)";

#[test]
fn each_arm_of_the_or_is_found_by_its_own_index() {
    let p = plans(&format!(
        "{TABLE}{EXPLAIN} select * from o where a = 5 or b = 7;
         {EXPLAIN} select * from o where (a = 5 or b = 7) and c = 5;"
    ));
    assert_eq!(
        p[0],
        [
            "Bitmap Heap Scan on o  (cost=8.89..112.78 rows=40 width=57) (actual rows=40 loops=1)",
            "  Recheck Cond: ((a = 5) OR (b = 7))",
            "  Heap Blocks: exact=20",
            "  Buffers: 24",
            "  ->  BitmapOr  (cost=8.89..8.89 rows=40 width=0) (actual rows=0 loops=1)",
            "        Buffers: 4",
            "        ->  Bitmap Index Scan on o_a  (cost=0.00..4.44 rows=20 width=0) (actual rows=20 loops=1)",
            "              Index Cond: (a = 5)",
            "              Buffers: 2",
            "        ->  Bitmap Index Scan on o_b  (cost=0.00..4.44 rows=20 width=0) (actual rows=20 loops=1)",
            "              Index Cond: (b = 7)",
            "              Buffers: 2",
        ]
    );
    // The other conditions stay a Filter on the heap's rows.
    assert_eq!(
        p[1][..4],
        [
            "Bitmap Heap Scan on o  (cost=8.88..112.86 rows=4 width=57) (actual rows=20 loops=1)",
            "  Recheck Cond: ((a = 5) OR (b = 7))",
            "  Filter: (c = 5)",
            "  Rows Removed by Filter: 20",
        ]
    );
}

#[test]
fn an_or_on_one_column_reads_its_index_once_per_arm() {
    let p = plans(&format!(
        "{TABLE}{EXPLAIN} select * from o where a = 5 or a = 900;
         explain select * from o where a = 5 or c = 7;"
    ));
    assert_eq!(p[0][1], "  Recheck Cond: ((a = 5) OR (a = 900))");
    assert_eq!(p[0][2], "  Heap Blocks: exact=40");
    assert_eq!(p[0][3], "  Buffers: 44");
    assert_eq!(p[0][6], "        ->  Bitmap Index Scan on o_a  (cost=0.00..4.44 rows=20 width=0) (actual rows=20 loops=1)");
    assert_eq!(p[0][9], "        ->  Bitmap Index Scan on o_a  (cost=0.00..4.44 rows=20 width=0) (actual rows=20 loops=1)");
    // No index finds `c = 7`: the OR is read by a Seq Scan.
    assert_eq!(
        p[1],
        [
            "Seq Scan on o  (cost=0.00..528.00 rows=2018 width=57)",
            "  Filter: ((a = 5) OR (c = 7))",
        ]
    );
}

#[test]
fn the_ored_bitmaps_find_the_rows_a_seq_scan_finds() {
    let queries = [
        "a = 5 or b = 7",
        "a = 5 or a = 5",
        "a < 3 or b > 990 or a = 500",
        "(a = 5 or b = 7) and c <> 5",
        "a = 5 or (b = 7 and a = 7)",
    ];
    for w in queries {
        let script = format!(
            "{TABLE}delete from o where id % 3 = 0;
             select id from o where {w} order by id;
             set enable_bitmapscan = off; set enable_indexscan = off;
             select id from o where {w} order by id;"
        );
        let (r, _) = run_pg(&script, &[]);
        assert!(r.error.is_none(), "{:?}", r.error);
        let n = r.statements.len();
        let (with, without) = (
            &r.statements[n - 4].outcome.rows,
            &r.statements[n - 1].outcome.rows,
        );
        assert!(!with.is_empty(), "{w}");
        assert_eq!(with, without, "{w}");
    }
}
