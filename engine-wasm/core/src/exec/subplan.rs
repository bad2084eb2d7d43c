//! Correlated subqueries: a subquery that reads its query's own columns
//! (`WHERE EXISTS (SELECT 1 FROM u WHERE u.k = t.k)`, `SELECT (SELECT max(v)
//! FROM u WHERE u.k = t.k) FROM t`). PostgreSQL runs such a subquery as a
//! SubPlan, once per row of its query, with the row's values as
//! parameters. IndexLab does the same through LATERAL: each correlated
//! subquery expression becomes a one-row item `LATERAL (SELECT expr AS
//! value)` joined to the FROM list, and the expression's place is taken by
//! that item's column. For each outer row the item's query gets the row's
//! values ([`super::correlate`]), which leaves its subquery uncorrelated, so
//! it is answered as any other ([`super::subquery`]): EXISTS true or false,
//! IN with its NULL rules, a scalar subquery NULL when empty and an error
//! past one row.

use super::engine::QueryEngine;
use crate::sql::ast::{Expr, FromItem, Join, JoinKind, OrderItem, Select, SelectItem};
use crate::sql::error::{unsupported, SqlError};
use crate::sql::eval::Scope;

/// The column each SubPlan item returns.
const VALUE: &str = "value";

/// `q` with its correlated subqueries joined as LATERAL items, or `None`
/// when its select list and WHERE have none.
pub fn as_lateral<E: QueryEngine>(engine: &E, q: &Select) -> Result<Option<Select>, SqlError> {
    if q.from.is_empty() {
        return Ok(None);
    }
    // A query that cannot be typed fails later with its own error.
    let Ok(outer) = super::types::from_scope(engine, q) else {
        return Ok(None);
    };
    let mut found = Vec::new();
    let filter = (q.filter.as_ref())
        .map(|f| f.map(&mut |e: &Expr| rewrite_expr(engine, e, &outer, &mut found)));
    let in_where = found.len();
    let mut rewrite = |e: &Expr| rewrite_expr(engine, e, &outer, &mut found);
    let items: Vec<SelectItem> = q
        .items
        .iter()
        .map(|i| match i {
            SelectItem::Expr { expr, alias } => SelectItem::Expr {
                expr: expr.map(&mut rewrite),
                alias: alias
                    .clone()
                    .or_else(|| super::subquery::column_name(expr))
                    .or_else(|| Some(super::select::output_name(expr))),
            },
            SelectItem::Wildcard => SelectItem::Wildcard,
        })
        .collect();
    let order_by: Vec<OrderItem> = (q.order_by.iter())
        .map(|o| OrderItem {
            expr: o.expr.map(&mut rewrite),
            ..o.clone()
        })
        .collect();
    if found.is_empty() {
        return Ok(None);
    }
    if found.len() > in_where && q.groups() {
        return Err(unsupported(
            "a correlated subquery in the select list of a query that groups rows",
        ));
    }
    // `*` means the FROM list's columns, not the SubPlan items'.
    let mut out = super::types::star_expanded(engine, &Select { items, ..q.clone() })?;
    out.filter = filter;
    out.order_by = order_by;
    let after = q.from.len() - 1;
    for (n, query) in found.into_iter().enumerate() {
        out.joins.push(Join {
            item: FromItem::Subquery {
                query: Box::new(query),
                alias: subplan_name(n),
                columns: Vec::new(),
                lateral: true,
            },
            kind: JoinKind::Inner,
            using: Vec::new(),
            on: None,
            after,
            natural: false,
        });
    }
    Ok(Some(out))
}

/// A correlated subquery expression replaced by its item's column (and its
/// one-row query kept in `found`); any other subquery left whole.
fn rewrite_expr<E: QueryEngine>(
    engine: &E,
    e: &Expr,
    outer: &Scope,
    found: &mut Vec<Select>,
) -> Option<Expr> {
    let query = match e {
        Expr::ScalarSubquery(q) => q,
        Expr::Exists { query, .. } | Expr::InSubquery { query, .. } => query,
        _ => return None,
    };
    if !reads_outer(engine, query, outer) {
        return Some(e.clone());
    }
    // The same expression twice (a select item and its ORDER BY) is one item.
    let same = found.iter().position(|q| {
        matches!(q.items.first(),
        Some(SelectItem::Expr { expr, .. }) if expr == e)
    });
    if let Some(n) = same {
        return Some(Expr::Column {
            table: Some(subplan_name(n)),
            name: VALUE.into(),
        });
    }
    let mut one_row = Select::empty();
    one_row.items = vec![SelectItem::Expr {
        expr: e.clone(),
        alias: Some(VALUE.into()),
    }];
    let name = subplan_name(found.len());
    found.push(one_row);
    Some(Expr::Column {
        table: Some(name),
        name: VALUE.into(),
    })
}

