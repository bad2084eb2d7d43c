//! The phases a plan node records for the scan view: a Hash Join's build
//! then probe, a Merge Join's reads then its pass, a Sort (top-N under a
//! LIMIT), each after the steps that belong to it and with the rows EXPLAIN
//! ANALYZE counts.

use indexlab_engine::scenario::run_pg;
use indexlab_engine::trace::{Event, TopNHeap};

const TABLES: &str = "create table t (id int primary key, a int, b int);
    insert into t select g, g % 100, g % 7 from generate_series(1, 10000) g;
    vacuum analyze t;
    create table u (id int primary key, t_id int);
    insert into u select g, g * 3 from generate_series(1, 50) g;
    analyze u;\n";

/// The last statement's events: `(relation of a page access, or a phase)`.
#[derive(Debug, PartialEq)]
enum Seen {
    Page(String),
    Phase {
        node: &'static str,
        phase: &'static str,
        relation: String,
        rows: (u64, u64),
        detail: String,
        heap: Option<TopNHeap>,
    },
}

fn last_statement(script: &str) -> (Vec<Seen>, Vec<String>) {
    let (r, engine) = run_pg(script, &[]);
    assert!(r.error.is_none(), "{:?}", r.error);
    let last = r.statements.len() as u32 - 1;
    let explain = r
        .statements
        .last()
        .unwrap()
        .outcome
        .explain
        .clone()
        .unwrap_or_default();
    let mut current = 0;
    let mut seen = Vec::new();
    for e in engine.unwrap().trace().events() {
        match e {
            Event::StatementStart { index, .. } => current = *index,
            Event::PageAccess { relation, .. } if current == last => {
                seen.push(Seen::Page(relation.to_string()))
            }
            Event::PlanPhase {
                node,
                phase,
                relation,
                rows_in,
                rows_out,
                detail,
                heap,
            } if current == last => seen.push(Seen::Phase {
                node,
                phase,
                relation: relation.clone(),
                rows: (*rows_in, *rows_out),
                detail: detail.clone(),
                heap: heap.clone(),
            }),
            _ => {}
        }
    }
    (seen, explain)
}

fn phases(seen: &[Seen]) -> Vec<(&'static str, &'static str, String, (u64, u64))> {
    seen.iter()
        .filter_map(|s| match s {
            Seen::Phase {
                node,
                phase,
                relation,
                rows,
                ..
            } => Some((*node, *phase, relation.clone(), *rows)),
            Seen::Page(_) => None,
        })
        .collect()
}

fn position(seen: &[Seen], phase: &str) -> usize {
    seen.iter()
        .position(|s| matches!(s, Seen::Phase { phase: p, .. } if *p == phase))
        .unwrap_or_else(|| panic!("no {phase} phase in {seen:?}"))
}

#[test]
fn a_hash_join_builds_from_its_inner_side_then_probes_with_the_outer() {
    let (seen, plan) = last_statement(&format!(
        "{TABLES}set enable_mergejoin = off;
         explain (analyze, buffers, timing off, summary off) select * from t join u on u.t_id = t.id;"
    ));
    assert!(plan[0].starts_with("Hash Join"), "{plan:?}");
    assert_eq!(
        phases(&seen),
        [
            ("Hash Join", "build", "u".into(), (50, 50)),
            ("Hash Join", "probe", "t".into(), (10_000, 50)),
        ]
    );
    // u's pages are read before the build ends, t's after it.
    let build = position(&seen, "build");
    let probe = position(&seen, "probe");
    for (i, s) in seen.iter().enumerate() {
        match s {
            Seen::Page(r) if r == "u" => assert!(i < build, "u read at {i}"),
            Seen::Page(r) if r == "t" => assert!(build < i && i < probe, "t read at {i}"),
            _ => {}
        }
    }
    // The build carries the Hash node's figures as EXPLAIN prints them.
    let Seen::Phase { detail, .. } = &seen[build] else {
        unreachable!()
    };
    assert!(detail.starts_with("Buckets: "), "{detail}");
    assert!(
        plan.iter().any(|l| l.trim() == detail),
        "{detail} in {plan:?}"
    );
}

