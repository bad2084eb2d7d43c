//! What the scenario runner and the profiles agree on, below both: the trait a
//! profile implements ([`ScenarioEngine`]), what one statement produced
//! ([`Outcome`]), and SET/RESET as both profiles run them.
//!
//! The profiles (`pg`, `yb`) and the executor build on this module; the
//! scenario runner (`scenario`) drives profiles through it.

mod aligned;
mod statement_error;
mod storage_errors;

pub use aligned::aligned;
pub use statement_error::StatementError;

use crate::metrics::{Metrics, RelationMetrics};
use crate::settings::{SettingError, Settings};
use crate::sql::error::SqlError;
use crate::sql::script::MetaCommand;
use crate::value::Value;

/// Rows kept per statement for display; `row_count` has the exact count.
pub const MAX_ROWS_SHOWN: usize = 1000;

/// One value of a result row as psql prints it, or `None` for NULL (psql
/// shows NULL as an empty cell, but the page and the tests must tell NULL from
/// the empty string).
pub type Cell = Option<String>;

/// What one statement produced, before the scenario adds time and counters.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Outcome {
    /// psql's command tag (`INSERT 0 10000`, `CREATE TABLE`, `SELECT 3`).
    pub tag: String,
    pub columns: Vec<String>,
    pub rows: Vec<Vec<Cell>>,
    pub row_count: u64,
    /// EXPLAIN output, one line per plan line.
    pub explain: Option<Vec<String>>,
    pub notices: Vec<String>,
    /// The title psql prints centred above the table (its printTable's
    /// `title`): `Table "public.t"`, `List of relations`.
    pub title: Option<String>,
    /// The lines psql prints under the table (printTable's footers):
    /// `Indexes:`, `    "t_pkey" PRIMARY KEY, btree (id)`. psql prints them
    /// instead of its `(N rows)` line.
    pub footers: Vec<String>,
    /// psql's `default_footer` off (`\d`'s descriptions): no `(N rows)` line
    /// under the table even when there are no footers.
    pub hide_rows_line: bool,
    /// EXPLAIN: why the planner chose each part of the plan, one sentence
    /// per cost-based choice, top node first.
    pub why: Vec<String>,
}

impl Outcome {
    pub fn tag(tag: impl Into<String>) -> Self {
        Outcome {
            tag: tag.into(),
            ..Outcome::default()
        }
    }

    pub fn notice(mut self, n: impl Into<String>) -> Self {
        self.notices.push(n.into());
        self
    }

    /// psql's `(N rows)` under the table, unless footers stand in its place
    /// or the command prints none.
    pub fn rows_line(&self) -> Option<String> {
        (self.footers.is_empty() && !self.hide_rows_line).then(|| {
            let n = self.row_count;
            format!("({n} row{})", if n == 1 { "" } else { "s" })
        })
    }

    pub fn with_count(mut self, n: u64) -> Self {
        self.row_count = n;
        self
    }

    /// A one-row, one-column result (SHOW).
    pub fn single(column: &str, value: String) -> Self {
        Outcome {
            tag: "SHOW".into(),
            columns: vec![column.to_string()],
            rows: vec![vec![Some(value)]],
            row_count: 1,
            ..Outcome::default()
        }
    }

    pub fn rows(columns: Vec<String>, rows: &[Vec<Value>]) -> Self {
        Outcome {
            tag: format!("SELECT {}", rows.len()),
            columns,
            rows: rows
                .iter()
                .take(MAX_ROWS_SHOWN)
                .map(|r| r.iter().map(Value::cell).collect())
                .collect(),
            row_count: rows.len() as u64,
            ..Outcome::default()
        }
    }

    pub fn explain(lines: Vec<String>) -> Self {
        Outcome {
            tag: "EXPLAIN".into(),
            columns: vec!["QUERY PLAN".into()],
            row_count: lines.len() as u64,
            explain: Some(lines),
            ..Outcome::default()
        }
    }
}

/// A statement that changes settings.
pub(crate) enum SettingChange<'a> {
    /// `SET name = value`.
    Set(&'a str, &'a str),
    /// `RESET name`, or `RESET ALL` without a name.
    Reset(Option<&'a str>),
}

