//! Which aggregates YugabyteDB computes in DocDB (aggregate pushdown): with
//! no GROUP BY, each of `count(*)`, `count(x)`, `min(x)`, `max(x)` and `sum(x)`
//! of a plain column or constant, when DocDB holds its running value in a
//! type of its own (`sum` of a smallint, an integer or a float; `min` and
//! `max` of anything but a numeric). No DISTINCT, FILTER or ORDER BY inside
//! the call, no `avg` or `string_agg`. Each read request then answers with
//! one partial row, and the Aggregate above only combines them
//! (`Finalize Aggregate`). Whether the scan below can take them (nothing
//! left for PostgreSQL's side to check) is the profile's to say.

use crate::sql::ast::{AggFunc, Expr};
use crate::value::SqlType;

/// Whether `aggregates` (with `arg_types`, one per aggregate that has an
/// argument, in order) can all be computed in DocDB.
pub fn pushable(aggregates: &[Expr], arg_types: &[SqlType]) -> bool {
    let mut types = arg_types.iter();
    !aggregates.is_empty()
        && aggregates.iter().all(|a| {
            let Expr::Aggregate {
                func,
                arg,
                distinct,
                separator,
                order_by,
                filter,
            } = a
            else {
                return false;
            };
            let ty = match arg {
                Some(_) => types.next().copied(),
                None => None,
            };
            let plain = arg
                .as_deref()
                .is_none_or(|e| matches!(e, Expr::Column { .. } | Expr::Literal(_)));
            let simple =
                !distinct && separator.is_none() && order_by.is_empty() && filter.is_none();
            simple
                && plain
                && match (func, ty) {
                    (AggFunc::Count, _) => true,
                    (AggFunc::Sum, Some(t)) => matches!(
                        t,
                        SqlType::Int2 | SqlType::Int4 | SqlType::Float4 | SqlType::Float8
                    ),
                    (AggFunc::Min | AggFunc::Max, Some(t)) => !matches!(t, SqlType::Numeric(_)),
                    _ => false,
                }
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sql::ast::{SelectItem, Statement};
    use crate::sql::parse::parse_statement;

    fn aggregates(sql: &str) -> Vec<Expr> {
        let Ok(Statement::Select(q)) = parse_statement(sql) else {
            panic!("{sql}")
        };
        q.items
            .iter()
            .filter_map(|i| match i {
                SelectItem::Expr { expr, .. } => Some(expr.clone()),
                SelectItem::Wildcard => None,
            })
            .collect()
    }

    #[test]
    fn count_min_max_and_small_sums_go_to_docdb() {
        let int = [SqlType::Int4; 4];
        assert!(pushable(
            &aggregates("select count(*), count(a), min(a), max(b) from t"),
            &int
        ));
        assert!(pushable(&aggregates("select sum(a) from t"), &int));
        // sum of a bigint runs in a numeric; avg and DISTINCT stay in PostgreSQL.
        assert!(!pushable(
            &aggregates("select sum(a) from t"),
            &[SqlType::Int8]
        ));
        assert!(!pushable(&aggregates("select avg(a) from t"), &int));
        assert!(!pushable(
            &aggregates("select count(distinct a) from t"),
            &int
        ));
        assert!(!pushable(&aggregates("select sum(a + 1) from t"), &int));
        assert!(!pushable(
            &aggregates("select max(n) from t"),
            &[SqlType::Numeric(None)]
        ));
    }
}
