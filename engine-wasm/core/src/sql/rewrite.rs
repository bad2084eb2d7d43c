//! Small query rewrites shared by the profiles: inlining simple CTEs (as
//! PostgreSQL 12+ does for a CTE referenced once), dropping table qualifiers once a
//! conjunct is known to belong to one table, and sorting a join's WHERE conjuncts by
//! the side they reference.

use super::ast::{Expr, FromItem, Select, SelectItem};
use super::error::SqlError;

/// `Column { table: Some(t), .. }` → `Column { table: None, .. }` everywhere.
pub fn unqualify(e: &Expr) -> Expr {
    // Most expressions name no table: copied as they are (and a deep chain
    // of operators is never rebuilt through the call stack).
    let mut qualified = false;
    e.visit(&mut |x| qualified |= matches!(x, Expr::Column { table: Some(_), .. }));
    if !qualified {
        return e.clone();
    }
    e.map(&mut |x| match x {
        Expr::Column { name, .. } => Some(Expr::Column {
            table: None,
            name: name.clone(),
        }),
        _ => None,
    })
}

/// Every (qualifier, column) an expression references.
pub fn column_refs(e: &Expr, out: &mut Vec<(Option<String>, String)>) {
    e.visit(&mut |x| {
        if let Expr::Column { table, name } = x {
            out.push((table.clone(), name.clone()));
        }
    });
}

/// `sub` seeing the WITH queries `outer` of the query around it; its own
/// WITH queries of the same name hide those.
pub fn seeing_with(sub: &Select, outer: &[(String, Select)]) -> Select {
    let mut sub = sub.clone();
    let mut with: Vec<_> = outer
        .iter()
        .filter(|(n, _)| !sub.with.iter().any(|(m, _)| m == n))
        .cloned()
        .collect();
    with.append(&mut sub.with);
    sub.with = with;
    sub
}

/// Replaces a FROM item naming a CTE by the CTE's own table, when the CTE is a plain
/// `SELECT * FROM t [WHERE …]`; its WHERE is returned to be added to the query's.
/// Any other CTE becomes a subquery in FROM (seeing the CTEs before it), as
/// PostgreSQL inlines a CTE read once; the rows are those it would materialize.
pub fn inline_cte(
    item: &FromItem,
    with: &[(String, Select)],
) -> Result<(FromItem, Option<Expr>), SqlError> {
    let (name, alias) = match item {
        FromItem::Table { name, alias } => (name, alias),
        FromItem::Subquery {
            query,
            alias,
            columns,
            lateral,
        } => {
            // A subquery in FROM sees the query's WITH list.
            let item = FromItem::Subquery {
                query: Box::new(seeing_with(query, with)),
                alias: alias.clone(),
                columns: columns.clone(),
                lateral: *lateral,
            };
            return Ok((item, None));
        }
        _ => return Ok((item.clone(), None)),
    };
    let Some(at) = with.iter().position(|(n, _)| n == name) else {
        return Ok((item.clone(), None));
    };
    let cte = &with[at].1;
    let simple = cte.items == [SelectItem::Wildcard]
        && cte.joins.is_empty()
        && cte.order_by.is_empty()
        && cte.limit.is_none()
        && cte.offset.is_none()
        && !cte.groups()
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
        _ => {
            let mut query = cte.clone();
            let mut before = with[..at].to_vec();
            before.append(&mut query.with);
            query.with = before;
            Ok((
                FromItem::Subquery {
                    query: Box::new(query),
                    alias: alias.clone().unwrap_or_else(|| name.clone()),
                    columns: Vec::new(),
                    lateral: false,
                },
                None,
            ))
        }
    }
}
