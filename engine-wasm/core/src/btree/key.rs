//! Order-preserving encoding of typed key tuples: memcmp order of the bytes equals
//! SQL order of the rows, so the tree can compare keys without knowing types.
//!
//! Each column is a tag byte (0x01 value, 0x02 NULL — NULLS LAST, PostgreSQL's
//! default for ASC) followed by the value:
//! - int4 / int8 / date / timestamp / timestamptz: big-endian with the sign bit
//!   flipped, so negative numbers sort before positive ones;
//! - interval: its `interval_cmp` value (16 bytes), then its months and days;
//! - float8: the IEEE bits with the sign bit set for positives and all bits inverted
//!   for negatives; -0 is stored as 0 and every NaN as one NaN above +Infinity, as
//!   PostgreSQL's float8 comparison treats them;
//! - bool: 0 or 1;
//! - text: the bytes with 0x00 escaped as 0x00 0xFF and a 0x00 0x01 terminator, so a
//!   string sorts before its extensions and the encoding is prefix-free (byte order,
//!   i.e. the "C" collation).
//!
//! A DESC column is the ASC encoding with every byte inverted: this reverses its
//! order and puts NULLs first, PostgreSQL's default for DESC. Because every column's
//! encoding is prefix-free, the encoding of the first k values of a row is a byte
//! prefix of the encoding of the whole row: encode fewer values to get a prefix
//! bound for [`super::KeyRange`]. NULLs sort after values (ASC), so a range on
//! `col > x` should also stop before `encode_key(&[Value::Null], …)`.

use std::fmt;
use std::ops::Bound;

use crate::value::{SqlType, Value};

const TAG_VALUE: u8 = 0x01;
const TAG_NULL: u8 = 0x02;
const ESCAPE: u8 = 0x00;
const ESCAPED_ZERO: u8 = 0xFF;
const TERMINATOR: u8 = 0x01;
const SIGN: u64 = 1 << 63;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SortOrder {
    Asc,
    Desc,
}

/// One key column: its type and direction.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct KeyColumn {
    pub ty: SqlType,
    pub order: SortOrder,
}

impl KeyColumn {
    pub fn asc(ty: SqlType) -> Self {
        KeyColumn {
            ty,
            order: SortOrder::Asc,
        }
    }

    pub fn desc(ty: SqlType) -> Self {
        KeyColumn {
            ty,
            order: SortOrder::Desc,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KeyError {
    /// More values than key columns (or, for a tuple size, not one per column).
    Arity { values: usize, columns: usize },
    /// A value whose kind does not match its column's type.
    TypeMismatch { column: usize, expected: SqlType },
    /// An int4 column given a value outside i32.
    OutOfRange { column: usize },
    /// Bytes that are not an encoding of the given columns.
    Malformed { offset: usize },
}

impl fmt::Display for KeyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            KeyError::Arity { values, columns } => {
                write!(f, "{values} values for an index key of {columns} columns")
            }
            KeyError::TypeMismatch { column, expected } => write!(
                f,
                "index key column {} expects a value of type {}",
                column + 1,
                expected.pg_name()
            ),
            KeyError::OutOfRange { column } => {
                write!(f, "integer out of range in index key column {}", column + 1)
            }
            KeyError::Malformed { offset } => write!(f, "malformed index key at byte {offset}"),
        }
    }
}

impl std::error::Error for KeyError {}

/// Encodes `values` (a whole row, or its first columns for a prefix bound).
pub fn encode_key(values: &[Value], columns: &[KeyColumn]) -> Result<Vec<u8>, KeyError> {
    let mut out = Vec::with_capacity(values.len() * 9);
    encode_key_into(values, columns, &mut out)?;
    Ok(out)
}

/// Appends the encoding of `values` to `out` (reuse a buffer to avoid allocating).
pub fn encode_key_into<V: std::borrow::Borrow<Value>>(
    values: &[V],
    columns: &[KeyColumn],
    out: &mut Vec<u8>,
) -> Result<(), KeyError> {
    if values.len() > columns.len() {
        return Err(KeyError::Arity {
            values: values.len(),
            columns: columns.len(),
        });
    }
    for (i, (value, column)) in values.iter().zip(columns).enumerate() {
        let start = out.len();
        encode_column(i, value.borrow(), column.ty, out)?;
        if column.order == SortOrder::Desc {
            out[start..].iter_mut().for_each(|b| *b = !*b);
        }
    }
    Ok(())
}

