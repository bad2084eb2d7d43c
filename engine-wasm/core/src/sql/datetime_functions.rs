//! `EXTRACT`, `date_part`, `date_trunc` and `make_date`, as timestamp.c and
//! date.c compute them (`timestamp_part`, `interval_part`, `extract_date`,
//! `timestamp_trunc`, `make_date`).

use super::error::{unsupported, ErrorKind, SqlError};
use crate::value::date::{days_from_ymd, days_in_month, US_PER_DAY};
use crate::value::timestamp::{canonical_unit, part, trunc};
use crate::value::{Interval, Value};

fn error(message: String) -> SqlError {
    SqlError::new(ErrorKind::Execution, message)
}

fn not_recognized(unit: &str, v: &Value) -> SqlError {
    error(format!(
        "unit \"{unit}\" not recognized for type {}",
        type_name(v)
    ))
}

fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Timestamp(_) => "timestamp with time zone",
        other => other.datetime_type().map_or("unknown", |t| t.pg_name()),
    }
}

/// The instant of a date or timestamp (a date is its midnight).
fn instant(v: &Value) -> Option<i64> {
    match v {
        Value::Date(d) => Some(i64::from(*d) * US_PER_DAY),
        Value::LocalTimestamp(us) | Value::Timestamp(us) => Some(*us),
        _ => None,
    }
}

/// `date_part(unit, x)`: a float8. A date is read as its midnight, as the
/// SQL function `date_part(text, date)` casts it to a timestamp.
pub fn date_part(unit: &str, v: &Value) -> Result<Value, SqlError> {
    let canonical = canonical_unit(unit).ok_or_else(|| not_recognized(unit, v))?;
    let r = match v {
        Value::Interval(iv) => interval_part(canonical, iv),
        _ => part(
            canonical,
            instant(v).ok_or_else(|| no_function("date_part", v))?,
        ),
    };
    r.map(Value::Float).ok_or_else(|| {
        error(format!(
            "unit \"{unit}\" not supported for type {}",
            type_name(v)
        ))
    })
}

/// `EXTRACT(field FROM x)` returns numeric (PostgreSQL 14 on): a whole
/// number of scale 0 for the fields that have no fraction; the fields with
/// one (second, milliseconds, epoch, julian) are refused, pointing to
/// date_part.
pub fn extract(unit: &str, v: &Value) -> Result<Value, SqlError> {
    let canonical = canonical_unit(unit).ok_or_else(|| not_recognized(unit, v))?;
    if matches!(canonical, "second" | "milliseconds" | "epoch" | "julian") {
        return Err(unsupported(format!(
            "EXTRACT({unit} FROM …) (a numeric with a fraction, PostgreSQL's exact numeric type)"
        ))
        .with_hint(format!("date_part('{unit}', …) gives it as a float8")));
    }
    let time_field = matches!(canonical, "microseconds" | "minute" | "hour");
    if matches!(v, Value::Date(_)) && time_field {
        return Err(error(format!(
            "unit \"{unit}\" not supported for type date"
        )));
    }
    match date_part(unit, v)? {
        Value::Float(f) => Ok(Value::numeric(crate::value::Numeric::from_i64(f as i64))),
        other => Ok(other),
    }
}

/// `interval_part`: a field of an interval's months, days and time.
fn interval_part(unit: &str, iv: &Interval) -> Option<f64> {
    let years = i64::from(iv.months / 12);
    let months = i64::from(iv.months % 12);
    let sec_us = iv.micros % 60_000_000;
    Some(match unit {
        "microseconds" => sec_us as f64,
        "milliseconds" => sec_us as f64 / 1000.0,
        "second" => sec_us as f64 / 1e6,
        "minute" => (iv.micros / 60_000_000 % 60) as f64,
        "hour" => (iv.micros / 3_600_000_000) as f64,
        "day" => f64::from(iv.days),
        "month" => months as f64,
        "quarter" => (months / 3 + 1) as f64,
        "year" => years as f64,
        "decade" => (years / 10) as f64,
        "century" => (years / 100) as f64,
        "millennium" => (years / 1000) as f64,
        // interval_part_common's float8 arm, summed in its order.
        "epoch" => {
            iv.micros as f64 / 1e6
                + 365.25 * 86_400.0 * years as f64
                + 30.0 * 86_400.0 * months as f64
                + 86_400.0 * f64::from(iv.days)
        }
        _ => return None,
    })
}

fn no_function(name: &str, v: &Value) -> SqlError {
    SqlError::new(
        ErrorKind::Semantic,
        format!("function {name}(unknown, {}) does not exist", type_name(v)),
    )
}

/// `date_trunc(unit, x)`: a timestamp stays a timestamp, a timestamptz (in
/// UTC) a timestamptz; a date is cast to timestamptz first, as PostgreSQL
/// resolves `date_trunc(text, date)`.
pub fn date_trunc(unit: &str, v: &Value) -> Result<Value, SqlError> {
    if let Value::Interval(_) = v {
        return Err(unsupported("date_trunc() of an interval"));
    }
    let us = instant(v).ok_or_else(|| no_function("date_trunc", v))?;
    let as_tz = |u| match v {
        Value::LocalTimestamp(_) => Value::LocalTimestamp(u),
        _ => Value::Timestamp(u),
    };
    let shown = if matches!(v, Value::Date(_)) {
        &Value::Timestamp(us)
    } else {
        v
    };
    let canonical = canonical_unit(unit).ok_or_else(|| not_recognized(unit, shown))?;
    let r = trunc(canonical, us).ok_or_else(|| {
        error(format!(
            "unit \"{unit}\" not supported for type {}",
            type_name(shown)
        ))
    })?;
    Ok(as_tz(r))
}

/// `make_date(year, month, day)`; a negative year is BC (there is no year 0).
pub fn make_date(y: i64, m: i64, d: i64) -> Result<Value, SqlError> {
    let bad = || {
        SqlError::new(
            ErrorKind::Execution,
            format!("date field value out of range: {y}-{m:02}-{d:02}"),
        )
    };
    let year = if y < 0 { y + 1 } else { y };
    let month = u32::try_from(m)
        .ok()
        .filter(|m| (1..=12).contains(m))
        .ok_or_else(bad)?;
    let day = u32::try_from(d).ok().filter(|d| *d >= 1).ok_or_else(bad)?;
    if y == 0 || day > days_in_month(year, month) || year.abs() > 5_874_897 {
        return Err(bad());
    }
    Ok(Value::Date(days_from_ymd(year, month, day) as i32))
}
