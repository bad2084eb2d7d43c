//! SQL values and types, shared by every layer above the structures.

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
    /// `numeric` / `decimal`, with its `(precision, scale)` when declared so
    /// (a column's or a cast's typmod; an expression's result has none).
    Numeric(Option<(u16, u16)>),
}

impl SqlType {
    /// The type as `\\d` and `format_type` print it: `numeric(10,2)` with a
    /// typmod, else [`SqlType::pg_name`].
    pub fn display_name(self) -> String {
        match self {
            SqlType::Numeric(Some((p, s))) => format!("numeric({p},{s})"),
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
            SqlType::Numeric(_) => "numeric",
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
    /// A `numeric`, boxed (an i128 and a scale would make every `Value` 32 bytes).
    Numeric(Box<Numeric>),
}

impl Value {
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
            Value::Timestamp(us) => format_timestamp(*us),
            Value::Tid(t) => format!("({},{})", t >> 16, t & 0xFFFF),
            Value::Real(f) => format_float4(*f),
            Value::Numeric(n) => n.to_string(),
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

/// Microseconds since 2000-01-01 UTC as `YYYY-MM-DD HH:MM:SS[.ffffff]+00`.
fn format_timestamp(us: i64) -> String {
    const US_PER_DAY: i64 = 86_400_000_000;
    let days = us.div_euclid(US_PER_DAY);
    let rem = us.rem_euclid(US_PER_DAY);
    // 2000-01-01 is day 10957 since 1970-01-01.
    let (y, m, d) = civil_from_days(days + 10_957);
    let secs = rem / 1_000_000;
    let frac = rem % 1_000_000;
    let (hh, mm, ss) = (secs / 3600, secs / 60 % 60, secs % 60);
    let mut s = format!("{y:04}-{m:02}-{d:02} {hh:02}:{mm:02}:{ss:02}");
    if frac != 0 {
        let f = format!(".{frac:06}");
        s.push_str(f.trim_end_matches('0'));
    }
    s.push_str("+00");
    s
}

/// A timestamptz literal as PostgreSQL reads the ISO forms
/// (`2024-01-02`, `2024-01-02 03:04:05.25`, a `T` between, a zone `Z`, `+HH`,
/// `-HH:MM`; no zone means the session's, which is UTC here) into
/// microseconds since 2000-01-01 UTC. None for any other form.
pub fn parse_timestamptz(text: &str) -> Option<i64> {
    let t = text.trim();
    if t.eq_ignore_ascii_case("epoch") {
        return Some(-10_957 * 86_400_000_000);
    }
    let (date, rest) = t.split_at(t.find([' ', 'T']).unwrap_or(t.len()));
    let mut ymd = date.splitn(3, '-');
    let (y, m, d): (i64, u32, u32) = (
        ymd.next()?.parse().ok()?,
        ymd.next()?.parse().ok()?,
        ymd.next()?.parse().ok()?,
    );
    if !(1..=12).contains(&m) || d < 1 || d > days_in_month(y, m) {
        return None;
    }
    let rest = rest.trim_start_matches([' ', 'T']);
    // The zone starts at the first sign or Z after the time.
    let zone_at = rest.find(['+', '-', 'Z']).unwrap_or(rest.len());
    let (time, zone) = rest.split_at(zone_at);
    let mut us = 0i64;
    if !time.trim().is_empty() {
        let mut hms = time.trim().splitn(3, ':');
        let h: i64 = hms.next()?.parse().ok()?;
        let mi: i64 = hms.next()?.parse().ok()?;
        let sec: f64 = hms.next().map_or(Some(0.0), |x| x.parse().ok())?;
        if h > 24 || mi > 59 || !(0.0..61.0).contains(&sec) {
            return None;
        }
        us = (h * 3600 + mi * 60) * 1_000_000 + (sec * 1e6).round() as i64;
    }
    let offset_us = match zone.trim() {
        "" | "Z" => 0,
        z => {
            let sign = if z.starts_with('-') { -1 } else { 1 };
            let mut hm = z[1..].splitn(2, ':');
            let h: i64 = hm.next()?.parse().ok()?;
            let mi: i64 = hm.next().map_or(Some(0), |x| x.parse().ok())?;
            sign * (h * 3600 + mi * 60) * 1_000_000
        }
    };
    let days = days_from_civil(y, m, d) - 10_957;
    Some(days * 86_400_000_000 + us - offset_us)
}

fn days_in_month(y: i64, m: u32) -> u32 {
    match m {
        2 if (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Howard Hinnant's civil-to-days algorithm (days since 1970-01-01).
fn days_from_civil(y: i64, m: u32, d: u32) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y.rem_euclid(400);
    let mp = i64::from((m + 9) % 12);
    let doy = (153 * mp + 2) / 5 + i64::from(d) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// Howard Hinnant's days-to-civil algorithm (days since 1970-01-01).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (if m <= 2 { y + 1 } else { y }, m, d)
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