/// A byte range of a condition on `col` (already in byte order), closed before
/// the entries whose `col` is NULL: a range condition is never true for NULL,
/// but an open end reaches those entries (after the values in an ASC column,
/// before them in a DESC one).
pub fn without_nulls(
    col: KeyColumn,
    (lo, hi): (Bound<Vec<u8>>, Bound<Vec<u8>>),
) -> (Bound<Vec<u8>>, Bound<Vec<u8>>) {
    let mut null = Vec::new();
    encode_column(0, &Value::Null, col.ty, &mut null).expect("NULL always encodes");
    match (col.order, lo, hi) {
        (SortOrder::Asc, lo, Bound::Unbounded) => (lo, Bound::Excluded(null)),
        (SortOrder::Desc, Bound::Unbounded, hi) => {
            // A DESC NULL is the inverted tag; every key whose first column is
            // NULL starts with it, and the values start at the next byte.
            (Bound::Included(vec![!TAG_NULL + 1]), hi)
        }
        (_, lo, hi) => (lo, hi),
    }
}

fn encode_column(i: usize, value: &Value, ty: SqlType, out: &mut Vec<u8>) -> Result<(), KeyError> {
    if value.is_null() {
        out.push(TAG_NULL);
        return Ok(());
    }
    out.push(TAG_VALUE);
    match (ty, value) {
        (SqlType::Int4, Value::Int(n)) => {
            let n = i32::try_from(*n).map_err(|_| KeyError::OutOfRange { column: i })?;
            out.extend_from_slice(&((n as u32) ^ (1 << 31)).to_be_bytes());
        }
        (SqlType::Int2, Value::Int(n)) => {
            let n = i16::try_from(*n).map_err(|_| KeyError::OutOfRange { column: i })?;
            out.extend_from_slice(&((n as u16) ^ (1 << 15)).to_be_bytes());
        }
        (SqlType::Int8, Value::Int(n))
        | (SqlType::Timestamptz, Value::Timestamp(n))
        | (SqlType::Timestamp, Value::LocalTimestamp(n)) => {
            out.extend_from_slice(&((*n as u64) ^ SIGN).to_be_bytes());
        }
        (SqlType::Date, Value::Date(d)) => {
            out.extend_from_slice(&((*d as u32) ^ (1 << 31)).to_be_bytes());
        }
        (SqlType::Interval, Value::Interval(iv)) => encode_interval(iv, out),
        (SqlType::Float8, Value::Float(x)) => out.extend_from_slice(&float_bits(*x).to_be_bytes()),
        (SqlType::Float4, Value::Real(x)) => {
            out.extend_from_slice(&float_bits(f64::from(*x)).to_be_bytes())
        }
        (SqlType::Bool, Value::Bool(b)) => out.push(*b as u8),
        (SqlType::Text | SqlType::Point | SqlType::Bpchar(_), Value::Text(s)) => {
            encode_text(s.as_bytes(), out)
        }
        (SqlType::Tid, Value::Tid(t)) => out.extend_from_slice(&t.to_be_bytes()),
        // Never an index key (`check_key_types`), but a YugabyteDB row packs
        // its columns with this codec: json as written, jsonb as its text.
        (SqlType::Json, Value::Json(s)) => encode_text(s.as_bytes(), out),
        (SqlType::Jsonb, Value::Jsonb(j)) => encode_text(j.to_text().as_bytes(), out),
        (SqlType::Numeric(_), Value::Numeric(n)) => super::numeric_key::encode(n, out),
        (SqlType::Uuid, Value::Text(s)) => match crate::value::uuid_bytes(s) {
            Some(b) => out.extend_from_slice(&b),
            None => {
                return Err(KeyError::TypeMismatch {
                    column: i,
                    expected: ty,
                })
            }
        },
        _ => {
            return Err(KeyError::TypeMismatch {
                column: i,
                expected: ty,
            })
        }
    }
    Ok(())
}