#[test]
fn a_merge_join_reads_each_side_in_key_order_then_merges() {
    let (seen, plan) = last_statement(&format!(
        "{TABLES}explain (analyze, buffers, timing off, summary off) select * from t join u on u.t_id = t.id;"
    ));
    assert!(plan[0].starts_with("Merge Join"), "{plan:?}");
    let p = phases(&seen);
    assert_eq!(p.len(), 3, "{p:?}");
    assert_eq!((p[0].1, p[1].1, p[2].1), ("outer", "inner", "merge"));
    // The pass stops at the first id past u's last key (150): t's index
    // hands 151 rows, as EXPLAIN's outer scan counts them.
    assert_eq!((p[0].2.as_str(), p[0].3), ("t", (151, 151)));
    assert!(
        plan[3].contains("on t ") && plan[3].contains("actual rows=151 "),
        "{plan:?}"
    );
    assert_eq!((p[1].2.as_str(), p[1].3), ("u", (50, 50)));
    assert_eq!(p[2].3, (201, 50));
    let how = |i| match &seen[position(&seen, ["outer", "inner"][i])] {
        Seen::Phase { detail, .. } => detail.clone(),
        Seen::Page(_) => unreachable!(),
    };
    assert_eq!(how(0), "in the index's key order");
    assert_eq!(how(1), "sorted on the join key");
}

#[test]
fn a_sort_under_a_limit_keeps_a_heap_of_the_best_rows() {
    let (seen, plan) = last_statement(&format!(
        "{TABLES}explain (analyze, timing off, summary off) select * from t order by b desc, id limit 10;"
    ));
    let Some(Seen::Phase {
        node,
        rows,
        detail,
        heap,
        ..
    }) = seen.last()
    else {
        panic!("{seen:?}")
    };
    assert_eq!((*node, *rows), ("Sort", (10_000, 10)));
    assert!(
        plan.iter().any(|l| l.trim() == detail),
        "{detail} in {plan:?}"
    );
    assert!(detail.contains("top-N heapsort"), "{detail}");
    let heap = heap.as_ref().expect("a top-N heapsort's figures");
    assert_eq!((heap.bound, heap.held), (10, 21));
    assert_eq!(heap.held + heap.replaced + heap.dropped, 10_000);
    assert_eq!(heap.entered.iter().sum::<u64>(), heap.held + heap.replaced);
    // Rows come in id order and b = 6 every 7th row: ten later rows still
    // beat the heap's worst (a b = 6 row, or a smaller id among lower b's),
    // and by id 69 the heap holds the ten b = 6 rows with the smallest ids,
    // so no row after the input's first slice gets in.
    assert_eq!(heap.replaced, 10, "{heap:?}");
    assert_eq!(heap.entered[0], 31, "{heap:?}");
}

#[test]
fn a_sort_without_a_limit_sorts_every_row() {
    let (seen, _) = last_statement(&format!(
        "{TABLES}explain (analyze, timing off, summary off) select * from t order by b desc;"
    ));
    let Some(Seen::Phase {
        rows, detail, heap, ..
    }) = seen.last()
    else {
        panic!("{seen:?}")
    };
    assert_eq!(*rows, (10_000, 10_000));
    assert!(detail.starts_with("Sort Method: quicksort"), "{detail}");
    assert_eq!(*heap, None);
}

#[test]
fn explain_without_analyze_records_no_phase() {
    let (seen, _) = last_statement(&format!(
        "{TABLES}set enable_mergejoin = off; explain select * from t join u on u.t_id = t.id order by t.b limit 3;"
    ));
    assert_eq!(phases(&seen), []);
}

#[test]
fn a_bitmap_heap_scan_builds_its_bitmap_then_reads_each_page_once() {
    let (seen, plan) = last_statement(
        "create table b (id int primary key, k int, v text);
         insert into b select g, g % 100, 'v' || g from generate_series(1, 10000) g;
         create index b_k on b (k);
         vacuum analyze b;
         explain (analyze, buffers, timing off, summary off) select * from b where k = 3;",
    );
    assert!(plan[0].starts_with("Bitmap Heap Scan on b"), "{plan:?}");
    let blocks = plan
        .iter()
        .find_map(|l| l.trim().strip_prefix("Heap Blocks: "))
        .unwrap();
    let pages: u64 = blocks.trim_start_matches("exact=").parse().unwrap();
    assert_eq!(
        phases(&seen),
        [
            ("Bitmap Heap Scan", "bitmap", "b_k".into(), (100, 100)),
            ("Bitmap Heap Scan", "heap", "b".into(), (100, 100)),
        ]
    );
    let details: Vec<String> = seen
        .iter()
        .filter_map(|s| match s {
            Seen::Phase { detail, .. } => Some(detail.clone()),
            Seen::Page(_) => None,
        })
        .collect();
    assert_eq!(
        details[0],
        format!("100 row addresses on {pages} pages, sorted by page")
    );
    assert_eq!(details[1], format!("Heap Blocks: exact={pages}"));
    // The index's pages are all read before the bitmap is complete, the
    // table's after it.
    let bitmap = position(&seen, "bitmap");
    for (i, s) in seen.iter().enumerate() {
        match s {
            Seen::Page(r) if r == "b_k" => assert!(i < bitmap),
            Seen::Page(r) if r == "b" => assert!(i > bitmap),
            _ => {}
        }
    }
}
