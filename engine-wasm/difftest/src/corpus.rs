//! The corpus of published experiments (`tests/corpus/*.sql`): each script run
//! as psql runs it (an error does not stop it) on PostgreSQL and on both
//! profiles, to measure how much of the SQL people publish IndexLab runs, and
//! to fail on what must never happen:
//! - a panic;
//! - "syntax error" for a statement PostgreSQL accepted;
//! - a statement PostgreSQL ran refused on pg without saying "not supported by
//!   IndexLab" (a misleading refusal), unless an earlier statement of the
//!   script was already refused (what follows may only miss its table).

use crate::plan_shape::shape;
use crate::postgres::Session;
use indexlab_engine::scenario::{run_profile_continuing, Report, ReportError};
use indexlab_engine::sql::{split_script, ScriptItem};
use std::collections::BTreeMap;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;

/// One script's figures.
#[derive(Debug, Default)]
pub struct ScriptResult {
    pub file: String,
    /// `pg` or `yb`: the profile of the script's database.
    pub profile: &'static str,
    /// Statements (and meta-commands) in the script.
    pub statements: usize,
    /// Of those, how many ran on the script's profile.
    pub ran: usize,
    /// Statements PostgreSQL 15 accepted.
    pub postgres_ran: usize,
    /// What must not happen, in words.
    pub failures: Vec<String>,
    /// IndexLab's refusals, line and message, for the report.
    pub refusals: Vec<(u32, String)>,
    /// EXPLAINs both PostgreSQL 15 and the pg profile ran (pg scripts).
    pub plans: usize,
    /// Of those, the ones whose plan has PostgreSQL's shape
    /// ([`crate::plan_shape`]); the others, line and both shapes.
    pub same_plans: usize,
    pub plan_differences: Vec<(u32, String, String)>,
}

/// Runs every `*.sql` in `dir`.
pub fn run_dir(dir: &Path, pg: &mut Session) -> Result<Vec<ScriptResult>, String> {
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "sql"))
        .collect();
    files.sort();
    files.iter().map(|f| run_file(f, pg)).collect()
}

fn run_file(file: &Path, pg: &mut Session) -> Result<ScriptResult, String> {
    let text = std::fs::read_to_string(file).map_err(|e| format!("{}: {e}", file.display()))?;
    let profile = if text.contains("-- database: yugabytedb") {
        "yb"
    } else {
        "pg"
    };
    let mut result = ScriptResult {
        file: file
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default(),
        profile,
        ..ScriptResult::default()
    };
    let items = split_script(&text)
        .map_err(|e| format!("{}:{}:{}: {}", file.display(), e.line, e.column, e.message))?;
    // PostgreSQL's answer per statement line (meta-commands are psql's).
    let schema = "indexlab_corpus";
    pg.enter_fresh_schema(schema)?;
    let mut postgres_ok: BTreeMap<u32, bool> = BTreeMap::new();
    let mut postgres_plans: BTreeMap<u32, Vec<String>> = BTreeMap::new();
    for item in &items {
        result.statements += 1;
        if let ScriptItem::Statement(s) = item {
            let outcome = pg.statement(&s.sql);
            let ok = !outcome.is_error();
            postgres_ok.insert(s.at.line, ok);
            result.postgres_ran += usize::from(ok);
            if let (true, crate::outcome::Outcome::Rows { rows, .. }) =
                (is_explain(&s.sql), &outcome)
            {
                let lines = rows
                    .iter()
                    .map(|r| r.first().cloned().flatten().unwrap_or_default());
                postgres_plans.insert(s.at.line, lines.collect());
            }
        }
    }
    pg.drop_schema(schema)?;
    for p in ["pg", "yb"] {
        let (errors, report) = run_profile(&text, p, &mut result.failures);
        if let (Some(report), "pg", "pg") = (&report, p, profile) {
            compare_plans(report, &postgres_plans, &mut result);
        }
        if p == profile {
            result.ran = result.statements.saturating_sub(errors.len());
            result.refusals = errors.iter().map(|e| (e.line, e.message.clone())).collect();
        }
        judge(p, &errors, &postgres_ok, &mut result.failures);
    }
    Ok(result)
}

/// The errors and report of a psql-style run on profile `p` (a panic is a
/// failure, and gives no report).
pub(crate) fn run_profile(
    text: &str,
    p: &str,
    failures: &mut Vec<String>,
) -> (Vec<ReportError>, Option<Report>) {
    let mut errors = Vec::new();
    let run = catch_unwind(AssertUnwindSafe(|| {
        let mut on_error = |e: ReportError| errors.push(e);
        match p {
            "pg" => {
                run_profile_continuing::<indexlab_engine::pg::PgEngine>(text, &[], &mut on_error).0
            }
            _ => {
                run_profile_continuing::<indexlab_engine::yb::YbEngine>(text, &[], &mut on_error).0
            }
        }
    }));
    if run.is_err() {
        failures.push(format!("{p}: panic"));
    }
    (errors, run.ok())
}

pub(crate) fn is_explain(sql: &str) -> bool {
    let words: Vec<String> = sql
        .lines()
        .map(|l| l.split("--").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join(" ")
        .split_whitespace()
        .take(1)
        .map(str::to_ascii_lowercase)
        .collect();
    words.first().is_some_and(|w| w == "explain")
}

/// Counts the EXPLAINs both ran and those whose shapes agree.
fn compare_plans(
    report: &Report,
    postgres: &BTreeMap<u32, Vec<String>>,
    result: &mut ScriptResult,
) {
    for s in &report.statements {
        let (Some(ours), Some(theirs)) = (&s.outcome.explain, postgres.get(&s.line)) else {
            continue;
        };
        if s.run > 1 {
            continue;
        }
        let (ours, theirs) = (shape(ours), shape(theirs));
        result.plans += 1;
        if ours == theirs {
            result.same_plans += 1;
        } else {
            result
                .plan_differences
                .push((s.line, theirs.join(" / "), ours.join(" / ")));
        }
    }
}

/// The failures among a profile's errors (see the module's rules).
fn judge(
    p: &str,
    errors: &[ReportError],
    postgres_ok: &BTreeMap<u32, bool>,
    failures: &mut Vec<String>,
) {
    let mut refused_before = false;
    for e in errors {
        // An error may point inside its statement (at the word it is about):
        // it belongs to the last statement starting at or before its line.
        let postgres_ran = postgres_ok
            .range(..=e.line)
            .next_back()
            .is_some_and(|(_, ok)| *ok);
        let named = e.message.contains("not supported by IndexLab");
        // A transaction id typed into the script (`txid_status('744')`) is
        // the author's server's: whether it is "in the future" depends on
        // what each server ran before, on PostgreSQL's side as on ours.
        let server_history =
            e.message.starts_with("transaction ID ") && e.message.ends_with(" is in the future");
        if postgres_ran && e.message.contains("syntax error") {
            failures.push(format!(
                "{p}: line {}: syntax error for SQL PostgreSQL accepts: {}",
                e.line, e.message
            ));
        } else if p == "pg" && postgres_ran && !named && !refused_before && !server_history {
            failures.push(format!(
                "{p}: line {}: refused without naming what is unsupported: {}",
                e.line, e.message
            ));
        }
        refused_before |= postgres_ran;
    }
}
