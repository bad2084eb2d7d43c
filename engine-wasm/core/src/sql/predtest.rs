//! Whether one condition proves another: what decides if a partial index
//! (`CREATE INDEX … WHERE p`) may answer a query, after PostgreSQL 15's
//! `optimizer/util/predtest.c`.
//!
//! A query may use the index only if its WHERE clause *implies* `p`: every
//! row the query wants is then in the index. PostgreSQL proves it with a few
//! cheap rules, not a theorem prover, and so does this file:
//!
//! - a condition implies itself (the same expression, written the same way);
//! - `x op1 c1` implies `x op2 c2` by comparing the two constants
//!   (`n > 7` implies `n > 5`; `n = 8` implies `n <> 3`): nbtree's
//!   operator-implication table, `BT_implic_table`;
//! - a comparison on `x` (a strict operator) implies `x IS NOT NULL`;
//! - `x IN (…)` and OR: every branch must imply; an OR predicate is implied
//!   by whatever implies one of its branches; `x BETWEEN a AND b` is
//!   `x >= a AND x <= b`.
//!
//! Anything else does not prove the predicate, and the query does not use the
//! index, as in PostgreSQL.

use super::ast::{BinOp, Expr};
use super::eval::{bind, compare, eval, EvalEnv, Scope};
use crate::rng::Rng;
use crate::value::Value;
use std::cmp::Ordering;

/// PostgreSQL stops expanding an IN list past this many items
/// (`MAX_SAOP_ARRAY_SIZE`): a longer one proves nothing.
const MAX_IN_LIST: usize = 100;

/// Whether the AND of `clauses` implies every condition of `predicate`
/// (both lists of AND-ed parts).
pub fn implied_by(predicate: &[Expr], clauses: &[Expr]) -> bool {
    predicate
        .iter()
        .all(|p| clauses.iter().any(|c| implies(c, p)))
}

/// Whether `clause` alone is implied by the AND of `predicate`: such a
/// clause is true for every row of the partial index, so the scan need not
/// check it (`create_indexscan_plan` drops it).
pub fn implies_clause(predicate: &[Expr], clause: &Expr) -> bool {
    predicate.iter().any(|p| implies(p, clause))
}

/// Whether `clause` being true proves `pred` true.
fn implies(clause: &Expr, pred: &Expr) -> bool {
    let (clause, pred) = (&normalize(clause), &normalize(pred));
    if clause == pred {
        return true;
    }
    // An OR predicate: proving one branch proves it.
    if let Expr::Binary {
        op: BinOp::Or,
        left,
        right,
    } = pred
    {
        if implies(clause, left) || implies(clause, right) {
            return true;
        }
    }
    match clause {
        Expr::Binary {
            op: BinOp::Or,
            left,
            right,
        } => implies(left, pred) && implies(right, pred),
        Expr::Binary {
            op: BinOp::And,
            left,
            right,
        } => implies(left, pred) || implies(right, pred),
        Expr::InList {
            expr,
            list,
            negated: false,
        } if !list.is_empty() && list.len() <= MAX_IN_LIST => list.iter().all(|item| {
            implies(
                &Expr::Binary {
                    op: BinOp::Eq,
                    left: expr.clone(),
                    right: Box::new(item.clone()),
                },
                pred,
            )
        }),
        Expr::Between {
            expr,
            low,
            high,
            negated: false,
        } => {
            let side = |op, bound: &Expr| Expr::Binary {
                op,
                left: expr.clone(),
                right: Box::new(bound.clone()),
            };
            implies(&side(BinOp::GtEq, low), pred) || implies(&side(BinOp::LtEq, high), pred)
        }
        _ => simple_implies(clause, pred),
    }
}

/// `predicate_implied_by_simple_clause`: a comparison proves IS NOT NULL of
/// its column, or another comparison of that column with a constant.
fn simple_implies(clause: &Expr, pred: &Expr) -> bool {
    if let Expr::IsNull {
        expr,
        negated: true,
    } = pred
    {
        return is_strict_on(clause, expr);
    }
    let (Some((x1, op1, c1)), Some((x2, op2, c2))) = (comparison(clause), comparison(pred)) else {
        return false;
    };
    if x1 != x2 {
        return false;
    }
    let Some(order) = compare(&c1, &c2) else {
        return false;
    };
    operator_implies(op1, op2, order)
}

/// `x op1 c1` implies `x op2 c2`, where `order` is c1 compared with c2.
/// (nbtree's implication table, spelled out case by case.)
fn operator_implies(op1: BinOp, op2: BinOp, order: Ordering) -> bool {
    use BinOp::*;
    use Ordering::*;
    match (op2, op1) {
        (Eq, Eq) => order == Equal,
        (Gt, Gt) | (GtEq, Gt | GtEq | Eq) => order != Less,
        (Gt, GtEq | Eq) => order == Greater,
        (Lt, Lt) | (LtEq, Lt | LtEq | Eq) => order != Greater,
        (Lt, LtEq | Eq) => order == Less,
        (NotEq, Eq) => order != Equal,
        (NotEq, Lt) => order != Greater,
        (NotEq, LtEq) => order == Less,
        (NotEq, Gt) => order != Less,
        (NotEq, GtEq) => order == Greater,
        (NotEq, NotEq) => order == Equal,
        _ => false,
    }
}

