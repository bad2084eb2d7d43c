//! EXPLAIN plans of a script on the pg profile, as the tests compare them
//! with PostgreSQL 15's.

use indexlab_engine::scenario::run_pg;

/// Each EXPLAIN's plan of `script`, as lines, with each `Buffers:` line's
/// hit and read summed (PostgreSQL's split depends on its cache).
pub fn plans(script: &str) -> Vec<Vec<String>> {
    let (r, _) = run_pg(script, &[]);
    assert!(r.error.is_none(), "{:?}", r.error);
    r.statements
        .iter()
        .filter_map(|s| s.outcome.explain.as_ref())
        .map(|e| e.iter().map(|l| summed(l)).collect())
        .collect()
}

fn summed(line: &str) -> String {
    let Some((head, counts)) = line.split_once("Buffers: shared ") else {
        return line.trim_end().to_string();
    };
    let total: u64 = counts
        .split(' ')
        .filter_map(|kv| kv.split_once('='))
        .filter(|(k, _)| *k == "hit" || *k == "read")
        .map(|(_, v)| v.parse::<u64>().unwrap())
        .sum();
    format!("{head}Buffers: {total}")
}
