//! JSON operators (`utils/adt/jsonfuncs.c`, `jsonb_op.c`): `->` and `->>`
//! (a field or an element), `#>` and `#>>` (the value at a path), `@>` and
//! `<@` (containment), `?` (a key), and on jsonb `||` (merge or append),
//! `-` (delete a key or an element) and `#-` (delete at a path).
//!
//! A `json` operand is parsed again each time, as PostgreSQL does, and
//! `->` hands back its text as written; a `jsonb` operand is a tree.

use super::json_error;
use crate::sql::ast::BinOp;
use crate::sql::error::{ErrorKind, SqlError};
use crate::value::json::{self, array_index, Jsonb, Node, NodeKind};
use crate::value::{SqlType, Value};

/// `a op b` for a JSON operator, both operands non-null.
pub fn apply(op: BinOp, a: &Value, b: &Value) -> Result<Value, SqlError> {
    match (op, a) {
        (BinOp::JsonGet | BinOp::JsonGetText, Value::Json(text)) => json_get(op, text, b, a),
        (BinOp::JsonGet | BinOp::JsonGetText, Value::Jsonb(j)) => {
            let found = match b {
                // A scalar alone is stored as an array of one, and `->`
                // reads it so: `'5'::jsonb -> 0` is 5 (a path does not).
                Value::Int(i) if j.is_scalar() => array_index(*i, 1).map(|_| j.as_ref()),
                Value::Int(i) => j.element(*i),
                Value::Text(key) => j.get(key),
                _ => return Err(no_operator(op, a, b)),
            };
            Ok(found.map_or(Value::Null, |v| result(op, v)))
        }
        (BinOp::JsonPath | BinOp::JsonPathText, Value::Json(text)) => {
            let path = path_of(b, op, a)?;
            let node = json::parse(text).map_err(|e| json_error(e, SqlType::Json))?;
            let found = path.iter().try_fold(&node, |v, step| {
                step.as_deref().and_then(|s| follow_node(v, s))
            });
            found.map_or(Ok(Value::Null), |v| json_node_result(op, text, v))
        }
        (BinOp::JsonPath | BinOp::JsonPathText, Value::Jsonb(doc)) => {
            let path = path_of(b, op, a)?;
            let found = path.iter().try_fold(doc.as_ref(), |v, step| {
                step.as_deref().and_then(|s| follow(v, s))
            });
            Ok(found.map_or(Value::Null, |v| result(op, v)))
        }
        (BinOp::JsonContains, Value::Jsonb(x)) => match b {
            Value::Jsonb(y) => Ok(Value::Bool(contains_top(x, y))),
            _ => Err(no_operator(op, a, b)),
        },
        (BinOp::JsonContainedBy, Value::Jsonb(x)) => match b {
            Value::Jsonb(y) => Ok(Value::Bool(contains_top(y, x))),
            _ => Err(no_operator(op, a, b)),
        },
        (BinOp::JsonHasKey, Value::Jsonb(x)) => match b {
            Value::Text(key) => Ok(Value::Bool(has_key(x, key))),
            _ => Err(no_operator(op, a, b)),
        },
        (BinOp::JsonDeletePath, Value::Jsonb(x)) => {
            let path = path_of(b, op, a)?;
            if x.is_scalar() {
                return Err(execution("cannot delete path in scalar"));
            }
            let steps: Vec<String> = path.into_iter().map(Option::unwrap_or_default).collect();
            let mut out = x.as_ref().clone();
            delete_path(&mut out, &steps, 1)?;
            Ok(Value::Jsonb(Box::new(out)))
        }
        (BinOp::Concat, _) => concat(a, b),
        (BinOp::Sub, Value::Jsonb(x)) => delete(x, b),
        _ => Err(no_operator(op, a, b)),
    }
}

fn execution(message: &str) -> SqlError {
    SqlError::new(ErrorKind::Execution, message)
}

