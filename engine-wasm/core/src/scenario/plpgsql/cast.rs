//! Values in and out of PL/pgSQL variables, as `pl_exec.c` converts them: a
//! value assigned to a variable of another type goes through the type's text
//! form (PostgreSQL's I/O conversion: `int := 'abc'` is "invalid input syntax
//! for type integer"), a variable's value enters SQL as a parameter of the
//! variable's type, and RAISE prints each value's text form.

use crate::sql::ast::Expr;
use crate::sql::error::{ErrorKind, SqlError};
use crate::sql::eval::coerce;
use crate::value::{SqlType, Value};

/// `value` as a variable of type `ty` holds it.
pub(super) fn assign(value: Value, ty: SqlType) -> Result<Value, SqlError> {
    match (&value, ty) {
        (Value::Null, _) => Ok(Value::Null),
        // Text takes any value's output form.
        (Value::Text(_), SqlType::Text) => Ok(value),
        (_, SqlType::Text) => Ok(Value::text(value.pg_text())),
        (Value::Text(s), _) => from_text(s, ty),
        // Numbers convert as SQL's assignment casts do (a float8 rounds to
        // an integer); other pairs through text.
        (
            Value::Int(_) | Value::Float(_) | Value::Real(_),
            SqlType::Int2 | SqlType::Int4 | SqlType::Int8 | SqlType::Float8 | SqlType::Float4,
        ) => coerce(value, ty),
        _ => match coerce(value.clone(), ty) {
            Ok(v) => Ok(v),
            Err(_) => from_text(&value.pg_text(), ty),
        },
    }
}

/// A value of type `ty` from its text form (a query's result cell, or a
/// value of another type).
pub(super) fn from_text(s: &str, ty: SqlType) -> Result<Value, SqlError> {
    let invalid = || {
        SqlError::new(
            ErrorKind::Execution,
            format!("invalid input syntax for type {}: \"{s}\"", ty.pg_name()),
        )
    };
    let t = s.trim();
    match ty {
        SqlType::Text => Ok(Value::text(s)),
        SqlType::Int2 | SqlType::Int4 | SqlType::Int8 => {
            let v: i64 = t.parse().map_err(|_| invalid())?;
            coerce(Value::Int(v), ty)
        }
        SqlType::Float8 | SqlType::Float4 => {
            let v: f64 = t.parse().map_err(|_| invalid())?;
            coerce(Value::Float(v), ty)
        }
        SqlType::Bool => match t.to_ascii_lowercase().as_str() {
            "t" | "true" | "y" | "yes" | "on" | "1" => Ok(Value::Bool(true)),
            "f" | "false" | "n" | "no" | "off" | "0" => Ok(Value::Bool(false)),
            _ => Err(invalid()),
        },
        _ => coerce(Value::text(s), ty),
    }
}

/// A condition's value: NULL is false (IF, WHILE, EXIT WHEN, ASSERT).
pub(super) fn truth(value: Value) -> Result<bool, SqlError> {
    match assign(value, SqlType::Bool)? {
        Value::Bool(b) => Ok(b),
        _ => Ok(false),
    }
}

/// A variable's value as a parameter of its type in a SQL statement. A bare
/// literal where SQL would read one of that type (an integer, a boolean, a
/// timestamp: an index condition and EXPLAIN see a constant), else a cast, so
/// that a bigint does integer arithmetic as a bigint and a float8 is not
/// taken for an exact numeric.
pub(super) fn parameter(value: &Value, ty: SqlType) -> Expr {
    let literal = Expr::Literal(value.clone());
    match (value, ty) {
        (Value::Int(i), SqlType::Int4) if i32::try_from(*i).is_ok() => literal,
        (Value::Bool(_), SqlType::Bool) | (Value::Timestamp(_), SqlType::Timestamptz) => literal,
        _ => Expr::Cast {
            expr: Box::new(literal),
            ty,
        },
    }
}

/// RAISE's message: each `%` replaced by the next argument's text (NULL
/// prints as `<NULL>`), `%%` by `%`.
pub(super) fn format_message(format: &str, args: &[Option<String>]) -> String {
    let mut out = String::with_capacity(format.len());
    let mut args = args.iter();
    let mut chars = format.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '%' {
            out.push(c);
        } else if chars.peek() == Some(&'%') {
            chars.next();
            out.push('%');
        } else {
            match args.next() {
                Some(Some(text)) => out.push_str(text),
                Some(None) => out.push_str("<NULL>"),
                None => out.push('%'),
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn assignment_converts_through_text_as_postgresql_does() {
        assert_eq!(
            assign(Value::text("42"), SqlType::Int4).unwrap(),
            Value::Int(42)
        );
        let e = assign(Value::text("abc"), SqlType::Int4).unwrap_err();
        assert_eq!(e.message, "invalid input syntax for type integer: \"abc\"");
        let e = assign(Value::Bool(true), SqlType::Int4).unwrap_err();
        assert_eq!(e.message, "invalid input syntax for type integer: \"t\"");
        let e = assign(Value::Int(2), SqlType::Bool).unwrap_err();
        assert_eq!(e.message, "invalid input syntax for type boolean: \"2\"");
        assert_eq!(
            assign(Value::Float(1.6), SqlType::Int4).unwrap(),
            Value::Int(2)
        );
        assert_eq!(
            assign(Value::Int(5), SqlType::Text).unwrap(),
            Value::text("5")
        );
        let e = assign(Value::Int(1 << 40), SqlType::Int4).unwrap_err();
        assert_eq!(e.message, "integer out of range");
    }

    #[test]
    fn raise_formats_like_postgresql() {
        let args = [Some("1".to_string()), None];
        assert_eq!(format_message("x % %% %", &args), "x 1 % <NULL>");
        assert_eq!(format_message("no args", &[]), "no args");
    }

    #[test]
    fn parameters_keep_their_type() {
        assert_eq!(
            parameter(&Value::Int(7), SqlType::Int4),
            Expr::Literal(Value::Int(7))
        );
        assert!(matches!(
            parameter(&Value::Int(7), SqlType::Int8),
            Expr::Cast {
                ty: SqlType::Int8,
                ..
            }
        ));
        assert!(matches!(
            parameter(&Value::Null, SqlType::Int4),
            Expr::Cast {
                ty: SqlType::Int4,
                ..
            }
        ));
    }
}
