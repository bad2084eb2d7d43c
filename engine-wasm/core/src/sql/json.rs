//! JSON in SQL: reading text as `json` or `jsonb`, SQL values as JSON
//! (`to_jsonb`), casts out of jsonb, and the operand typing of JSON
//! operators. The operators are in `json/operators.rs`, the functions in
//! `json/functions.rs`; the values themselves in `value/json.rs`.

pub mod functions;
pub mod operators;

use super::error::{unsupported, ErrorKind, SqlError};
use crate::value::json::{self, JsonError, Jsonb};
use crate::value::{Numeric, SqlType, Value};

/// A JSON text read error as PostgreSQL reports it (`ty` names the type).
pub fn json_error(e: JsonError, ty: SqlType) -> SqlError {
    match e {
        JsonError::Syntax(detail) => SqlError::new(
            ErrorKind::Semantic,
            format!("invalid input syntax for type {}", type_word(ty)),
        )
        .with_detail(detail),
        JsonError::NulInText => {
            SqlError::new(ErrorKind::Execution, "unsupported Unicode escape sequence")
                .with_detail(e.detail())
        }
        JsonError::NumberOutOfRange(n) => unsupported(format!(
            "the JSON number {n} (past the {} digits IndexLab's numeric holds)",
            crate::value::numeric::MAX_DIGITS
        )),
        JsonError::TooDeep => unsupported(e.detail()),
    }
}

/// Both json and jsonb report input errors as "type json".
fn type_word(_ty: SqlType) -> &'static str {
    "json"
}

/// json_in / jsonb_in: `json` keeps the text (once it is known to parse),
/// `jsonb` keeps the tree.
pub fn input(text: &str, ty: SqlType) -> Result<Value, SqlError> {
    if ty == SqlType::Json {
        json::parse(text).map_err(|e| json_error(e, ty))?;
        return Ok(Value::Json(Box::new(text.to_string())));
    }
    Ok(Value::Jsonb(Box::new(
        Jsonb::parse(text).map_err(|e| json_error(e, ty))?,
    )))
}

/// A json or jsonb value as a tree (`None` for any other value).
pub fn tree(v: &Value) -> Option<Result<Jsonb, SqlError>> {
    match v {
        Value::Jsonb(j) => Some(Ok(j.as_ref().clone())),
        Value::Json(s) => Some(Jsonb::parse(s).map_err(|e| json_error(e, SqlType::Json))),
        _ => None,
    }
}

/// `to_jsonb(v)`: a SQL value as JSON. Numbers stay numbers, booleans
/// booleans, json is embedded as its tree, and everything else becomes a
/// string of its text, date/time values in ISO 8601 with a `T`
/// (`JsonEncodeDateTime`).
pub fn to_jsonb(v: &Value) -> Result<Jsonb, SqlError> {
    Ok(match v {
        Value::Null => Jsonb::Null,
        Value::Bool(b) => Jsonb::Bool(*b),
        Value::Int(i) => Jsonb::Number(Numeric::from_i64(*i)),
        Value::Numeric(n) => Jsonb::Number(**n),
        // Infinity and NaN have no JSON number: PostgreSQL writes them as strings.
        Value::Float(f) if !f.is_finite() => Jsonb::String(v.pg_text()),
        Value::Real(f) if !f.is_finite() => Jsonb::String(v.pg_text()),
        Value::Float(_) | Value::Real(_) => {
            Jsonb::Number(Numeric::parse(&v.pg_text()).map_err(super::numeric::numeric_error)?)
        }
        Value::Jsonb(j) => j.as_ref().clone(),
        Value::Json(s) => Jsonb::parse(s).map_err(|e| json_error(e, SqlType::Json))?,
        Value::Timestamp(_) | Value::LocalTimestamp(_) => Jsonb::String(iso_datetime(v)),
        other => Jsonb::String(other.pg_text()),
    })
}

/// A timestamp as JSON writes it: `2024-01-02T03:04:05.5+00:00`.
fn iso_datetime(v: &Value) -> String {
    let text = v.pg_text().replacen(' ', "T", 1);
    match v {
        Value::Timestamp(_) => match text.strip_suffix("+00") {
            Some(rest) => format!("{rest}+00:00"),
            None => text,
        },
        _ => text,
    }
}