pub fn no_operator(op: BinOp, a: &Value, b: &Value) -> SqlError {
    let name = |v: &Value| match v {
        Value::Json(_) => "json",
        Value::Jsonb(_) => "jsonb",
        Value::Int(_) => "integer",
        Value::Text(_) => "text",
        _ => "unknown",
    };
    SqlError::new(
        ErrorKind::Semantic,
        format!(
            "operator does not exist: {} {} {}",
            name(a),
            op.symbol(),
            name(b)
        ),
    )
}

/// `->` gives JSON, `->>` its text: a string without its quotes, `null` as NULL.
fn result(op: BinOp, v: &Jsonb) -> Value {
    match (op, v) {
        (BinOp::JsonGet | BinOp::JsonPath, v) => Value::Jsonb(Box::new(v.clone())),
        (_, Jsonb::Null) => Value::Null,
        (_, Jsonb::String(s)) => Value::text(s.as_str()),
        (_, v) => Value::text(v.to_text()),
    }
}

/// One step down a jsonb path: an object's key, or an array's position
/// written as an integer.
fn follow<'a>(v: &'a Jsonb, step: &str) -> Option<&'a Jsonb> {
    match v {
        Jsonb::Object(_) => v.get(step),
        Jsonb::Array(_) => v.element(step.trim().parse().ok()?),
        _ => None,
    }
}

/// `->`/`->>` on json text: the last pair with the key (json keeps
/// duplicates, and PostgreSQL's lookup ends on the last), as written.
fn json_get(op: BinOp, text: &str, b: &Value, a: &Value) -> Result<Value, SqlError> {
    let node = json::parse(text).map_err(|e| json_error(e, SqlType::Json))?;
    let found = match (&node.kind, b) {
        (NodeKind::Object(pairs), Value::Text(key)) => pairs
            .iter()
            .rev()
            .find(|(k, _)| k == key.as_str())
            .map(|(_, v)| v),
        (NodeKind::Array(items), Value::Int(i)) => array_index(*i, items.len()).map(|i| &items[i]),
        (_, Value::Int(_) | Value::Text(_)) => None,
        _ => return Err(no_operator(op, a, b)),
    };
    let Some(v) = found else {
        return Ok(Value::Null);
    };
    json_node_result(op, text, v)
}

/// One step down a json path, as written.
fn follow_node<'a>(v: &'a Node, step: &str) -> Option<&'a Node> {
    match &v.kind {
        NodeKind::Object(pairs) => pairs.iter().rev().find(|(k, _)| k == step).map(|(_, v)| v),
        NodeKind::Array(items) => {
            array_index(step.trim().parse().ok()?, items.len()).map(|i| &items[i])
        }
        _ => None,
    }
}

fn json_node_result(op: BinOp, text: &str, v: &Node) -> Result<Value, SqlError> {
    let written = &text[v.start..v.end];
    Ok(match (&v.kind, op) {
        (_, BinOp::JsonGet | BinOp::JsonPath) => Value::Json(Box::new(written.to_string())),
        (NodeKind::Null, _) => Value::Null,
        (NodeKind::String(s), _) if s.contains('\0') => {
            return Err(json_error(json::JsonError::NulInText, SqlType::Json))
        }
        (NodeKind::String(s), _) => Value::text(s.as_str()),
        _ => Value::text(written),
    })
}

/// A path operand: a text array literal such as `'{a,0,b}'`.
fn path_of(b: &Value, op: BinOp, a: &Value) -> Result<Vec<Option<String>>, SqlError> {
    match b {
        Value::Text(s) => text_array(s),
        _ => Err(no_operator(op, a, b)),
    }
}

