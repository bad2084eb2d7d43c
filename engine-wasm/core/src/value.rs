//! SQL values and types, shared by every layer above the structures.

/// The SQL types the seed articles use.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SqlType {
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
}

impl SqlType {
    /// PostgreSQL's name for the type, as EXPLAIN and errors print it.
    pub fn pg_name(self) -> &'static str {
        match self {
            SqlType::Int4 => "integer",
            SqlType::Int8 => "bigint",
            SqlType::Timestamptz => "timestamp with time zone",
            SqlType::Text => "text",
            SqlType::Float8 => "double precision",
            SqlType::Bool => "boolean",
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
}

impl Value {
    pub fn text(s: impl Into<String>) -> Value {
        Value::Text(Box::new(s.into()))
    }

    pub fn is_null(&self) -> bool {
        matches!(self, Value::Null)
    }
}

impl Value {
    /// The value as psql prints it (`t`/`f` for booleans, ISO timestamps in UTC).
    pub fn pg_text(&self) -> String {
        match self {
            Value::Null => String::new(),
            Value::Int(i) => i.to_string(),
            Value::Float(f) => format_float(*f),
            Value::Text(s) => s.to_string(),
            Value::Bool(b) => if *b { "t" } else { "f" }.to_string(),
            Value::Timestamp(us) => format_timestamp(*us),
        }
    }
}

/// PostgreSQL prints float8 with the shortest text that reads back exactly.
fn format_float(f: f64) -> String {
    if f.is_nan() {
        "NaN".into()
    } else if f.is_infinite() {
        if f > 0.0 { "Infinity" } else { "-Infinity" }.into()
    } else {
        format!("{f}")
    }
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
    fn scalars_print_like_psql() {
        assert_eq!(Value::Bool(true).pg_text(), "t");
        assert_eq!(Value::Float(0.5).pg_text(), "0.5");
        assert_eq!(Value::Int(-3).pg_text(), "-3");
        assert_eq!(Value::Null.pg_text(), "");
    }
}
