//! `yb_hash_code(a, …)`: YugabyteDB's partition hash of its arguments. The
//! hash depends on each argument's type (an int4 1 is hashed as 4 bytes, an
//! int8 1 as 8), which a value does not carry, so before a query runs each
//! argument is wrapped in a `YbHashKey` of its type, as YugabyteDB's
//! `yb_hash_code` reads `get_fn_expr_argtype` (`pg_yb_utils.c`).
//!
//! On PostgreSQL the function does not exist, and the query fails as there.

use super::engine::QueryEngine;
use crate::partition_hash::KeyType;
use crate::sql::ast::{Expr, Select, SelectItem};
use crate::sql::error::{unsupported, ErrorKind, SqlError};
use crate::sql::eval::Scope;
use crate::sql::functions::ScalarFunc;
use crate::value::{SqlType, Value};

/// Whether the query calls yb_hash_code() with arguments not yet typed (in
/// its own expressions: a subquery is told when it runs).
pub fn pending(q: &Select) -> bool {
    let mut found = false;
    let mut look = |e: &Expr| e.visit(&mut |x| found |= is_untyped_call(x));
    for item in &q.items {
        if let SelectItem::Expr { expr, .. } = item {
            look(expr);
        }
    }
    own_exprs(q).for_each(look);
    found
}

/// The query's expressions besides its select list.
fn own_exprs(q: &Select) -> impl Iterator<Item = &Expr> {
    q.filter
        .iter()
        .chain(&q.having)
        .chain(&q.group_by)
        .chain(q.order_by.iter().map(|o| &o.expr))
        .chain(q.joins.iter().filter_map(|j| j.on.as_ref()))
}

fn is_untyped_call(e: &Expr) -> bool {
    matches!(e, Expr::Function { func: ScalarFunc::YbHashCode, args }
        if !args.iter().all(|a| matches!(a, Expr::Function { func: ScalarFunc::YbHashKey(_), .. })))
}

/// The query with each yb_hash_code() argument told its type; on
/// PostgreSQL, PostgreSQL's error for the unknown function.
pub fn annotate<E: QueryEngine>(engine: &E, q: &Select) -> Result<Select, SqlError> {
    let scope = super::types::from_scope(engine, q)?;
    let yugabyte = engine.is_yugabyte();
    let mut failed = None;
    let mut tell = |e: &Expr| -> Expr {
        e.map(&mut |x| match x {
            // A subquery has its own FROM: it is told when it runs.
            Expr::ScalarSubquery(_) | Expr::Exists { .. } | Expr::InSubquery { .. } => {
                Some(x.clone())
            }
            Expr::Function { args, .. } if is_untyped_call(x) => {
                match typed_call(args, &scope, yugabyte) {
                    Ok(e) => Some(e),
                    Err(e) => {
                        failed.get_or_insert(e);
                        None
                    }
                }
            }
            _ => None,
        })
    };
    let out = q.map_own(&mut tell);
    match failed {
        Some(e) => Err(e),
        None => Ok(out),
    }
}

fn typed_call(args: &[Expr], scope: &Scope, yugabyte: bool) -> Result<Expr, SqlError> {
    // An untyped literal ('abc', NULL) stays of type unknown, as a function
    // of "any" arguments leaves it.
    let types = args
        .iter()
        .map(|a| match a {
            Expr::Literal(Value::Text(_) | Value::Null) => Ok(None),
            _ => super::types::type_of(a, scope).map(Some),
        })
        .collect::<Result<Vec<_>, _>>()?;
    if !yugabyte {
        return Err(no_such_function(&types));
    }
    let mut typed = Vec::with_capacity(args.len());
    for (arg, ty) in args.iter().zip(types) {
        let Some(ty) = ty else {
            return Err(SqlError::new(
                ErrorKind::Semantic,
                "undefined datatype given to yb_hash_code",
            ));
        };
        let key = KeyType::of(ty).ok_or_else(|| unmodeled(ty))?;
        typed.push(Expr::Function {
            func: ScalarFunc::YbHashKey(key),
            args: vec![arg.clone()],
        });
    }
    Ok(Expr::Function {
        func: ScalarFunc::YbHashCode,
        args: typed,
    })
}

/// PostgreSQL's error: it has no yb_hash_code.
fn no_such_function(types: &[Option<SqlType>]) -> SqlError {
    let names: Vec<&str> = types
        .iter()
        .map(|t| t.map_or("unknown", SqlType::pg_name))
        .collect();
    SqlError::new(
        ErrorKind::Semantic,
        format!("function yb_hash_code({}) does not exist", names.join(", ")),
    )
    .with_hint(
        "No function matches the given name and argument types. \
         You might need to add explicit type casts.",
    )
    .near("yb_hash_code")
}

/// A type YugabyteDB cannot hash (json, point…) gets its error; one it can
/// but IndexLab does not model (numeric, interval, character(n)) is refused.
fn unmodeled(ty: SqlType) -> SqlError {
    match ty {
        SqlType::Numeric(_) | SqlType::Interval | SqlType::Bpchar(_) => unsupported(format!(
            "yb_hash_code() of a {} (its bytes in YugabyteDB's hash key)",
            ty.pg_name()
        )),
        _ => SqlError::new(
            ErrorKind::Semantic,
            "Unsupported datatype given to yb_hash_code",
        )
        .with_detail("Only types supported by HASH key columns are allowed")
        .with_hint("Use explicit casts to ensure input types are as desired"),
    }
}
