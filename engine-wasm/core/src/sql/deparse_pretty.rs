//! Expressions as PostgreSQL prints them in its pretty mode
//! (`pg_get_indexdef(oid, 0, true)`, `pg_get_expr(…, true)`), which psql's
//! `\d` asks for: a partial index's `WHERE n > 5 AND flag`, without the
//! parentheses EXPLAIN puts around every operator. Parentheses stay where
//! precedence needs them, by the rules of `isSimpleNode` in ruleutils.c.
//! Forms this file does not know are printed as EXPLAIN prints them.

use super::ast::{BinOp, Expr};
use super::deparse::deparse;
use crate::value::Value;

/// Where an expression sits: what decides if it needs parentheses.
#[derive(Clone, Copy, PartialEq)]
enum Parent {
    Top,
    /// An operand of AND, OR or NOT.
    Bool(BoolOp),
    /// An operand of an operator (`+`, `>`…); `first` for its left one.
    Op {
        op: BinOp,
        first: bool,
    },
}

#[derive(Clone, Copy, PartialEq)]
enum BoolOp {
    And,
    Or,
    Not,
}

pub fn deparse_pretty(e: &Expr) -> String {
    pretty(e, Parent::Top)
}

/// An index's expression key as `pg_get_indexdef` prints it: a function
/// call as it is (`lower(v)`), anything else in parentheses (`(a + b)`).
pub fn index_expression_text(e: &Expr) -> String {
    let text = deparse_pretty(e);
    match e {
        Expr::Function { .. } | Expr::Call(_) => text,
        _ => format!("({text})"),
    }
}

fn pretty(e: &Expr, parent: Parent) -> String {
    match e {
        Expr::Column { table: None, name } => name.clone(),
        Expr::Literal(v) => literal(v),
        Expr::Binary { op, left, right } if matches!(op, BinOp::And | BinOp::Or) => {
            let me = if *op == BinOp::And {
                BoolOp::And
            } else {
                BoolOp::Or
            };
            let text = format!(
                "{} {} {}",
                pretty(left, Parent::Bool(me)),
                op.symbol(),
                pretty(right, Parent::Bool(me))
            );
            // AND inside AND or OR needs none; OR only inside OR.
            let simple = match parent {
                Parent::Top => true,
                Parent::Bool(BoolOp::Not) | Parent::Op { .. } => false,
                Parent::Bool(p) => me == BoolOp::And || p == BoolOp::Or,
            };
            parenthesised(simple, text)
        }
        Expr::Unary { not: true, expr } => {
            let text = format!("NOT {}", pretty(expr, Parent::Bool(BoolOp::Not)));
            let simple = matches!(parent, Parent::Top | Parent::Bool(BoolOp::And | BoolOp::Or));
            parenthesised(simple, text)
        }
        Expr::Binary { op, left, right } => {
            let text = format!(
                "{} {} {}",
                pretty(
                    left,
                    Parent::Op {
                        op: *op,
                        first: true
                    }
                ),
                op.symbol(),
                pretty(
                    right,
                    Parent::Op {
                        op: *op,
                        first: false
                    }
                )
            );
            parenthesised(operator_is_simple(*op, parent), text)
        }
        Expr::IsNull { expr, negated } => {
            let not = if *negated { " NOT" } else { "" };
            let text = format!(
                "{} IS{not} NULL",
                pretty(
                    expr,
                    Parent::Op {
                        op: BinOp::Eq,
                        first: true
                    }
                )
            );
            parenthesised(matches!(parent, Parent::Top | Parent::Bool(_)), text)
        }
        other => deparse(other),
    }
}

/// `isSimpleNode` for an operator: bare under AND/OR/NOT; under another
/// operator only when it binds tighter (`a * b + c`), or equally tight on
/// the left (`a - b - c`); never under a comparison.
fn operator_is_simple(op: BinOp, parent: Parent) -> bool {
    match parent {
        Parent::Top | Parent::Bool(_) => true,
        Parent::Op { op: p, first } => {
            let rank = |o: BinOp| match o {
                BinOp::Add | BinOp::Sub => Some(1),
                BinOp::Mul | BinOp::Div | BinOp::Mod => Some(2),
                _ => None,
            };
            match (rank(op), rank(p)) {
                (Some(mine), Some(theirs)) => mine > theirs || (mine == theirs && first),
                _ => false,
            }
        }
    }
}

fn parenthesised(simple: bool, text: String) -> String {
    if simple {
        text
    } else {
        format!("({text})")
    }
}

/// A constant as ruleutils prints it: numbers bare (a negative one quoted
/// and cast, as `'-5'::integer`), text with its type.
fn literal(v: &Value) -> String {
    match v {
        Value::Int(i) if *i < 0 => {
            let ty = if i32::try_from(*i).is_ok() {
                "integer"
            } else {
                "bigint"
            };
            format!("'{i}'::{ty}")
        }
        Value::Text(s) => format!("'{}'::text", s.replace('\'', "''")),
        Value::Numeric(n) if n.signum() < 0 => format!("'{n}'::numeric"),
        Value::Null => "NULL".into(),
        other => other.pg_text(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sql::ast::Statement;
    use crate::sql::parse::parse_statement;

    fn pretty_where(condition: &str) -> String {
        match parse_statement(&format!("select 1 from t where {condition}")).unwrap() {
            Statement::Select(q) => deparse_pretty(q.filter.as_ref().unwrap()),
            _ => unreachable!(),
        }
    }

    #[test]
    fn prints_as_psql_shows_a_partial_index() {
        assert_eq!(pretty_where("n > 5"), "n > 5");
        assert_eq!(pretty_where("flag"), "flag");
        assert_eq!(pretty_where("n > 5 and flag"), "n > 5 AND flag");
        assert_eq!(
            pretty_where("(n > 5 or n < 2) and flag"),
            "(n > 5 OR n < 2) AND flag"
        );
        assert_eq!(
            pretty_where("n > 5 and v = 'x' or flag"),
            "n > 5 AND v = 'x'::text OR flag"
        );
        assert_eq!(pretty_where("not flag"), "NOT flag");
        assert_eq!(pretty_where("v is not null"), "v IS NOT NULL");
        assert_eq!(pretty_where("a + b * 2 > 5"), "(a + b * 2) > 5");
        assert_eq!(pretty_where("n > -5"), "n > '-5'::integer");
    }
}
