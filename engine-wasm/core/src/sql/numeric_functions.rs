//! The arithmetic functions of `numeric`, float8 and the integers: abs,
//! floor, ceil, round, trunc, sign, mod, resolved as PostgreSQL resolves
//! them. On an integer argument, the one-argument floor/ceil/round/trunc/sign
//! are float8's (float8 is the preferred numeric type); the two-argument
//! round and trunc exist for numeric only, so an integer becomes a numeric.

use super::error::{ErrorKind, SqlError};
use super::functions::{no_such, ScalarFunc};
use super::numeric::{as_numeric, numeric_error};
use crate::value::{Numeric, Value};

/// Calls one of the functions above on non-null arguments.
pub fn call(func: ScalarFunc, args: &[Value]) -> Result<Value, SqlError> {
    match (&args[0], args.get(1)) {
        (_, Some(_)) if func != ScalarFunc::Mod => with_digits(func, args),
        (_, Some(b)) => modulo(&args[0], b, args),
        (Value::Numeric(n), None) => Ok(Value::numeric(on_numeric(func, n)?)),
        (Value::Int(i), None) if func == ScalarFunc::Abs => i
            .checked_abs()
            .map(Value::Int)
            .ok_or_else(|| SqlError::new(ErrorKind::Execution, "bigint out of range")),
        (Value::Int(i), None) => Ok(on_float(func, *i as f64)),
        (Value::Float(f), None) => Ok(on_float(func, *f)),
        _ => Err(no_such(func, args)),
    }
}

fn on_numeric(func: ScalarFunc, n: &Numeric) -> Result<Numeric, SqlError> {
    let r = match func {
        ScalarFunc::Abs => Ok(n.abs()),
        ScalarFunc::Floor => n.floor(),
        ScalarFunc::Ceil => n.ceil(),
        ScalarFunc::Round => n.round(0),
        ScalarFunc::Trunc => n.trunc(0),
        // numeric_sign: -1, 0 or 1 at scale 0.
        _ => Ok(Numeric::from_i64(i64::from(n.signum()))),
    };
    r.map_err(numeric_error)
}

/// float8's versions: round is rint (halves to even).
fn on_float(func: ScalarFunc, f: f64) -> Value {
    Value::Float(match func {
        ScalarFunc::Abs => f.abs(),
        ScalarFunc::Floor => f.floor(),
        ScalarFunc::Ceil => f.ceil(),
        ScalarFunc::Round => f.round_ties_even(),
        ScalarFunc::Trunc => f.trunc(),
        _ if f > 0.0 => 1.0,
        _ if f < 0.0 => -1.0,
        _ => 0.0,
    })
}

/// `round(x, d)` and `trunc(x, d)`: numeric only.
fn with_digits(func: ScalarFunc, args: &[Value]) -> Result<Value, SqlError> {
    let (Some(n), Value::Int(d)) = (as_numeric(&args[0]), &args[1]) else {
        return Err(no_such(func, args));
    };
    let digits = i32::try_from(*d)
        .map_err(|_| SqlError::new(ErrorKind::Execution, "integer out of range"))?;
    let r = match func {
        ScalarFunc::Round => n.round(digits),
        ScalarFunc::Trunc => n.trunc(digits),
        _ => return Err(no_such(func, args)),
    };
    r.map(Value::numeric).map_err(numeric_error)
}

/// `mod(a, b)`: integers' remainder, or numeric's when either is numeric.
fn modulo(a: &Value, b: &Value, args: &[Value]) -> Result<Value, SqlError> {
    match (a, b) {
        (Value::Int(_), Value::Int(0)) => {
            Err(SqlError::new(ErrorKind::Execution, "division by zero"))
        }
        (Value::Int(x), Value::Int(y)) => Ok(Value::Int(x.wrapping_rem(*y))),
        _ => match (as_numeric(a), as_numeric(b)) {
            (Some(x), Some(y)) => x.rem(&y).map(Value::numeric).map_err(numeric_error),
            _ => Err(no_such(ScalarFunc::Mod, args)),
        },
    }
}
