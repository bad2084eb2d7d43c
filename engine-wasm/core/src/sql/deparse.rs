//! Prints expressions the way PostgreSQL's EXPLAIN does (`(value < now())`,
//! `(id = ANY ('{100,200,300}'::integer[]))`).

use super::ast::{BinOp, Expr};
use crate::value::{SqlType, Value};

fn literal(v: &Value) -> String {
    match v {
        Value::Null => "NULL".into(),
        Value::Text(s) => format!("'{}'::text", s.replace('\'', "''")),
        // A date/time constant as PostgreSQL prints a Const: its text, cast.
        Value::Date(_) | Value::LocalTimestamp(_) | Value::Interval(_) | Value::Timestamp(_) => {
            let ty = v
                .datetime_type()
                .unwrap_or(crate::value::SqlType::Timestamptz);
            format!("'{}'::{}", v.pg_text(), ty.pg_name())
        }
        // get_const_expr: a negative numeric is quoted and labelled.
        Value::Numeric(n) if n.signum() < 0 => format!("'{n}'::numeric"),
        Value::Json(_) | Value::Jsonb(_) => {
            let ty = if matches!(v, Value::Json(_)) {
                "json"
            } else {
                "jsonb"
            };
            format!("'{}'::{ty}", v.pg_text().replace('\'', "''"))
        }
        other => other.pg_text(),
    }
}

/// A scan's condition as EXPLAIN shows it over a table of `columns`: a
/// quoted literal compared with a date/time column is shown as the constant
/// of the column's type PostgreSQL's parser made of it (`'2016-01-01'::date`).
pub fn deparse_over(e: &Expr, columns: &[super::ast::ColumnDef]) -> String {
    let mut typed = e.clone();
    type_datetime_literals(&mut typed, columns);
    deparse(&typed)
}

fn type_datetime_literals(e: &mut Expr, columns: &[super::ast::ColumnDef]) {
    let column_type = |x: &Expr| match x {
        Expr::Column { name, .. } => columns
            .iter()
            .find(|c| &c.name == name)
            .map(|c| c.ty)
            // An integer or boolean constant prints bare (`q > 20`), as
            // PostgreSQL prints an untyped literal it read as the column's
            // type; the other types would need their cast spelled out.
            .filter(|t| {
                super::datetime::is_datetime(*t)
                    || matches!(t, SqlType::Bpchar(_) | SqlType::Int4 | SqlType::Bool)
            }),
        _ => None,
    };
    let retype = |lit: &mut Expr, ty: Option<SqlType>| {
        if let (Expr::Literal(Value::Text(_)), Some(SqlType::Bpchar(_))) = (&*lit, ty) {
            // A constant of type bpchar, as written (`'ab'::bpchar`).
            let text = std::mem::replace(lit, Expr::Literal(Value::Null));
            *lit = Expr::Cast {
                expr: Box::new(text),
                ty: SqlType::Bpchar(0),
            };
            return;
        }
        if let (Expr::Literal(Value::Text(s)), Some(ty)) = (&*lit, ty) {
            if let Ok(v) = super::eval::parse_text_as(s, ty) {
                *lit = Expr::Literal(v);
            }
        }
    };
    match e {
        Expr::Binary { op, left, right } if op.compares() => {
            let (lt, rt) = (column_type(left), column_type(right));
            retype(left, rt);
            retype(right, lt);
        }
        Expr::Binary { left, right, .. } => {
            type_datetime_literals(left, columns);
            type_datetime_literals(right, columns);
        }
        Expr::Unary { expr, .. } => type_datetime_literals(expr, columns),
        Expr::Between {
            expr, low, high, ..
        } => {
            let ty = column_type(expr);
            retype(low, ty);
            retype(high, ty);
        }
        Expr::InList { expr, list, .. } => {
            let ty = column_type(expr);
            list.iter_mut().for_each(|item| retype(item, ty));
            // The array takes the common type of the column and its values
            // (`transformAExprIn`): a bigint column's list is a bigint[].
            let wider = match expr.as_ref() {
                Expr::Column { name, .. } => columns.iter().find(|c| &c.name == name).map(|c| c.ty),
                _ => None,
            };
            if let Some(
                ty @ (SqlType::Int8 | SqlType::Numeric(_) | SqlType::Float8 | SqlType::Float4),
            ) = wider
            {
                for item in list
                    .iter_mut()
                    .filter(|i| matches!(i, Expr::Literal(Value::Int(_))))
                {
                    let lit = std::mem::replace(item, Expr::Literal(Value::Null));
                    *item = Expr::Cast {
                        expr: Box::new(lit),
                        ty: match ty {
                            SqlType::Numeric(_) => SqlType::Numeric(None),
                            other => other,
                        },
                    };
                }
            }
        }
        _ => {}
    }
}

/// An element of an array literal as `array_out` writes it: in double
/// quotes when it holds a space or a delimiter (`"2016-01-01 10:00:00"`).
fn array_element(text: &str) -> String {
    if text.contains([' ', ',', '{', '}', '"', '\\']) {
        format!("\"{}\"", text.replace('\\', "\\\\").replace('"', "\\\""))
    } else {
        text.to_string()
    }
}

/// An expression as EXPLAIN shows it; comparisons and boolean operators are
/// parenthesised, as PostgreSQL's deparser does.
pub fn deparse(e: &Expr) -> String {
    print(e, Style::Explain)
}

