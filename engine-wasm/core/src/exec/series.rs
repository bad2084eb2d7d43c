//! The values `generate_series` makes: integers (`generate_series(int, int
//! [, int])`) or instants stepped by an interval (`generate_series(timestamp,
//! timestamp, interval)` and over timestamptz), as PostgreSQL's
//! `generate_series_step_int8` and `generate_series_timestamp` do.

use crate::sql::error::{ErrorKind, SqlError};
use crate::value::timestamp::add_interval;
use crate::value::{Interval, Value};

/// A series' arguments, checked; [`Series::values`] makes its rows.
pub enum Series {
    Int {
        start: i64,
        stop: i64,
        step: i64,
    },
    /// `generate_series(numeric, numeric [, numeric])`, as
    /// `generate_series_step_numeric` (`1e6` is a numeric literal).
    Numeric {
        start: crate::value::Numeric,
        stop: crate::value::Numeric,
        step: crate::value::Numeric,
    },
    /// `local`: a timestamp without time zone (else timestamptz).
    Time {
        start: i64,
        stop: i64,
        step: Interval,
        local: bool,
    },
}

fn zero_step() -> SqlError {
    SqlError::new(ErrorKind::Execution, "step size cannot equal zero")
}

impl Series {
    pub fn new(start: Value, stop: Value, step: Option<Value>) -> Result<Series, SqlError> {
        let step = untyped_step(&start, &stop, step)?;
        let (start, stop) = untyped_instants(start, stop, step.as_ref())?;
        let instant = |v: &Value| match v {
            Value::LocalTimestamp(us) | Value::Timestamp(us) => Some(*us),
            Value::Date(d) => Some(i64::from(*d) * crate::value::date::US_PER_DAY),
            _ => None,
        };
        if let Some(series) = numeric_series(&start, &stop, step.as_ref())? {
            return Ok(series);
        }
        match (&start, &stop, step.unwrap_or(Value::Int(1))) {
            (Value::Int(a), Value::Int(b), Value::Int(s)) if s != 0 => Ok(Series::Int {
                start: *a,
                stop: *b,
                step: s,
            }),
            (Value::Int(_), Value::Int(_), Value::Int(_)) => Err(zero_step()),
            (a, b, Value::Interval(iv)) if instant(a).is_some() && instant(b).is_some() => {
                if iv.cmp_key() == 0 {
                    return Err(zero_step());
                }
                // Two timestamps make a timestamp series; a timestamptz or a
                // date (cast to timestamptz, as PostgreSQL resolves it) a
                // timestamptz one.
                let local =
                    matches!(a, Value::LocalTimestamp(_)) && matches!(b, Value::LocalTimestamp(_));
                Ok(Series::Time {
                    start: instant(a).unwrap_or(0),
                    stop: instant(b).unwrap_or(0),
                    step: *iv,
                    local,
                })
            }
            _ => Err(SqlError::new(
                ErrorKind::Semantic,
                "generate_series needs integer arguments, or timestamps and an interval step",
            )),
        }
    }

