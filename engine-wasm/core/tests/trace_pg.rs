//! The trace the UI replays: splits, page accesses, cursor steps, visibility
//! changes; detail events are budgeted so a large load stays small.

use indexlab_engine::scenario::run_pg;
use indexlab_engine::trace::Event;

#[test]
fn a_small_scenario_traces_every_step() {
    let (r, engine) = run_pg(
        "create table t (id bigint primary key, v bigint);
         insert into t select generate_series(1, 2000), 0;
         set enable_seqscan = off;
         set enable_bitmapscan = off;
         select * from t where id between 10 and 900 order by id desc;
         vacuum t;",
        &[],
    );
    assert!(r.error.is_none(), "{:?}", r.error);
    let events = engine.unwrap().trace().events().to_vec();
    let count = |f: &dyn Fn(&Event) -> bool| events.iter().filter(|e| f(e)).count();
    assert!(count(&|e| matches!(e, Event::PageSplit { .. })) >= 5);
    assert_eq!(count(&|e| matches!(e, Event::TupleInsert { .. })), 2000);
    let steps = count(&|e| matches!(e, Event::CursorStep { backward: true, .. }));
    assert!(steps >= 3, "a backward scan over several leaves: {steps}");
    // The first leaf came from the descent; the others along the left links.
    let leaves: Vec<bool> = events
        .iter()
        .filter_map(|e| match e {
            Event::CursorStep { descended, .. } => Some(*descended),
            _ => None,
        })
        .collect();
    assert_eq!(leaves.len(), steps, "the scan is the only one here");
    assert!(leaves[0], "the first leaf is where the descent landed");
    assert!(leaves[1..].iter().all(|d| !d), "{leaves:?}");
    assert!(
        count(&|e| matches!(
            e,
            Event::VisibilityChange {
                all_visible: true,
                ..
            }
        )) > 0
    );
    assert!(count(&|e| matches!(e, Event::PageAccess { .. })) > 2000);
}

#[test]
fn a_large_load_keeps_structure_but_not_every_row() {
    let settings = vec![("trace_statement_events".to_string(), "1000".to_string())];
    let (r, engine) = run_pg(
        "create table t (id bigint primary key);
         insert into t select generate_series(1, 200000);",
        &settings,
    );
    assert!(r.error.is_none(), "{:?}", r.error);
    let engine = engine.unwrap();
    let trace = engine.trace();
    let splits = trace
        .events()
        .iter()
        .filter(|e| matches!(e, Event::PageSplit { .. }))
        .count();
    assert!(splits > 300, "every split is kept: {splits}");
    assert!(
        trace.events().len() < 5000,
        "{} events",
        trace.events().len()
    );
    assert!(trace.dropped > 100_000);
}

/// The scan view draws each heap fetch: an Index Only Scan's fetches are
/// EXPLAIN's `Heap Fetches`, one event each, and VACUUM (which marks the
/// pages all-visible) leaves none.
#[test]
fn heap_fetches_are_traced_one_by_one() {
    let (r, engine) = run_pg(
        "create table t (id bigint primary key, v bigint);
         insert into t select generate_series(1, 3000), 0;
         explain (analyze) select id from t where id < 2000 order by id;
         vacuum t;
         explain (analyze) select id from t where id < 2000 order by id;",
        &[],
    );
    assert!(r.error.is_none(), "{:?}", r.error);
    let engine = engine.unwrap();
    let mut statement = 0;
    let mut fetches = vec![0u64; r.statements.len()];
    for e in engine.trace().events() {
        match e {
            Event::StatementStart { index, .. } => statement = *index as usize,
            Event::HeapFetch { index_only, .. } => {
                assert!(index_only);
                fetches[statement] += 1;
            }
            _ => {}
        }
    }
    let metric = |i: usize| r.statements[i].metrics.get("heap_fetches") as u64;
    assert_eq!(fetches[2], metric(2));
    assert!(
        fetches[2] > 0,
        "before VACUUM the pages are not all-visible"
    );
    assert_eq!((fetches[4], metric(4)), (0, 0));
}

/// The visibility map's changes are always traced (the scan view's strip of
/// bits depends on them): VACUUM sets every page's bit, a later insert
/// clears its page's, even in a statement whose detail was summarized.
#[test]
fn visibility_changes_survive_a_summarized_statement() {
    let (r, engine) = run_pg(
        "set trace_statement_events = 10;
         create table t (id bigint primary key, v bigint);
         insert into t select generate_series(1, 3000), 0;
         vacuum t;
         insert into t values (3001, 0);",
        &[],
    );
    assert!(r.error.is_none(), "{:?}", r.error);
    let engine = engine.unwrap();
    let changes: Vec<(u32, bool)> = engine
        .trace()
        .events()
        .iter()
        .filter_map(|e| match e {
            Event::VisibilityChange {
                page, all_visible, ..
            } => Some((*page, *all_visible)),
            _ => None,
        })
        .collect();
    let set = changes.iter().filter(|c| c.1).count();
    assert!(set > 10, "VACUUM marks every page all-visible: {set}");
    let last = changes.iter().filter(|c| c.1).map(|c| c.0).max();
    assert_eq!(
        changes.last(),
        Some(&(last.unwrap(), false)),
        "the insert clears the last page's bit"
    );
}