/// An interval sorts by `interval_cmp`'s single value (a month as 30
/// days, 16 bytes); its months and days follow so that the key decodes to
/// what was written (the microseconds are what the value leaves).
/// (Two intervals PostgreSQL calls equal, `1 mon` and `30 days`, are thus
/// distinct keys here, ordered by their fields.)
fn encode_interval(iv: &crate::value::Interval, out: &mut Vec<u8>) {
    let order = (iv.cmp_key() as u128) ^ (1 << 127);
    out.extend_from_slice(&order.to_be_bytes());
    out.extend_from_slice(&((iv.months as u32) ^ (1 << 31)).to_be_bytes());
    out.extend_from_slice(&((iv.days as u32) ^ (1 << 31)).to_be_bytes());
}

/// Key column types an index cannot have here. `json` has no B-tree
/// operator class in PostgreSQL either (its error); a `jsonb` key, which
/// PostgreSQL orders by `compareJsonbContainers`, has no byte encoding in
/// IndexLab yet. A unique key (primary key, UNIQUE) over an interval is
/// refused by name, since the key keeps how each interval was written, so
/// `1 mon` and `30 days`, which PostgreSQL's uniqueness check calls equal,
/// would both be accepted here.
pub fn check_key_types(unique: bool, types: &[SqlType]) -> Result<(), crate::sql::error::SqlError> {
    if types.contains(&SqlType::Json) {
        return Err(crate::sql::error::SqlError::new(
            crate::sql::error::ErrorKind::Semantic,
            "data type json has no default operator class for access method \"btree\"",
        )
        .with_hint(
            "You must specify an operator class for the index or define a default operator class for the data type.",
        ));
    }
    if types.contains(&SqlType::Jsonb) {
        return Err(crate::sql::error::unsupported(
            "a B-tree index on a jsonb value (index an expression such as (doc->>'name') instead)",
        ));
    }
    if unique && types.contains(&SqlType::Interval) {
        return Err(crate::sql::error::unsupported(
            "a primary key or unique index on an interval",
        ));
    }
    Ok(())
}

fn float_bits(x: f64) -> u64 {
    let x = if x.is_nan() {
        f64::NAN
    } else if x == 0.0 {
        0.0
    } else {
        x
    };
    let bits = x.to_bits();
    if bits & SIGN != 0 {
        !bits
    } else {
        bits | SIGN
    }
}

fn encode_text(bytes: &[u8], out: &mut Vec<u8>) {
    for &b in bytes {
        if b == ESCAPE {
            out.extend_from_slice(&[ESCAPE, ESCAPED_ZERO]);
        } else {
            out.push(b);
        }
    }
    out.extend_from_slice(&[ESCAPE, TERMINATOR]);
}

/// Decodes a whole key of `columns` back to values (the inverse of [`encode_key`],
/// up to -0 becoming 0 and NaNs becoming one NaN).
pub fn decode_key(bytes: &[u8], columns: &[KeyColumn]) -> Result<Vec<Value>, KeyError> {
    let mut reader = Reader {
        bytes,
        pos: 0,
        invert: false,
    };
    let mut values = Vec::with_capacity(columns.len());
    for column in columns {
        reader.invert = column.order == SortOrder::Desc;
        values.push(reader.column(column.ty)?);
    }
    if reader.pos != bytes.len() {
        return Err(KeyError::Malformed { offset: reader.pos });
    }
    Ok(values)
}

/// Decodes the first `columns.len()` values at the start of `bytes` and returns
/// them with the number of bytes they took (the encoding is prefix-free, so a
/// key can carry more after its columns).
pub fn decode_prefix(bytes: &[u8], columns: &[KeyColumn]) -> Result<(Vec<Value>, usize), KeyError> {
    let mut reader = Reader {
        bytes,
        pos: 0,
        invert: false,
    };
    let mut values = Vec::with_capacity(columns.len());
    for column in columns {
        reader.invert = column.order == SortOrder::Desc;
        values.push(reader.column(column.ty)?);
    }
    Ok((values, reader.pos))
}

struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
    invert: bool,
}

