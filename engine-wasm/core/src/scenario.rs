//! Layer 5: a scenario is a script + settings + profile → a [`Report`] (per
//! statement: rows, EXPLAIN text, metrics, virtual time) and the engine's trace.
//!
//! The script runs like psql with `ON_ERROR_STOP`: the first error stops it, and
//! the report says where (line and column in the script).

mod plpgsql;
mod prepared;
mod row_budget;
mod variables;

use crate::metrics::{Metrics, RelationMetrics};
use crate::pg::PgEngine;
use crate::settings::{SettingError, Settings};
use crate::sql::error::{ErrorKind, Position, SqlError};
use crate::sql::hints::{parse_hints, HintKind};
use crate::sql::parse::parse_statement;
use crate::sql::script::{split_script, MetaCommand, ScriptItem};
use crate::trace::StatementKind;
use crate::yb::YbEngine;
use row_budget::RowBudget;

pub use crate::profile::{Outcome, ScenarioEngine, MAX_ROWS_SHOWN};

/// One run of one statement (a `\watch c=100` gives 100 of these).
#[derive(Debug, Clone, PartialEq)]
pub struct StatementReport {
    pub sql: String,
    pub line: u32,
    pub column: u32,
    /// 1-based run number when the statement runs several times.
    pub run: u32,
    pub outcome: Outcome,
    pub metrics: Metrics,
    pub relations: RelationMetrics,
    pub virtual_ms: f64,
}

/// Where and why a scenario stopped.
#[derive(Debug, Clone, PartialEq)]
pub struct ReportError {
    pub kind: ErrorKind,
    pub message: String,
    pub hint: Option<String>,
    /// 1-based; 0 (with column 0) when the run's settings, not its script,
    /// are wrong (see [`ReportError::in_settings`]).
    pub line: u32,
    pub column: u32,
}

