//! A query over a subquery in FROM (`SELECT … FROM (SELECT …) AS s`): the
//! subquery runs first and its rows are read as a table's would be, by a
//! `Subquery Scan` that checks the outer WHERE on each; the outer query then
//! sorts, limits and projects as over any table. (PostgreSQL often pulls a
//! simple subquery up into the outer query instead; the rows are the same.)
//! A `generate_series()` in FROM that is sorted reads the same way.

use super::executor::Executor;
use super::plan_node::{scan_conditions, PlanNode};
use super::row::Row;
use super::select::{projection, QueryResult};
use crate::sql::ast::{FromItem, Select, SelectItem};
use crate::sql::error::{ErrorKind, SqlError};
use crate::sql::eval::{bind, Scope};
use crate::value::{SqlType, Value};

/// Whether `q` reads a single subquery (or a sorted generate_series).
pub fn applies(q: &Select) -> bool {
    match (q.from.as_slice(), q.joins.is_empty()) {
        ([FromItem::Subquery { .. }], true) => true,
        ([FromItem::Series { .. }], true) => !q.order_by.is_empty(),
        _ => false,
    }
}

pub fn run<E: Executor>(
    engine: &mut E,
    q: &Select,
    execute: bool,
) -> Result<(PlanNode, QueryResult), SqlError> {
    let (query, alias, renames) = match &q.from[0] {
        FromItem::Subquery {
            query,
            alias,
            columns,
            // Alone in FROM, LATERAL has nothing before it to read.
            ..
        } => (query.as_ref().clone(), alias.clone(), columns.clone()),
        series => (
            Select {
                items: vec![SelectItem::Wildcard],
                from: vec![series.clone()],
                ..Select::empty()
            },
            series.visible_name().to_string(),
            Vec::new(),
        ),
    };
    let Rows {
        columns,
        rows: all,
        node: child,
    } = materialize(engine, &query, &alias, &renames, execute)?;
    let start = engine.now_us();
    let scope = Scope {
        columns: columns
            .into_iter()
            .map(|(c, ty)| (alias.clone(), c, ty))
            .collect(),
    };
    let filter = q
        .filter
        .as_ref()
        .map(|f| bind(f, &scope))
        .transpose()?
        .into_iter()
        .collect::<Vec<_>>();
    let mut rows: Vec<Row> = Vec::new();
    let mut removed = 0u64;
    for row in all {
        if engine.passes(&filter, &row)? {
            rows.push(row);
        } else {
            removed += 1;
        }
    }
    let details = scan_conditions(&[], q.filter.as_slice(), &[], None, removed);
    let node = if matches!(q.from[0], FromItem::Series { .. }) {
        // A function's rows are its own Function Scan's, filtered there.
        PlanNode {
            details,
            rows: rows.len() as u64,
            ..child
        }
    } else {
        PlanNode {
            title: format!("Subquery Scan on {alias}"),
            details,
            rows: rows.len() as u64,
            loops: 1,
            first_us: child.first_us,
            last_us: engine.now_us() - start + child.last_us,
            buffers: child.buffers,
            est_cost: child.est_cost,
            est_rows: child.est_rows,
            width: child.width,
            children: vec![child],
            ..PlanNode::default()
        }
    };
    let node = engine.finish_rows(node, &mut rows, q, &scope, start)?;
    let (columns, exprs) = projection(&q.items, &scope)?;
    let rows = rows
        .iter()
        .map(|r| exprs.iter().map(|e| engine.eval_bound(e, r)).collect())
        .collect::<Result<Vec<_>, SqlError>>()?;
    Ok((node, QueryResult { columns, rows }))
}

/// A subquery's rows, run once: what a join reads it from.
pub struct Rows {
    /// Its output columns (renamed by `AS s(a, b)`) and their types.
    pub columns: Vec<(String, SqlType)>,
    pub rows: Vec<Row>,
    /// The plan that produced them.
    pub node: PlanNode,
}

/// Runs a subquery in FROM once.
pub fn materialize<E: Executor>(
    engine: &mut E,
    query: &Select,
    alias: &str,
    renames: &[String],
    execute: bool,
) -> Result<Rows, SqlError> {
    let types = super::types::output_columns(engine, query).ok();
    let (node, result) = engine.run_select(query, execute)?;
    let columns = columns_of(alias, &result, renames, types.as_deref())?;
    let rows = result.rows.into_iter().map(Row::from_vec).collect();
    Ok(Rows {
        columns,
        rows,
        node,
    })
}

/// The subquery's columns: renamed by `AS s(a, b)`, typed as the parser
/// types them (or, where it cannot, by the first value).
fn columns_of(
    alias: &str,
    result: &QueryResult,
    renames: &[String],
    types: Option<&[(String, SqlType)]>,
) -> Result<Vec<(String, SqlType)>, SqlError> {
    if renames.len() > result.columns.len() {
        return Err(SqlError::new(
            ErrorKind::Semantic,
            format!(
                "table \"{alias}\" has {} columns available but {} columns specified",
                result.columns.len(),
                renames.len()
            ),
        ));
    }
    let mut columns = Vec::new();
    for (i, name) in result.columns.iter().enumerate() {
        let name = renames.get(i).unwrap_or(name).clone();
        let ty = match types.and_then(|t| t.get(i)) {
            Some((_, ty)) => *ty,
            None => first_type(result, i),
        };
        columns.push((name, ty));
    }
    Ok(columns)
}

fn first_type(result: &QueryResult, i: usize) -> SqlType {
    let first = result.rows.iter().map(|r| &r[i]).find(|v| !v.is_null());
    match first {
        Some(Value::Int(_)) => SqlType::Int8,
        Some(Value::Float(_)) => SqlType::Float8,
        Some(Value::Bool(_)) => SqlType::Bool,
        Some(Value::Numeric(_)) => SqlType::Numeric(None),
        _ => SqlType::Text,
    }
}
