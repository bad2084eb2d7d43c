//! EXPLAIN [ANALYZE] of INSERT, UPDATE and DELETE, as PostgreSQL prints a
//! ModifyTable node: `Insert on t` over the rows it read (the scan that found
//! them, or its VALUES or generate_series). With ANALYZE the statement runs:
//! the top node's Buffers are the whole statement's (PostgreSQL's counts are
//! inclusive of children), its WAL line what it logged.

use super::executor::{source_node, Executor};
use super::on_conflict::{ConflictInsert, ConflictReport};
use super::plan_node::PlanNode;
use crate::buffer_pool::BufferStats;
use crate::sql::ast::{ConflictAction, ExplainOptions, OnConflict, Select, SelectItem, Statement};
use crate::sql::error::{unsupported, SqlError};

/// The statement's ModifyTable node, run when `analyze`.
pub fn dml_node<E: Executor>(
    engine: &mut E,
    options: &ExplainOptions,
    stmt: &Statement,
) -> Result<PlanNode, SqlError> {
    let (verb, table) = match stmt {
        Statement::Insert { table, .. } => ("Insert", table),
        Statement::Update { table, .. } => ("Update", table),
        Statement::Delete { table, .. } => ("Delete", table),
        _ => unreachable!("only DML reaches EXPLAIN's ModifyTable"),
    };
    engine.table_id(table)?;
    refuse_unshown(stmt)?;
    // Its plan is a join of the target with the list (PostgreSQL's
    // ModifyTable over a Hash Join), which EXPLAIN here does not build.
    match stmt {
        Statement::Update { from, .. } if !from.is_empty() => {
            return Err(unsupported("EXPLAIN of UPDATE … FROM"))
        }
        Statement::Delete { using, .. } if !using.is_empty() => {
            return Err(unsupported("EXPLAIN of DELETE … USING"))
        }
        _ => {}
    }
    // Named without its schema; VERBOSE adds the schema written.
    let title = format!("{verb} on {}", super::schemas::bare(table));
    let schema = Some(super::schemas::schema_of(table))
        .filter(|s| *s != super::schemas::PUBLIC)
        .map(String::from);
    if !options.analyze {
        let child = plan_only(engine, stmt)?;
        let details = match conflict_insert(stmt) {
            Some(c) => conflict_lines(&engine.insert_on_conflict(&c, false)?.1, false),
            None => Vec::new(),
        };
        return Ok(PlanNode {
            title,
            schema,
            details,
            loops: 1,
            est_cost: child.est_cost,
            children: vec![child],
            ..PlanNode::default()
        });
    }
    let (b0, w0, t0) = (
        engine.statement_buffers(),
        engine.statement_wal(),
        engine.now_us(),
    );
    *engine.dml_source() = None;
    let mut details = match conflict_insert(stmt) {
        Some(c) => conflict_lines(&engine.insert_on_conflict(&c, true)?.1, true),
        None => {
            engine.execute_dml(stmt)?;
            Vec::new()
        }
    };
    let elapsed = engine.now_us() - t0;
    let buffers = minus(&engine.statement_buffers(), &b0);
    let w1 = engine.statement_wal();
    if options.wal {
        let parts: Vec<String> = [
            ("records", w1.0 - w0.0),
            ("fpi", w1.1 - w0.1),
            ("bytes", w1.2 - w0.2),
        ]
        .iter()
        .filter(|(_, n)| *n > 0)
        .map(|(k, n)| format!("{k}={n}"))
        .collect();
        if !parts.is_empty() {
            details.push(format!("WAL: {}", parts.join(" ")));
        }
    }
    let child = engine.dml_source().take();
    Ok(PlanNode {
        title,
        schema,
        details,
        rows: 0,
        loops: 1,
        first_us: elapsed,
        last_us: elapsed,
        buffers,
        est_cost: child.as_ref().map_or((0.0, 0.0), |c| c.est_cost),
        children: child.into_iter().collect(),
        ..PlanNode::default()
    })
}

