//! Small query rewrites shared by the profiles: inlining simple CTEs (as
//! PostgreSQL 12+ does for a CTE referenced once), dropping table qualifiers once a
//! conjunct is known to belong to one table, and sorting a join's WHERE conjuncts by
//! the side they reference.

use super::ast::{Expr, FromItem, Select, SelectItem};
use super::error::unsupported;
use super::error::SqlError;

/// `Column { table: Some(t), .. }` → `Column { table: None, .. }` everywhere.
pub fn unqualify(e: &Expr) -> Expr {
    let b = |x: &Expr| Box::new(unqualify(x));
    match e {
        Expr::Column { name, .. } => Expr::Column {
            table: None,
            name: name.clone(),
        },
        Expr::Literal(_) | Expr::Call(_) => e.clone(),
        Expr::Unary { not, expr } => Expr::Unary {
            not: *not,
            expr: b(expr),
        },
        Expr::Binary { op, left, right } => Expr::Binary {
            op: *op,
            left: b(left),
            right: b(right),
        },
        Expr::InList {
            expr,
            list,
            negated,
        } => Expr::InList {
            expr: b(expr),
            list: list.iter().map(unqualify).collect(),
            negated: *negated,
        },
        Expr::Between {
            expr,
            low,
            high,
            negated,
        } => Expr::Between {
            expr: b(expr),
            low: b(low),
            high: b(high),
            negated: *negated,
        },
        Expr::IsNull { expr, negated } => Expr::IsNull {
            expr: b(expr),
            negated: *negated,
        },
        Expr::Cast { expr, ty } => Expr::Cast {
            expr: b(expr),
            ty: *ty,
        },
    }
}

/// Every (qualifier, column) an expression references.
pub fn column_refs(e: &Expr, out: &mut Vec<(Option<String>, String)>) {
    match e {
        Expr::Column { table, name } => out.push((table.clone(), name.clone())),
        Expr::Literal(_) | Expr::Call(_) => {}
        Expr::Unary { expr, .. } | Expr::Cast { expr, .. } | Expr::IsNull { expr, .. } => {
            column_refs(expr, out)
        }
        Expr::Binary { left, right, .. } => {
            column_refs(left, out);
            column_refs(right, out);
        }
        Expr::InList { expr, list, .. } => {
            column_refs(expr, out);
            list.iter().for_each(|x| column_refs(x, out));
        }
        Expr::Between {
            expr, low, high, ..
        } => {
            column_refs(expr, out);
            column_refs(low, out);
            column_refs(high, out);
        }
    }
}

/// Replaces a FROM item naming a CTE by the CTE's own table, when the CTE is a plain
/// `SELECT * FROM t [WHERE …]`; its WHERE is returned to be added to the query's.
/// Anything more complex is refused with a clear message.
pub fn inline_cte(
    item: &FromItem,
    with: &[(String, Select)],
) -> Result<(FromItem, Option<Expr>), SqlError> {
    let FromItem::Table { name, alias } = item else {
        return Ok((item.clone(), None));
    };
    let Some((_, cte)) = with.iter().find(|(n, _)| n == name) else {
        return Ok((item.clone(), None));
    };
    let simple = cte.items == [SelectItem::Wildcard]
        && cte.joins.is_empty()
        && cte.order_by.is_empty()
        && cte.limit.is_none()
        && cte.values.is_none()
        && cte.with.is_empty();
    match (simple, cte.from.as_slice()) {
        (true, [FromItem::Table { name: table, .. }]) => Ok((
            FromItem::Table {
                name: table.clone(),
                alias: Some(alias.clone().unwrap_or_else(|| name.clone())),
            },
            cte.filter.as_ref().map(unqualify),
        )),
        _ => Err(unsupported(format!(
            "the WITH query \"{name}\" (only SELECT * FROM table [WHERE …] is inlined)"
        ))),
    }
}