/// An expression as PostgreSQL stores it in its catalog and prints it there
/// without pretty-printing (`pg_get_indexdef(oid)`, as `pg_indexes` shows a
/// partial index's WHERE): the grammar builds `a AND b AND c` as one AND of
/// three (`makeAndExpr` extends an AND on its left), and a negative number is
/// a constant printed quoted with its type (`'-5'::integer`).
pub fn deparse_stored(e: &Expr) -> String {
    print(e, Style::Stored)
}

#[derive(Clone, Copy, PartialEq)]
enum Style {
    Explain,
    Stored,
}

fn print(e: &Expr, style: Style) -> String {
    let deparse = |e: &Expr| print(e, style);
    match e {
        Expr::Literal(Value::Int(i)) if style == Style::Stored && *i < 0 => {
            let ty = if i32::try_from(*i).is_ok() {
                "integer"
            } else {
                "bigint"
            };
            format!("'{i}'::{ty}")
        }
        Expr::Binary {
            op: op @ (BinOp::And | BinOp::Or),
            left,
            right,
        } if style == Style::Stored => {
            let mut operands = vec![deparse(right)];
            let mut rest = &**left;
            while let Expr::Binary { op: o, left, right } = rest {
                if o != op {
                    break;
                }
                operands.push(deparse(right));
                rest = left;
            }
            operands.push(deparse(rest));
            operands.reverse();
            format!("({})", operands.join(&format!(" {} ", op.symbol())))
        }
        Expr::Column {
            table: Some(t),
            name,
        } => format!("{t}.{name}"),
        Expr::Column { name, .. } => name.clone(),
        Expr::Literal(v) => literal(v),
        Expr::Call(crate::sql::ast::Func::CurrentDate) => "CURRENT_DATE".into(),
        Expr::Call(crate::sql::ast::Func::LocalTimestamp) => "LOCALTIMESTAMP".into(),
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
                    Expr::Literal(v) if v.datetime_type().is_some() => array_element(&v.pg_text()),
                    Expr::Literal(v) => v.pg_text(),
                    // An integer in a wider column's array (see deparse_over).
                    Expr::Cast { expr, .. } if matches!(**expr, Expr::Literal(_)) => deparse(expr),
                    other => deparse(other),
                })
                .collect();
            let op = if *negated { "<> ALL" } else { "= ANY" };
            let element = match list.first() {
                Some(Expr::Literal(v)) => v.datetime_type().map_or("integer", |t| t.pg_name()),
                Some(Expr::Cast { expr, ty }) if matches!(**expr, Expr::Literal(_)) => ty.pg_name(),
                _ => "integer",
            };
            format!(
                "({} {op} ('{{{}}}'::{element}[]))",
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
        Expr::Cast {
            expr,
            ty: SqlType::Bpchar(0),
        } if matches!(**expr, Expr::Literal(Value::Text(_))) => match &**expr {
            Expr::Literal(Value::Text(s)) => format!("'{}'::bpchar", s.replace('\'', "''")),
            _ => unreachable!(),
        },
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
        Expr::Function {
            func: crate::sql::functions::ScalarFunc::Extract,
            args,
        } => match &args[0] {
            Expr::Literal(Value::Text(field)) => {
                format!("EXTRACT({field} FROM {})", deparse(&args[1]))
            }
            other => format!("EXTRACT({} FROM {})", deparse(other), deparse(&args[1])),
        },
        Expr::Function {
            func: crate::sql::functions::ScalarFunc::YbHashKey(_),
            args,
        } => deparse(&args[0]),
        Expr::Function { func, args } => {
            let args: Vec<String> = args.iter().map(deparse).collect::<Vec<_>>();
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
            separator,
            order_by,
            filter,
        } => {
            let arg = arg.as_ref().map_or("*".to_string(), |a| deparse(a));
            let distinct = if *distinct { "DISTINCT " } else { "" };
            let separator = match separator {
                Some(s) => format!(", {}", deparse(&Expr::Literal(s.clone()))),
                None => String::new(),
            };
            let keys: Vec<String> = (order_by.iter())
                .map(|o| match o.order {
                    crate::sql::ast::Order::Desc => format!("{} DESC", deparse(&o.expr)),
                    crate::sql::ast::Order::Asc => deparse(&o.expr),
                })
                .collect();
            let order = match keys.is_empty() {
                true => String::new(),
                false => format!(" ORDER BY {}", keys.join(", ")),
            };
            let filter = match filter {
                Some(f) => format!(" FILTER (WHERE {})", deparse(f)),
                None => String::new(),
            };
            format!("{}({distinct}{arg}{separator}{order}){filter}", func.name())
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
    fn stored_expressions_flatten_left_and_chains_and_quote_negatives() {
        let stored = |sql: &str| match parse_statement(sql).unwrap() {
            Statement::Select(s) => deparse_stored(&s.filter.unwrap()),
            other => panic!("{other:?}"),
        };
        assert_eq!(
            stored("select * from d where a > 1 and b < -2 and c = 3"),
            "((a > 1) AND (b < '-2'::integer) AND (c = 3))"
        );
        assert_eq!(
            stored("select * from d where a > 1 and (b < 2 and c = 3)"),
            "((a > 1) AND ((b < 2) AND (c = 3)))"
        );
        assert_eq!(
            stored("select * from d where a > 1 or b < 2 and c = 3"),
            "((a > 1) OR ((b < 2) AND (c = 3)))"
        );
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