/// What IndexLab's EXPLAIN cannot print as PostgreSQL does: a RETURNING
/// list changes the ModifyTable node's estimates (rows and width), and a DO
/// UPDATE's WHERE is printed as a `Conflict Filter` in PostgreSQL's deparsed
/// form.
fn refuse_unshown(stmt: &Statement) -> Result<(), SqlError> {
    let (returning, on_conflict) = match stmt {
        Statement::Insert {
            returning,
            on_conflict,
            ..
        } => (returning, on_conflict.as_deref()),
        Statement::Update { returning, .. } | Statement::Delete { returning, .. } => {
            (returning, None)
        }
        _ => return Ok(()),
    };
    if !returning.is_empty() {
        return Err(unsupported("EXPLAIN of INSERT/UPDATE/DELETE … RETURNING"));
    }
    if let Some(OnConflict {
        action: ConflictAction::Update {
            filter: Some(_), ..
        },
        ..
    }) = on_conflict
    {
        return Err(unsupported(
            "EXPLAIN of INSERT … ON CONFLICT DO UPDATE … WHERE",
        ));
    }
    Ok(())
}

/// The statement as [`crate::exec::on_conflict`] runs it, if it is an
/// `INSERT … ON CONFLICT`.
fn conflict_insert(stmt: &Statement) -> Option<ConflictInsert<'_>> {
    match stmt {
        Statement::Insert {
            table,
            columns,
            source,
            on_conflict: Some(oc),
            returning,
        } => Some(ConflictInsert {
            table,
            columns: columns.as_deref(),
            source,
            on_conflict: oc,
            returning,
        }),
        _ => None,
    }
}

/// show_modifytable_info's lines: the resolution, the arbiters (when the
/// statement named a target), and with ANALYZE what the rows met.
fn conflict_lines(r: &ConflictReport, analyze: bool) -> Vec<String> {
    let mut lines = vec![format!("Conflict Resolution: {}", r.resolution)];
    if !r.arbiter_names.is_empty() {
        lines.push(format!(
            "Conflict Arbiter Indexes: {}",
            r.arbiter_names.join(", ")
        ));
    }
    if analyze {
        lines.push(format!("Tuples Inserted: {}", r.inserted));
        lines.push(format!("Conflicting Tuples: {}", r.conflicting));
    }
    lines
}

/// The plan of the rows the statement would read, without running it.
fn plan_only<E: Executor>(engine: &mut E, stmt: &Statement) -> Result<PlanNode, SqlError> {
    match stmt {
        Statement::Insert { source, .. } => {
            if source.values.is_some() || source.from.is_empty() || is_series(source) {
                let rows = source.values.as_ref().map_or(1, |v| v.len() as u64);
                Ok(source_node(source, rows))
            } else {
                Ok(engine.run_select(source, false)?.0)
            }
        }
        Statement::Update { table, filter, .. } | Statement::Delete { table, filter, .. } => {
            let q = Select {
                items: vec![SelectItem::Wildcard],
                from: vec![crate::sql::ast::FromItem::Table {
                    name: table.clone(),
                    alias: None,
                }],
                filter: filter.clone(),
                ..Select::empty()
            };
            Ok(engine.run_select(&q, false)?.0)
        }
        _ => unreachable!("only DML is planned here"),
    }
}

fn is_series(q: &Select) -> bool {
    matches!(
        q.from.as_slice(),
        [crate::sql::ast::FromItem::Series { .. }]
    )
}

fn minus(a: &BufferStats, b: &BufferStats) -> BufferStats {
    BufferStats {
        shared_hit: a.shared_hit - b.shared_hit,
        shared_read: a.shared_read - b.shared_read,
        shared_dirtied: a.shared_dirtied - b.shared_dirtied,
        shared_written: a.shared_written - b.shared_written,
        ..BufferStats::default()
    }
}

/// Whether `stmt` is a statement EXPLAIN shows as a ModifyTable node.
pub fn is_dml(stmt: &Statement) -> bool {
    matches!(
        stmt,
        Statement::Insert { .. } | Statement::Update { .. } | Statement::Delete { .. }
    )
}

/// PostgreSQL's rule: WAL needs ANALYZE.
pub fn check_options(options: &ExplainOptions) -> Result<(), SqlError> {
    if options.wal && !options.analyze {
        return Err(SqlError::new(
            crate::sql::error::ErrorKind::Semantic,
            "EXPLAIN option WAL requires ANALYZE",
        ));
    }
    Ok(())
}
