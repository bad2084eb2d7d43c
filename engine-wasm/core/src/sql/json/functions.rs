//! JSON functions people build and read documents with
//! (`utils/adt/json.c`, `jsonb.c`, `jsonfuncs.c`): the `*_build_object` and
//! `*_build_array` constructors, `to_json[b]`, `jsonb_set`, `*_typeof`,
//! `*_array_length`, `jsonb_pretty`, `jsonb_strip_nulls` and the
//! `*_extract_path[_text]` forms of `#>` and `#>>`.

use super::operators::{apply, text_array};
use super::{json_error, to_json_text, to_jsonb};
use crate::sql::ast::BinOp;
use crate::sql::error::{ErrorKind, SqlError};
use crate::sql::functions::ScalarFunc;
use crate::value::json::{self, array_index, escaped, Jsonb, NodeKind};
use crate::value::{SqlType, Value};

/// The JSON type a function returns (`None`: not a JSON function, or one
/// returning another type).
pub fn result_type(f: ScalarFunc) -> Option<SqlType> {
    use ScalarFunc::*;
    Some(match f {
        JsonbBuildObject | JsonbBuildArray | ToJsonb | JsonbSet | JsonbStripNulls
        | JsonbExtractPath => SqlType::Jsonb,
        JsonBuildObject | JsonBuildArray | ToJson | JsonExtractPath => SqlType::Json,
        _ => return None,
    })
}

/// Whether `f` is one of the JSON functions here.
pub fn handles(f: ScalarFunc) -> bool {
    use ScalarFunc::*;
    matches!(
        f,
        JsonbBuildObject
            | JsonBuildObject
            | JsonbBuildArray
            | JsonBuildArray
            | ToJsonb
            | ToJson
            | JsonbSet
            | JsonbTypeof
            | JsonTypeof
            | JsonbArrayLength
            | JsonArrayLength
            | JsonbPretty
            | JsonbStripNulls
            | JsonbExtractPath
            | JsonbExtractPathText
            | JsonExtractPath
            | JsonExtractPathText
    )
}

/// Runs a JSON function (the caller has applied strictness).
pub fn call(f: ScalarFunc, args: &[Value]) -> Result<Value, SqlError> {
    use ScalarFunc::*;
    Ok(match f {
        JsonbBuildObject => Value::Jsonb(Box::new(build_object(args, "jsonb_build_object")?)),
        JsonBuildObject => Value::Json(Box::new(json_build_object(args)?)),
        JsonbBuildArray => Value::Jsonb(Box::new(Jsonb::Array(
            args.iter().map(to_jsonb).collect::<Result<_, _>>()?,
        ))),
        JsonBuildArray => {
            let items: Vec<String> = args.iter().map(to_json_text).collect::<Result<_, _>>()?;
            Value::Json(Box::new(format!("[{}]", items.join(", "))))
        }
        ToJsonb => Value::Jsonb(Box::new(to_jsonb(&args[0])?)),
        ToJson => Value::Json(Box::new(to_json_text(&args[0])?)),
        JsonbSet => jsonb_set(args)?,
        JsonbTypeof => Value::text(jsonb(&args[0], f)?.type_name()),
        JsonTypeof => Value::text(json_node(&args[0], f)?.type_name()),
        JsonbArrayLength => array_length(&jsonb(&args[0], f)?)?,
        JsonArrayLength => array_length(&json_node(&args[0], f)?)?,
        JsonbPretty => Value::text(jsonb(&args[0], f)?.pretty()),
        JsonbStripNulls => Value::Jsonb(Box::new(strip_nulls(jsonb(&args[0], f)?))),
        JsonbExtractPath | JsonbExtractPathText | JsonExtractPath | JsonExtractPathText => {
            extract_path(f, args)?
        }
        _ => return Err(crate::sql::functions::no_such(f, args)),
    })
}

fn jsonb(v: &Value, f: ScalarFunc) -> Result<Jsonb, SqlError> {
    match v {
        Value::Jsonb(j) => Ok(j.as_ref().clone()),
        Value::Text(s) => Jsonb::parse(s).map_err(|e| json_error(e, SqlType::Jsonb)),
        _ => Err(crate::sql::functions::no_such(f, std::slice::from_ref(v))),
    }
}

/// A json argument as a tree (structure only: its numbers' spelling is not needed).
fn json_node(v: &Value, f: ScalarFunc) -> Result<Jsonb, SqlError> {
    let text = match v {
        Value::Json(s) => s.as_str(),
        Value::Text(s) => s.as_str(),
        _ => return Err(crate::sql::functions::no_such(f, std::slice::from_ref(v))),
    };
    let node = json::parse(text).map_err(|e| json_error(e, SqlType::Json))?;
    // Only the kind of the top value and its length matter here.
    Ok(match node.kind {
        NodeKind::Array(items) => Jsonb::Array(vec![Jsonb::Null; items.len()]),
        NodeKind::Object(_) => Jsonb::Object(Vec::new()),
        NodeKind::String(_) => Jsonb::String(String::new()),
        NodeKind::Number(_) => Jsonb::Number(crate::value::Numeric::from_i64(0)),
        NodeKind::Bool(b) => Jsonb::Bool(b),
        NodeKind::Null => Jsonb::Null,
    })
}

fn array_length(v: &Jsonb) -> Result<Value, SqlError> {
    match v {
        Jsonb::Array(items) => Ok(Value::Int(items.len() as i64)),
        Jsonb::Object(_) => Err(execution("cannot get array length of a non-array")),
        _ => Err(execution("cannot get array length of a scalar")),
    }
}

fn execution(message: &str) -> SqlError {
    SqlError::new(ErrorKind::Execution, message)
}

