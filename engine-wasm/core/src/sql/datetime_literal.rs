//! Date/time constants as the parser meets them: `DATE '2016-01-01'`,
//! `'1 day'::interval`, `INTERVAL '1 hour'`, `EXTRACT(year FROM d)`. A quoted
//! literal cast to a date/time type is read at once (PostgreSQL's parser does
//! the same, so a malformed one fails before anything runs) and EXPLAIN
//! prints it as PostgreSQL does, `'2016-01-01'::date`.

use super::ast::Expr;
use super::error::{unsupported, SqlError};
use super::functions::ScalarFunc;
use crate::value::{SqlType, Value};
use sqlparser::ast as sp;

/// `expr::ty`, folded to a constant when `expr` is a quoted literal and `ty`
/// a date/time type.
pub(super) fn cast(expr: Expr, ty: SqlType) -> Result<Expr, SqlError> {
    match &expr {
        Expr::Literal(Value::Text(s)) if super::datetime::is_datetime(ty) => {
            Ok(Expr::Literal(super::eval::parse_text_as(s, ty)?))
        }
        _ => Ok(Expr::Cast {
            expr: Box::new(expr),
            ty,
        }),
    }
}

/// `INTERVAL '…'`; the SQL standard's field qualifiers (`INTERVAL '1' DAY`,
/// `INTERVAL '1-2' YEAR TO MONTH`) are refused by name.
pub(super) fn interval(iv: &sp::Interval) -> Result<Expr, SqlError> {
    let qualified = iv.leading_field.is_some()
        || iv.last_field.is_some()
        || iv.leading_precision.is_some()
        || iv.fractional_seconds_precision.is_some();
    if qualified {
        return Err(unsupported(format!(
            "the interval {iv} (a field qualifier; write INTERVAL '1 day')"
        )));
    }
    match super::convert::convert_expr(&iv.value)? {
        lit @ Expr::Literal(Value::Text(_)) => cast(lit, SqlType::Interval),
        _ => Err(unsupported(format!(
            "the interval {iv} (write a quoted literal: INTERVAL '1 day')"
        ))),
    }
}

/// `EXTRACT(field FROM x)`: a call of [`ScalarFunc::Extract`] whose first
/// argument is the field's name.
pub(super) fn extract(field: &sp::DateTimeField, expr: Expr) -> Expr {
    let name = match field {
        sp::DateTimeField::Custom(id) => id.value.clone(),
        other => other.to_string(),
    };
    Expr::Function {
        func: ScalarFunc::Extract,
        args: vec![Expr::Literal(Value::text(name.to_ascii_lowercase())), expr],
    }
}
