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