impl Reader<'_> {
    fn byte(&mut self) -> Result<u8, KeyError> {
        let b = *self
            .bytes
            .get(self.pos)
            .ok_or(KeyError::Malformed { offset: self.pos })?;
        self.pos += 1;
        Ok(if self.invert { !b } else { b })
    }

    fn array<const N: usize>(&mut self) -> Result<[u8; N], KeyError> {
        let mut out = [0u8; N];
        for b in &mut out {
            *b = self.byte()?;
        }
        Ok(out)
    }

    fn column(&mut self, ty: SqlType) -> Result<Value, KeyError> {
        let at = self.pos;
        match self.byte()? {
            TAG_NULL => return Ok(Value::Null),
            TAG_VALUE => {}
            _ => return Err(KeyError::Malformed { offset: at }),
        }
        Ok(match ty {
            SqlType::Int4 => {
                Value::Int(((u32::from_be_bytes(self.array()?) ^ (1 << 31)) as i32).into())
            }
            SqlType::Int2 => {
                Value::Int(((u16::from_be_bytes(self.array()?) ^ (1 << 15)) as i16).into())
            }
            SqlType::Int8 => Value::Int((u64::from_be_bytes(self.array()?) ^ SIGN) as i64),
            SqlType::Timestamptz => {
                Value::Timestamp((u64::from_be_bytes(self.array()?) ^ SIGN) as i64)
            }
            SqlType::Timestamp => {
                Value::LocalTimestamp((u64::from_be_bytes(self.array()?) ^ SIGN) as i64)
            }
            SqlType::Date => Value::Date((u32::from_be_bytes(self.array()?) ^ (1 << 31)) as i32),
            SqlType::Interval => {
                let order = (u128::from_be_bytes(self.array()?) ^ (1 << 127)) as i128;
                let months = (u32::from_be_bytes(self.array()?) ^ (1 << 31)) as i32;
                let days = (u32::from_be_bytes(self.array()?) ^ (1 << 31)) as i32;
                let whole_days = i128::from(days) + 30 * i128::from(months);
                let micros = (order - whole_days * 86_400_000_000) as i64;
                Value::Interval(Box::new(crate::value::Interval {
                    micros,
                    days,
                    months,
                }))
            }
            SqlType::Float8 => Value::Float(unfloat(u64::from_be_bytes(self.array()?))),
            SqlType::Float4 => Value::Real(unfloat(u64::from_be_bytes(self.array()?)) as f32),
            SqlType::Bool => match self.byte()? {
                0 => Value::Bool(false),
                1 => Value::Bool(true),
                _ => {
                    return Err(KeyError::Malformed {
                        offset: self.pos - 1,
                    })
                }
            },
            SqlType::Text | SqlType::Point | SqlType::Bpchar(_) => Value::text(self.text()?),
            SqlType::Tid => Value::Tid(u64::from_be_bytes(self.array()?)),
            // Never a column type, so never in a key.
            SqlType::Bytea => return Err(KeyError::Malformed { offset: at }),
            SqlType::Json => Value::Json(Box::new(self.text()?)),
            SqlType::Jsonb => {
                let text = self.text()?;
                let j = crate::value::json::Jsonb::parse(&text)
                    .map_err(|_| KeyError::Malformed { offset: at })?;
                Value::Jsonb(Box::new(j))
            }
            SqlType::Numeric(_) => {
                let at = self.pos;
                let (n, used) = super::numeric_key::decode(&self.bytes[at..], self.invert)
                    .ok_or(KeyError::Malformed { offset: at })?;
                self.pos += used;
                Value::numeric(n)
            }
            SqlType::Uuid => {
                let b: [u8; 16] = self.array()?;
                let hex: String = b.iter().map(|x| format!("{x:02x}")).collect();
                Value::text(crate::value::parse_uuid(&hex).unwrap_or(hex))
            }
        })
    }

    fn text(&mut self) -> Result<String, KeyError> {
        let start = self.pos;
        let mut bytes = Vec::new();
        loop {
            match self.byte()? {
                ESCAPE => match self.byte()? {
                    ESCAPED_ZERO => bytes.push(0),
                    TERMINATOR => break,
                    _ => {
                        return Err(KeyError::Malformed {
                            offset: self.pos - 1,
                        })
                    }
                },
                b => bytes.push(b),
            }
        }
        String::from_utf8(bytes).map_err(|_| KeyError::Malformed { offset: start })
    }
}

fn unfloat(bits: u64) -> f64 {
    f64::from_bits(if bits & SIGN != 0 {
        bits & !SIGN
    } else {
        !bits
    })
}
