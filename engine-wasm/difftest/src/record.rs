//! Recorded cases: minimized divergences kept as sqllogictest files whose
//! expected results are PostgreSQL's, replayed on IndexLab without PostgreSQL.
//!
//! The format and its parser and runner are the standard `sqllogictest`
//! crate's; [`IndexLab`] is the database it drives. A record file may say
//! `onlyif yb` / `skipif pg` for statements of one profile.

use crate::compare::Divergence;
use crate::indexlab::{run_text, Profile};
use crate::outcome::{row_text, Outcome};
use crate::script::{Check, Script};
use sqllogictest::{DBOutput, DefaultColumnType};
use std::fmt::Write;

/// The sqllogictest text of a script, with PostgreSQL's outcomes as the
/// expected results (`postgres` has one outcome per item, up to the first error).
/// An error whose message IndexLab words exactly as PostgreSQL does (for
/// every outcome in `indexlab`) is expected with that message.
pub fn to_slt(script: &Script, postgres: &[Outcome], header: &str) -> String {
    to_slt_checking(script, postgres, header, &[])
}

/// [`to_slt`], with IndexLab's outcomes of each profile to match messages against.
pub fn to_slt_checking(
    script: &Script,
    postgres: &[Outcome],
    header: &str,
    indexlab: &[Vec<Outcome>],
) -> String {
    let mut out = String::new();
    for line in header.lines() {
        let _ = writeln!(out, "# {line}");
    }
    for (item, outcome) in script.items.iter().zip(postgres) {
        out.push('\n');
        if item.postgres.is_none() {
            let _ = writeln!(out, "statement ok\n{}", item.indexlab);
            continue;
        }
        match outcome {
            Outcome::Error(message) => {
                let index = out_index(script, item);
                let same = !indexlab.is_empty()
                    && indexlab
                        .iter()
                        .all(|o| o.get(index) == Some(&Outcome::Error(message.clone())));
                if same {
                    let _ = writeln!(
                        out,
                        "statement error {}\n{}",
                        regex_escape(message),
                        item.indexlab
                    );
                } else {
                    let _ = writeln!(out, "# PostgreSQL: ERROR:  {message}");
                    let _ = writeln!(out, "statement error\n{}", item.indexlab);
                }
            }
            Outcome::Rows { rows, .. } => {
                let width = rows.first().map_or(1, Vec::len);
                let mode = if item.check == Check::Ordered {
                    "nosort"
                } else {
                    "rowsort"
                };
                let _ = writeln!(
                    out,
                    "query {} {mode}\n{}\n----",
                    "T".repeat(width),
                    item.indexlab
                );
                for row in rows {
                    let _ = writeln!(out, "{}", row_text(row));
                }
            }
            Outcome::Count(n) => {
                let _ = writeln!(out, "statement count {n}\n{}", item.indexlab);
            }
            Outcome::Done | Outcome::Panic(_) => {
                let _ = writeln!(out, "statement ok\n{}", item.indexlab);
            }
        }
    }
    out
}

fn out_index(script: &Script, item: &crate::script::Item) -> usize {
    script
        .items
        .iter()
        .position(|i| std::ptr::eq(i, item))
        .unwrap_or(usize::MAX)
}

/// A message as a regular expression that matches exactly it.
fn regex_escape(message: &str) -> String {
    let mut out = String::new();
    for ch in message.chars() {
        if "\\.+*?()|[]{}^$".contains(ch) {
            out.push('\\');
        }
        out.push(ch);
    }
    out
}

/// The header of a recorded case: what diverged, and how.
pub fn header(seed: u64, profile: Profile, d: &Divergence) -> String {
    format!(
        "Found by `npm run difftest` (seed {seed}) on the {} profile: {} at statement {}.\n\
         PostgreSQL: {}\nIndexLab was: {}\nThe expected results below are PostgreSQL 15's.",
        profile.name(),
        d.kind.name(),
        d.index + 1,
        d.postgres.describe(),
        d.indexlab.describe(),
    )
}

/// IndexLab as a sqllogictest database: each statement is appended to the
/// script and the whole script is run again, so every statement runs exactly
/// as it does in a scenario (cases are short; the cost does not matter).
pub struct IndexLab {
    profile: Profile,
    script: String,
}

impl IndexLab {
    pub fn new(profile: Profile) -> IndexLab {
        IndexLab {
            profile,
            script: String::new(),
        }
    }
}

/// An error IndexLab reported (or a panic, which never matches `statement ok`).
#[derive(Debug)]
pub struct EngineError(pub String);

impl std::fmt::Display for EngineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for EngineError {}

impl sqllogictest::DB for IndexLab {
    type Error = EngineError;
    type ColumnType = DefaultColumnType;

    fn run(&mut self, sql: &str) -> Result<DBOutput<DefaultColumnType>, EngineError> {
        let sql = sql.trim();
        self.script.push_str(sql);
        if !sql.starts_with('\\') && !sql.ends_with(';') {
            self.script.push(';');
        }
        self.script.push('\n');
        let outcomes = run_text(&self.script, self.profile);
        match outcomes.last() {
            None => Ok(DBOutput::StatementComplete(0)),
            Some(Outcome::Error(m)) => Err(EngineError(m.clone())),
            Some(Outcome::Panic(m)) => Err(EngineError(format!("panic: {m}"))),
            Some(Outcome::Rows { rows, .. }) => Ok(DBOutput::Rows {
                types: vec![DefaultColumnType::Any; rows.first().map_or(1, Vec::len)],
                rows: rows
                    .iter()
                    .map(|r| {
                        r.iter()
                            .map(|c| c.clone().unwrap_or_else(|| "NULL".into()))
                            .collect()
                    })
                    .collect(),
            }),
            Some(Outcome::Count(n)) => Ok(DBOutput::StatementComplete(*n)),
            Some(Outcome::Done) => Ok(DBOutput::StatementComplete(0)),
        }
    }

    fn engine_name(&self) -> &str {
        self.profile.name()
    }
}

/// Replays one recorded file on `profile`.
pub fn replay(path: &std::path::Path, profile: Profile) -> Result<(), String> {
    let mut runner = sqllogictest::Runner::new(move || async move { Ok(IndexLab::new(profile)) });
    runner.add_label(profile.name());
    runner
        .run_file(path)
        .map_err(|e| format!("{}: {}", path.display(), e.display(false)))
}
