//! `json` and `jsonb` values.
//!
//! PostgreSQL has two JSON types. `json` keeps the text it was given, byte
//! for byte (whitespace, key order and duplicate keys included), and parses
//! it again for every operator. `jsonb` parses once into a tree: object keys
//! sorted shortest first then bytewise, one value per key (the last one
//! written wins), numbers held as `numeric`. That tree is [`Jsonb`]; it
//! prints in jsonb's own format (`{"a": 1, "b": [1, 2]}`), compares in
//! jsonb's B-tree order (`json/order.rs`) and takes on a page the bytes of
//! jsonb's binary format (`json/binary.rs`).

mod binary;
mod order;
mod parse;

pub use order::compare;
pub use parse::{parse, JsonError, Node, NodeKind};

use super::Numeric;

/// A jsonb value.
#[derive(Debug, Clone, PartialEq)]
pub enum Jsonb {
    Null,
    Bool(bool),
    Number(Numeric),
    String(String),
    Array(Vec<Jsonb>),
    /// Pairs in jsonb's key order, each key once.
    Object(Vec<(String, Jsonb)>),
}

impl Jsonb {
    /// jsonb_in: the text parsed, numbers read as numeric, objects normalized.
    pub fn parse(text: &str) -> Result<Jsonb, JsonError> {
        let node = parse(text)?;
        Jsonb::from_node(&node)
    }

    /// The tree of a parsed `json` text, as the cast `json::jsonb` makes it.
    pub fn from_node(node: &Node) -> Result<Jsonb, JsonError> {
        Ok(match &node.kind {
            NodeKind::Null => Jsonb::Null,
            NodeKind::Bool(b) => Jsonb::Bool(*b),
            NodeKind::Number(text) => Jsonb::Number(
                Numeric::parse(text).map_err(|_| JsonError::NumberOutOfRange(text.clone()))?,
            ),
            NodeKind::String(s) => {
                if s.contains('\0') {
                    return Err(JsonError::NulInText);
                }
                Jsonb::String(s.clone())
            }
            NodeKind::Array(items) => Jsonb::Array(
                items
                    .iter()
                    .map(Jsonb::from_node)
                    .collect::<Result<_, _>>()?,
            ),
            NodeKind::Object(pairs) => {
                let mut out = Vec::with_capacity(pairs.len());
                for (k, v) in pairs {
                    if k.contains('\0') {
                        return Err(JsonError::NulInText);
                    }
                    out.push((k.clone(), Jsonb::from_node(v)?));
                }
                Jsonb::object(out)
            }
        })
    }

    /// An object from pairs in any order: sorted in jsonb's key order (length
    /// first, then bytes), and of duplicate keys the last written kept, as
    /// `uniqueifyJsonbObject` does.
    pub fn object(pairs: Vec<(String, Jsonb)>) -> Jsonb {
        let mut numbered: Vec<(usize, (String, Jsonb))> = pairs.into_iter().enumerate().collect();
        numbered.sort_by(|(i, (a, _)), (j, (b, _))| key_order(a, b).then(j.cmp(i)));
        numbered.dedup_by(|later, first| later.1 .0 == first.1 .0);
        Jsonb::Object(numbered.into_iter().map(|(_, p)| p).collect())
    }