/// Whether `q` reads a column of `outer` (binding it changes the query).
/// Only a query that names such a column can, which a walk without
/// recursion tells first (a 450-branch UNION names none).
fn reads_outer<E: QueryEngine>(engine: &E, q: &Select, outer: &Scope) -> bool {
    names_outer(q, outer)
        && super::correlate::bind_outer_nulls(engine, q, outer).is_ok_and(|bound| &bound != q)
}

/// Whether any branch of `q` (or a subquery in its expressions, FROM or
/// WITH) names a column `outer` has. Branches are walked in a loop; only
/// subqueries nest, as deep as the parser lets them.
fn names_outer(q: &Select, outer: &Scope) -> bool {
    super::set_operation::branches(q)
        .into_iter()
        .any(|branch| branch_names_outer(branch, outer))
}

fn branch_names_outer(branch: &Select, outer: &Scope) -> bool {
    let mut found = false;
    let mut look = |e: &Expr| {
        e.visit(&mut |x| match x {
            Expr::Column { table, name } => {
                found |= (outer.columns.iter())
                    .any(|(t, c, _)| c == name && table.as_ref().is_none_or(|want| want == t))
            }
            Expr::ScalarSubquery(sub)
            | Expr::Exists { query: sub, .. }
            | Expr::InSubquery { query: sub, .. } => found |= names_outer(sub, outer),
            _ => {}
        })
    };
    let items = branch.items.iter().filter_map(|i| match i {
        SelectItem::Expr { expr, .. } => Some(expr),
        SelectItem::Wildcard => None,
    });
    items
        .chain(&branch.filter)
        .chain(&branch.having)
        .chain(&branch.group_by)
        .chain(branch.order_by.iter().map(|o| &o.expr))
        .chain(branch.joins.iter().filter_map(|j| j.on.as_ref()))
        .for_each(&mut look);
    let from = branch
        .from
        .iter()
        .chain(branch.joins.iter().map(|j| &j.item));
    for item in from {
        if let FromItem::Subquery { .. } = item {
            continue;
        }
        item.map_exprs(&mut |e| {
            look(e);
            Some(e.clone())
        });
    }
    let nested = (branch
        .from
        .iter()
        .chain(branch.joins.iter().map(|j| &j.item)))
    .filter_map(|i| match i {
        FromItem::Subquery { query, .. } => Some(query.as_ref()),
        _ => None,
    })
    .chain(branch.with.iter().map(|(_, c)| c));
    found || nested.into_iter().any(|s| names_outer(s, outer))
}

/// The item's name, as EXPLAIN names PostgreSQL's SubPlans.
fn subplan_name(n: usize) -> String {
    format!("SubPlan {}", n + 1)
}

/// Whether `q`, its WITH queries or its subqueries in FROM hold a
/// correlated subquery: EXPLAIN refuses them, as PostgreSQL plans them as
/// SubPlans or semi-joins, which IndexLab does not draw.
pub fn anywhere<E: QueryEngine>(engine: &E, q: &Select) -> bool {
    if super::subquery::any(q) && matches!(as_lateral(engine, q), Ok(Some(_))) {
        return true;
    }
    let items = q.from.iter().chain(q.joins.iter().map(|j| &j.item));
    let in_from = items.filter_map(|i| match i {
        FromItem::Subquery { query, .. } => Some(query.as_ref()),
        _ => None,
    });
    q.with
        .iter()
        .map(|(_, c)| c)
        .chain(in_from)
        .any(|s| anywhere(engine, s))
}

/// EXPLAIN's refusal of a correlated subquery.
pub fn refuse_explain<E: QueryEngine>(engine: &E, q: &Select) -> Result<(), SqlError> {
    match anywhere(engine, q) {
        true => Err(explain_refused()),
        false => Ok(()),
    }
}

pub fn explain_refused() -> SqlError {
    unsupported(
        "EXPLAIN of a query with a correlated subquery (PostgreSQL runs it as a SubPlan \
         or a semi-join, plans IndexLab does not draw; the query itself runs)",
    )
}

