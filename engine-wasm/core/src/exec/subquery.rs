//! Subqueries that do not read the outer query's columns: `(SELECT …)` as a
//! value, `EXISTS (SELECT …)` and `x IN (SELECT …)`. PostgreSQL runs such a
//! subquery once (an InitPlan, or a hashed SubPlan for IN); so does IndexLab,
//! before the outer query, putting its answer in the subquery's place: a
//! value, true or false, or the list of values `IN` compares with (with
//! PostgreSQL's NULL rules, which an IN list shares).

use super::executor::Executor;
use crate::sql::ast::{Expr, OrderItem, Select, SelectItem};
use crate::sql::error::{unsupported, ErrorKind, SqlError};
use crate::value::Value;

/// Whether an expression holds a subquery.
pub fn in_expr(e: &Expr) -> bool {
    let mut found = false;
    e.visit(&mut |x| {
        found |= matches!(
            x,
            Expr::ScalarSubquery(_) | Expr::Exists { .. } | Expr::InSubquery { .. }
        )
    });
    found
}

/// Whether the query's own clauses hold a subquery.
pub fn any(q: &Select) -> bool {
    q.items.iter().any(|i| match i {
        SelectItem::Expr { expr, .. } => in_expr(expr),
        SelectItem::Wildcard => false,
    }) || q.filter.iter().chain(&q.having).any(in_expr)
        || q.order_by.iter().any(|o| in_expr(&o.expr))
}

/// `q` with each subquery run and replaced by its answer.
pub fn resolve<E: Executor>(engine: &mut E, q: &Select) -> Result<Select, SqlError> {
    let seeing = seeing_ctes(q);
    let q = &seeing;
    let items = q
        .items
        .iter()
        .map(|i| {
            Ok(match i {
                SelectItem::Expr { expr, alias } => SelectItem::Expr {
                    alias: alias.clone().or_else(|| column_name(expr)),
                    expr: resolve_expr(engine, expr)?,
                },
                SelectItem::Wildcard => SelectItem::Wildcard,
            })
        })
        .collect::<Result<_, SqlError>>()?;
    let filter = q
        .filter
        .as_ref()
        .map(|f| resolve_expr(engine, f))
        .transpose()?;
    let having = q
        .having
        .as_ref()
        .map(|h| resolve_expr(engine, h))
        .transpose()?;
    let order_by = q
        .order_by
        .iter()
        .map(|o| {
            Ok(OrderItem {
                expr: resolve_expr(engine, &o.expr)?,
                ..o.clone()
            })
        })
        .collect::<Result<_, SqlError>>()?;
    Ok(Select {
        items,
        filter,
        having,
        order_by,
        ..q.clone()
    })
}

/// `q` with the WITH queries it defines visible inside the subqueries of
/// its expressions (`WITH a AS (…) SELECT … WHERE x < (SELECT … FROM a)`),
/// as PostgreSQL's scoping has them; a subquery's own WITH query of the
/// same name hides the outer one.
fn seeing_ctes(q: &Select) -> Select {
    if q.with.is_empty() {
        return q.clone();
    }
    let attach = |sub: &Select| crate::sql::rewrite::seeing_with(sub, &q.with);
    let mut f = |e: &Expr| match e {
        Expr::ScalarSubquery(s) => Some(Expr::ScalarSubquery(Box::new(attach(s)))),
        Expr::Exists { query, negated } => Some(Expr::Exists {
            query: Box::new(attach(query)),
            negated: *negated,
        }),
        Expr::InSubquery {
            expr,
            query,
            negated,
        } => Some(Expr::InSubquery {
            expr: expr.clone(),
            query: Box::new(attach(query)),
            negated: *negated,
        }),
        _ => None,
    };
    let mut out = q.clone();
    for item in &mut out.items {
        if let SelectItem::Expr { expr, .. } = item {
            *expr = expr.map(&mut f);
        }
    }
    out.filter = q.filter.as_ref().map(|e| e.map(&mut f));
    out.having = q.having.as_ref().map(|e| e.map(&mut f));
    for o in &mut out.order_by {
        o.expr = o.expr.map(&mut f);
    }
    out
}

/// PostgreSQL's name for a select item that is a subquery: the subquery's
/// own column's, or `exists`.
pub(super) fn column_name(e: &Expr) -> Option<String> {
    match e {
        // A set operation's column is named by its first branch.
        Expr::ScalarSubquery(q) => match super::set_operation::branches(q)[0].items.first() {
            Some(SelectItem::Expr { alias: Some(a), .. }) => Some(a.clone()),
            Some(SelectItem::Expr { expr, .. }) => Some(super::select::output_name(expr)),
            _ => None,
        },
        Expr::Exists { .. } => Some("exists".into()),
        _ => None,
    }
}