    /// `jsonb_typeof`: object, array, string, number, boolean or null.
    pub fn type_name(&self) -> &'static str {
        match self {
            Jsonb::Null => "null",
            Jsonb::Bool(_) => "boolean",
            Jsonb::Number(_) => "number",
            Jsonb::String(_) => "string",
            Jsonb::Array(_) => "array",
            Jsonb::Object(_) => "object",
        }
    }

    pub fn is_scalar(&self) -> bool {
        !matches!(self, Jsonb::Array(_) | Jsonb::Object(_))
    }

    /// The value of `key` in an object (`None` for a missing key or a non-object).
    pub fn get(&self, key: &str) -> Option<&Jsonb> {
        match self {
            Jsonb::Object(pairs) => pairs.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    /// Element `i` of an array, counting from the end when negative.
    pub fn element(&self, i: i64) -> Option<&Jsonb> {
        match self {
            Jsonb::Array(items) => items.get(array_index(i, items.len())?),
            _ => None,
        }
    }

    /// jsonb_out: `{"a": 1, "b": [true, null]}`.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        self.write(&mut out);
        out
    }

    fn write(&self, out: &mut String) {
        match self {
            Jsonb::Null => out.push_str("null"),
            Jsonb::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            Jsonb::Number(n) => out.push_str(&n.to_string()),
            Jsonb::String(s) => escape_into(s, out),
            Jsonb::Array(items) => {
                out.push('[');
                for (i, v) in items.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    v.write(out);
                }
                out.push(']');
            }
            Jsonb::Object(pairs) => {
                out.push('{');
                for (i, (k, v)) in pairs.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    escape_into(k, out);
                    out.push_str(": ");
                    v.write(out);
                }
                out.push('}');
            }
        }
    }

    /// jsonb_pretty: one value per line, four spaces per level.
    pub fn pretty(&self) -> String {
        let mut out = String::new();
        self.write_pretty(&mut out, 0);
        out
    }

    fn write_pretty(&self, out: &mut String, level: usize) {
        let indent = |out: &mut String, level: usize| out.push_str(&"    ".repeat(level));
        match self {
            Jsonb::Array(items) => {
                out.push_str("[\n");
                for (i, v) in items.iter().enumerate() {
                    if i > 0 {
                        out.push_str(",\n");
                    }
                    indent(out, level + 1);
                    v.write_pretty(out, level + 1);
                }
                out.push('\n');
                indent(out, level);
                out.push(']');
            }
            Jsonb::Object(pairs) => {
                out.push_str("{\n");
                for (i, (k, v)) in pairs.iter().enumerate() {
                    if i > 0 {
                        out.push_str(",\n");
                    }
                    indent(out, level + 1);
                    escape_into(k, out);
                    out.push_str(": ");
                    v.write_pretty(out, level + 1);
                }
                out.push('\n');
                indent(out, level);
                out.push('}');
            }
            scalar => scalar.write(out),
        }
    }

    /// The bytes the value takes as a datum, 4-byte header included
    /// (`pg_column_size` of a computed jsonb).
    pub fn datum_size(&self) -> usize {
        binary::datum_size(self)
    }

    /// A text equal for equal values (numbers without trailing zeros), for
    /// grouping and DISTINCT.
    pub fn group_key(&self) -> String {
        match self {
            Jsonb::Number(n) => n.normalized().to_string(),
            Jsonb::Array(items) => {
                let parts: Vec<String> = items.iter().map(Jsonb::group_key).collect();
                format!("[{}]", parts.join(","))
            }
            Jsonb::Object(pairs) => {
                let parts: Vec<String> = pairs
                    .iter()
                    .map(|(k, v)| {
                        format!("{}:{}", Jsonb::String(k.clone()).to_text(), v.group_key())
                    })
                    .collect();
                format!("{{{}}}", parts.join(","))
            }
            other => other.to_text(),
        }
    }
}

/// jsonb's key order: shorter keys first, equal lengths bytewise.
pub fn key_order(a: &str, b: &str) -> std::cmp::Ordering {
    a.len()
        .cmp(&b.len())
        .then_with(|| a.as_bytes().cmp(b.as_bytes()))
}

/// An array subscript counting from the end when negative; `None` outside.
pub fn array_index(i: i64, len: usize) -> Option<usize> {
    let len = i64::try_from(len).ok()?;
    let i = if i < 0 { len + i } else { i };
    (0..len).contains(&i).then_some(i as usize)
}

/// `escape_json`: a JSON string literal, quotes included.
pub fn escape_into(s: &str, out: &mut String) {
    out.push('"');
    for c in s.chars() {
        match c {
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
}

/// A JSON string literal for `s`.
pub fn escaped(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    escape_into(s, &mut out);
    out
}

#[cfg(test)]
mod tests;
