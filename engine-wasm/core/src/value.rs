//! SQL values and types, shared by every layer above the structures.

pub mod bytea;
pub mod date;
pub mod interval;
pub mod json;
pub mod timestamp;

pub use interval::Interval;
pub mod numeric;

pub use numeric::{Numeric, NumericError};

/// The SQL types the seed articles use.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SqlType {
    /// `smallint`, `int2`
    Int2,
    /// `int`, `integer`, `int4`
    Int4,
    /// `bigint`, `int8`, `bigserial`
    Int8,
    /// `timestamptz`, stored as microseconds since 2000-01-01 like PostgreSQL.
    Timestamptz,
    /// `text`, `varchar`
    Text,
    /// `double precision`, `float8` (what `random()` returns)
    Float8,
    /// `boolean`
    Bool,
    /// `uuid`: 16 bytes on a page; held as its canonical text
    /// (lower-case hex with hyphens), whose order is the bytes' order.
    Uuid,
    /// `tid`: a heap tuple's address, the type of the `ctid` system column.
    Tid,
    /// `real`: float4, as `pg_class.reltuples` holds it.
    Float4,
    /// `point`: held as its text `(x,y)`; only read back by subscript
    /// (`(ctid::text::point)[0]` is the page a row is on).
    Point,
    /// `date`: days since 2000-01-01, an int4 on a page.
    Date,
    /// `timestamp` (without time zone): microseconds since 2000-01-01 00:00.
    Timestamp,
    /// `interval`: months, days and microseconds, 16 bytes on a page.
    Interval,
    /// `numeric` / `decimal`, with its `(precision, scale)` when declared so
    /// (a column's or a cast's typmod; an expression's result has none).
    Numeric(Option<(u16, u16)>),
    /// `bytea`: binary strings. Only produced by functions here
    /// (pageinspect's `t_data`, `decode()`); not a column type yet.
    Bytea,
    /// `character(n)` / `char(n)` (bpchar; n = 0: `bpchar` without a
    /// length, as a literal or a set operation makes it): text blank-padded to n
    /// characters, held padded (as the page stores it). Compared with its
    /// padding; read as text (a function's argument, `||`, a cast) without
    /// its trailing blanks, as PostgreSQL's bpchar-to-text cast reads it.
    Bpchar(u32),
    /// `json`: the text as written, checked to be JSON (`value/json.rs`).
    Json,
    /// `jsonb`: parsed JSON, held as a [`json::Jsonb`] tree.
    Jsonb,
}

impl SqlType {
    /// The type as `\\d` and `format_type` print it: `numeric(10,2)` with a
    /// typmod, else [`SqlType::pg_name`].
    pub fn display_name(self) -> String {
        match self {
            SqlType::Numeric(Some((p, s))) => format!("numeric({p},{s})"),
            SqlType::Bpchar(0) => "bpchar".to_string(),
            SqlType::Bpchar(n) => format!("character({n})"),
            other => other.pg_name().to_string(),
        }
    }

    /// The type without a typmod: what a value compared with (not stored
    /// in) a column of this type is converted to.
    pub fn without_typmod(self) -> SqlType {
        match self {
            SqlType::Numeric(_) => SqlType::Numeric(None),
            other => other,
        }
    }

    /// Text on a page: `text`, `varchar`, or blank-padded `character(n)`.
    pub fn is_text(self) -> bool {
        matches!(self, SqlType::Text | SqlType::Bpchar(_))
    }

    pub fn is_numeric(self) -> bool {
        matches!(self, SqlType::Numeric(_))
    }

    /// PostgreSQL's name for the type, as EXPLAIN and errors print it.
    pub fn pg_name(self) -> &'static str {
        match self {
            SqlType::Int2 => "smallint",
            SqlType::Int4 => "integer",
            SqlType::Int8 => "bigint",
            SqlType::Timestamptz => "timestamp with time zone",
            SqlType::Text => "text",
            SqlType::Float8 => "double precision",
            SqlType::Bool => "boolean",
            SqlType::Uuid => "uuid",
            SqlType::Tid => "tid",
            SqlType::Float4 => "real",
            SqlType::Point => "point",
            SqlType::Date => "date",
            SqlType::Timestamp => "timestamp without time zone",
            SqlType::Interval => "interval",
            SqlType::Numeric(_) => "numeric",
            SqlType::Bytea => "bytea",
            SqlType::Bpchar(_) => "character",
            SqlType::Json => "json",
            SqlType::Jsonb => "jsonb",
        }
    }
}

