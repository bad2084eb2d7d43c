//! `date`, `timestamp`, `timestamptz` and `interval` in expressions: reading
//! their text, casts among them, comparisons (cross-type, as PostgreSQL's
//! `date_cmp_timestamp` & co) and their operators (`date_pli`,
//! `timestamp_pl_interval`, `timestamp_mi`, `interval_mul`…). The session's
//! time zone is UTC, so a timestamptz and a timestamp of the same
//! microseconds are the same instant.

use super::ast::BinOp;
use super::error::{ErrorKind, SqlError};
use crate::value::date::{is_valid_day, US_PER_DAY};
use crate::value::interval::{parse_interval, Interval, IntervalError};
use crate::value::timestamp::{add_interval, is_valid_timestamp, parse_datetime, DateTimeError};
use crate::value::{SqlType, Value};
use std::cmp::Ordering;

pub fn is_datetime(ty: SqlType) -> bool {
    matches!(
        ty,
        SqlType::Date | SqlType::Timestamp | SqlType::Timestamptz | SqlType::Interval
    )
}

fn error(message: String) -> SqlError {
    SqlError::new(ErrorKind::Semantic, message)
}

fn execution(message: &str) -> SqlError {
    SqlError::new(ErrorKind::Execution, message)
}

fn refused(text: &str) -> SqlError {
    SqlError::new(
        ErrorKind::Unsupported,
        format!(
            "the date/time input '{}' is not supported by IndexLab (its clock is virtual and it \
             reads only ISO dates: write YYYY-MM-DD [HH:MM:SS], or use now() / current_date)",
            text.trim()
        ),
    )
}

/// Text read by the input function of `ty` (`date_in`, `timestamp_in`,
/// `timestamptz_in`, `interval_in`), with PostgreSQL's errors.
pub fn parse_text(text: &str, ty: SqlType) -> Result<Value, SqlError> {
    if ty == SqlType::Interval {
        return parse_interval_text(text);
    }
    let input = parse_datetime(text).map_err(|e| match e {
        // timestamp_in names its type `timestamp` (DateTimeParseError's
        // argument), not format_type's `timestamp without time zone`.
        DateTimeError::Syntax => error(format!(
            "invalid input syntax for type {}: \"{text}\"",
            if ty == SqlType::Timestamp {
                "timestamp"
            } else {
                ty.pg_name()
            }
        )),
        DateTimeError::FieldRange => {
            error(format!("date/time field value out of range: \"{text}\""))
        }
        DateTimeError::Unsupported => refused(text),
    })?;
    let out_of_range = |what: &str| error(format!("{what} out of range: \"{text}\""));
    match ty {
        SqlType::Date => {
            let days = input.local_us.div_euclid(US_PER_DAY);
            if !is_valid_day(days) {
                return Err(out_of_range("date"));
            }
            Ok(Value::Date(days as i32))
        }
        SqlType::Timestamp if is_valid_timestamp(input.local_us) => {
            Ok(Value::LocalTimestamp(input.local_us))
        }
        SqlType::Timestamptz if is_valid_timestamp(input.local_us - input.offset_us) => {
            Ok(Value::Timestamp(input.local_us - input.offset_us))
        }
        _ => Err(out_of_range("timestamp")),
    }
}

fn parse_interval_text(text: &str) -> Result<Value, SqlError> {
    let t = text.trim();
    // ISO 8601 (`P1D`) and the SQL standard's `1-2` (years-months) are
    // interval forms PostgreSQL reads and IndexLab does not.
    let sql_standard = t
        .as_bytes()
        .windows(2)
        .any(|w| w[0].is_ascii_digit() && w[1] == b'-');
    if t.starts_with(['P', 'p']) || sql_standard {
        return Err(SqlError::new(
            ErrorKind::Unsupported,
            format!(
                "the interval input '{t}' is not supported by IndexLab (write it as '1 day 2 hours' or '01:02:03')"
            ),
        ));
    }
    match parse_interval(text) {
        Ok(iv) => Ok(Value::Interval(Box::new(iv))),
        Err(IntervalError::Syntax) => Err(error(format!(
            "invalid input syntax for type interval: \"{text}\""
        ))),
        Err(IntervalError::OutOfRange) => Err(error(format!(
            "interval field value out of range: \"{text}\""
        ))),
    }
}