/// `to_json(v)`: the same as JSON text, except that a json value is kept
/// as written.
pub fn to_json_text(v: &Value) -> Result<String, SqlError> {
    Ok(match v {
        Value::Json(s) => s.to_string(),
        other => to_jsonb(other)?.to_text(),
    })
}

/// An explicit cast of a jsonb to a scalar type (`(doc->'n')::int`): only a
/// JSON number to a number type, a JSON boolean to boolean; anything else is
/// PostgreSQL's "cannot cast jsonb … to type …".
pub fn cast_jsonb(j: &Jsonb, ty: SqlType) -> Result<Value, SqlError> {
    let refuse = || {
        SqlError::new(
            ErrorKind::Execution,
            format!(
                "cannot cast jsonb {} to type {}",
                j.type_name(),
                ty.pg_name()
            ),
        )
    };
    match (j, ty) {
        (Jsonb::Null, _) if ty != SqlType::Text => Err(refuse()),
        (Jsonb::Number(n), SqlType::Int2 | SqlType::Int4 | SqlType::Int8)
        | (Jsonb::Number(n), SqlType::Float8 | SqlType::Float4 | SqlType::Numeric(_)) => {
            super::numeric::cast_numeric(n, ty)
        }
        (Jsonb::Bool(b), SqlType::Bool) => Ok(Value::Bool(*b)),
        (_, SqlType::Json) => Ok(Value::Json(Box::new(j.to_text()))),
        (_, SqlType::Jsonb) => Ok(Value::Jsonb(Box::new(j.clone()))),
        (_, SqlType::Text) => Ok(Value::text(j.to_text())),
        (
            _,
            SqlType::Int2
            | SqlType::Int4
            | SqlType::Int8
            | SqlType::Float8
            | SqlType::Float4
            | SqlType::Numeric(_)
            | SqlType::Bool,
        ) => Err(refuse()),
        _ => Err(SqlError::new(
            ErrorKind::Semantic,
            format!("cannot cast type jsonb to {}", ty.pg_name()),
        )),
    }
}

fn refuse_type(ty: SqlType) -> SqlError {
    SqlError::new(
        ErrorKind::Semantic,
        format!("cannot cast type json to {}", ty.pg_name()),
    )
}

/// A cast or assignment of a json or jsonb value (`None`: not one).
pub fn convert(v: &Value, ty: SqlType) -> Option<Result<Value, SqlError>> {
    match (v, ty) {
        (Value::Jsonb(j), _) => Some(cast_jsonb(j, ty)),
        (Value::Json(s), SqlType::Jsonb) => Some(input(s, SqlType::Jsonb)),
        (Value::Json(_), SqlType::Json) => Some(Ok(v.clone())),
        (Value::Json(s), SqlType::Text) => Some(Ok(Value::text(s.as_str()))),
        (Value::Json(_), _) => Some(Err(refuse_type(ty))),
        _ => None,
    }
}

/// The JSON type an operand evaluates to, when binding can tell: what a
/// quoted literal on the other side of a JSON operator is read as.
pub fn json_type_of(
    e: &super::eval::Bound,
    column_type: &impl Fn(usize) -> Option<SqlType>,
) -> Option<SqlType> {
    use super::ast::BinOp;
    use super::eval::Bound;
    let ty = match e {
        Bound::Col(i) => column_type(*i)?,
        Bound::Lit(Value::Json(_)) => SqlType::Json,
        Bound::Lit(Value::Jsonb(_)) => SqlType::Jsonb,
        Bound::Cast(_, ty) => *ty,
        Bound::Bin(BinOp::JsonGet | BinOp::JsonPath, l, _) => json_type_of(l, column_type)?,
        Bound::Bin(BinOp::Concat | BinOp::Sub | BinOp::JsonDeletePath, l, r) => {
            match (json_type_of(l, column_type), json_type_of(r, column_type)) {
                (Some(SqlType::Jsonb), _) | (_, Some(SqlType::Jsonb)) => SqlType::Jsonb,
                _ => return None,
            }
        }
        Bound::Func(f, _) => functions::result_type(*f)?,
        _ => return None,
    };
    matches!(ty, SqlType::Json | SqlType::Jsonb).then_some(ty)
}