/// One SQL value. Integers of both widths are held as `i64`; the column's
/// [`SqlType`] says how many bytes it occupies on a page.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    Null,
    Int(i64),
    /// Microseconds since 2000-01-01 00:00:00 UTC (PostgreSQL's epoch).
    Timestamp(i64),
    /// Boxed so that a `Value` is 16 bytes, not 24: rows are mostly numbers,
    /// and a million-row table holds its rows in memory.
    Text(Box<String>),
    Float(f64),
    Bool(bool),
    /// A `tid` (page, line pointer) packed as `page << 16 | offset`, so it
    /// compares in PostgreSQL's TID order.
    Tid(u64),
    /// A `real` (float4), printed with float4's digits (`reltuples`).
    Real(f32),
    /// A `date`: days since 2000-01-01.
    Date(i32),
    /// A `timestamp` without time zone: microseconds since 2000-01-01 00:00
    /// (what the clock on the wall says; no zone is applied in or out).
    LocalTimestamp(i64),
    /// An `interval`, boxed so that a `Value` stays 16 bytes.
    Interval(Box<Interval>),
    /// A `numeric`, boxed (an i128 and a scale would make every `Value` 32 bytes).
    Numeric(Box<Numeric>),
    /// A `bytea`, boxed so that a `Value` stays 16 bytes.
    Bytea(Box<Vec<u8>>),
    /// A `json`: its text as written.
    Json(Box<String>),
    /// A `jsonb`.
    Jsonb(Box<json::Jsonb>),
}

impl Value {
    /// The type of a date/time value (`date`, `timestamp`, `interval`),
    /// whose variants carry their type; `None` for any other value.
    pub fn datetime_type(&self) -> Option<SqlType> {
        match self {
            Value::Date(_) => Some(SqlType::Date),
            Value::LocalTimestamp(_) => Some(SqlType::Timestamp),
            Value::Interval(_) => Some(SqlType::Interval),
            _ => None,
        }
    }

    pub fn text(s: impl Into<String>) -> Value {
        Value::Text(Box::new(s.into()))
    }

    pub fn numeric(n: Numeric) -> Value {
        Value::Numeric(Box::new(n))
    }

    pub fn is_null(&self) -> bool {
        matches!(self, Value::Null)
    }
}

impl Value {
    /// The value as psql prints it (`t`/`f` for booleans, ISO timestamps in UTC).
    /// The value as a result cell: its text, or `None` for NULL.
    pub fn cell(&self) -> Option<String> {
        (!self.is_null()).then(|| self.pg_text())
    }

    pub fn pg_text(&self) -> String {
        match self {
            Value::Null => String::new(),
            Value::Int(i) => i.to_string(),
            Value::Float(f) => format_float(*f),
            Value::Text(s) => s.to_string(),
            Value::Bool(b) => if *b { "t" } else { "f" }.to_string(),
            Value::Timestamp(us) => timestamp::format_timestamp(*us, "+00"),
            Value::LocalTimestamp(us) => timestamp::format_timestamp(*us, ""),
            Value::Date(days) => date::format_date(*days),
            Value::Interval(iv) => interval::format_interval(iv),
            Value::Tid(t) => format!("({},{})", t >> 16, t & 0xFFFF),
            Value::Real(f) => format_float4(*f),
            Value::Numeric(n) => n.to_string(),
            // bytea_output = 'hex', PostgreSQL's default.
            Value::Bytea(b) => {
                let mut s = String::with_capacity(2 + 2 * b.len());
                s.push_str("\\x");
                for byte in b.iter() {
                    s.push_str(&format!("{byte:02x}"));
                }
                s
            }
            Value::Json(s) => s.to_string(),
            Value::Jsonb(j) => j.to_text(),
        }
    }
}

