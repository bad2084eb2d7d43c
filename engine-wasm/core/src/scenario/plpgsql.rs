//! `DO $$ … $$`: anonymous PL/pgSQL blocks, the loops published experiments
//! time lookups and fill tables with. A small interpreter of the subset such
//! scripts use, with PostgreSQL 15's semantics (`pl_gram.y`, `pl_exec.c`):
//!
//! - DECLARE of scalar variables (`name [CONSTANT] type [NOT NULL] [:= expr]`,
//!   of the types IndexLab knows), nested `[<<label>>] [DECLARE] BEGIN … END`;
//! - `x := expr` (or `=`), IF/ELSIF/ELSE, LOOP, WHILE, integer FOR (REVERSE,
//!   BY), EXIT and CONTINUE (WHEN, labels), RETURN, NULL, ASSERT;
//! - `RAISE NOTICE 'format %', args` (a notice of the statement; DEBUG and LOG
//!   are not shown, as psql does not show them; EXCEPTION is an error);
//! - SQL statements: PERFORM, `SELECT … INTO [STRICT] vars`, INSERT, UPDATE
//!   and DELETE (on yb: see below), and the DDL IndexLab runs; the variables
//!   a statement reads enter it as parameters of their types, never as text.
//!
//! Anything else (cursors, EXECUTE, EXCEPTION sections, RETURN QUERY,
//! record variables, FOREACH…) is refused by name before the block runs, at
//! its word. The block is one statement of the script: one report item
//! (`DO`), one transaction (one `now()`), its statements' storage work and
//! rows (against `max_rows`) all its own, and at most
//! [`run::MAX_STEPS`] statements and loop iterations.
//!
//! On the pg profile, UPDATE and DELETE inside a block are refused: in one
//! transaction PostgreSQL cannot prune the row versions they replace until
//! the block commits, which IndexLab's heap, committing each statement, does
//! not model. yb runs them.
//!
//! - [`tokens`]: the block's tokens (sqlparser's) with their byte ranges;
//! - [`head`]: the DO statement around the block's code;
//! - [`parse`]: the grammar, to the tree of [`tree`] (the SQL inside it:
//!   `parse/sql.rs`);
//! - [`run`]: the interpreter; [`cast`]: values in and out of variables.

mod cast;
mod head;
mod parse;
mod run;
#[cfg(test)]
mod tests;
mod tokens;
mod tree;

use super::row_budget::RowBudget;
use super::{report_error, statement_end, statement_start, Report, ReportError, StatementReport};
use crate::exec::QueryEngine;
use crate::profile::ScenarioEngine;
use crate::sql::script::Statement;

/// Whether a statement of the script is a DO block (its first word).
pub(super) fn is_do_block(sql: &str) -> bool {
    head::is_do(sql)
}

/// Runs the DO statement `s` (each of its runs, for `\watch`) and reports it.
pub(super) fn run_item<E: ScenarioEngine>(
    s: &Statement,
    engine: &mut E,
    report: &mut Report,
    rows: &mut RowBudget,
    tick: &mut dyn FnMut(&Report),
) -> Result<(), ReportError> {
    // Positions come relative to the statement: placed in the script.
    let placed = |mut e: crate::sql::error::SqlError| {
        e.at = e.at.and_then(|p| s.script_position(p));
        report_error(e, s.at)
    };
    let block = parse::parse_do(&s.sql, E::PROFILE).map_err(placed)?;
    for run in 1..=s.runs {
        let index = report.statements.len() as u32;
        statement_start(engine, index, crate::trace::StatementKind::Other, &s.sql);
        let start = engine.clock().now_us();
        let outcome = run::run(&block, &s.sql, engine, rows).map_err(placed)?;
        statement_end(engine, index);
        let (metrics, relations) = engine.take_metrics();
        report.statements.push(StatementReport {
            sql: s.sql.clone(),
            line: s.at.line,
            column: s.at.column,
            run,
            outcome,
            metrics,
            relations,
            virtual_ms: (engine.clock().now_us() - start) / 1000.0,
        });
        tick(report);
    }
    Ok(())
}

/// The columns of table `name` on a profile (for `ScenarioEngine::table_columns`).
pub(crate) fn table_columns<Q: QueryEngine>(engine: &Q, name: &str) -> Option<Vec<String>> {
    let id = engine.table_id(name).ok()?;
    let scope = engine.table_scope(id);
    Some(scope.columns.into_iter().map(|(_, c, _)| c).collect())
}
