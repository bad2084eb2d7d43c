//! `WITH RECURSIVE`, run as PostgreSQL's RecursiveUnion runs it
//! (nodeRecursiveunion.c): the non-recursive term's rows start the result
//! and the working table; the recursive term then runs over the working
//! table alone, again and again, each time its new rows (under UNION, those
//! not seen before) joining the result and becoming the next working table,
//! until a pass gives none. The rows found replace the WITH query, as a
//! VALUES list, before the query that reads it runs.
//!
//! Every pass is an ordinary query. A query that never stops (PostgreSQL
//! would run it until memory runs out) ends with a clear message at the
//! row budget (`max_rows`) or after [`MAX_PASSES`] passes, whichever comes
//! first, so a tab never hangs on one.

use super::aggregate::accumulate::GroupKey;
use super::executor::Executor;
use crate::sql::ast::{Expr, FromItem, Select, SelectItem, SetOp};
use crate::sql::error::{ErrorKind, SqlError};
use crate::value::Value;
use std::collections::HashSet;

/// The passes one recursive query may take: a pass costs a query, and a
/// runaway recursion adding one row a pass must end in well under a second.
pub const MAX_PASSES: usize = 10_000;

/// Whether `q` reads relation `name` in a FROM: its own, a join's, a
/// derived table's or one branch of its set operation.
pub fn reads(q: &Select, name: &str) -> bool {
    let item_reads = |item: &FromItem| match item {
        FromItem::Table { name: n, .. } => n == name,
        FromItem::Subquery { query, .. } => reads(query, name),
        _ => false,
    };
    q.from.iter().any(item_reads)
        || q.joins.iter().any(|j| item_reads(&j.item))
        || q.set_operation
            .as_ref()
            .is_some_and(|s| reads(&s.left, name) || reads(&s.right, name))
}

/// The UNION a WITH query is (under a column list, `SELECT * FROM (…)
/// name(a, b)`), with the names that list gives.
fn union_of(cte: &Select) -> (&Select, Option<Vec<String>>) {
    match cte.from.as_slice() {
        [FromItem::Subquery { query, columns, .. }]
            if cte.set_operation.is_none() && cte.items == [SelectItem::Wildcard] =>
        {
            (&**query, Some(columns.clone()))
        }
        _ => (cte, None),
    }
}

/// Marks WITH query `name` (its `cte`, which reads itself) as recursive:
/// PostgreSQL's error when it is no UNION.
pub fn mark(name: &str, cte: &mut Select) -> Result<(), SqlError> {
    let renamed = union_of(cte).1.is_some();
    let union = match (renamed, cte.from.as_mut_slice()) {
        (true, [FromItem::Subquery { query, .. }]) => &mut **query,
        _ => cte,
    };
    match &mut union.set_operation {
        Some(op) if op.op == SetOp::Union => {
            op.recursive = true;
            Ok(())
        }
        _ => Err(not_a_union(name)),
    }
}

/// Whether a WITH query is a recursive one.
pub fn is_recursive(cte: &Select) -> bool {
    union_of(cte)
        .0
        .set_operation
        .as_ref()
        .is_some_and(|op| op.recursive)
}

/// `q` with each of its recursive WITH queries replaced by the rows it
/// gives.
pub fn materialized<E: Executor>(engine: &mut E, q: &Select) -> Result<Select, SqlError> {
    let mut q = q.clone();
    for at in 0..q.with.len() {
        if is_recursive(&q.with[at].1) {
            let name = q.with[at].0.clone();
            let rows = run(engine, &name, &q.with[at].1, &q.with[..at])?;
            q.with[at].1 = rows;
        }
    }
    Ok(q)
}