/// A `tid` as `tidin` reads it, `(block,offset)`, packed as [`Value::Tid`] holds it.
pub fn parse_tid(text: &str) -> Option<u64> {
    let inner = text.trim().strip_prefix('(')?.strip_suffix(')')?;
    let (block, offset) = inner.split_once(',')?;
    let block: u32 = block.trim().parse().ok()?;
    let offset: u16 = offset.trim().parse().ok()?;
    Some((u64::from(block) << 16) | u64::from(offset))
}

/// A `point` as `point_in` reads it (`(x,y)` or `x,y`), in its output form.
pub fn parse_point(text: &str) -> Option<String> {
    let t = text.trim();
    let inner = match t.strip_prefix('(') {
        Some(rest) => rest.strip_suffix(')')?,
        None => t,
    };
    let (x, y) = inner.split_once(',')?;
    let (x, y): (f64, f64) = (x.trim().parse().ok()?, y.trim().parse().ok()?);
    Some(format!("({},{})", format_float(x), format_float(y)))
}

/// Coordinate `i` (0: x, 1: y) of a point in its output form; NULL past 1,
/// as PostgreSQL's subscript of a point gives.
pub fn point_coordinate(point: &str, i: i64) -> Option<f64> {
    let inner = point.strip_prefix('(')?.strip_suffix(')')?;
    let (x, y) = inner.split_once(',')?;
    match i {
        0 => x.parse().ok(),
        1 => y.parse().ok(),
        _ => None,
    }
}

/// PostgreSQL prints float8 with the shortest text that reads back exactly
/// (`float8out`, Ryu): fixed notation for decimal exponents from -4 up to
/// DBL_DIG (15), scientific beyond (`1e+15`, `1e-05`).
fn format_float(f: f64) -> String {
    shortest_float_text(f, format!("{f}"), format!("{f:e}"), 15)
}

/// `real` (float4) as `float4out` prints it: the shortest text that reads
/// back as the same float4, scientific from FLT_DIG (6) digits on (`1e+06`).
pub fn format_float4(f: f32) -> String {
    shortest_float_text(f64::from(f), format!("{f}"), format!("{f:e}"), 6)
}