/// One expression with its subqueries answered.
pub fn resolve_expr<E: Executor>(engine: &mut E, e: &Expr) -> Result<Expr, SqlError> {
    if !in_expr(e) {
        return Ok(e.clone());
    }
    let mut error = None;
    let out = e.map(&mut |x| {
        let answer = match x {
            Expr::ScalarSubquery(q) => scalar(engine, q),
            Expr::Exists { query, negated } => rows(engine, query, None)
                .map(|r| Expr::Literal(Value::Bool(r.is_empty() == *negated))),
            Expr::InSubquery {
                expr,
                query,
                negated,
            } => resolve_expr(engine, expr).and_then(|left| {
                if untyped_null_column(query) {
                    return Err(crate::sql::error::unsupported(
                        "IN of a subquery whose column is an untyped NULL (PostgreSQL reads \
                         it as text, which compares only with text)",
                    )
                    .near("null"));
                }
                let values = rows(engine, query, Some(1))?;
                Ok(Expr::InList {
                    expr: Box::new(left),
                    list: values
                        .into_iter()
                        .map(|mut r| Expr::Literal(r.swap_remove(0)))
                        .collect(),
                    negated: *negated,
                })
            }),
            _ => return None,
        };
        match answer {
            Ok(e) => Some(e),
            Err(err) => {
                error.get_or_insert(err);
                Some(x.clone())
            }
        }
    });
    match error {
        Some(e) => Err(e),
        None => Ok(out),
    }
}

/// The first table qualifier in `q`'s own clauses that names none of its
/// FROM items (`t2.x` in `SELECT … FROM t1`).
pub fn foreign_qualifier(q: &Select) -> Option<String> {
    let names: Vec<&str> = q
        .from
        .iter()
        .chain(q.joins.iter().map(|j| &j.item))
        .map(|f| f.visible_name())
        .collect();
    let mut bad = None;
    let mut look = |e: &Expr| {
        e.visit(&mut |x| {
            if let Expr::Column { table: Some(t), .. } = x {
                if !names.contains(&t.as_str()) && bad.is_none() {
                    bad = Some(t.clone());
                }
            }
        })
    };
    for item in &q.items {
        if let SelectItem::Expr { expr, .. } = item {
            look(expr);
        }
    }
    q.filter.iter().chain(&q.having).for_each(&mut look);
    q.group_by.iter().for_each(&mut look);
    q.order_by.iter().for_each(|o| look(&o.expr));
    q.joins
        .iter()
        .filter_map(|j| j.on.as_ref())
        .for_each(&mut look);
    bad
}

/// The subquery's rows; `columns` checks how many it must return.
fn rows<E: Executor>(
    engine: &mut E,
    q: &Select,
    columns: Option<usize>,
) -> Result<Vec<Vec<Value>>, SqlError> {
    refuse_correlated(q)?;
    let (_, result) = engine.run_select(q, true).map_err(correlated)?;
    if let Some(n) = columns {
        if result.columns.len() > n {
            return Err(SqlError::new(
                ErrorKind::Semantic,
                "subquery has too many columns",
            ));
        }
    }
    Ok(result.rows)
}

fn scalar<E: Executor>(engine: &mut E, q: &Select) -> Result<Expr, SqlError> {
    refuse_correlated(q)?;
    let (_, result) = engine.run_select(q, true).map_err(correlated)?;
    if result.columns.len() != 1 {
        return Err(SqlError::new(
            ErrorKind::Semantic,
            "subquery must return only one column",
        ));
    }
    match result.rows.as_slice() {
        [] => Ok(Expr::Literal(Value::Null)),
        [row] => Ok(Expr::Literal(row[0].clone())),
        _ => Err(SqlError::new(
            ErrorKind::Execution,
            "more than one row returned by a subquery used as an expression",
        )),
    }
}

/// A subquery that qualifies a column by a table of the outer query.
fn refuse_correlated(q: &Select) -> Result<(), SqlError> {
    let branches = super::set_operation::branches(q);
    match branches.into_iter().find_map(foreign_qualifier) {
        Some(t) => Err(unsupported(format!(
            "a correlated subquery (it reads \"{t}\", a table of the outer query)"
        ))),
        None => Ok(()),
    }
}

/// A subquery run alone that names a column its own FROM lacks most likely
/// reads the outer query's: said as such.
fn correlated(e: SqlError) -> SqlError {
    if e.message.starts_with("column \"") && e.message.ends_with("does not exist") {
        return unsupported(format!(
            "a correlated subquery (one that reads the outer query's columns: {})",
            e.message
        ));
    }
    e
}

/// Whether every branch of `q` selects a bare NULL: PostgreSQL resolves such
/// a column's unknown type as text.
fn untyped_null_column(q: &Select) -> bool {
    if let Some(op) = &q.set_operation {
        return untyped_null_column(&op.left) && untyped_null_column(&op.right);
    }
    matches!(
        q.items.first(),
        Some(SelectItem::Expr {
            expr: Expr::Literal(crate::value::Value::Null),
            ..
        })
    )
}