/// Runs WITH query `name` (its `cte`, which may read the WITH queries
/// `before` it) to its fixpoint: the rows, as a query.
fn run<E: Executor>(
    engine: &mut E,
    name: &str,
    cte: &Select,
    before: &[(String, Select)],
) -> Result<Select, SqlError> {
    // `name(a, b) AS (…)` came as `SELECT * FROM (…) name(a, b)`.
    let (union, renamed) = union_of(cte);
    let op = match &union.set_operation {
        Some(op) if op.op == SetOp::Union => op,
        _ => return Err(not_a_union(name)),
    };
    if reads(&op.left, name) {
        return Err(SqlError::new(
            ErrorKind::Semantic,
            format!(
                "recursive reference to query \"{name}\" must not appear within its \
                 non-recursive term"
            ),
        ));
    }
    let max_rows = engine.settings().max_rows() as usize;
    let mut seen = HashSet::new();
    let (_, first) = engine.run_select(&with_before(&op.left, before, None), true)?;
    let columns = renamed.unwrap_or(first.columns);
    let mut working = fresh(first.rows, op.all, &mut seen)?;
    let mut all = working.clone();
    let mut passes = 0;
    while !working.is_empty() {
        passes += 1;
        if passes > MAX_PASSES {
            return Err(SqlError::new(
                ErrorKind::Limit,
                format!(
                    "the recursive query \"{name}\" still gives rows after {MAX_PASSES} passes \
                     (IndexLab's limit, so a recursion that never ends cannot hang the page); a \
                     condition that ends it sooner lets it finish"
                ),
            ));
        }
        let table = (name.to_string(), rows_query(name, &columns, &working));
        let term = with_before(&op.right, before, Some(table));
        let (_, next) = engine.run_select(&term, true)?;
        working = fresh(next.rows, op.all, &mut seen)?;
        all.extend(working.iter().cloned());
        if all.len() > max_rows {
            return Err(SqlError::new(
                ErrorKind::Limit,
                format!(
                    "the recursive query \"{name}\" gives more than max_rows={max_rows} rows; \
                     a condition that ends its recursion (or a larger max_rows) lets it finish"
                ),
            ));
        }
    }
    Ok(rows_query(name, &columns, &all))
}

/// A term able to read the WITH queries before its own (and, for the
/// recursive term, the working table under the query's name).
fn with_before(
    term: &Select,
    before: &[(String, Select)],
    table: Option<(String, Select)>,
) -> Select {
    let mut term = term.clone();
    let visible = before.iter().cloned().chain(table);
    term.with.splice(0..0, visible);
    term
}

/// The rows a pass adds: all of them under UNION ALL; under UNION, each
/// row not seen before, once.
fn fresh(
    rows: Vec<Vec<Value>>,
    all: bool,
    seen: &mut HashSet<GroupKey>,
) -> Result<Vec<Vec<Value>>, SqlError> {
    if all {
        return Ok(rows);
    }
    let mut out = Vec::new();
    for row in rows {
        if seen.insert(GroupKey::checked(&row)?) {
            out.push(row);
        }
    }
    Ok(out)
}

/// `rows` as a query of columns `columns`: a VALUES list, or no row.
fn rows_query(name: &str, columns: &[String], rows: &[Vec<Value>]) -> Select {
    let mut values = Select::empty();
    if rows.is_empty() {
        // No VALUES list is empty: one row of NULLs, filtered out.
        values.items = columns
            .iter()
            .map(|c| SelectItem::Expr {
                expr: Expr::Literal(Value::Null),
                alias: Some(c.clone()),
            })
            .collect();
        values.filter = Some(Expr::Literal(Value::Bool(false)));
        return values;
    }
    values.values = Some(
        rows.iter()
            .map(|r| r.iter().cloned().map(Expr::Literal).collect())
            .collect(),
    );
    let mut q = Select::empty();
    q.items = vec![SelectItem::Wildcard];
    q.from = vec![FromItem::Subquery {
        query: Box::new(values),
        alias: name.to_string(),
        columns: columns.to_vec(),
        lateral: false,
    }];
    q
}

fn not_a_union(name: &str) -> SqlError {
    SqlError::new(
        ErrorKind::Semantic,
        format!(
            "recursive query \"{name}\" does not have the form non-recursive-term UNION [ALL] \
             recursive-term"
        ),
    )
}