/// Chooses between Rust's shortest fixed and scientific texts of a float
/// as Ryu's `to_chars` in PostgreSQL does: fixed while the decimal exponent
/// is in [-4, `digits`), else `d.ddde+XX` with at least two exponent digits.
fn shortest_float_text(f: f64, fixed: String, scientific: String, digits: i32) -> String {
    if f.is_nan() {
        return "NaN".into();
    }
    if f.is_infinite() {
        return if f > 0.0 { "Infinity" } else { "-Infinity" }.into();
    }
    let (mantissa, exp) = scientific.split_once('e').unwrap_or((&scientific, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    if f == 0.0 || (-4..digits).contains(&exp) {
        return fixed;
    }
    let sign = if exp < 0 { '-' } else { '+' };
    format!("{mantissa}e{sign}{:02}", exp.abs())
}

/// A timestamptz literal as PostgreSQL reads the ISO forms
/// (`2024-01-02`, `2024-01-02 03:04:05.25`, a `T` between, a zone `Z`, `+HH`,
/// `-HH:MM`; no zone means the session's, which is UTC here) into
/// microseconds since 2000-01-01 UTC. None for any other form.
pub fn parse_timestamptz(text: &str) -> Option<i64> {
    let input = timestamp::parse_datetime(text).ok()?;
    Some(input.local_us - input.offset_us)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timestamps_print_like_postgres() {
        assert_eq!(Value::Timestamp(0).pg_text(), "2000-01-01 00:00:00+00");
        assert_eq!(
            Value::Timestamp(1_500_000).pg_text(),
            "2000-01-01 00:00:01.5+00"
        );
        // 2026-01-01 is 9497 days after 2000-01-01.
        let us = 9497 * 86_400_000_000i64 + 3_723_000_001;
        assert_eq!(
            Value::Timestamp(us).pg_text(),
            "2026-01-01 01:02:03.000001+00"
        );
        assert_eq!(
            Value::Timestamp(-1).pg_text(),
            "1999-12-31 23:59:59.999999+00"
        );
    }

    #[test]
    fn a_value_stays_16_bytes() {
        assert_eq!(std::mem::size_of::<Value>(), 16);
    }

    #[test]
    fn scalars_print_like_psql() {
        assert_eq!(Value::Bool(true).pg_text(), "t");
        assert_eq!(Value::Float(0.5).pg_text(), "0.5");
        assert_eq!(Value::Int(-3).pg_text(), "-3");
        assert_eq!(Value::Null.pg_text(), "");
    }
}

#[cfg(test)]
mod timestamp_literal_tests {
    use super::{parse_timestamptz, Value};

    fn round_trip(text: &str) -> Option<String> {
        parse_timestamptz(text).map(|us| Value::Timestamp(us).pg_text())
    }

    #[test]
    fn iso_literals_read_as_postgresql_reads_them() {
        assert_eq!(
            round_trip("2024-01-02").as_deref(),
            Some("2024-01-02 00:00:00+00")
        );
        assert_eq!(
            round_trip("2024-01-02 03:04:05+00").as_deref(),
            Some("2024-01-02 03:04:05+00")
        );
        assert_eq!(
            round_trip("2024-01-02T03:04:05.25Z").as_deref(),
            Some("2024-01-02 03:04:05.25+00")
        );
        assert_eq!(
            round_trip("2024-01-02 03:04:05-02:30").as_deref(),
            Some("2024-01-02 05:34:05+00")
        );
        assert_eq!(
            round_trip("2000-01-01 00:00:00"),
            Some("2000-01-01 00:00:00+00".into())
        );
        assert_eq!(
            round_trip("1999-12-31 23:59:59"),
            Some("1999-12-31 23:59:59+00".into())
        );
        assert_eq!(
            round_trip("2024-02-29").as_deref(),
            Some("2024-02-29 00:00:00+00")
        );
        assert_eq!(round_trip("2023-02-29"), None);
        assert_eq!(round_trip("yesterday"), None);
        assert_eq!(round_trip("2024-13-01"), None);
    }
}

/// A uuid's canonical text from any of PostgreSQL's input forms (upper or
/// lower case, with or without hyphens, in braces); `None` if it is not one.
pub fn parse_uuid(s: &str) -> Option<String> {
    let t = s.trim();
    let t = t
        .strip_prefix('{')
        .and_then(|x| x.strip_suffix('}'))
        .unwrap_or(t);
    let hex: String = t.chars().filter(|c| *c != '-').collect();
    if hex.len() != 32 || !hex.chars().all(|c| c.is_ascii_hexdigit()) {
        return None;
    }
    let h = hex.to_ascii_lowercase();
    Some(format!(
        "{}-{}-{}-{}-{}",
        &h[0..8],
        &h[8..12],
        &h[12..16],
        &h[16..20],
        &h[20..32]
    ))
}

/// A version 4 (random) uuid from 128 random bits, as `gen_random_uuid()`.
pub fn uuid_v4(high: u64, low: u64) -> String {
    let mut b = [0u8; 16];
    b[..8].copy_from_slice(&high.to_be_bytes());
    b[8..].copy_from_slice(&low.to_be_bytes());
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    let hex: String = b.iter().map(|x| format!("{x:02x}")).collect();
    parse_uuid(&hex).unwrap_or(hex)
}

/// A uuid's 16 bytes from its canonical text.
pub fn uuid_bytes(s: &str) -> Option<[u8; 16]> {
    let hex: String = s.chars().filter(|c| *c != '-').collect();
    let mut out = [0u8; 16];
    for (i, byte) in out.iter_mut().enumerate() {
        *byte = u8::from_str_radix(hex.get(2 * i..2 * i + 2)?, 16).ok()?;
    }
    Some(out)
}
