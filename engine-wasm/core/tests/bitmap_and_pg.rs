//! BitmapAnd on the PostgreSQL profile: with an index on each of two
//! columns, `bar < x AND baz < y` may read both indexes into bitmaps and
//! AND them, so only heap pages holding rows that satisfy both are read
//! (`choose_bitmap_and`, `cost_bitmap_and_node`, `MultiExecBitmapAnd`).
//! Every plan, cost and buffer total below was printed by PostgreSQL 15
//! for the same script.

use indexlab_engine::scenario::run_pg;

use crate::pg_plans;
use pg_plans::plans;

/// 30 000 rows; bar and baz each hold every value once, scattered over the
/// heap (so neither index reads the heap in order).
const TABLE: &str = "create table foo (id int primary key, bar int, baz int, pad text);
    insert into foo select g, (g * 7907) % 30000, (g * 7919) % 30000, repeat('x', 50)
      from generate_series(1, 30000) g;
    create index foobar on foo (bar);
    create index foobaz on foo (baz);
    vacuum analyze foo;\n";

const EXPLAIN: &str = "explain (analyze, buffers, timing off, summary off)";

#[test]
fn two_bitmaps_anded_read_only_the_pages_both_mark() {
    let p = plans(&format!(
        "{TABLE}{EXPLAIN} select * from foo where bar < 1500 and baz < 1500;"
    ));
    // Equal costs: the index created last leads, as PostgreSQL lists them.
    assert_eq!(
        p[0],
        [
            "Bitmap Heap Scan on foo  (cost=63.36..245.39 rows=75 width=63) (actual rows=75 loops=1)",
            "  Recheck Cond: ((baz < 1500) AND (bar < 1500))",
            "  Heap Blocks: exact=30",
            "  Buffers: 42",
            "  ->  BitmapAnd  (cost=63.36..63.36 rows=75 width=0) (actual rows=0 loops=1)",
            "        Buffers: 12",
            "        ->  Bitmap Index Scan on foobaz  (cost=0.00..31.54 rows=1500 width=0) (actual rows=1500 loops=1)",
            "              Index Cond: (baz < 1500)",
            "              Buffers: 6",
            "        ->  Bitmap Index Scan on foobar  (cost=0.00..31.54 rows=1500 width=0) (actual rows=1500 loops=1)",
            "              Index Cond: (bar < 1500)",
            "              Buffers: 6",
        ]
    );
}

#[test]
fn the_cheaper_index_leads_and_an_unselective_one_is_left_out() {
    let p = plans(&format!(
        "{TABLE}{EXPLAIN} select * from foo where bar < 300 and baz < 1500;
         {EXPLAIN} select * from foo where bar < 20000 and baz < 20;"
    ));
    assert_eq!(
        p[0][0],
        "Bitmap Heap Scan on foo  (cost=38.33..89.12 rows=15 width=63) (actual rows=15 loops=1)"
    );
    assert_eq!(p[0][1], "  Recheck Cond: ((bar < 300) AND (baz < 1500))");
    assert_eq!(
        p[0][6],
        "        ->  Bitmap Index Scan on foobar  (cost=0.00..6.54 rows=300 width=0) (actual rows=300 loops=1)"
    );
    assert_eq!(p[0][3], "  Buffers: 19");
    // bar < 20000 keeps two thirds of the rows: reading its index would
    // cost more than the heap pages it saves, so it stays a Filter.
    assert_eq!(
        p[1][..3],
        [
            "Bitmap Heap Scan on foo  (cost=4.44..70.21 rows=13 width=63) (actual rows=11 loops=1)",
            "  Recheck Cond: (baz < 20)",
            "  Filter: (bar < 20000)",
        ]
    );
}

#[test]
fn an_empty_bitmap_leaves_the_next_index_unread() {
    let p = plans(&format!(
        "{TABLE}{EXPLAIN} select * from foo where bar < 1500 and baz < 1500 and bar > 40000;"
    ));
    assert_eq!(
        p[0][1],
        "  Recheck Cond: ((bar < 1500) AND (bar > 40000) AND (baz < 1500))"
    );
    let text = p[0].join("\n");
    // No page was read: PostgreSQL prints no Heap Blocks line.
    assert!(!text.contains("Heap Blocks"), "{text}");
    assert!(text.contains("(never executed)"), "{text}");
}

#[test]
fn the_rows_are_postgresqls() {
    let (r, _) = run_pg(
        &format!(
            "{TABLE}select count(*) from foo where bar < 1500 and baz < 1500;
             select count(*), sum(id) from foo where bar between 100 and 3000 and baz < 600;"
        ),
        &[],
    );
    assert!(r.error.is_none(), "{:?}", r.error);
    let cells = |i: usize| -> Vec<String> {
        r.statements[r.statements.len() - i].outcome.rows[0]
            .iter()
            .map(|c| c.clone().unwrap_or_default())
            .collect()
    };
    assert_eq!(cells(2), ["75"]);
    assert_eq!(cells(1), ["55", "861755"]);
}

#[test]
fn the_why_sentence_says_the_bitmaps_are_anded() {
    let (r, _) = run_pg(
        &format!("{TABLE}explain select * from foo where bar < 1500 and baz < 1500;"),
        &[],
    );
    assert!(r.error.is_none(), "{:?}", r.error);
    let why = &r.statements.last().unwrap().outcome.why;
    assert!(
        why[0].starts_with(
            "Bitmap Heap Scan: about 75 of 30000 rows match every condition, though each \
             index alone finds many more; the bitmaps from foobaz and foobar are ANDed"
        ),
        "{why:?}"
    );
    // What it beat, each by its cost.
    assert!(why[0].contains("a Seq Scan: "), "{why:?}");
}

#[test]
fn format_json_prints_the_bitmap_nodes_as_postgresql_does() {
    let (r, _) = run_pg(
        &format!(
            "{TABLE}explain (analyze, timing off, format json, summary off)
               select * from foo where bar < 1500 and baz < 1500 and bar > 40000;"
        ),
        &[],
    );
    assert!(r.error.is_none(), "{:?}", r.error);
    let outcome = &r.statements.last().unwrap().outcome;
    let json = outcome.explain.as_ref().expect("a plan").join("\n");
    // As PostgreSQL 15 prints them: the heap scan's recheck count and its
    // heap blocks (0 here, which the text format leaves out), the
    // BitmapAnd's inputs as members, the one never run with no loops.
    for part in [
        "\"Node Type\": \"Bitmap Heap Scan\",",
        "\"Recheck Cond\": \"((bar < 1500) AND (bar > 40000) AND (baz < 1500))\",\n      \"Rows Removed by Index Recheck\": 0,\n      \"Exact Heap Blocks\": 0,\n      \"Lossy Heap Blocks\": 0,",
        "\"Node Type\": \"BitmapAnd\",\n          \"Parent Relationship\": \"Outer\",",
        "\"Node Type\": \"Bitmap Index Scan\",\n              \"Parent Relationship\": \"Member\",\n              \"Parallel Aware\": false,\n              \"Async Capable\": false,\n              \"Index Name\": \"foobaz\",",
        "\"Actual Rows\": 0,\n              \"Actual Loops\": 0,\n              \"Index Cond\": \"(baz < 1500)\"",
    ] {
        assert!(json.contains(part), "{part}\nnot in\n{json}");
    }
}
