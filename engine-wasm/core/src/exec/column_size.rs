//! `pg_column_size(x)`: how many bytes x's datum takes. The answer depends on
//! what the value is not: its type (an int4 is 4 bytes, an int8 8) and
//! whether it was read from a row (a short text stored with a 1-byte header)
//! or computed (a 4-byte header). Before a query runs, each call gets both
//! as extra arguments (`sql/functions.rs` `column_size` reads them).

use super::engine::QueryEngine;
use crate::sql::ast::{Expr, FromItem, Select, SelectItem};
use crate::sql::error::{unsupported, SqlError};
use crate::sql::eval::Scope;
use crate::sql::functions::ScalarFunc;
use crate::value::{SqlType, Value};

/// Whether the query calls a function that must be told its arguments'
/// types before it runs: pg_column_size() here, or yb_hash_code().
pub fn any_pending(q: &Select) -> bool {
    pending(q) || super::yb_hash_code::pending(q)
}

/// The query with both kinds of calls told.
pub fn annotate_all<E: QueryEngine>(engine: &E, q: &Select) -> Result<Select, SqlError> {
    let told = if pending(q) {
        annotate(engine, q)?
    } else {
        q.clone()
    };
    if super::yb_hash_code::pending(&told) {
        return super::yb_hash_code::annotate(engine, &told);
    }
    Ok(told)
}

/// Whether the query's select list calls pg_column_size() not yet told.
pub fn pending(q: &Select) -> bool {
    let mut found = false;
    for item in &q.items {
        if let SelectItem::Expr { expr, .. } = item {
            expr.visit(&mut |x| found |= is_bare_call(x));
        }
    }
    found
}

fn is_bare_call(e: &Expr) -> bool {
    matches!(e, Expr::Function { func: ScalarFunc::PgColumnSize, args } if args.len() == 1)
}

/// The query with each pg_column_size(x) of its select list told x's
/// length and whether x is a stored column.
pub fn annotate<E: QueryEngine>(engine: &E, q: &Select) -> Result<Select, SqlError> {
    let scope = super::types::from_scope(engine, q)?;
    let mut out = q.clone();
    for item in &mut out.items {
        let SelectItem::Expr { expr, .. } = item else {
            continue;
        };
        let mut failed = None;
        *expr = expr.map(&mut |x| {
            if !is_bare_call(x) {
                return None;
            }
            let Expr::Function { args, .. } = x else {
                return None;
            };
            match told(&args[0], &scope, q) {
                Ok(e) => Some(e),
                Err(e) => {
                    failed.get_or_insert(e);
                    None
                }
            }
        });
        if let Some(e) = failed {
            return Err(e);
        }
    }
    Ok(out)
}

fn told(arg: &Expr, scope: &Scope, q: &Select) -> Result<Expr, SqlError> {
    let (len, stored) = match arg {
        // An untyped literal is a cstring: its bytes and a terminating NUL.
        Expr::Literal(Value::Text(_)) => (-2, false),
        Expr::Literal(Value::Null) => (4, false),
        Expr::Column { table, name } => {
            let item = scope
                .resolve(table.as_deref(), name)
                .ok()
                .map(|i| scope.columns[i].0.clone());
            let stored = item.is_some_and(|item| stored_in_row(q, &item, name));
            (type_length(super::types::type_of(arg, scope)?)?, stored)
        }
        _ => (type_length(super::types::type_of(arg, scope)?)?, false),
    };
    Ok(Expr::Function {
        func: ScalarFunc::PgColumnSize,
        args: vec![
            arg.clone(),
            Expr::Literal(Value::Int(len)),
            Expr::Literal(Value::Bool(stored)),
        ],
    })
}

/// Whether column `name` of FROM item `item` in `q` is a table's column as
/// stored in its row: a table's own, or passed through a subquery (which
/// PostgreSQL pulls up). A value a subquery computes is a fresh datum, with
/// a 4-byte header.
fn stored_in_row(q: &Select, item: &str, name: &str) -> bool {
    let items = q.from.iter().chain(q.joins.iter().map(|j| &j.item));
    let Some(found) = items.into_iter().find(|f| f.visible_name() == item) else {
        return false;
    };
    match found {
        FromItem::Table { .. } => true,
        FromItem::Subquery { query, columns, .. } if columns.is_empty() => {
            let named = query.items.iter().find_map(|si| match si {
                SelectItem::Expr { expr, alias }
                    if alias
                        .clone()
                        .unwrap_or_else(|| super::select::output_name(expr))
                        == name =>
                {
                    Some(expr)
                }
                _ => None,
            });
            let from_any = |n: &str| {
                query
                    .from
                    .iter()
                    .any(|f| stored_in_row(query, f.visible_name(), n))
            };
            match named {
                Some(Expr::Column {
                    table: Some(t),
                    name: n,
                }) => stored_in_row(query, t, n),
                Some(Expr::Column {
                    table: None,
                    name: n,
                }) => from_any(n),
                Some(_) => false,
                None => query.items.contains(&SelectItem::Wildcard) && from_any(name),
            }
        }
        _ => false,
    }
}

/// `typlen`: a fixed-width type's bytes, -1 for a varlena.
pub(crate) fn type_length(ty: SqlType) -> Result<i64, SqlError> {
    Ok(match ty {
        SqlType::Bool => 1,
        SqlType::Int2 => 2,
        SqlType::Int4 | SqlType::Float4 | SqlType::Date => 4,
        SqlType::Tid => 6,
        SqlType::Int8 | SqlType::Float8 | SqlType::Timestamp | SqlType::Timestamptz => 8,
        SqlType::Uuid | SqlType::Interval | SqlType::Point => 16,
        SqlType::Text
        | SqlType::Bpchar(_)
        | SqlType::Numeric(_)
        | SqlType::Bytea
        | SqlType::Json
        | SqlType::Jsonb => -1,
        #[allow(unreachable_patterns)]
        _ => return Err(unsupported("pg_column_size() of this type")),
    })
}