impl ReportError {
    /// Whether the settings the run was given are what is wrong: no line of
    /// the script is, so none is named.
    pub fn in_settings(&self) -> bool {
        self.line == 0
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Report {
    pub profile: &'static str,
    /// Settings that differ from their defaults, as SHOW prints them.
    pub settings: Vec<(String, String)>,
    pub statements: Vec<StatementReport>,
    pub totals: Metrics,
    pub total_virtual_ms: f64,
    pub error: Option<ReportError>,
}

fn report_error(e: SqlError, fallback: Position) -> ReportError {
    let e = e.into_detail();
    let at = e.at.unwrap_or(fallback);
    ReportError {
        kind: e.kind,
        // The report has no DETAIL of its own: it follows the message, as psql prints it.
        message: match e.detail {
            Some(detail) => format!("{}\nDETAIL:  {detail}", e.message),
            None => e.message,
        },
        hint: e.hint,
        line: at.line,
        column: at.column,
    }
}

/// Applies `--set`-style overrides to fresh settings.
pub fn settings_with(overrides: &[(String, String)]) -> Result<Settings, SqlError> {
    let mut s = Settings::new();
    for (name, value) in overrides {
        s.set(name, value).map_err(SettingError::without_hint)?;
    }
    s.start_session();
    Ok(s)
}

impl ScenarioEngine for PgEngine {
    const PROFILE: &'static str = "pg";
    fn create(settings: Settings) -> Result<Self, SqlError> {
        PgEngine::new(settings)
    }
    fn clock(&self) -> &crate::clock::Clock {
        PgEngine::clock(self)
    }
    fn settings(&self) -> &Settings {
        PgEngine::settings(self)
    }
    fn execute(&mut self, stmt: &crate::sql::ast::Statement) -> Result<Outcome, SqlError> {
        PgEngine::execute(self, stmt)
    }
    fn set_quietly(&mut self, name: &str, value: &str) -> Result<(), SqlError> {
        PgEngine::set_quietly(self, name, value)
    }
    fn set_join_hints(&mut self, hints: Vec<crate::sql::hints::Hint>) {
        self.join_hints = hints;
    }
    fn take_metrics(&mut self) -> (Metrics, RelationMetrics) {
        PgEngine::take_metrics(self)
    }
    fn trace_mut(&mut self) -> &mut crate::trace::Trace {
        PgEngine::trace_mut(self)
    }
    fn table_columns(&self, name: &str) -> Option<Vec<String>> {
        plpgsql::table_columns(self, name)
    }
    fn statement_failed(&mut self) {
        PgEngine::statement_failed(self)
    }
    fn rollback_undoes_all(&self) -> bool {
        PgEngine::rollback_undoes_all(self)
    }
    fn snapshot(&self) -> crate::trace::EngineSnapshot {
        crate::trace::EngineSnapshot::Pg(PgEngine::snapshot(self))
    }
    fn meta(&mut self, m: &MetaCommand) -> Result<Outcome, SqlError> {
        Ok(match m {
            MetaCommand::Checkpoint => self.checkpoint(),
            MetaCommand::Describe(d) => return self.describe(d),
            _ => Outcome::tag("")
                .notice("\\flush and \\compact act on LSM storage; the pg profile ignores them"),
        })
    }
}

impl ScenarioEngine for YbEngine {
    const PROFILE: &'static str = "yb";
    fn create(settings: Settings) -> Result<Self, SqlError> {
        YbEngine::new(settings)
    }
    fn clock(&self) -> &crate::clock::Clock {
        YbEngine::clock(self)
    }
    fn settings(&self) -> &Settings {
        YbEngine::settings(self)
    }
    fn execute(&mut self, stmt: &crate::sql::ast::Statement) -> Result<Outcome, SqlError> {
        YbEngine::execute(self, stmt)
    }
    fn set_quietly(&mut self, name: &str, value: &str) -> Result<(), SqlError> {
        YbEngine::set_quietly(self, name, value)
    }
    fn set_join_hints(&mut self, hints: Vec<crate::sql::hints::Hint>) {
        self.join_hints = hints;
    }
    fn take_metrics(&mut self) -> (Metrics, RelationMetrics) {
        YbEngine::take_metrics(self)
    }
    fn trace_mut(&mut self) -> &mut crate::trace::Trace {
        YbEngine::trace_mut(self)
    }
    fn table_columns(&self, name: &str) -> Option<Vec<String>> {
        plpgsql::table_columns(self, name)
    }
    fn statement_failed(&mut self) {
        YbEngine::statement_failed(self)
    }
    fn rollback_undoes_all(&self) -> bool {
        YbEngine::rollback_undoes_all(self)
    }
    fn snapshot(&self) -> crate::trace::EngineSnapshot {
        crate::trace::EngineSnapshot::Yb(YbEngine::snapshot(self))
    }
    fn meta(&mut self, m: &MetaCommand) -> Result<Outcome, SqlError> {
        match m {
            MetaCommand::Flush(t) => self.flush(t.as_deref()),
            MetaCommand::Compact(t) => self.compact(t.as_deref()),
            MetaCommand::Describe(d) => self.describe(d),
            _ => Ok(Outcome::tag("")
                .notice("\\checkpoint writes PostgreSQL's dirty buffers; YugabyteDB has none")),
        }
    }
    fn run_ratios(&self) -> Vec<(&'static str, f64)> {
        let wa = self.write_amplification();
        if wa > 0.0 {
            vec![("write_amplification", wa)]
        } else {
            Vec::new()
        }
    }
}

/// Runs `script` on the PostgreSQL profile.
pub fn run_pg(script: &str, overrides: &[(String, String)]) -> (Report, Option<PgEngine>) {
    run_profile(script, overrides)
}

/// Runs `script` on the YugabyteDB profile.
pub fn run_yb(script: &str, overrides: &[(String, String)]) -> (Report, Option<YbEngine>) {
    run_profile(script, overrides)
}

/// Runs `script` on profile `E`.
pub fn run_profile<E: ScenarioEngine>(
    script: &str,
    overrides: &[(String, String)],
) -> (Report, Option<E>) {
    run_profile_with(script, overrides, &mut |_| {})
}

/// How far a run is: statement runs done of the script's total (a `\watch c=100`
/// counts 100), reported after each one so a long run can show a progress bar.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Progress {
    pub done: u32,
    pub total: u32,
}

/// Runs `script` on profile `E`, telling `progress` after every statement run.
pub fn run_profile_with<E: ScenarioEngine>(
    script: &str,
    overrides: &[(String, String)],
    progress: &mut dyn FnMut(Progress),
) -> (Report, Option<E>) {
    run_profile_on_error(script, overrides, progress, &mut Err)
}

/// Runs `script` as psql does without ON_ERROR_STOP: an error is handed to
/// `on_error` and the script goes on with the next statement (how the corpus
/// of published experiments is measured). The report's `error` stays empty.
pub fn run_profile_continuing<E: ScenarioEngine>(
    script: &str,
    overrides: &[(String, String)],
    on_error: &mut dyn FnMut(ReportError),
) -> (Report, Option<E>) {
    run_profile_on_error(script, overrides, &mut |_| {}, &mut |e| {
        on_error(e);
        Ok(())
    })
}

fn run_profile_on_error<E: ScenarioEngine>(
    script: &str,
    overrides: &[(String, String)],
    progress: &mut dyn FnMut(Progress),
    on_error: OnError,
) -> (Report, Option<E>) {
    let mut report = Report {
        profile: E::PROFILE,
        settings: Vec::new(),
        statements: Vec::new(),
        totals: Metrics::default(),
        total_virtual_ms: 0.0,
        error: None,
    };
    let engine = settings_with(overrides).and_then(E::create);
    let mut engine = match engine {
        Ok(e) => e,
        Err(e) => {
            // Before any line of the script ran: the settings are wrong.
            report.error = Some(ReportError {
                line: 0,
                column: 0,
                ..report_error(e, Position::START)
            });
            return (report, None);
        }
    };
    // The trace settings change what the player records, never the run: the
    // report is the same bytes whatever they are (a statement re-run at full
    // detail must give the same report).
    report.settings = engine
        .settings()
        .changed()
        .into_iter()
        .filter(|(k, _)| !k.starts_with("trace_"))
        .map(|(k, v)| (k.to_string(), v))
        .collect();
    if let Err(e) = run_items(script, &mut engine, &mut report, progress, on_error) {
        report.error = Some(e);
    }
    if engine.trace_mut().budget().snapshots {
        // The final picture: where the player's last step lands.
        let state = engine.snapshot();
        let n = report.statements.len() as u32;
        engine.trace_mut().snapshot(n, state);
    }
    for s in &report.statements {
        report.totals.merge(&s.metrics);
        report.total_virtual_ms += s.virtual_ms;
    }
    for (name, v) in engine.run_ratios() {
        report.totals.set(name, v);
    }
    (report, Some(engine))
}

/// What a run does at an error: stop there (`Err`, psql's ON_ERROR_STOP, as
/// the page runs scripts), or note it and go on (`Ok`, psql's default).
type OnError<'a> = &'a mut dyn FnMut(ReportError) -> Result<(), ReportError>;

fn run_items<E: ScenarioEngine>(
    script: &str,
    engine: &mut E,
    report: &mut Report,
    progress: &mut dyn FnMut(Progress),
    on_error: OnError,
) -> Result<(), ReportError> {
    let items = split_script(script).map_err(|e| ReportError {
        kind: ErrorKind::Script,
        message: e.message.clone(),
        hint: None,
        line: e.line,
        column: e.column,
    })?;
    let total = items
        .iter()
        .map(|i| match i {
            ScriptItem::Statement(s) => s.runs,
            ScriptItem::Meta(_) => 1,
        })
        .sum();
    let mut tick = |report: &Report| {
        progress(Progress {
            done: report.statements.len() as u32,
            total,
        })
    };
    tick(report);
    let mut rows = RowBudget::default();
    let mut prepared = prepared::Prepared::default();
    let mut variables = variables::Variables::default();
    for item in items {
        let session = (&mut rows, &mut prepared, &mut variables);
        if let Err(e) = run_item(item, engine, report, session, &mut tick) {
            on_error(e)?;
        }
    }
    Ok(())
}

/// Runs one item of a script (a statement, all its runs, or a meta-command).
fn run_item<E: ScenarioEngine>(
    item: ScriptItem,
    engine: &mut E,
    report: &mut Report,
    (rows, prepared, variables): (
        &mut RowBudget,
        &mut prepared::Prepared,
        &mut variables::Variables,
    ),
    tick: &mut dyn FnMut(&Report),
) -> Result<(), ReportError> {
    // psql substitutes its variables as it reads each statement.
    let item = match item {
        ScriptItem::Statement(mut s) => {
            s.sql = variables.interpolate(&s.sql);
            ScriptItem::Statement(s)
        }
        other => other,
    };
    {
        match item {
            ScriptItem::Statement(s) if plpgsql::is_do_block(&s.sql) => {
                plpgsql::run_item(&s, engine, report, rows, tick)?;
            }
            // The SQL command does what psql's `\checkpoint` here does.
            ScriptItem::Statement(s) if s.sql.trim().eq_ignore_ascii_case("checkpoint") => {
                let index = report.statements.len() as u32;
                statement_start(engine, index, StatementKind::Other, &s.sql);
                let start = engine.clock().now_us();
                let outcome = engine
                    .meta(&MetaCommand::Checkpoint)
                    .map_err(|e| report_error(e, s.at))?;
                let outcome = Outcome {
                    tag: "CHECKPOINT".into(),
                    ..outcome
                };
                statement_end(engine, index);
                push_single(engine, report, (s.sql.clone(), s.at), outcome, start);
                tick(report);
            }
            ScriptItem::Statement(s) => {
                let parsed = parse_statement(&s.sql);
                if parsed.is_err() {
                    // The server rejected it: in a transaction block, that
                    // aborts the block as any failed statement does.
                    engine.statement_failed();
                }
                let stmt = parsed.map_err(|mut e| {
                    // Parser positions are relative to the statement: map them
                    // back; an error about a word is placed at that word.
                    let relative = e.at.and_then(|p| s.script_position(p));
                    e.at = relative;
                    let e = placed(e, &s);
                    let at = e.at.unwrap_or(s.at);
                    report_error(e, at)
                })?;
                for run in 1..=s.runs {
                    let index = report.statements.len() as u32;
                    statement_start(engine, index, kind_of(&stmt), &s.sql);
                    let r = prepared
                        .step(&stmt)
                        .and_then(|step| match step {
                            prepared::Step::Done(outcome) => Ok(session_report(engine, outcome)),
                            prepared::Step::Run(stmt) => run_statement(engine, &s.sql, &stmt),
                        })
                        .map_err(|e| report_error(placed(e, &s), s.at))?;
                    statement_end(engine, index);
                    let over = rows.add(engine.settings(), r.outcome.row_count);
                    report.statements.push(StatementReport {
                        sql: s.sql.clone(),
                        line: s.at.line,
                        column: s.at.column,
                        run,
                        ..r
                    });
                    tick(report);
                    over.map_err(|e| report_error(e, s.at))?;
                }
                if let (Some(prefix), Some(last)) = (&s.gset, report.statements.last()) {
                    variables.gset(prefix, &last.outcome).map_err(|message| {
                        report_error(SqlError::new(ErrorKind::Execution, message), s.at)
                    })?;
                }
            }
            ScriptItem::Meta(m) => {
                let index = report.statements.len() as u32;
                statement_start(engine, index, StatementKind::Other, &meta_text(&m.command));
                let start = engine.clock().now_us();
                let outcome = match &m.command {
                    MetaCommand::Echo(text) => Outcome::tag("").notice(variables.interpolate(text)),
                    MetaCommand::SetVariable { name, value } => {
                        let value = variables.interpolate(value);
                        variables.set(name, &value);
                        Outcome::tag("")
                    }
                    MetaCommand::UnsetVariable(name) => {
                        variables.unset(name);
                        Outcome::tag("")
                    }
                    MetaCommand::Display { command, args } => display_setting(command, args),
                    MetaCommand::Unsupported(message) => {
                        let e = SqlError::new(ErrorKind::Unsupported, message.clone()).at(m.at);
                        return Err(report_error(e, m.at));
                    }
                    MetaCommand::Dconfig(pattern) => {
                        dconfig(engine, pattern).map_err(|e| report_error(e, m.at))?
                    }
                    MetaCommand::Reconnect => {
                        *prepared = prepared::Prepared::default();
                        new_session(engine).map_err(|e| report_error(e, m.at))?
                    }
                    other => engine.meta(other).map_err(|e| report_error(e, m.at))?,
                };
                statement_end(engine, index);
                push_single(
                    engine,
                    report,
                    (meta_text(&m.command), m.at),
                    outcome,
                    start,
                );
                tick(report);
            }
        }
    }
    Ok(())
}

/// Reports a command run once (a meta-command, CHECKPOINT) that started at
/// virtual time `start`, with the counters it made.
fn push_single<E: ScenarioEngine>(
    engine: &mut E,
    report: &mut Report,
    (sql, at): (String, Position),
    outcome: Outcome,
    start: f64,
) {
    let (metrics, relations) = engine.take_metrics();
    report.statements.push(StatementReport {
        sql,
        line: at.line,
        column: at.column,
        run: 1,
        outcome,
        metrics,
        relations,
        virtual_ms: (engine.clock().now_us() - start) / 1000.0,
    });
}

/// Marks where statement `index` (its place in the report) starts in the trace:
/// the player's statement marks, and the start of the statement's detail budget.
fn statement_start<E: ScenarioEngine>(engine: &mut E, index: u32, kind: StatementKind, sql: &str) {
    let budget = crate::trace::TraceBudget::from_settings(engine.settings());
    engine.trace_mut().set_budget(budget);
    if engine.trace_mut().wants_snapshot_before(index, kind) {
        let state = engine.snapshot();
        engine.trace_mut().snapshot(index, state);
    }
    let at_us = engine.clock().now_us();
    engine.trace_mut().start_statement(index, kind, sql, at_us);
}

/// Which trace budget a statement spends: a query (a SELECT, or an EXPLAIN of
/// one, analyzed or not) is what a lesson looks at after a long load.
fn kind_of(stmt: &crate::sql::ast::Statement) -> StatementKind {
    use crate::sql::ast::Statement;
    match stmt {
        Statement::Select(_) => StatementKind::Query,
        Statement::Explain { statement, .. } => kind_of(statement),
        _ => StatementKind::Other,
    }
}

fn statement_end<E: ScenarioEngine>(engine: &mut E, index: u32) {
    let at_us = engine.clock().now_us();
    engine.trace_mut().end_statement(index, at_us);
}

/// Runs one statement with its hints' settings in force, then restores them.
/// An error about a word of the statement, placed at that word (the first
/// time the statement writes it), as PostgreSQL reports its position.
fn placed(mut e: SqlError, s: &crate::sql::script::Statement) -> SqlError {
    if e.at.is_none() {
        let at = e
            .near
            .as_deref()
            .and_then(|t| crate::sql::error::find_token(&s.sql, t));
        if let Some(offset) = at {
            e.at = Some(s.position_at(offset));
        }
    }
    e
}

/// The report of a statement the session answered itself (PREPARE…).
fn session_report<E: ScenarioEngine>(engine: &mut E, outcome: Outcome) -> StatementReport {
    let (metrics, relations) = engine.take_metrics();
    StatementReport {
        sql: String::new(),
        line: 0,
        column: 0,
        run: 1,
        outcome,
        metrics,
        relations,
        virtual_ms: 0.0,
    }
}

fn run_statement<E: ScenarioEngine>(
    engine: &mut E,
    sql: &str,
    stmt: &crate::sql::ast::Statement,
) -> Result<StatementReport, SqlError> {
    let start = engine.clock().now_us();
    let mut notices = Vec::new();
    let mut restore = Vec::new();
    let mut join_hints = Vec::new();
    if let Some(hints) = parse_hints(sql)? {
        for h in &hints.hints {
            match &h.kind {
                HintKind::Set { name, value } => {
                    restore.push((name.clone(), engine.settings().show(name).ok()));
                    engine.set_quietly(name, value)?;
                }
                HintKind::Unknown { name, .. } => {
                    notices.push(format!("hint \"{name}\" is not known; ignored"))
                }
                HintKind::Join { .. } | HintKind::Leading(_) => join_hints.push(h.clone()),
                _ => {}
            }
        }
    }
    engine.set_join_hints(join_hints);
    let result = engine.execute(stmt);
    engine.set_join_hints(Vec::new());
    for (name, old) in restore.into_iter().rev() {
        if let Some(v) = old {
            engine.set_quietly(&name, &v)?;
        }
    }
    let mut outcome = result?;
    outcome.notices.splice(0..0, notices);
    let (metrics, relations) = engine.take_metrics();
    Ok(StatementReport {
        sql: String::new(),
        line: 0,
        column: 0,
        run: 1,
        outcome,
        metrics,
        relations,
        virtual_ms: (engine.clock().now_us() - start) / 1000.0,
    })
}

/// A meta-command as the script wrote it, for the report.
/// `\c`: the old session ends (an open transaction with it) and a new one
/// starts with the server's settings.
fn new_session<E: ScenarioEngine>(engine: &mut E) -> Result<Outcome, SqlError> {
    use crate::sql::ast::{Statement, TxnCommand};
    let user = if E::PROFILE == "yb" {
        "yugabyte"
    } else {
        "postgres"
    };
    // ROLLBACK outside a block only notices that there is none: end quietly.
    engine.execute(&Statement::Transaction(TxnCommand::Rollback))?;
    engine.execute(&Statement::Reset { name: None })?;
    Ok(Outcome::tag("").notice(format!(
        "You are now connected to database \"{user}\" as user \"{user}\"."
    )))
}

fn meta_text(m: &MetaCommand) -> String {
    match m {
        MetaCommand::Flush(t) => format!("\\flush {}", t.as_deref().unwrap_or(""))
            .trim_end()
            .to_string(),
        MetaCommand::Compact(t) => format!("\\compact {}", t.as_deref().unwrap_or(""))
            .trim_end()
            .to_string(),
        MetaCommand::Checkpoint => "\\checkpoint".to_string(),
        MetaCommand::Echo(t) => format!("\\echo {t}"),
        MetaCommand::Describe(d) => d.text.clone(),
        MetaCommand::Dconfig(pattern) => format!("\\dconfig {pattern}"),
        MetaCommand::Unsupported(message) => format!("-- {message}"),
        MetaCommand::Reconnect => "\\c".to_string(),
        MetaCommand::Display { command, args } => format!("\\{command} {}", args.join(" "))
            .trim_end()
            .to_string(),
        MetaCommand::SetVariable { name, value } => {
            format!("\\set {name} {value}").trim_end().to_string()
        }
        MetaCommand::UnsetVariable(name) => format!("\\unset {name}"),
    }
}

/// psql's answer to a display setting, with what it means in IndexLab.
fn display_setting(command: &str, args: &[String]) -> Outcome {
    let on = |what: &str| {
        let state = match args.first().map(|a| a.to_ascii_lowercase()) {
            Some(a) if a == "off" || a == "false" || a == "0" => "off",
            _ => "on",
        };
        format!("{what} is {state}.")
    };
    let note = match command {
        "timing" => format!(
            "{} IndexLab's times are virtual: each statement's virtual time is shown with its counters",
            on("Timing")
        ),
        "x" => format!(
            "{} IndexLab shows rows as a table whatever psql's display setting",
            on("Expanded display")
        ),
        "set" if args.first().is_some_and(|a| a.eq_ignore_ascii_case("ON_ERROR_STOP")) => {
            "IndexLab always stops a script at its first error, as psql does with ON_ERROR_STOP"
                .to_string()
        }
        other => format!("\\{other} changes only how psql prints; IndexLab accepts it and prints as before"),
    };
    Outcome::tag("").notice(note)
}

/// `\dconfig pattern`: each matching setting's value as the profile's SHOW
/// gives it; a matching setting SHOW does not know is refused by name.
fn dconfig<E: ScenarioEngine>(engine: &mut E, pattern: &str) -> Result<Outcome, SqlError> {
    use crate::sql::script::dconfig;
    if E::PROFILE == "yb" {
        return Err(crate::sql::error::unsupported(
            "\\dconfig on YugabyteDB (ysqlsh is psql 11, which has no \\dconfig; its \
             pg_settings are PostgreSQL 11's and YugabyteDB's own yb_* ones): SHOW a setting \
             by name",
        ));
    }
    let mut rows = Vec::new();
    let mut unknown = Vec::new();
    for name in dconfig::matching(pattern) {
        let show = crate::sql::ast::Statement::Show {
            name: name.to_string(),
        };
        match engine.execute(&show) {
            Ok(out) => {
                let value = out.rows.first().and_then(|r| r.first().cloned()).flatten();
                rows.push((name, value.unwrap_or_default()));
            }
            Err(_) => unknown.push(name),
        }
    }
    if !unknown.is_empty() {
        return Err(crate::sql::error::unsupported(format!(
            "\\dconfig {pattern}, which names settings IndexLab does not model ({})",
            unknown.join(", ")
        )));
    }
    Ok(dconfig::outcome(rows))
}
