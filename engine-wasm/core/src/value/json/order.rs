//! jsonb's B-tree order (`compareJsonbContainers`): both values walked as
//! token streams (begin array or object, key, value, element, end) and
//! compared at the first difference. Types order null < string < number <
//! boolean < array < object; an array or object with more members is the
//! greater; a scalar alone counts as an array of one marked "raw scalar",
//! below a real array of one, so `[]` sorts below every scalar (PostgreSQL
//! keeps that anomaly for compatibility).

use super::Jsonb;
use std::cmp::Ordering;

#[derive(Clone, Copy, PartialEq)]
enum Token<'a> {
    BeginArray { len: usize, raw_scalar: bool },
    BeginObject { len: usize },
    Key(&'a str),
    Value(&'a Jsonb),
    Element(&'a Jsonb),
    End,
}

fn tokens(v: &Jsonb) -> Vec<Token<'_>> {
    let mut out = Vec::new();
    if v.is_scalar() {
        out.push(Token::BeginArray {
            len: 1,
            raw_scalar: true,
        });
        out.push(Token::Element(v));
        out.push(Token::End);
    } else {
        walk(v, &mut out);
    }
    out
}

fn walk<'a>(v: &'a Jsonb, out: &mut Vec<Token<'a>>) {
    match v {
        Jsonb::Array(items) => {
            out.push(Token::BeginArray {
                len: items.len(),
                raw_scalar: false,
            });
            for item in items {
                if item.is_scalar() {
                    out.push(Token::Element(item));
                } else {
                    walk(item, out);
                }
            }
            out.push(Token::End);
        }
        Jsonb::Object(pairs) => {
            out.push(Token::BeginObject { len: pairs.len() });
            for (k, item) in pairs {
                out.push(Token::Key(k));
                if item.is_scalar() {
                    out.push(Token::Value(item));
                } else {
                    walk(item, out);
                }
            }
            out.push(Token::End);
        }
        scalar => out.push(Token::Value(scalar)),
    }
}

/// `jbvType`'s numbering, which decides the order of different types.
fn type_rank(t: &Token) -> u8 {
    match t {
        Token::Key(_) => 1,
        Token::Value(v) | Token::Element(v) => match v {
            Jsonb::Null => 0,
            Jsonb::String(_) => 1,
            Jsonb::Number(_) => 2,
            Jsonb::Bool(_) => 3,
            Jsonb::Array(_) => 4,
            Jsonb::Object(_) => 5,
        },
        Token::BeginArray { .. } => 4,
        Token::BeginObject { .. } => 5,
        Token::End => 6,
    }
}

fn same_kind(a: &Token, b: &Token) -> bool {
    std::mem::discriminant(a) == std::mem::discriminant(b)
}

/// jsonb's total order.
pub fn compare(a: &Jsonb, b: &Jsonb) -> Ordering {
    let (ta, tb) = (tokens(a), tokens(b));
    for (x, y) in ta.iter().zip(tb.iter()) {
        let ord = if same_kind(x, y) {
            same_kind_order(x, y)
        } else {
            type_rank(x).cmp(&type_rank(y))
        };
        if ord != Ordering::Equal {
            return ord;
        }
    }
    ta.len().cmp(&tb.len())
}

fn same_kind_order(x: &Token, y: &Token) -> Ordering {
    match (x, y) {
        (
            Token::BeginArray {
                len: la,
                raw_scalar: ra,
            },
            Token::BeginArray {
                len: lb,
                raw_scalar: rb,
            },
        ) => {
            // The element count overrides the raw-scalar difference, as in
            // PostgreSQL (the "mild anomaly" its comment owns up to).
            if la != lb {
                la.cmp(lb)
            } else if ra != rb {
                if *ra {
                    Ordering::Less
                } else {
                    Ordering::Greater
                }
            } else {
                Ordering::Equal
            }
        }
        (Token::BeginObject { len: la }, Token::BeginObject { len: lb }) => la.cmp(lb),
        (Token::Key(a), Token::Key(b)) => a.as_bytes().cmp(b.as_bytes()),
        (Token::Value(a) | Token::Element(a), Token::Value(b) | Token::Element(b)) => {
            scalar_order(a, b)
        }
        _ => Ordering::Equal,
    }
}

fn scalar_order(a: &Jsonb, b: &Jsonb) -> Ordering {
    match (a, b) {
        (Jsonb::Null, Jsonb::Null) => Ordering::Equal,
        (Jsonb::String(x), Jsonb::String(y)) => x.as_bytes().cmp(y.as_bytes()),
        (Jsonb::Number(x), Jsonb::Number(y)) => x.cmp(y),
        (Jsonb::Bool(x), Jsonb::Bool(y)) => x.cmp(y),
        _ => type_rank(&Token::Value(a)).cmp(&type_rank(&Token::Value(b))),
    }
}