/// A one-dimensional `text[]` literal (`array_in`): `{a,"b c",NULL}`.
pub fn text_array(s: &str) -> Result<Vec<Option<String>>, SqlError> {
    let malformed = |detail: &str| {
        SqlError::new(
            ErrorKind::Semantic,
            format!("malformed array literal: \"{s}\""),
        )
        .with_detail(detail)
    };
    let body = s.trim();
    let Some(inner) = body.strip_prefix('{').and_then(|b| b.strip_suffix('}')) else {
        return Err(malformed(
            "Array value must start with \"{\" or dimension information.",
        ));
    };
    if inner.contains(['{', '}']) {
        return Err(crate::sql::error::unsupported(
            "a multidimensional array literal",
        ));
    }
    if inner.trim().is_empty() {
        return Ok(Vec::new());
    }
    let mut out = Vec::new();
    let mut chars = inner.chars().peekable();
    loop {
        while chars.peek().is_some_and(|c| c.is_whitespace()) {
            chars.next();
        }
        let mut item = String::new();
        let mut quoted = false;
        if chars.peek() == Some(&'"') {
            quoted = true;
            chars.next();
            loop {
                match chars.next() {
                    Some('"') => break,
                    Some('\\') => item.extend(chars.next()),
                    Some(c) => item.push(c),
                    None => return Err(malformed("Unexpected end of input.")),
                }
            }
            while chars.peek().is_some_and(|c| c.is_whitespace()) {
                chars.next();
            }
        } else {
            while let Some(&c) = chars.peek() {
                if c == ',' {
                    break;
                }
                chars.next();
                if c == '\\' {
                    item.extend(chars.next());
                } else {
                    item.push(c);
                }
            }
            item = item.trim_end().to_string();
        }
        out.push((quoted || !item.eq_ignore_ascii_case("null")).then_some(item));
        match chars.next() {
            Some(',') => continue,
            None => return Ok(out),
            Some(_) => return Err(malformed("Unexpected array element.")),
        }
    }
}

/// A top-level value as a container: a scalar is a one-element "raw scalar" array.
fn members(v: &Jsonb) -> (bool, Vec<&Jsonb>) {
    match v {
        Jsonb::Array(items) => (false, items.iter().collect()),
        scalar => (true, vec![scalar]),
    }
}

/// `a @> b` (`jsonb_contains`): an object contains an object whose every
/// pair it has (nested containers contained in turn); an array contains an
/// array whose every element it has, in any order; an array contains a
/// scalar it holds; a scalar contains only itself.
fn contains_top(a: &Jsonb, b: &Jsonb) -> bool {
    let is_object = |v: &Jsonb| matches!(v, Jsonb::Object(_));
    if is_object(a) != is_object(b) {
        return false;
    }
    if is_object(a) {
        return contains(a, b);
    }
    let ((a_raw, a_items), (b_raw, b_items)) = (members(a), members(b));
    if a_raw && !b_raw {
        return false;
    }
    array_contains(&a_items, &b_items)
}

fn contains(a: &Jsonb, b: &Jsonb) -> bool {
    match (a, b) {
        (Jsonb::Object(_), Jsonb::Object(pairs)) => pairs.iter().all(|(k, bv)| match a.get(k) {
            Some(av) if bv.is_scalar() => av.is_scalar() && scalar_equal(av, bv),
            Some(av) => same_container(av, bv) && contains(av, bv),
            None => false,
        }),
        (Jsonb::Array(x), Jsonb::Array(y)) => {
            array_contains(&x.iter().collect::<Vec<_>>(), &y.iter().collect::<Vec<_>>())
        }
        _ => false,
    }
}

fn array_contains(a: &[&Jsonb], b: &[&Jsonb]) -> bool {
    b.iter().all(|bv| {
        a.iter().any(|av| {
            if bv.is_scalar() {
                av.is_scalar() && scalar_equal(av, bv)
            } else {
                same_container(av, bv) && contains(av, bv)
            }
        })
    })
}

fn same_container(a: &Jsonb, b: &Jsonb) -> bool {
    matches!(
        (a, b),
        (Jsonb::Array(_), Jsonb::Array(_)) | (Jsonb::Object(_), Jsonb::Object(_))
    )
}