/// The instant a date or timestamp stands for, in microseconds (a date is
/// its midnight), wide enough for the latest date.
fn instant(v: &Value) -> Option<i128> {
    match v {
        Value::Date(d) => Some(i128::from(*d) * i128::from(US_PER_DAY)),
        Value::LocalTimestamp(us) | Value::Timestamp(us) => Some(i128::from(*us)),
        _ => None,
    }
}

/// Orders two date/time values, across date, timestamp and timestamptz.
pub fn compare(a: &Value, b: &Value) -> Option<Ordering> {
    match (a, b) {
        (Value::Interval(x), Value::Interval(y)) => Some(x.cmp_key().cmp(&y.cmp_key())),
        _ => Some(instant(a)?.cmp(&instant(b)?)),
    }
}

/// A date/time value converted to `ty`, as a cast or an assignment does;
/// `None` when this module has no such conversion.
pub fn coerce(v: &Value, ty: SqlType) -> Option<Result<Value, SqlError>> {
    let out_of_range = |what: &str| execution(&format!("{what} out of range"));
    let us = instant(v);
    Some(match (ty, v) {
        (SqlType::Text, _) if v.datetime_type().is_some() => Ok(Value::text(v.pg_text())),
        (SqlType::Interval, Value::Interval(_)) => Ok(v.clone()),
        (SqlType::Date, Value::Date(_) | Value::LocalTimestamp(_) | Value::Timestamp(_)) => {
            let days = us?.div_euclid(i128::from(US_PER_DAY)) as i64;
            Ok(Value::Date(days as i32))
        }
        (
            SqlType::Timestamp | SqlType::Timestamptz,
            Value::Date(_) | Value::LocalTimestamp(_) | Value::Timestamp(_),
        ) => match i64::try_from(us?).ok().filter(|u| is_valid_timestamp(*u)) {
            Some(u) if ty == SqlType::Timestamp => Ok(Value::LocalTimestamp(u)),
            Some(u) => Ok(Value::Timestamp(u)),
            None => Err(out_of_range("timestamp")),
        },
        _ => return None,
    })
}

fn number(v: &Value) -> Option<f64> {
    match v {
        Value::Int(i) => Some(*i as f64),
        Value::Float(f) => Some(*f),
        Value::Real(f) => Some(f64::from(*f)),
        _ => None,
    }
}

/// `a op b` when either is a date/time value; `None` when no such operator
/// exists (the caller reports it).
pub fn arith(op: BinOp, a: &Value, b: &Value) -> Option<Result<Value, SqlError>> {
    use BinOp::{Add, Div, Mul, Sub};
    Some(match (op, a, b) {
        (Add | Sub, Value::Date(d), Value::Int(n)) => {
            date_plus(*d, if op == Add { *n } else { -*n })
        }
        (Add, Value::Int(n), Value::Date(d)) => date_plus(*d, *n),
        (Sub, Value::Date(x), Value::Date(y)) => Ok(Value::Int(i64::from(*x) - i64::from(*y))),
        (
            Add | Sub,
            Value::Date(_) | Value::LocalTimestamp(_) | Value::Timestamp(_),
            Value::Interval(iv),
        ) => shift(a, iv, op == Sub),
        (
            Add,
            Value::Interval(iv),
            Value::Date(_) | Value::LocalTimestamp(_) | Value::Timestamp(_),
        ) => shift(b, iv, false),
        (
            Sub,
            Value::Date(_) | Value::LocalTimestamp(_) | Value::Timestamp(_),
            Value::Date(_) | Value::LocalTimestamp(_) | Value::Timestamp(_),
        ) => {
            let diff = i64::try_from(instant(a)? - instant(b)?);
            diff.map(|d| Value::Interval(Box::new(Interval::from_difference(d))))
                .map_err(|_| execution("interval out of range"))
        }
        (Add | Sub, Value::Interval(x), Value::Interval(y)) => {
            let y = if op == Sub {
                y.checked_neg()
            } else {
                Some(**y)
            };
            y.and_then(|y| x.checked_add(&y))
                .map(|r| Value::Interval(Box::new(r)))
                .ok_or_else(|| execution("interval out of range"))
        }
        // `-interval` arrives as `0 - interval` (sql::convert writes unary minus so).
        (Sub, Value::Int(0), Value::Interval(x)) => x
            .checked_neg()
            .map(|r| Value::Interval(Box::new(r)))
            .ok_or_else(|| execution("interval out of range")),
        (Mul, Value::Interval(iv), n) | (Mul, n, Value::Interval(iv)) if number(n).is_some() => {
            scaled(iv.mul(number(n)?))
        }
        (Div, Value::Interval(iv), n) if number(n).is_some() => match number(n)? {
            0.0 => Err(execution("division by zero")),
            d => scaled(iv.div(d)),
        },
        _ => return None,
    })
}

