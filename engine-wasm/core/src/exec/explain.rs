//! EXPLAIN [ANALYZE] of a SELECT: plan (and run) it, print the tree, add the
//! summary lines the options ask for.

use super::engine::QueryEngine;
use super::executor::Executor;
use super::plan_node::format_node;
use crate::profile::Outcome;
use crate::sql::ast::{ExplainOptions, Statement};
use crate::sql::error::SqlError;

/// Runs EXPLAIN on any profile.
pub fn explain<E: QueryEngine>(
    engine: &mut E,
    options: &ExplainOptions,
    statement: &Statement,
) -> Result<Outcome, SqlError> {
    super::explain_dml::check_options(options)?;
    super::set_operation::refuse_explain(statement)?;
    let start = engine.now_us();
    let node = match statement {
        Statement::Select(q) => engine.run_select(q, options.analyze)?.0,
        dml if super::explain_dml::is_dml(dml) => {
            super::explain_dml::dml_node(engine, options, dml)?
        }
        _ => {
            return Err(crate::sql::error::unsupported(
                "EXPLAIN of anything but SELECT, INSERT, UPDATE or DELETE",
            ))
        }
    };
    let mut lines = Vec::new();
    format_node(&node, 0, options, &mut lines);
    let summary = options.summary.unwrap_or(options.analyze);
    if summary {
        lines.push("Planning Time: 0.010 ms".to_string());
        if options.analyze {
            let ms = (engine.now_us() - start) / 1000.0;
            lines.push(format!("Execution Time: {ms:.3} ms"));
            lines.extend(engine.summary_lines(options));
        }
    }
    let mut out = Outcome::explain(lines);
    out.notices = engine.explain_notices(options);
    Ok(out)
}