/// An UPDATE's or DELETE's WHERE split: the conjuncts its scan checks, and
/// those holding a correlated subquery, checked on each row the scan keeps
/// (as PostgreSQL's SubPlan in the scan's filter is, row by row).
pub fn split_where<E: QueryEngine>(
    engine: &E,
    table: usize,
    filter: Option<&Expr>,
) -> (Option<Expr>, Vec<Expr>) {
    let Some(f) = filter.filter(|f| super::subquery::in_expr(f)) else {
        return (filter.cloned(), Vec::new());
    };
    let outer = engine.table_scope(table);
    let mut parts = Vec::new();
    crate::sql::plan::conjuncts(f, &mut parts);
    let (correlated, plain): (Vec<Expr>, Vec<Expr>) = parts
        .into_iter()
        .partition(|c| correlated_in(engine, c, &outer));
    (super::join::and_all(plain), correlated)
}

/// Whether an UPDATE's or DELETE's WHERE holds a correlated subquery.
pub fn correlated_where<E: QueryEngine>(engine: &E, table: usize, filter: Option<&Expr>) -> bool {
    !split_where(engine, table, filter).1.is_empty()
}

/// Whether a subquery of `e` reads `outer`'s columns.
pub fn correlated_in<E: QueryEngine>(engine: &E, e: &Expr, outer: &Scope) -> bool {
    let mut found = false;
    e.visit(&mut |x| match x {
        Expr::ScalarSubquery(q)
        | Expr::Exists { query: q, .. }
        | Expr::InSubquery { query: q, .. } => found |= reads_outer(engine, q, outer),
        _ => {}
    });
    found
}

/// Whether `row` of `table` passes `conditions`, each run as a one-row
/// query bound to the row.
pub fn row_passes<E: super::executor::Executor>(
    engine: &mut E,
    table: usize,
    row: &[crate::value::Value],
    conditions: &[Expr],
) -> Result<bool, SqlError> {
    let outer = engine.table_scope(table);
    for c in conditions {
        let mut one_row = Select::empty();
        one_row.items = vec![SelectItem::Expr {
            expr: c.clone(),
            alias: Some(VALUE.into()),
        }];
        let bound = super::correlate::bind_outer(engine, &one_row, &outer, row)?;
        let (_, result) = engine.run_select(&bound, true)?;
        let holds = result.rows.first().and_then(|r| r.first());
        if holds != Some(&crate::value::Value::Bool(true)) {
            return Ok(false);
        }
    }
    Ok(true)
}

/// One value of an UPDATE's SET list: an expression over the target row (or
/// the joined row), or one holding a correlated subquery, run for each row
/// as a one-row query bound to it.
pub enum SetValue {
    Bound(crate::sql::eval::Bound),
    PerRow(Expr),
}

/// Binds an UPDATE's SET list over `scope`: each target column with its
/// value. An uncorrelated subquery is answered once, as an InitPlan.
pub fn bind_sets<E: super::executor::Executor>(
    engine: &mut E,
    table: usize,
    scope: &Scope,
    assignments: &[(String, Expr)],
) -> Result<Vec<(usize, SetValue)>, SqlError> {
    let columns = engine.table_scope(table);
    assignments
        .iter()
        .map(|(c, e)| {
            let column = columns.resolve(None, c)?;
            let value = match correlated_in(engine, e, scope) {
                true => SetValue::PerRow(e.clone()),
                false => {
                    let e = super::subquery::resolve_expr(engine, e)?;
                    SetValue::Bound(crate::sql::eval::bind(&e, scope)?)
                }
            };
            Ok((column, value))
        })
        .collect()
}

/// The value a SET item gives for `row` (over `scope`).
pub fn set_value<E: super::executor::Executor>(
    engine: &mut E,
    scope: &Scope,
    row: &[crate::value::Value],
    value: &SetValue,
) -> Result<crate::value::Value, SqlError> {
    match value {
        SetValue::Bound(b) => engine.eval_bound(b, row),
        SetValue::PerRow(e) => {
            let mut one_row = Select::empty();
            one_row.items = vec![SelectItem::Expr {
                expr: e.clone(),
                alias: Some(VALUE.into()),
            }];
            let bound = super::correlate::bind_outer(engine, &one_row, scope, row)?;
            let (_, result) = engine.run_select(&bound, true)?;
            let first = result
                .rows
                .into_iter()
                .next()
                .and_then(|r| r.into_iter().next());
            Ok(first.unwrap_or(crate::value::Value::Null))
        }
    }
}

/// The SET list as `check_constants` reads it: a per-row value checks as
/// NULL would (nothing to fold while planning).
pub fn planned_sets(sets: &[(usize, SetValue)]) -> Vec<(usize, crate::sql::eval::Bound)> {
    sets.iter()
        .map(|(c, v)| match v {
            SetValue::Bound(b) => (*c, b.clone()),
            SetValue::PerRow(_) => (*c, crate::sql::eval::Bound::Lit(crate::value::Value::Null)),
        })
        .collect()
}
