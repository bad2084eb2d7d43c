//! The planner's plans and estimates beside PostgreSQL 15's, recorded from a
//! real server (`tests/planner/costs.sql` and `costs.pg15.txt`): seq, index,
//! index-only and bitmap scans chosen by cost, before and after ANALYZE and
//! VACUUM, with ORDER BY, LIMIT, IN lists, ranges and changed settings.

use indexlab_engine::scenario::run_pg;

fn planner_file(name: &str) -> String {
    let path = format!("{}/../../tests/planner/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// A plan's lines without their `cost=` figures.
fn without_costs(plan: &[String]) -> Vec<String> {
    plan.iter()
        .map(|l| match (l.find("(cost="), l.find(" rows=")) {
            (Some(a), Some(b)) if a < b => format!("{}({}", &l[..a], &l[b + 1..]),
            _ => l.clone(),
        })
        .collect()
}

#[test]
fn plans_and_costs_are_postgresql_15s() {
    let script = planner_file("costs.sql");
    let recorded: Vec<Vec<String>> = planner_file("costs.pg15.txt")
        .trim_end()
        .split("\n\n")
        .map(|p| p.lines().map(str::to_string).collect())
        .collect();
    // What precedes each EXPLAIN: a known difference, or an index
    // PostgreSQL deduplicates (its page count, so its costs, differ).
    let lines: Vec<&str> = script.lines().collect();
    let marks: Vec<&str> = (0..lines.len())
        .filter(|&i| lines[i].starts_with("explain"))
        .map(|i| if i > 0 { lines[i - 1] } else { "" })
        .collect();
    let (report, _) = run_pg(&script, &[]);
    assert!(report.error.is_none(), "{:?}", report.error);
    let plans: Vec<Vec<String>> = report
        .statements
        .iter()
        .filter_map(|s| s.outcome.explain.clone())
        .collect();
    assert_eq!(plans.len(), recorded.len());
    let (mut exact, mut shapes, mut differ) = (0, 0, 0);
    for (n, ((ours, theirs), mark)) in plans.iter().zip(&recorded).zip(&marks).enumerate() {
        let ours: Vec<String> = ours.iter().map(|l| format!(" {l}")).collect();
        if mark.starts_with("-- differs") {
            assert_ne!(&ours, theirs, "EXPLAIN {n} now agrees: drop its '{mark}'");
            differ += 1;
        } else if mark.starts_with("-- dedup") {
            assert_eq!(without_costs(&ours), without_costs(theirs), "EXPLAIN {n}");
            shapes += 1;
        } else {
            assert_eq!(&ours, theirs, "EXPLAIN {n}");
            exact += 1;
        }
    }
    // Most agree to the last digit; none is skipped silently.
    assert!(exact >= 50, "{exact} exact");
    assert!(differ <= 4, "{differ} known differences");
    assert_eq!(exact + shapes + differ, recorded.len());
}