/// SET, RESET or RESET ALL on a profile's settings, as both profiles run them: a
/// setting of the other profile is accepted, with a notice that `profile` ignores
/// it. The caller re-reads what it keeps of the settings.
pub(crate) fn change_settings(
    settings: &mut Settings,
    profile: &str,
    change: SettingChange,
) -> Result<Outcome, SqlError> {
    if let SettingChange::Set(name, _) = change {
        refuse_if_fixed_at_start(name, profile)?;
    }
    match change {
        SettingChange::Set(name, value) => {
            let applied = crate::settings::planner::APPLIED_ON_PG
                .iter()
                .find(|(n, _)| n.eq_ignore_ascii_case(name.trim()));
            if let (Some((n, kind)), "pg") = (applied, profile) {
                let v = value.trim();
                let default = v.eq_ignore_ascii_case("default");
                if !default && !crate::settings::planner::valid_applied(*kind, v) {
                    return Err(SqlError::new(
                        crate::sql::error::ErrorKind::Setting,
                        format!(
                            "invalid value for parameter \"{n}\": \"{}\"",
                            v.trim_matches('\'')
                        ),
                    ));
                }
                settings.set_recognized(name, value);
                return Ok(Outcome::tag("SET"));
            }
            if let Some(note) = settings.set_recognized(name, value) {
                // The catalogs resolve names along search_path: it applies.
                if name.eq_ignore_ascii_case("search_path") {
                    return Ok(Outcome::tag("SET"));
                }
                return Ok(Outcome::tag("SET").notice(note));
            }
        }
        SettingChange::Reset(Some(name)) if settings.reset_recognized(name) => {
            return Ok(Outcome::tag("RESET"));
        }
        SettingChange::Reset(_) => {}
    }
    let (tag, name, def) = match change {
        SettingChange::Set(name, value) => (
            "SET",
            Some(name),
            Some(
                settings
                    .set(name, value)
                    .map_err(SettingError::without_hint)?,
            ),
        ),
        SettingChange::Reset(name) => (
            "RESET",
            name,
            settings
                .reset_named(name)
                .map_err(SettingError::without_hint)?,
        ),
    };
    let mut out = Outcome::tag(tag);
    out.notices.extend(
        def.zip(name)
            .and_then(|(def, n)| def.scope.ignored_by(profile, n)),
    );
    Ok(out)
}

/// A setting the engine reads once, when it starts (the buffer pool's size, the
/// servers): `SET` would change what `SHOW` says and nothing else, so it is
/// refused, in PostgreSQL's words. The run's settings (the page's panel, a
/// variant, `--set`) are where it goes.
fn refuse_if_fixed_at_start(name: &str, profile: &str) -> Result<(), SqlError> {
    let Some((_, def)) = crate::settings::registry::lookup(name) else {
        return Ok(());
    };
    if !def.at_start || def.scope.ignored_by(profile, name).is_some() {
        return Ok(());
    }
    Err(SqlError::new(
        crate::sql::error::ErrorKind::Setting,
        format!(
            "parameter \"{}\" cannot be changed without restarting the server",
            def.name
        ),
    )
    .with_hint(format!(
        "{} is fixed when the engine starts: set it for the whole run instead (the page's settings panel, a variant's settings, or --set {}=…)",
        def.name, def.name
    )))
}

/// What the script runner needs from a profile.
pub trait ScenarioEngine: Sized {
    const PROFILE: &'static str;
    fn create(settings: Settings) -> Result<Self, SqlError>;
    fn clock(&self) -> &crate::clock::Clock;
    fn settings(&self) -> &Settings;
    fn execute(&mut self, stmt: &crate::sql::ast::Statement) -> Result<Outcome, SqlError>;
    fn set_quietly(&mut self, name: &str, value: &str) -> Result<(), SqlError>;
    /// The join hints of the statement about to run (none after it): a
    /// profile whose planner chooses joins by cost follows them.
    fn set_join_hints(&mut self, _hints: Vec<crate::sql::hints::Hint>) {}
    fn take_metrics(&mut self) -> (Metrics, RelationMetrics);
    fn trace_mut(&mut self) -> &mut crate::trace::Trace;
    /// The engine's state for the player's views (see `trace::Snapshot`).
    fn snapshot(&self) -> crate::trace::EngineSnapshot;
    /// A backslash command other than `\watch` and `\echo`.
    fn meta(&mut self, m: &MetaCommand) -> Result<Outcome, SqlError>;
    /// A statement was rejected before it ran (it did not parse, or names
    /// what IndexLab does not support): a transaction block it was in has
    /// failed, as PostgreSQL's does.
    fn statement_failed(&mut self) {}
    /// Whether ROLLBACK can undo the open transaction: it changed rows only
    /// (IndexLab cannot undo a schema change, ANALYZE or SET yet).
    fn rollback_undoes_all(&self) -> bool {
        true
    }
    /// The columns of table `name`, if it exists (a DO block tells its
    /// variables from columns of the same name with them).
    fn table_columns(&self, _name: &str) -> Option<Vec<String>> {
        None
    }
    /// Whole-run figures that are ratios, not sums of per-statement counters
    /// (set in the report's totals after the run).
    fn run_ratios(&self) -> Vec<(&'static str, f64)> {
        Vec::new()
    }
}
