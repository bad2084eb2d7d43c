//! `pg_column_size(x)`: how many bytes x's datum takes. The answer depends on
//! what the value is not: its type (an int4 is 4 bytes, an int8 8) and
//! whether it was read from a row (a short text stored with a 1-byte header)
//! or computed (a 4-byte header). Before a query runs, each call gets both
//! as extra arguments (`sql/functions.rs` `column_size` reads them).

use super::engine::QueryEngine;
use crate::sql::ast::{Expr, Select, SelectItem};
use crate::sql::error::{unsupported, SqlError};
use crate::sql::eval::Scope;
use crate::sql::functions::ScalarFunc;
use crate::value::{SqlType, Value};

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
            match told(&args[0], &scope) {
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

fn told(arg: &Expr, scope: &Scope) -> Result<Expr, SqlError> {
    let (len, stored) = match arg {
        // An untyped literal is a cstring: its bytes and a terminating NUL.
        Expr::Literal(Value::Text(_)) => (-2, false),
        Expr::Literal(Value::Null) => (4, false),
        Expr::Column { .. } => (type_length(super::types::type_of(arg, scope)?)?, true),
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

/// `typlen`: a fixed-width type's bytes, -1 for a varlena.
fn type_length(ty: SqlType) -> Result<i64, SqlError> {
    Ok(match ty {
        SqlType::Bool => 1,
        SqlType::Int2 => 2,
        SqlType::Int4 | SqlType::Float4 | SqlType::Date => 4,
        SqlType::Tid => 6,
        SqlType::Int8 | SqlType::Float8 | SqlType::Timestamp | SqlType::Timestamptz => 8,
        SqlType::Uuid | SqlType::Interval | SqlType::Point => 16,
        SqlType::Text | SqlType::Bpchar(_) | SqlType::Numeric(_) | SqlType::Bytea => -1,
        #[allow(unreachable_patterns)]
        _ => return Err(unsupported("pg_column_size() of this type")),
    })
}
