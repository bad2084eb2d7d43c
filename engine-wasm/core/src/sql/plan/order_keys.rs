//! ORDER BY keys that order nothing. PostgreSQL's planner turns `WHERE b = 3`
//! into an equivalence class holding a constant, and a sort key in such a
//! class is redundant (`pathkey_is_redundant`): every row has the same b, so
//! `… WHERE b = 3 ORDER BY b LIMIT 1` needs no Sort, and any scan that finds
//! the rows is already "in order".
//!
//! The same classes decide the order a scan checks its conditions in: an
//! equality joining a column to a constant (or to another column) goes into
//! a class, and the class hands it back to the relation after the other
//! conditions (`generate_base_implied_equalities`), so PostgreSQL prints and
//! evaluates `WHERE a = 1 AND b > 2` as `Filter: ((b > 2) AND (a = 1))`.

use crate::sql::ast::{BinOp, Expr, Select, SelectItem};
use crate::sql::plan::{column_index, conjuncts, TableInfo};

/// The query without the ORDER BY keys its WHERE equates to a constant, or
/// None when it has none.
pub fn without_constant_keys(q: &Select) -> Option<Select> {
    let filter = q.filter.as_ref()?;
    let mut parts = Vec::new();
    conjuncts(filter, &mut parts);
    let fixed = |e: &Expr| parts.iter().any(|p| equates_to_constant(p, e));
    // `SELECT a AS b … ORDER BY b` sorts by the output column, not by the table's b.
    let output_name = |e: &Expr| match e {
        Expr::Column { table: None, name } => q
            .items
            .iter()
            .any(|i| matches!(i, SelectItem::Expr { alias: Some(a), .. } if a == name)),
        _ => false,
    };
    let redundant = |e: &Expr| matches!(e, Expr::Column { .. }) && fixed(e) && !output_name(e);
    if !q.order_by.iter().any(|o| redundant(&o.expr)) {
        return None;
    }
    let mut out = q.clone();
    out.order_by.retain(|o| !redundant(&o.expr));
    Some(out)
}

/// The columns (by number) the conjuncts `parts` equate to a constant: an
/// index key on one of them orders nothing (`build_index_pathkeys` drops
/// its redundant pathkey).
pub fn fixed_columns(table: &TableInfo, parts: &[Expr]) -> Vec<usize> {
    let mut out = Vec::new();
    for (left, right) in parts.iter().filter_map(equality) {
        for (col, other) in [(left, right), (right, left)] {
            if let (Some(c), true) = (column_index(table, col), constant(other)) {
                out.push(c);
            }
        }
    }
    out
}

/// Whether `part` is `column = constant` (either way round).
fn equates_to_constant(part: &Expr, column: &Expr) -> bool {
    equality(part).is_some_and(|(left, right)| {
        (left == column && constant(right)) || (right == column && constant(left))
    })
}

/// The two sides of `a = b`.
fn equality(part: &Expr) -> Option<(&Expr, &Expr)> {
    match part {
        Expr::Binary {
            op: BinOp::Eq,
            left,
            right,
        } => Some((left, right)),
        _ => None,
    }
}

/// `parts` (a scan's conditions) in the order PostgreSQL checks them: the
/// equalities an equivalence class took, after the others, each group in
/// its written order.
pub fn restriction_order(table: &TableInfo, parts: &[Expr]) -> Vec<Expr> {
    let (classes, others): (Vec<Expr>, Vec<Expr>) =
        parts.iter().cloned().partition(|p| in_a_class(table, p));
    others.into_iter().chain(classes).collect()
}

/// `column = constant` or `column = column`: an equivalence class member.
fn in_a_class(table: &TableInfo, part: &Expr) -> bool {
    let column = |e: &Expr| column_index(table, e).is_some();
    equality(part).is_some_and(|(left, right)| {
        (column(left) && (constant(right) || column(right))) || (column(right) && constant(left))
    })
}

fn constant(e: &Expr) -> bool {
    match e {
        Expr::Literal(v) => !v.is_null(),
        Expr::Cast { expr, .. } | Expr::Unary { expr, .. } => constant(expr),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::without_constant_keys;
    use crate::sql::ast::Statement;
    use crate::sql::parse::parse_statement;

    fn order_after(sql: &str) -> Option<usize> {
        let Ok(Statement::Select(q)) = parse_statement(sql) else {
            panic!("not a select: {sql}");
        };
        without_constant_keys(&q).map(|q| q.order_by.len())
    }

    #[test]
    fn a_key_fixed_by_the_where_is_dropped() {
        assert_eq!(
            order_after("select * from t where b = 3 order by b desc"),
            Some(0)
        );
        assert_eq!(
            order_after("select * from t where 3 = b and a > 1 order by b, a"),
            Some(1)
        );
    }

    #[test]
    fn other_keys_stay() {
        assert_eq!(order_after("select * from t where b > 3 order by b"), None);
        assert_eq!(
            order_after("select * from t where b = 3 or a = 1 order by b"),
            None
        );
        assert_eq!(
            order_after("select a as b from t where b = 3 order by b"),
            None
        );
        assert_eq!(order_after("select * from t where b = a order by b"), None);
    }
}