    /// The series' values, one at a time (a ten-million-row series is
    /// never held in memory).
    pub fn iter(&self) -> Box<dyn Iterator<Item = Value> + '_> {
        match *self {
            Series::Int { start, stop, step } => {
                let more = move |x: &i128| {
                    (step > 0 && *x <= i128::from(stop)) || (step < 0 && *x >= i128::from(stop))
                };
                Box::new(
                    std::iter::successors(Some(i128::from(start)), move |x| {
                        Some(x + i128::from(step))
                    })
                    .take_while(more)
                    .map(|x| Value::Int(x as i64)),
                )
            }
            Series::Numeric { start, stop, step } => {
                let forward = step.signum() > 0;
                Box::new(
                    std::iter::successors(Some(start), move |x| x.add(&step).ok())
                        .take_while(move |x| if forward { *x <= stop } else { *x >= stop })
                        .map(|x| Value::Numeric(Box::new(x))),
                )
            }
            Series::Time {
                start,
                stop,
                step,
                local,
            } => {
                let forward = step.cmp_key() > 0;
                Box::new(
                    std::iter::successors(Some(start), move |t| add_interval(*t, &step))
                        .take_while(move |t| if forward { *t <= stop } else { *t >= stop })
                        .map(move |t| {
                            if local {
                                Value::LocalTimestamp(t)
                            } else {
                                Value::Timestamp(t)
                            }
                        }),
                )
            }
        }
    }

    /// How many values the series has, counted up to `limit + 1` for
    /// instants (integers are counted without stepping).
    pub fn len(&self, limit: u64) -> u128 {
        match *self {
            Series::Int { start, stop, step } => {
                if (step > 0 && stop >= start) || (step < 0 && stop <= start) {
                    ((i128::from(stop) - i128::from(start)) / i128::from(step) + 1) as u128
                } else {
                    0
                }
            }
            Series::Numeric {
                start, stop, step, ..
            } => {
                let n = ((stop.to_f64() - start.to_f64()) / step.to_f64()).floor();
                if n >= 0.0 {
                    n as u128 + 1
                } else {
                    0
                }
            }
            Series::Time { .. } => self.iter().take(limit as usize + 1).count() as u128,
        }
    }
}

/// A quoted step beside an instant is an interval (`'12 hours'`).
fn untyped_step(
    start: &Value,
    stop: &Value,
    step: Option<Value>,
) -> Result<Option<Value>, SqlError> {
    let instant = |v: &Value| {
        matches!(
            v,
            Value::LocalTimestamp(_) | Value::Timestamp(_) | Value::Date(_)
        )
    };
    match step {
        Some(Value::Text(s)) if instant(start) || instant(stop) => Ok(Some(
            crate::sql::datetime::parse_text(&s, crate::value::SqlType::Interval)?,
        )),
        other => Ok(other),
    }
}

/// A quoted literal beside an instant and an interval step takes the
/// instant's type (`generate_series(ts, '2024-01-02', '1 hour')`); two of
/// them are timestamptz, the preferred type PostgreSQL resolves them to.
fn untyped_instants(
    start: Value,
    stop: Value,
    step: Option<&Value>,
) -> Result<(Value, Value), SqlError> {
    use crate::value::SqlType;
    if !matches!(step, Some(Value::Interval(_))) {
        return Ok((start, stop));
    }
    let ty = match (&start, &stop) {
        (Value::LocalTimestamp(_), _) | (_, Value::LocalTimestamp(_)) => SqlType::Timestamp,
        _ => SqlType::Timestamptz,
    };
    let typed = |v: Value| match v {
        Value::Text(s) => crate::sql::datetime::parse_text(&s, ty),
        other => Ok(other),
    };
    Ok((typed(start)?, typed(stop)?))
}

/// A series of numerics when any argument is one (the others, integers,
/// taken as numerics), as PostgreSQL resolves `generate_series(1, 1e6)`.
fn numeric_series(
    start: &Value,
    stop: &Value,
    step: Option<&Value>,
) -> Result<Option<Series>, SqlError> {
    use crate::value::Numeric;
    let args = [Some(start), Some(stop), step];
    if !args
        .iter()
        .flatten()
        .any(|v| matches!(v, Value::Numeric(_)))
    {
        return Ok(None);
    }
    let numeric = |v: &Value| match v {
        Value::Numeric(n) => Ok(**n),
        Value::Int(i) => Ok(Numeric::from_i64(*i)),
        _ => Err(SqlError::new(
            ErrorKind::Semantic,
            "generate_series needs integer arguments, or timestamps and an interval step",
        )),
    };
    let step = match step {
        Some(s) => numeric(s)?,
        None => Numeric::from_i64(1),
    };
    if step.is_zero() {
        return Err(zero_step());
    }
    Ok(Some(Series::Numeric {
        start: numeric(start)?,
        stop: numeric(stop)?,
        step,
    }))
}
