//! Running a script as psql does without ON_ERROR_STOP, and reading its
//! results as `psql -A -t` prints them, to compare with PostgreSQL's output.

use indexlab_engine::pg::PgEngine;
use indexlab_engine::scenario::{run_profile_continuing, Report};

/// Runs `script` as psql does without ON_ERROR_STOP; returns the report and
/// the errors' messages.
pub fn run(script: &str) -> (Report, Vec<String>) {
    let mut errors = Vec::new();
    let (report, _) =
        run_profile_continuing::<PgEngine>(script, &[], &mut |e| errors.push(e.message));
    (report, errors)
}

/// Statement `i`'s rows as `psql -A -t` prints them (NULL as empty).
pub fn lines(r: &Report, i: usize) -> Vec<String> {
    r.statements[i]
        .outcome
        .rows
        .iter()
        .map(|row| {
            row.iter()
                .map(|c| c.clone().unwrap_or_default())
                .collect::<Vec<_>>()
                .join("|")
        })
        .collect()
}

/// The report's statement running script line `line`.
pub fn at(r: &Report, line: u32) -> usize {
    r.statements
        .iter()
        .position(|s| s.line == line)
        .unwrap_or_else(|| panic!("no statement ran at line {line}"))
}

/// Checks each query's rows against PostgreSQL's: `expected` is psql 15's
/// `-A -t` output of `script`, each query's rows after `@@` and its line.
#[allow(dead_code)]
pub fn assert_rows(script: &str, expected: &str) {
    let (report, errors) = run(script);
    assert!(errors.is_empty(), "{errors:?}");
    check_rows(&report, script, expected);
}

/// [`assert_rows`] for a script some of whose statements fail (the caller
/// checks the errors): the rows of those that ran are PostgreSQL's.
#[allow(dead_code)]
pub fn assert_rows_after_errors(script: &str, expected: &str) {
    let (report, _) = run(script);
    check_rows(&report, script, expected);
}

fn check_rows(report: &Report, script: &str, expected: &str) {
    for block in expected.split("@@").filter(|b| !b.is_empty()) {
        let (line, rows) = block.split_once('\n').unwrap_or((block.trim(), ""));
        let line: u32 = line.trim().parse().unwrap();
        let want: Vec<&str> = rows.lines().collect();
        let got = lines(report, at(report, line));
        let sql = script.lines().nth(line as usize - 1).unwrap_or_default();
        assert_eq!(got, want, "line {line}: {sql}");
    }
}

/// [`assert_rows`] on the YugabyteDB profile: its query layer is
/// PostgreSQL's, so its answers must be PostgreSQL's too.
#[allow(dead_code)]
pub fn assert_rows_yb(script: &str, expected: &str) {
    let mut errors = Vec::new();
    let (report, _) =
        run_profile_continuing::<indexlab_engine::yb::YbEngine>(script, &[], &mut |e| {
            errors.push(e.message)
        });
    assert!(errors.is_empty(), "{errors:?}");
    check_rows(&report, script, expected);
}