fn scaled(r: Option<Interval>) -> Result<Value, SqlError> {
    r.map(|r| Value::Interval(Box::new(r)))
        .ok_or_else(|| execution("interval out of range"))
}

/// `date_pli`: a date `n` days later.
fn date_plus(d: i32, n: i64) -> Result<Value, SqlError> {
    let r = i64::from(d).checked_add(n).filter(|r| is_valid_day(*r));
    r.map(|r| Value::Date(r as i32))
        .ok_or_else(|| execution("date out of range"))
}

/// `timestamp_pl_interval` / `timestamp_mi_interval` (a date is its
/// midnight as a timestamp; a timestamptz in UTC moves as a timestamp does).
fn shift(t: &Value, iv: &Interval, minus: bool) -> Result<Value, SqlError> {
    let oor = || execution("timestamp out of range");
    let iv = if minus {
        iv.checked_neg().ok_or_else(oor)?
    } else {
        *iv
    };
    let us = i64::try_from(instant(t).ok_or_else(oor)?).map_err(|_| oor())?;
    let r = add_interval(us, &iv).ok_or_else(oor)?;
    Ok(match t {
        Value::Timestamp(_) => Value::Timestamp(r),
        _ => Value::LocalTimestamp(r),
    })
}

/// Whether a constant bounds an index on a column of `ty` exactly once
/// converted to the column's type. A timestamp bound on a date column is
/// not (`d >= '2016-01-01 10:00'::timestamp` excludes 2016-01-01, which
/// the date's key would include), nor is any bound on an interval column
/// (its keys order `1 mon` and `30 days`, equal in PostgreSQL, apart). Such
/// a condition stays a filter.
pub fn exact_key_constant(ty: Option<SqlType>, constant: &super::ast::Expr) -> bool {
    use super::ast::{Expr, Func};
    use super::functions::ScalarFunc;
    match ty {
        Some(SqlType::Interval) => false,
        Some(SqlType::Date) => match constant {
            Expr::Literal(Value::Date(_) | Value::Text(_) | Value::Null) => true,
            Expr::Call(Func::CurrentDate) => true,
            Expr::Cast { ty, .. } => *ty == SqlType::Date,
            Expr::Function { func, .. } => *func == ScalarFunc::MakeDate,
            Expr::Binary {
                op: BinOp::Add | BinOp::Sub,
                left,
                right,
            } => exact_key_constant(ty, left) && matches!(**right, Expr::Literal(Value::Int(_))),
            _ => false,
        },
        _ => true,
    }
}

/// The type of `l op r` when a date/time type is involved, as PostgreSQL's
/// operator catalog says; `None` when neither is one.
pub fn arith_type(op: BinOp, l: SqlType, r: SqlType) -> Option<SqlType> {
    use SqlType::*;
    let instant = |t: SqlType| matches!(t, Date | Timestamp | Timestamptz);
    Some(match (op, l, r) {
        (BinOp::Sub, Date, Date) => Int4,
        (BinOp::Sub, a, b) if instant(a) && instant(b) => Interval,
        (BinOp::Add | BinOp::Sub, Date, _) | (BinOp::Add, _, Date)
            if l != Interval && r != Interval =>
        {
            Date
        }
        (_, Timestamptz, _) | (_, _, Timestamptz) => Timestamptz,
        (_, Timestamp | Date, _) | (_, _, Timestamp | Date) => Timestamp,
        (_, Interval, _) | (_, _, Interval) => Interval,
        _ => return None,
    })
}