/// Whether `clause` is false or NULL whenever `x` is NULL: a comparison, IN
/// list, BETWEEN or LIKE with `x` as an operand.
fn is_strict_on(clause: &Expr, x: &Expr) -> bool {
    match clause {
        Expr::Binary { op, left, right } if op.is_comparison() => **left == *x || **right == *x,
        // An empty list holds (NOT IN) or fails (IN) whatever x is, NULL too.
        Expr::InList { expr, list, .. } => !list.is_empty() && **expr == *x,
        Expr::Between { expr, .. } | Expr::Like { expr, .. } => **expr == *x,
        Expr::IsNull {
            expr,
            negated: true,
        } => **expr == *x,
        _ => false,
    }
}

/// `x op constant` (the constant on either side), with the constant's value.
fn comparison(e: &Expr) -> Option<(&Expr, BinOp, Value)> {
    let Expr::Binary { op, left, right } = e else {
        return None;
    };
    if !op.is_comparison() {
        return None;
    }
    if let Some(v) = constant(right) {
        return Some((left, *op, v));
    }
    let flipped = match op {
        BinOp::Lt => BinOp::Gt,
        BinOp::LtEq => BinOp::GtEq,
        BinOp::Gt => BinOp::Lt,
        BinOp::GtEq => BinOp::LtEq,
        other => *other,
    };
    constant(left).map(|v| (&**right, flipped, v))
}

/// The value of an expression without columns or functions of time and
/// chance (a literal, a cast of one, arithmetic on them): a Const once
/// PostgreSQL's planner has folded it. NULL proves nothing.
fn constant(e: &Expr) -> Option<Value> {
    let mut foldable = true;
    e.visit(&mut |x| {
        foldable &= matches!(
            x,
            Expr::Literal(_) | Expr::Cast { .. } | Expr::Binary { .. } | Expr::Unary { .. }
        )
    });
    if !foldable {
        return None;
    }
    let bound = bind(e, &Scope::default()).ok()?;
    let mut rng = Rng::new(0);
    let mut env = EvalEnv {
        statement_start_us: 0,
        clock_us: 0,
        rng: &mut rng,
        sequences: None,
    };
    eval(&bound, &[], &mut env).ok().filter(|v| !v.is_null())
}

/// PostgreSQL's canonical form of a boolean test: `flag = true` is `flag`,
/// `flag = false` and `NOT flag` the same test.
fn normalize(e: &Expr) -> Expr {
    match e {
        Expr::Binary {
            op: BinOp::Eq,
            left,
            right,
        } => match (&**left, &**right) {
            (x, Expr::Literal(Value::Bool(b))) | (Expr::Literal(Value::Bool(b)), x) => {
                if *b {
                    x.clone()
                } else {
                    Expr::Unary {
                        not: true,
                        expr: Box::new(x.clone()),
                    }
                }
            }
            _ => e.clone(),
        },
        _ => e.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sql::ast::Statement;
    use crate::sql::parse::parse_statement;
    use crate::sql::plan::conjuncts;

    fn parts(condition: &str) -> Vec<Expr> {
        let Ok(Statement::Select(q)) =
            parse_statement(&format!("select 1 from t where {condition}"))
        else {
            panic!("not a select")
        };
        let mut out = Vec::new();
        conjuncts(q.filter.as_ref().expect("a WHERE"), &mut out);
        out
    }

    fn proves(query: &str, predicate: &str) -> bool {
        implied_by(&parts(predicate), &parts(query))
    }

    #[test]
    fn the_same_condition_proves_itself() {
        assert!(proves("n > 5 and id < 100", "n > 5"));
        assert!(proves("flag and v = 'x'", "flag"));
        assert!(proves("flag = true", "flag"));
        assert!(!proves("id < 100", "n > 5"));
    }

    #[test]
    fn comparisons_prove_weaker_comparisons() {
        assert!(proves("n > 7", "n > 5"));
        assert!(proves("n = 8", "n > 5"));
        assert!(proves("5 < n", "n > 5"));
        assert!(proves("n >= 6", "n > 5"));
        assert!(!proves("n >= 5", "n > 5"));
        assert!(proves("n > 5", "n >= 5"));
        assert!(!proves("n > 4", "n > 5"));
        assert!(proves("n = 3", "n <> 4"));
        assert!(proves("n < 3", "n <> 4"));
        assert!(!proves("n < 5", "n <> 4"));
        assert!(proves("n = 1", "n is not null"));
        assert!(proves("n in (6, 7)", "n > 5"));
        assert!(!proves("n in (5, 7)", "n > 5"));
        assert!(proves("n between 6 and 9", "n > 5"));
        assert!(proves("n = 1", "n = 1 or n = 2"));
        assert!(proves("status = 'active'", "status = 'active'"));
        assert!(!proves("status = 'gone'", "status = 'active'"));
    }

    #[test]
    fn the_predicate_proves_the_clauses_it_makes_redundant() {
        let p = parts("n > 5");
        assert!(implies_clause(&p, &parts("n > 5")[0]));
        assert!(implies_clause(&p, &parts("n > 4")[0]));
        assert!(!implies_clause(&p, &parts("n > 7")[0]));
    }
}
