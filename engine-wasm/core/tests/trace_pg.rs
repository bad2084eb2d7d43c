//! The trace the UI replays: splits, page accesses, cursor steps, visibility
//! changes; detail events are budgeted so a large load stays small.

use indexlab_engine::scenario::run_pg;
use indexlab_engine::trace::Event;

#[test]
fn a_small_scenario_traces_every_step() {
    let (r, engine) = run_pg(
        "create table t (id bigint primary key, v bigint);
         insert into t select generate_series(1, 2000), 0;
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
