//! EXPLAIN [ANALYZE] of a SELECT: plan (and run) it, print the tree, add the
//! summary lines the options ask for, in PostgreSQL's text or JSON format.

use super::engine::QueryEngine;
use super::executor::Executor;
use super::explain_json::{render, Summary};
use super::plan_node::format_node;
use crate::profile::Outcome;
use crate::sql::ast::{ExplainFormat, ExplainOptions, Statement};
use crate::sql::error::{unsupported, SqlError};

/// Runs EXPLAIN on any profile.
pub fn explain<E: QueryEngine>(
    engine: &mut E,
    options: &ExplainOptions,
    statement: &Statement,
) -> Result<Outcome, SqlError> {
    super::explain_dml::check_options(options)?;
    super::set_operation::refuse_explain(statement)?;
    match statement {
        Statement::Select(q) => super::subplan::refuse_explain(engine, q)?,
        Statement::Update {
            table,
            filter,
            assignments,
            ..
        } => {
            let id = engine.table_id(table)?;
            let scope = engine.table_scope(id);
            let mut sets = assignments.iter().map(|(_, e)| e);
            if super::subplan::correlated_where(engine, id, filter.as_ref())
                || sets.any(|e| super::subplan::correlated_in(engine, e, &scope))
            {
                return Err(super::subplan::explain_refused());
            }
        }
        Statement::Delete { table, filter, .. } => {
            let id = engine.table_id(table)?;
            if super::subplan::correlated_where(engine, id, filter.as_ref()) {
                return Err(super::subplan::explain_refused());
            }
        }
        _ => {}
    }
    if engine.is_yugabyte() {
        refuse_on_yugabyte(options)?;
    }
    // Refusals come before anything runs (ANALYZE of DML changes rows).
    if options.verbose {
        super::explain_verbose::check_statement(engine, statement)?;
    }
    let settings = match options.settings {
        true => Some(
            engine
                .settings()
                .explain_settings(engine.is_yugabyte())
                .map_err(|name| unsupported(format!("EXPLAIN (SETTINGS) with {name} changed")))?,
        ),
        false => None,
    };
    let start = engine.now_us();
    let mut node = match statement {
        Statement::Select(q) => engine.run_select(q, options.analyze)?.0,
        dml if super::explain_dml::is_dml(dml) => {
            super::explain_dml::dml_node(engine, options, dml)?
        }
        _ => {
            return Err(unsupported(
                "EXPLAIN of anything but SELECT, INSERT, UPDATE or DELETE",
            ))
        }
    };
    // ExecutorFinish: the statement's AFTER triggers, within the EXPLAIN.
    let trigger_start = engine.now_us();
    let triggers = match options.analyze {
        true => engine.fire_after_triggers()?,
        false => Vec::new(),
    };
    let trigger_ms = (engine.now_us() - trigger_start) / 1000.0;
    if options.verbose {
        super::explain_verbose::annotate(engine, statement, &mut node)?;
    }
    let summary = options.summary.unwrap_or(options.analyze);
    let planning_ms = summary.then_some(0.010);
    let execution_ms = (summary && options.analyze).then(|| (engine.now_us() - start) / 1000.0);
    let lines = match options.format {
        ExplainFormat::Json => {
            if !triggers.is_empty() {
                return Err(unsupported(
                    "EXPLAIN (FORMAT JSON) of a statement that fired constraint triggers (its \"Triggers\" list)",
                ));
            }
            if !engine.summary_lines(options).is_empty() {
                return Err(unsupported(
                    "EXPLAIN (FORMAT JSON) of this profile's summary lines",
                ));
            }
            let s = Summary {
                settings: settings.as_deref(),
                planning_ms,
                execution_ms,
            };
            vec![render(&node, options, &s)?]
        }
        ExplainFormat::Text => {
            let mut lines = Vec::new();
            format_node(&node, 0, options, &mut lines);
            // PostgreSQL's text format leaves the line out when nothing differs.
            if let Some(s) = settings.filter(|s| !s.is_empty()) {
                let parts: Vec<String> = s.iter().map(|(n, v)| format!("{n} = '{v}'")).collect();
                lines.push(format!("Settings: {}", parts.join(", ")));
            }
            if let Some(ms) = planning_ms {
                lines.push(format!("Planning Time: {ms:.3} ms"));
            }
            // ExplainPrintTriggers: the time of all of them, per constraint.
            for (name, calls) in &triggers {
                lines.push(match options.timing {
                    true => {
                        format!("Trigger for constraint {name}: time={trigger_ms:.3} calls={calls}")
                    }
                    false => format!("Trigger for constraint {name}: calls={calls}"),
                });
            }
            if let Some(ms) = execution_ms {
                lines.push(format!("Execution Time: {ms:.3} ms"));
                lines.extend(engine.summary_lines(options));
            }
            lines
        }
    };
    let mut out = Outcome::explain(lines);
    super::plan_node::reasons(&node, &mut out.why);
    out.notices = engine.explain_notices(options);
    if options.costs {
        let mut kinds = Vec::new();
        super::plan_node::uncosted_kinds(&node, &mut kinds);
        if !kinds.is_empty() {
            out.notices.push(format!(
                "the cost= and rows= estimates of {} are IndexLab's rough figures, not \
                 PostgreSQL's: its cost model covers the pg profile's scans, two-table \
                 joins, Sort, Limit, aggregates and Memoize so far",
                kinds.join(", ")
            ));
        }
    }
    Ok(out)
}

/// The yb profile models YugabyteDB 2.19–2.21, whose query layer is
/// PostgreSQL 11's: its EXPLAIN has no SETTINGS option, and its JSON lacks
/// fields PostgreSQL 15 prints ("Async Capable", "Planning"). IndexLab
/// writes PostgreSQL 15's, so it refuses rather than guess the older shape.
fn refuse_on_yugabyte(options: &ExplainOptions) -> Result<(), SqlError> {
    if options.format == ExplainFormat::Json {
        return Err(unsupported(
            "EXPLAIN (FORMAT JSON) on YugabyteDB (its PostgreSQL 11 query layer prints \
             other JSON fields than the PostgreSQL 15 ones IndexLab writes)",
        ));
    }
    if options.settings {
        return Err(unsupported(
            "EXPLAIN (SETTINGS) on YugabyteDB (its PostgreSQL 11 query layer has no such option)",
        ));
    }
    Ok(())
}
