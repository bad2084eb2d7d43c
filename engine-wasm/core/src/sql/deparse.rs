//! Prints expressions the way PostgreSQL's EXPLAIN does (`(value < now())`,
//! `(id = ANY ('{100,200,300}'::integer[]))`).

use super::ast::{BinOp, Expr};
use crate::value::Value;

fn literal(v: &Value) -> String {
    match v {
        Value::Null => "NULL".into(),
        Value::Text(s) => format!("'{}'::text", s.replace('\'', "''")),
        // get_const_expr: a negative numeric is quoted and labelled.
        Value::Numeric(n) if n.signum() < 0 => format!("'{n}'::numeric"),
        other => other.pg_text(),
    }
}

/// An expression as EXPLAIN shows it; comparisons and boolean operators are
/// parenthesised, as PostgreSQL's deparser does.
pub fn deparse(e: &Expr) -> String {
    match e {
        Expr::Column {
            table: Some(t),
            name,
        } => format!("{t}.{name}"),
        Expr::Column { name, .. } => name.clone(),
        Expr::Literal(v) => literal(v),
        Expr::Call(f) => format!("{}()", f.name()),
        Expr::Unary { expr, .. } => format!("(NOT {})", deparse(expr)),
        Expr::Binary { op, left, right } => {
            let (l, r) = (deparse(left), deparse(right));
            match op {
                BinOp::And | BinOp::Or => format!("({l} {} {r})", op.symbol()),
                _ => format!("({l} {} {r})", op.symbol()),
            }
        }
        Expr::InList {
            expr,
            list,
            negated,
        } => {
            let items: Vec<String> = list
                .iter()
                .map(|x| match x {
                    Expr::Literal(v) => v.pg_text(),
                    other => deparse(other),
                })
                .collect();
            let op = if *negated { "<> ALL" } else { "= ANY" };
            format!(
                "({} {op} ('{{{}}}'::integer[]))",
                deparse(expr),
                items.join(",")
            )
        }
        Expr::Between {
            expr,
            low,
            high,
            negated,
        } => {
            let x = deparse(expr);
            let (lo, hi) = (deparse(low), deparse(high));
            if *negated {
                format!("(({x} < {lo}) OR ({x} > {hi}))")
            } else {
                format!("(({x} >= {lo}) AND ({x} <= {hi}))")
            }
        }
        Expr::IsNull { expr, negated } => {
            let not = if *negated { " NOT" } else { "" };
            format!("({} IS{not} NULL)", deparse(expr))
        }
        Expr::Cast { expr, ty } => format!("({})::{}", deparse(expr), ty.display_name()),
        Expr::Param(n) => format!("${n}"),
        Expr::ScalarSubquery(_) => "(SubPlan)".to_string(),
        Expr::Exists { negated, .. } => {
            format!("({}EXISTS(SubPlan))", if *negated { "NOT " } else { "" })
        }
        Expr::InSubquery { expr, negated, .. } => format!(
            "({} {}IN (SubPlan))",
            deparse(expr),
            if *negated { "NOT " } else { "" }
        ),
        Expr::Function {
            func: crate::sql::functions::ScalarFunc::PointSubscript,
            args,
        } => format!("({})[{}]", deparse(&args[0]), deparse(&args[1])),
        Expr::Function { func, args } => {
            let args: Vec<String> = args.iter().map(deparse).collect();
            format!("{}({})", func.name(), args.join(", "))
        }
        Expr::Case {
            operand,
            branches,
            otherwise,
        } => {
            let mut out = "CASE".to_string();
            if let Some(o) = operand {
                out += &format!(" {}", deparse(o));
            }
            for (w, t) in branches {
                out += &format!(" WHEN {} THEN {}", deparse(w), deparse(t));
            }
            if let Some(o) = otherwise {
                out += &format!(" ELSE {}", deparse(o));
            }
            out + " END"
        }
        Expr::Like {
            expr,
            pattern,
            negated,
            case_insensitive,
        } => {
            let op = match (negated, case_insensitive) {
                (false, false) => "~~",
                (true, false) => "!~~",
                (false, true) => "~~*",
                (true, true) => "!~~*",
            };
            format!("({} {op} {})", deparse(expr), deparse(pattern))
        }
        Expr::Aggregate {
            func,
            arg,
            distinct,
        } => {
            let arg = arg.as_ref().map_or("*".to_string(), |a| deparse(a));
            let distinct = if *distinct { "DISTINCT " } else { "" };
            format!("{}({distinct}{arg})", func.name())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sql::ast::Statement;
    use crate::sql::parse::parse_statement;

    fn filter(sql: &str) -> String {
        match parse_statement(sql).unwrap() {
            Statement::Select(s) => deparse(&s.filter.unwrap()),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn prints_like_postgres() {
        assert_eq!(
            filter("select * from d where value < now()"),
            "(value < now())"
        );
        assert_eq!(
            filter("select * from d where id in (100,200,300)"),
            "(id = ANY ('{100,200,300}'::integer[]))"
        );
        assert_eq!(
            filter("select * from d where x = 0 and y >= 2"),
            "((x = 0) AND (y >= 2))"
        );
    }
}
