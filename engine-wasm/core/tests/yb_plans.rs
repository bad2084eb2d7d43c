//! Reading the yb profile's answers in tests: each EXPLAIN of a script, a
//! `label: N` figure of one, and the answers yb gives beside pg's.

use indexlab_engine::profile::Cell;
use indexlab_engine::scenario::{run_pg, run_yb, Report};

/// EXPLAIN's lines for each EXPLAIN of `script` on yb.
pub fn explains(script: &str) -> Vec<Vec<String>> {
    let (r, _) = run_yb(script, &[]);
    assert!(r.error.is_none(), "{:?}", r.error);
    r.statements
        .iter()
        .filter_map(|s| s.outcome.explain.clone())
        .collect()
}

/// The number a `label: N` line of `plan` prints.
pub fn figure(plan: &[String], label: &str) -> u64 {
    plan.iter()
        .find_map(|l| l.trim().strip_prefix(&format!("{label}: ")))
        .unwrap_or_else(|| panic!("no {label} in {plan:?}"))
        .parse()
        .unwrap()
}

/// The rows of the last `n` statements of `script` on yb, after checking
/// they are pg's.
pub fn answers_as_pg(script: &str, n: usize) -> Vec<Vec<Vec<Cell>>> {
    let rows = |r: Report| -> Vec<Vec<Vec<Cell>>> {
        assert!(r.error.is_none(), "{:?}", r.error);
        let all: Vec<_> = r
            .statements
            .iter()
            .map(|s| s.outcome.rows.clone())
            .collect();
        all[all.len() - n..].to_vec()
    };
    let (yb, pg) = (rows(run_yb(script, &[]).0), rows(run_pg(script, &[]).0));
    assert_eq!(yb, pg);
    yb
}