fn scalar_equal(a: &Jsonb, b: &Jsonb) -> bool {
    match (a, b) {
        (Jsonb::Number(x), Jsonb::Number(y)) => x == y,
        _ => a == b,
    }
}

/// `a ? key`: a top-level key of an object, or a string element of an
/// array (a string scalar counts as an array of itself).
fn has_key(a: &Jsonb, key: &str) -> bool {
    match a {
        Jsonb::Object(_) => a.get(key).is_some(),
        other => members(other)
            .1
            .iter()
            .any(|v| matches!(v, Jsonb::String(s) if s == key)),
    }
}

/// jsonb `||`: two objects merge (the right's keys win); anything else
/// concatenates as arrays, a scalar or an object counting as one element.
pub fn concat(a: &Value, b: &Value) -> Result<Value, SqlError> {
    let (Value::Jsonb(x), Value::Jsonb(y)) = (a, b) else {
        return Err(no_operator(BinOp::Concat, a, b));
    };
    let out = match (x.as_ref(), y.as_ref()) {
        (Jsonb::Object(p), Jsonb::Object(q)) => {
            Jsonb::object(p.iter().chain(q.iter()).cloned().collect())
        }
        (l, r) => {
            let elements = |v: &Jsonb| match v {
                Jsonb::Array(items) => items.clone(),
                other => vec![other.clone()],
            };
            let mut items = elements(l);
            items.extend(elements(r));
            Jsonb::Array(items)
        }
    };
    Ok(Value::Jsonb(Box::new(out)))
}

/// jsonb `-`: a key from an object (or matching strings from an array), or
/// an array's element by position.
fn delete(x: &Jsonb, b: &Value) -> Result<Value, SqlError> {
    if x.is_scalar() {
        return Err(execution("cannot delete from scalar"));
    }
    let out = match (x, b) {
        (Jsonb::Object(pairs), Value::Text(key)) => Jsonb::Object(
            pairs
                .iter()
                .filter(|(k, _)| k != key.as_str())
                .cloned()
                .collect(),
        ),
        (Jsonb::Array(items), Value::Text(key)) => Jsonb::Array(
            items
                .iter()
                .filter(|v| !matches!(v, Jsonb::String(s) if s == key.as_str()))
                .cloned()
                .collect(),
        ),
        (Jsonb::Array(items), Value::Int(i)) => {
            let mut items = items.clone();
            if let Some(at) = array_index(*i, items.len()) {
                items.remove(at);
            }
            Jsonb::Array(items)
        }
        (Jsonb::Object(_), Value::Int(_)) => {
            return Err(execution("cannot delete from object using integer index"))
        }
        _ => {
            return Err(no_operator(
                BinOp::Sub,
                &Value::Jsonb(Box::new(x.clone())),
                b,
            ))
        }
    };
    Ok(Value::Jsonb(Box::new(out)))
}

/// `#-`: removes the value at the path, if it is there.
fn delete_path(v: &mut Jsonb, path: &[String], level: usize) -> Result<(), SqlError> {
    let Some((step, rest)) = path.split_first() else {
        return Ok(());
    };
    match v {
        Jsonb::Object(pairs) => {
            if rest.is_empty() {
                pairs.retain(|(k, _)| k != step);
            } else if let Some((_, child)) = pairs.iter_mut().find(|(k, _)| k == step) {
                delete_path(child, rest, level + 1)?;
            }
        }
        Jsonb::Array(items) => {
            let Ok(i) = step.trim().parse::<i64>() else {
                return Err(execution(&format!(
                    "path element at position {level} is not an integer: \"{step}\""
                )));
            };
            if let Some(at) = array_index(i, items.len()) {
                if rest.is_empty() {
                    items.remove(at);
                } else {
                    delete_path(&mut items[at], rest, level + 1)?;
                }
            }
        }
        _ => {}
    }
    Ok(())
}
