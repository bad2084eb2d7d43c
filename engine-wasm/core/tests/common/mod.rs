//! Helpers the fidelity tests share: the article scripts, runs that must not
//! fail, and reading EXPLAIN's lines.
#![allow(dead_code)]

use indexlab_engine::scenario::{run_pg, run_yb, Report, StatementReport};

/// A script of `tests/fidelity/`.
pub fn script(name: &str) -> String {
    let path = format!("{}/../../tests/fidelity/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

pub fn overrides(settings: &[(&str, &str)]) -> Vec<(String, String)> {
    settings
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

/// Runs `text` on the yb profile; a failed run fails the test with its error.
pub fn run_yb_ok(text: &str, settings: &[(&str, &str)]) -> Report {
    let (report, _) = run_yb(text, &overrides(settings));
    if let Some(e) = &report.error {
        panic!("line {}:{}: {}", e.line, e.column, e.message);
    }
    report
}

/// The statements that printed an EXPLAIN.
pub fn explains(r: &Report) -> Vec<&StatementReport> {
    r.statements
        .iter()
        .filter(|s| s.outcome.explain.is_some())
        .collect()
}

pub fn explain_lines(s: &StatementReport) -> &[String] {
    s.outcome.explain.as_deref().unwrap_or(&[])
}

/// The number after `key` (`loops=`, `Read Requests: `) in `line`.
pub fn number_after(line: &str, key: &str) -> Option<f64> {
    let at = line.find(key)? + key.len();
    let n: String = line[at..]
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == '.')
        .collect();
    n.parse().ok()
}

/// A script run on both profiles (pg first).
pub fn both(script: &str) -> Vec<Report> {
    vec![run_pg(script, &[]).0, run_yb(script, &[]).0]
}

/// A statement's rows as psql shows them, NULL written out.
pub fn rows(r: &Report, statement: usize) -> Vec<Vec<String>> {
    r.statements[statement]
        .outcome
        .rows
        .iter()
        .map(|row| {
            row.iter()
                .map(|c| c.clone().unwrap_or_else(|| "NULL".into()))
                .collect()
        })
        .collect()
}

/// The run's error message, or "" when it ran to the end.
pub fn error(r: &Report) -> String {
    r.error
        .as_ref()
        .map(|e| e.message.clone())
        .unwrap_or_default()
}
