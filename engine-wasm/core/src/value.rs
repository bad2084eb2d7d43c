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
    Text(String),
    Float(f64),
    Bool(bool),
}

impl Value {
    pub fn is_null(&self) -> bool {
        matches!(self, Value::Null)
    }
}