fn even_arguments(args: &[Value], name: &str) -> Result<(), SqlError> {
    if !args.len().is_multiple_of(2) {
        return Err(SqlError::new(
            ErrorKind::Execution,
            "argument list must have even number of elements",
        )
        .with_hint(format!(
            "The arguments of {name}() must consist of alternating keys and values."
        )));
    }
    Ok(())
}

/// An object key: the argument's text (`1` is the key `"1"`).
fn key_text(v: &Value) -> String {
    match v {
        Value::Bool(b) => if *b { "true" } else { "false" }.to_string(),
        other => other.pg_text(),
    }
}

fn build_object(args: &[Value], name: &str) -> Result<Jsonb, SqlError> {
    even_arguments(args, name)?;
    let mut pairs = Vec::with_capacity(args.len() / 2);
    for (i, pair) in args.chunks(2).enumerate() {
        if pair[0].is_null() {
            return Err(execution(&format!(
                "argument {}: key must not be null",
                2 * i + 1
            )));
        }
        pairs.push((key_text(&pair[0]), to_jsonb(&pair[1])?));
    }
    Ok(Jsonb::object(pairs))
}

/// json_build_object: json text, `{"k" : v, …}`, keys in the order written.
fn json_build_object(args: &[Value]) -> Result<String, SqlError> {
    even_arguments(args, "json_build_object")?;
    let mut parts = Vec::with_capacity(args.len() / 2);
    for (i, pair) in args.chunks(2).enumerate() {
        if pair[0].is_null() {
            return Err(SqlError::new(
                ErrorKind::Execution,
                format!("argument {} cannot be null", 2 * i + 1),
            )
            .with_hint("Object keys should be text."));
        }
        parts.push(format!(
            "{} : {}",
            escaped(&key_text(&pair[0])),
            to_json_text(&pair[1])?
        ));
    }
    Ok(format!("{{{}}}", parts.join(", ")))
}

/// `jsonb_set(target, path, new_value [, create_if_missing])` (`setPath`).
fn jsonb_set(args: &[Value]) -> Result<Value, SqlError> {
    let f = ScalarFunc::JsonbSet;
    let target = jsonb(&args[0], f)?;
    let path = match &args[1] {
        Value::Text(s) => text_array(s)?,
        _ => return Err(crate::sql::functions::no_such(f, args)),
    };
    let new = jsonb(&args[2], f)?;
    let create = match args.get(3) {
        None => true,
        Some(Value::Bool(b)) => *b,
        Some(_) => return Err(crate::sql::functions::no_such(f, args)),
    };
    if target.is_scalar() {
        return Err(execution("cannot set path in scalar"));
    }
    let mut out = target;
    if !path.is_empty() {
        set_path(&mut out, &path, 0, &new, create)?;
    }
    Ok(Value::Jsonb(Box::new(out)))
}

fn set_path(
    v: &mut Jsonb,
    path: &[Option<String>],
    level: usize,
    new: &Jsonb,
    create: bool,
) -> Result<(), SqlError> {
    let Some(step) = &path[level] else {
        return Err(execution(&format!(
            "path element at position {} is null",
            level + 1
        )));
    };
    let last = level + 1 == path.len();
    match v {
        Jsonb::Object(pairs) => match pairs.iter_mut().find(|(k, _)| k == step) {
            Some((_, child)) if last => *child = new.clone(),
            Some((_, child)) => set_path(child, path, level + 1, new, create)?,
            None if last && create => {
                let mut all = std::mem::take(pairs);
                all.push((step.clone(), new.clone()));
                *v = Jsonb::object(all);
            }
            None => {}
        },
        Jsonb::Array(items) => {
            let Ok(i) = step.trim().parse::<i64>() else {
                return Err(execution(&format!(
                    "path element at position {} is not an integer: \"{step}\"",
                    level + 1
                )));
            };
            match array_index(i, items.len()) {
                Some(at) if last => items[at] = new.clone(),
                Some(at) => set_path(&mut items[at], path, level + 1, new, create)?,
                // Past the start: added in front; past the end: added after.
                None if last && create && i < 0 => items.insert(0, new.clone()),
                None if last && create => items.push(new.clone()),
                None => {}
            }
        }
        _ => {}
    }
    Ok(())
}

fn strip_nulls(v: Jsonb) -> Jsonb {
    match v {
        Jsonb::Object(pairs) => Jsonb::Object(
            pairs
                .into_iter()
                .filter(|(_, v)| *v != Jsonb::Null)
                .map(|(k, v)| (k, strip_nulls(v)))
                .collect(),
        ),
        Jsonb::Array(items) => Jsonb::Array(items.into_iter().map(strip_nulls).collect()),
        other => other,
    }
}

/// `jsonb_extract_path(doc, VARIADIC path)`: `doc #> path`.
fn extract_path(f: ScalarFunc, args: &[Value]) -> Result<Value, SqlError> {
    use ScalarFunc::*;
    let mut literal = String::from("{");
    for (i, step) in args[1..].iter().enumerate() {
        let Value::Text(s) = step else {
            return Err(crate::sql::functions::no_such(f, args));
        };
        if i > 0 {
            literal.push(',');
        }
        literal.push('"');
        literal.push_str(&s.replace('\\', "\\\\").replace('"', "\\\""));
        literal.push('"');
    }
    literal.push('}');
    let op = match f {
        JsonbExtractPath | JsonExtractPath => BinOp::JsonPath,
        _ => BinOp::JsonPathText,
    };
    let doc = match (&args[0], f) {
        (Value::Text(_), JsonbExtractPath | JsonbExtractPathText) => {
            Value::Jsonb(Box::new(jsonb(&args[0], f)?))
        }
        (Value::Text(s), _) => super::input(s, SqlType::Json)?,
        (other, _) => other.clone(),
    };
    apply(op, &doc, &Value::text(literal))
}
