//! The SQL side of `numeric` ([`crate::value::Numeric`]): its errors as
//! PostgreSQL words them, arithmetic with integers promoted to numeric and
//! float8 winning over numeric (PostgreSQL's implicit casts), and casts.

use super::ast::{BinOp, Expr};
use super::error::{unsupported, ErrorKind, SqlError};
use crate::value::{Numeric, NumericError, SqlType, Value};

/// A numeric failure as PostgreSQL reports it, or IndexLab's refusal.
pub fn numeric_error(e: NumericError) -> SqlError {
    match e {
        NumericError::TooManyDigits => unsupported(format!(
            "a numeric value of more than {} digits",
            crate::value::numeric::MAX_DIGITS
        )),
        NumericError::Special => unsupported("NaN or Infinity as a numeric value"),
        NumericError::Syntax => {
            SqlError::new(ErrorKind::Semantic, "invalid input syntax for type numeric")
        }
        NumericError::DivisionByZero => SqlError::new(ErrorKind::Execution, "division by zero"),
        NumericError::FieldOverflow { precision, scale } => {
            let int_digits = precision - scale;
            // numeric.c prints 10^0 as 1.
            let limit = if int_digits == 0 {
                "1".to_string()
            } else {
                format!("10^{int_digits}")
            };
            SqlError::new(ErrorKind::Execution, "numeric field overflow").with_detail(format!(
                "A field with precision {precision}, scale {scale} must round to an absolute value less than {limit}."
            ))
        }
        NumericError::IntegerOutOfRange => {
            SqlError::new(ErrorKind::Execution, "bigint out of range")
        }
    }
}

/// numeric_in on text, with PostgreSQL's message naming the text.
pub fn parse_numeric(text: &str) -> Result<Numeric, SqlError> {
    Numeric::parse(text).map_err(|e| match e {
        NumericError::Syntax => SqlError::new(
            ErrorKind::Semantic,
            format!("invalid input syntax for type numeric: \"{text}\""),
        ),
        other => numeric_error(other),
    })
}

/// A value as a numeric operand: numerics, and integers promoted as
/// PostgreSQL's implicit int→numeric cast does.
pub fn as_numeric(v: &Value) -> Option<Numeric> {
    match v {
        Value::Numeric(n) => Some(**n),
        Value::Int(i) => Some(Numeric::from_i64(*i)),
        _ => None,
    }
}

/// `a op b` where one side is numeric and the other numeric or an integer.
pub fn arith(op: BinOp, a: &Numeric, b: &Numeric) -> Result<Value, SqlError> {
    let r = match op {
        BinOp::Add => a.add(b),
        BinOp::Sub => a.sub(b),
        BinOp::Mul => a.mul(b),
        BinOp::Div => a.div(b),
        BinOp::Mod => a.rem(b),
        _ => {
            return Err(SqlError::new(
                ErrorKind::Execution,
                format!("operator does not exist: numeric {} numeric", op.symbol()),
            ))
        }
    };
    r.map(Value::numeric).map_err(numeric_error)
}

/// A numeric cast to another type (or to numeric with a typmod).
pub fn cast_numeric(n: &Numeric, ty: SqlType) -> Result<Value, SqlError> {
    let out_of_range =
        |what: &str| SqlError::new(ErrorKind::Execution, format!("{what} out of range"));
    Ok(match ty {
        SqlType::Numeric(None) => Value::numeric(*n),
        SqlType::Numeric(Some((p, s))) => {
            Value::numeric(n.apply_typmod(p, s).map_err(numeric_error)?)
        }
        SqlType::Float8 => Value::Float(n.to_f64()),
        SqlType::Float4 => Value::Real(n.to_f64() as f32),
        SqlType::Text => Value::text(n.to_string()),
        SqlType::Int2 | SqlType::Int4 | SqlType::Int8 => {
            let what = match ty {
                SqlType::Int2 => "smallint",
                SqlType::Int4 => "integer",
                _ => "bigint",
            };
            let i = n.to_i64_rounded().map_err(|_| out_of_range(what))?;
            let fits = match ty {
                SqlType::Int2 => i16::try_from(i).is_ok(),
                SqlType::Int4 => i32::try_from(i).is_ok(),
                _ => true,
            };
            if !fits {
                return Err(out_of_range(what));
            }
            Value::Int(i)
        }
        other => {
            return Err(SqlError::new(
                ErrorKind::Semantic,
                format!("cannot cast type numeric to {}", other.pg_name()),
            ))
        }
    })
}

/// A value cast to `numeric[(p,s)]`: integers exactly, float8 through its
/// 15 significant digits (float8_numeric), text by numeric_in.
pub fn to_numeric(v: &Value, ty: SqlType) -> Result<Option<Value>, SqlError> {
    let n = match v {
        Value::Numeric(n) => **n,
        Value::Int(i) => Numeric::from_i64(*i),
        Value::Float(f) => Numeric::from_f64(*f).map_err(numeric_error)?,
        // float4_numeric prints FLT_DIG (6) significant digits (`%.6g`).
        Value::Real(f) if f.is_finite() => parse_numeric(&format!("{f:.5e}"))?.normalized(),
        Value::Real(_) => return Err(numeric_error(crate::value::NumericError::Special)),
        Value::Text(s) => parse_numeric(s)?,
        _ => return Ok(None),
    };
    cast_numeric(&n, ty).map(Some)
}

/// A key column of `numeric` without a typmod where equal values of
/// different scales (`2.5`, `2.50`) would have to meet, on YugabyteDB: a
/// unique key or a hashed one (its default). IndexLab's key bytes keep each
/// value's scale (an index-only scan gives back `2.50` as written), so such
/// a DocDB key would let both in or miss one: refused by name. (pg probes a
/// unique B-tree over every scale of the value, `Index::equal_range`.) With
/// `numeric(p,s)` every stored value has the column's scale and the key is
/// exact.
pub fn check_key_column(ty: SqlType, hashed: bool, unique: bool) -> Result<(), SqlError> {
    if ty == SqlType::Numeric(None) && (hashed || unique) {
        return Err(unsupported(
            "a unique or hashed index key on a numeric column without (precision, scale)",
        )
        .with_hint("declare the column numeric(p,s), e.g. numeric(12,2)"));
    }
    Ok(())
}

/// [`check_key_column`] for a CREATE TABLE's primary key and unique
/// constraints, before anything is made.
pub fn check_table_keys(t: &super::ast::CreateTable) -> Result<(), SqlError> {
    let keys = t.primary_key.iter().flatten();
    let unique = t.unique.iter().flat_map(|k| k.columns.iter());
    for k in keys.chain(unique) {
        if let Some(c) = t.columns.iter().find(|c| c.name == k.name) {
            check_key_column(c.ty, k.hash, true)?;
        }
    }
    Ok(())
}

/// Whether `e` is numeric by its look: a numeric literal or cast, or
/// arithmetic or a function over one. The planner keeps such a constant
/// from an integer column's index, as PostgreSQL, which compares the column
/// cast to numeric, cannot use the index either.
pub fn looks_numeric(e: &Expr) -> bool {
    match e {
        Expr::Literal(Value::Numeric(_)) => true,
        Expr::Cast { ty, .. } => ty.is_numeric(),
        Expr::Binary { op, left, right } if !op.compares() => {
            looks_numeric(left) || looks_numeric(right)
        }
        Expr::Function { args, .. } => args.iter().any(looks_numeric),
        _ => false,
    }
}
