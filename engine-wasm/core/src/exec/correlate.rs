//! A query that reads columns of a query around it: a LATERAL subquery (or
//! a function in FROM) reading the FROM items before it. PostgreSQL runs
//! such a query once per outer row, handing it the row's values as
//! parameters; here, for one outer row, each outer reference becomes that
//! row's value, typed as its column is, and the query then runs as any other.
//!
//! Names resolve innermost first, as PostgreSQL's do: a column the query's
//! own FROM (or a FROM of a subquery inside it) has is the query's own, and
//! only a name none of them has reads the outer row.

use super::engine::QueryEngine;
use crate::sql::ast::{Expr, FromItem, Select};
use crate::sql::error::SqlError;
use crate::sql::eval::Scope;
use crate::value::Value;

/// `q` with its references to `outer`'s columns replaced by `row`'s values.
pub fn bind_outer<E: QueryEngine>(
    engine: &E,
    q: &Select,
    outer: &Scope,
    row: &[Value],
) -> Result<Select, SqlError> {
    Level { outer, row }.select(engine, q, &[])
}

/// `q` with each outer reference a typed NULL: enough to learn the types
/// of the columns it returns before any outer row exists.
pub fn bind_outer_nulls<E: QueryEngine>(
    engine: &E,
    q: &Select,
    outer: &Scope,
) -> Result<Select, SqlError> {
    let nulls = vec![Value::Null; outer.columns.len()];
    bind_outer(engine, q, outer, &nulls)
}

/// A LATERAL item with the columns it reads from `outer` as typed NULLs:
/// no longer lateral, so it can be typed alone.
pub fn bind_item_nulls<E: QueryEngine>(
    engine: &E,
    item: &FromItem,
    outer: &Scope,
) -> Result<FromItem, SqlError> {
    let nulls = vec![Value::Null; outer.columns.len()];
    let level = Level { outer, row: &nulls };
    match item {
        FromItem::Subquery {
            query,
            alias,
            columns,
            ..
        } => Ok(FromItem::Subquery {
            query: Box::new(level.select(engine, query, &[])?),
            alias: alias.clone(),
            columns: columns.clone(),
            lateral: false,
        }),
        _ => level.bind_from_item(engine, item, &[]),
    }
}

/// Whether `item` reads columns of the FROM items before it (`scope`): a
/// LATERAL subquery, or a function in FROM whose arguments name a column
/// (PostgreSQL makes every function in FROM lateral).
pub fn reads_outer(item: &FromItem) -> bool {
    match item {
        FromItem::Subquery { lateral, .. } => *lateral,
        FromItem::Series { .. } => {
            let mut named = false;
            item.map_exprs(&mut |e| {
                named |= matches!(e, Expr::Column { .. });
                None
            });
            named
        }
        _ => false,
    }
}

struct Level<'a> {
    outer: &'a Scope,
    row: &'a [Value],
}

impl Level<'_> {
    /// One query; `shadow` holds the scopes of the queries around it, up to
    /// (not including) the outer row's.
    fn select<E: QueryEngine>(
        &self,
        engine: &E,
        q: &Select,
        shadow: &[Scope],
    ) -> Result<Select, SqlError> {
        let mut q = q.clone();
        if let Some(op) = q.set_operation.as_mut() {
            op.left = self.select(engine, &op.left, shadow)?;
            op.right = self.select(engine, &op.right, shadow)?;
        }
        for (_, cte) in &mut q.with {
            *cte = self.select(engine, cte, shadow)?;
        }
        // FROM items see the levels around the query, not its own columns.
        let mut from = std::mem::take(&mut q.from);
        let mut joins = std::mem::take(&mut q.joins);
        for item in from.iter_mut().chain(joins.iter_mut().map(|j| &mut j.item)) {
            *item = self.bind_from_item(engine, item, shadow)?;
        }
        q.from = from;
        let own = super::types::from_scope(
            engine,
            &Select {
                joins: joins.clone(),
                ..q.clone()
            },
        )?;
        let mut inner: Vec<Scope> = shadow.to_vec();
        inner.push(own);
        let mut error = None;
        let mut f = |e: &Expr| self.expr(engine, e, &inner, &mut error);
        for j in &mut joins {
            j.on = j.on.as_ref().map(|e| e.map(&mut f));
        }
        let mut out = Select {
            from: Vec::new(),
            joins: Vec::new(),
            with: Vec::new(),
            set_operation: None,
            ..q.clone()
        }
        .map_exprs(&mut f);
        if let Some(e) = error {
            return Err(e);
        }
        out.from = q.from;
        out.joins = joins;
        out.with = q.with;
        out.set_operation = q.set_operation;
        Ok(out)
    }

    fn bind_from_item<E: QueryEngine>(
        &self,
        engine: &E,
        item: &FromItem,
        shadow: &[Scope],
    ) -> Result<FromItem, SqlError> {
        if let FromItem::Subquery {
            query,
            alias,
            columns,
            lateral,
        } = item
        {
            return Ok(FromItem::Subquery {
                query: Box::new(self.select(engine, query, shadow)?),
                alias: alias.clone(),
                columns: columns.clone(),
                lateral: *lateral,
            });
        }
        let mut error = None;
        let out = item.map_exprs(&mut |e| self.expr(engine, e, shadow, &mut error));
        error.map_or(Ok(out), Err)
    }

    /// One node of an expression: an outer reference answered, a subquery
    /// bound a level deeper, anything else left to `Expr::map`.
    fn expr<E: QueryEngine>(
        &self,
        engine: &E,
        e: &Expr,
        shadow: &[Scope],
        error: &mut Option<SqlError>,
    ) -> Option<Expr> {
        let mut deeper = |q: &Select| match self.select(engine, q, shadow) {
            Ok(q) => Box::new(q),
            Err(err) => {
                error.get_or_insert(err);
                Box::new(q.clone())
            }
        };
        match e {
            Expr::Column { table, name } => {
                if shadow.iter().any(|s| has(s, table.as_deref(), name)) {
                    return None;
                }
                let i = self.outer.resolve(table.as_deref(), name).ok()?;
                Some(Expr::Cast {
                    expr: Box::new(Expr::Literal(self.row[i].clone())),
                    ty: self.outer.columns[i].2,
                })
            }
            Expr::ScalarSubquery(q) => Some(Expr::ScalarSubquery(deeper(q))),
            Expr::Exists { query, negated } => Some(Expr::Exists {
                query: deeper(query),
                negated: *negated,
            }),
            Expr::InSubquery {
                expr,
                query,
                negated,
            } => {
                let query = deeper(query);
                let mut err = None;
                let expr = expr.map(&mut |x| self.expr(engine, x, shadow, &mut err));
                if let Some(err) = err {
                    error.get_or_insert(err);
                }
                Some(Expr::InSubquery {
                    expr: Box::new(expr),
                    query,
                    negated: *negated,
                })
            }
            _ => None,
        }
    }
}

/// Whether `scope` has the column a reference names: a qualified one by its
/// table (an unknown column of a known table is the query's own error).
fn has(scope: &Scope, table: Option<&str>, name: &str) -> bool {
    scope.columns.iter().any(|(t, c, _)| match table {
        Some(want) => t == want,
        None => c == name,
    })
}
