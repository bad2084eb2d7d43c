//! Scalar functions people use to make and read test data (`lower`,
//! `substr`, `md5`, `lpad`, `coalesce`, `abs`, `floor`…) and LIKE, with
//! PostgreSQL 15's semantics under the C collation the differential tests use:
//! case changes touch ASCII letters only, lengths count characters.

use super::error::{unsupported, ErrorKind, SqlError};
use crate::value::Value;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScalarFunc {
    Lower,
    Upper,
    Length,
    Substr,
    Md5,
    /// `to_hex(n)`: the integer in hexadecimal.
    ToHex,
    Lpad,
    Rpad,
    Repeat,
    Replace,
    Abs,
    Floor,
    Ceil,
    Round,
    /// `trunc(x [, digits])`
    Trunc,
    /// `sign(x)`: -1, 0 or 1 of x's type.
    Sign,
    Mod,
    Coalesce,
    /// `left(s, n)`, `right(s, n)`, `split_part(s, d, n)`, `btrim`, `ltrim`,
    /// `rtrim`, `strpos(s, sub)`, `initcap`, `chr`, `ascii`, `octet_length`
    /// (`sql/text_functions.rs`).
    Left,
    Right,
    SplitPart,
    /// `position(sub IN s)`: strpos(s, sub), named `position`.
    Position,
    /// `char_length(s)`: length(s), named `char_length`.
    CharLength,
    Btrim,
    Ltrim,
    Rtrim,
    Strpos,
    Initcap,
    Chr,
    Ascii,
    OctetLength,
    /// `concat(a, …)`: the arguments' text, NULLs left out.
    Concat,
    /// `concat_ws(sep, a, …)`: joined by sep, NULLs left out.
    ConcatWs,
    Nullif,
    Greatest,
    Least,
    PgSizePretty,
    /// `pg_column_size(x)`: the bytes of x's datum, as stored in a row (a
    /// column's value) or as computed. The executor adds two arguments
    /// before it runs: the type's length (-1: varlena, -2: an untyped
    /// literal) and whether x is a stored column (`exec/column_size.rs`).
    PgColumnSize,
    /// `x::regclass`: a relation's name, checked against the catalog.
    Regclass,
    PgRelationSize,
    PgTableSize,
    PgIndexesSize,
    PgTotalRelationSize,
    /// `txid_current()`: the running transaction's id, taken now if it has
    /// none (answered by the profile before the query runs).
    TxidCurrent,
    /// `txid_status(xid)`: committed, aborted, in progress, or NULL when too
    /// old (answered by the profile before the query runs).
    TxidStatus,
    /// `pg_sleep(seconds)`: waits (virtual time); returns void.
    PgSleep,
    /// `pg_stat_force_next_flush()`: sends the session's statistics at the
    /// statement's end, as IndexLab always does; returns void.
    PgStatForceNextFlush,
    /// `p[i]` of a point: its x (0) or y (1) coordinate. Written as a
    /// subscript, never called by name.
    PointSubscript,
    /// `EXTRACT(field FROM x)`: written with its own syntax, never by name.
    Extract,
    DatePart,
    DateTrunc,
    MakeDate,
    /// `encode(bytea, format)`: binary data as text (`hex`, `escape`, `base64`).
    Encode,
    /// `decode(text, format)`: text as binary data.
    Decode,
    /// `version()`: which server answers (the profile says).
    Version,
    /// JSON constructors and readers (`sql/json/functions.rs`).
    JsonbBuildObject,
    JsonBuildObject,
    JsonbBuildArray,
    JsonBuildArray,
    ToJsonb,
    ToJson,
    JsonbSet,
    JsonbTypeof,
    JsonTypeof,
    JsonbArrayLength,
    JsonArrayLength,
    JsonbPretty,
    JsonbStripNulls,
    JsonbExtractPath,
    JsonbExtractPathText,
    JsonExtractPath,
    JsonExtractPathText,
    /// `to_char(value, template)` (`sql/formatting.rs`).
    ToChar,
    /// `format(template, args…)` (`sql/format.rs`).
    Format,
    /// A sequence's next, current or set value (`exec/sequences.rs`),
    /// answered with the evaluation's sequences (`eval::EvalEnv`).
    NextVal,
    CurrVal,
    SetVal,
    LastVal,
    /// `yb_hash_code(a, …)`: YugabyteDB's partition hash of its arguments
    /// (`crate::partition_hash`). It hashes each argument by its type, so
    /// before a query runs each argument is wrapped in a `YbHashKey` of its
    /// type (`exec/yb_hash_code.rs`).
    YbHashCode,
    /// One argument of `yb_hash_code`, as the bytes its type appends to the
    /// hashed string. Never written by name.
    YbHashKey(crate::partition_hash::KeyType),
}

impl ScalarFunc {
    pub fn name(self) -> &'static str {
        use ScalarFunc::*;
        match self {
            Lower => "lower",
            Upper => "upper",
            Length => "length",
            Substr => "substr",
            Md5 => "md5",
            ToHex => "to_hex",
            Lpad => "lpad",
            Rpad => "rpad",
            Repeat => "repeat",
            Replace => "replace",
            Abs => "abs",
            Floor => "floor",
            Ceil => "ceil",
            Round => "round",
            Trunc => "trunc",
            Sign => "sign",
            Mod => "mod",
            Coalesce => "COALESCE",
            Concat => "concat",
            Left => "left",
            Position => "position",
            CharLength => "char_length",
            Right => "right",
            SplitPart => "split_part",
            Btrim => "btrim",
            Ltrim => "ltrim",
            Rtrim => "rtrim",
            Strpos => "strpos",
            Initcap => "initcap",
            Chr => "chr",
            Ascii => "ascii",
            OctetLength => "octet_length",
            ConcatWs => "concat_ws",
            Nullif => "NULLIF",
            Greatest => "GREATEST",
            Least => "LEAST",
            PgSizePretty => "pg_size_pretty",
            PgColumnSize => "pg_column_size",
            Regclass => "regclass",
            PgRelationSize => "pg_relation_size",
            PgTableSize => "pg_table_size",
            PgIndexesSize => "pg_indexes_size",
            PgTotalRelationSize => "pg_total_relation_size",
            TxidCurrent => "txid_current",
            PgSleep => "pg_sleep",
            TxidStatus => "txid_status",
            PgStatForceNextFlush => "pg_stat_force_next_flush",
            PointSubscript => "point subscript",
            Extract => "EXTRACT",
            DatePart => "date_part",
            DateTrunc => "date_trunc",
            MakeDate => "make_date",
            Encode => "encode",
            Decode => "decode",
            Version => "version",
            JsonbBuildObject => "jsonb_build_object",
            JsonBuildObject => "json_build_object",
            JsonbBuildArray => "jsonb_build_array",
            JsonBuildArray => "json_build_array",
            ToJsonb => "to_jsonb",
            ToJson => "to_json",
            JsonbSet => "jsonb_set",
            JsonbTypeof => "jsonb_typeof",
            JsonTypeof => "json_typeof",
            JsonbArrayLength => "jsonb_array_length",
            JsonArrayLength => "json_array_length",
            JsonbPretty => "jsonb_pretty",
            JsonbStripNulls => "jsonb_strip_nulls",
            JsonbExtractPath => "jsonb_extract_path",
            JsonbExtractPathText => "jsonb_extract_path_text",
            JsonExtractPath => "json_extract_path",
            JsonExtractPathText => "json_extract_path_text",
            ToChar => "to_char",
            Format => "format",
            NextVal => "nextval",
            CurrVal => "currval",
            SetVal => "setval",
            LastVal => "lastval",
            YbHashCode | YbHashKey(_) => "yb_hash_code",
        }
    }

    pub fn from_name(name: &str) -> Option<ScalarFunc> {
        use ScalarFunc::*;
        Some(match name {
            "lower" => Lower,
            "upper" => Upper,
            "length" => Length,
            "char_length" | "character_length" => CharLength,
            "substr" | "substring" => Substr,
            "md5" => Md5,
            "to_hex" => ToHex,
            "lpad" => Lpad,
            "rpad" => Rpad,
            "repeat" => Repeat,
            "replace" => Replace,
            "abs" => Abs,
            "floor" => Floor,
            "ceil" | "ceiling" => Ceil,
            "round" => Round,
            "trunc" => Trunc,
            "sign" => Sign,
            "mod" => Mod,
            "coalesce" => Coalesce,
            "concat" => Concat,
            "left" => Left,
            "right" => Right,
            "split_part" => SplitPart,
            "btrim" => Btrim,
            "ltrim" => Ltrim,
            "rtrim" => Rtrim,
            "strpos" => Strpos,
            "initcap" => Initcap,
            "chr" => Chr,
            "ascii" => Ascii,
            "octet_length" => OctetLength,
            "concat_ws" => ConcatWs,
            "nullif" => Nullif,
            "greatest" => Greatest,
            "least" => Least,
            "pg_size_pretty" => PgSizePretty,
            "pg_column_size" => PgColumnSize,
            "pg_relation_size" => PgRelationSize,
            "pg_table_size" => PgTableSize,
            "pg_indexes_size" => PgIndexesSize,
            "pg_total_relation_size" => PgTotalRelationSize,
            "txid_current" => TxidCurrent,
            "pg_sleep" => PgSleep,
            "txid_status" => TxidStatus,
            "pg_stat_force_next_flush" => PgStatForceNextFlush,
            "date_part" => DatePart,
            "date_trunc" => DateTrunc,
            "make_date" => MakeDate,
            "encode" => Encode,
            "decode" => Decode,
            "version" => Version,
            "jsonb_build_object" => JsonbBuildObject,
            "json_build_object" => JsonBuildObject,
            "jsonb_build_array" => JsonbBuildArray,
            "json_build_array" => JsonBuildArray,
            "to_jsonb" => ToJsonb,
            "to_json" => ToJson,
            "jsonb_set" => JsonbSet,
            "jsonb_typeof" => JsonbTypeof,
            "json_typeof" => JsonTypeof,
            "jsonb_array_length" => JsonbArrayLength,
            "json_array_length" => JsonArrayLength,
            "jsonb_pretty" => JsonbPretty,
            "jsonb_strip_nulls" => JsonbStripNulls,
            "jsonb_extract_path" => JsonbExtractPath,
            "jsonb_extract_path_text" => JsonbExtractPathText,
            "json_extract_path" => JsonExtractPath,
            "json_extract_path_text" => JsonExtractPathText,
            "to_char" => ToChar,
            "format" => Format,
            "nextval" => NextVal,
            "currval" => CurrVal,
            "setval" => SetVal,
            "lastval" => LastVal,
            "yb_hash_code" => YbHashCode,
            _ => return None,
        })
    }

    /// The numbers of arguments PostgreSQL has this function for.
    fn arities(self) -> std::ops::RangeInclusive<usize> {
        use ScalarFunc::*;
        match self {
            Round | Trunc => 1..=2,
            Lower | Upper | Length | Md5 | ToHex | Abs | Floor | Ceil | Sign | PgSizePretty
            | Regclass | PgTableSize | PgIndexesSize | PgTotalRelationSize => 1..=1,
            Substr | Lpad | Rpad => 2..=3,
            PgRelationSize => 1..=2,
            Repeat | Mod | Nullif | Encode | Decode | PointSubscript | Extract | DatePart
            | DateTrunc => 2..=2,
            Replace | MakeDate => 3..=3,
            Coalesce | Greatest | Least | Concat => 1..=usize::MAX,
            ConcatWs => 2..=usize::MAX,
            Left | Right | Strpos | Position => 2..=2,
            CharLength => 1..=1,
            SplitPart => 3..=3,
            Btrim | Ltrim | Rtrim => 1..=2,
            Initcap | Chr | Ascii | OctetLength => 1..=1,
            PgColumnSize => 1..=3,
            TxidCurrent | PgStatForceNextFlush | Version => 0..=0,
            PgSleep | TxidStatus => 1..=1,
            JsonbBuildObject | JsonBuildObject | JsonbBuildArray | JsonBuildArray => 0..=usize::MAX,
            ToJsonb | ToJson | JsonbTypeof | JsonTypeof | JsonbArrayLength | JsonArrayLength
            | JsonbPretty | JsonbStripNulls => 1..=1,
            JsonbSet => 3..=4,
            ToChar => 2..=2,
            Format => 1..=usize::MAX,
            NextVal | CurrVal => 1..=1,
            SetVal => 2..=3,
            LastVal => 0..=0,
            YbHashCode => 1..=usize::MAX,
            YbHashKey(_) => 1..=1,
            JsonbExtractPath | JsonbExtractPathText | JsonExtractPath | JsonExtractPathText => {
                1..=usize::MAX
            }
        }
    }

    /// PostgreSQL's error for a call with the wrong number of arguments.
    pub fn check_arity(self, n: usize) -> Result<(), SqlError> {
        if self.arities().contains(&n) {
            return Ok(());
        }
        Err(SqlError::new(
            ErrorKind::Semantic,
            format!(
                "function {}() with {n} argument(s) does not exist",
                self.name()
            ),
        ))
    }

    /// Functions that read the catalog: the engine answers them before the
    /// query runs ([`crate::exec::catalog_calls`]).
    pub fn reads_catalog(self) -> bool {
        use ScalarFunc::*;
        matches!(
            self,
            Regclass
                | PgRelationSize
                | PgTableSize
                | PgIndexesSize
                | PgTotalRelationSize
                | TxidCurrent
                | PgSleep
                | PgStatForceNextFlush
                | TxidStatus
                | Version
        )
    }

    /// Functions that return NULL for any NULL argument (the "strict" ones).
    fn strict(self) -> bool {
        !matches!(
            self,
            ScalarFunc::Coalesce
                | ScalarFunc::Nullif
                | ScalarFunc::Greatest
                | ScalarFunc::Least
                | ScalarFunc::Concat
                | ScalarFunc::ConcatWs
                | ScalarFunc::JsonbBuildObject
                | ScalarFunc::JsonBuildObject
                | ScalarFunc::JsonbBuildArray
                | ScalarFunc::JsonBuildArray
                | ScalarFunc::Format
                | ScalarFunc::YbHashCode
                | ScalarFunc::YbHashKey(_)
        )
    }
}

pub(super) fn no_such(func: ScalarFunc, args: &[Value]) -> SqlError {
    let types: Vec<&str> = args.iter().map(type_name).collect();
    SqlError::new(
        ErrorKind::Semantic,
        format!(
            "function {}({}) does not exist",
            func.name(),
            types.join(", ")
        ),
    )
}

pub(crate) fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "unknown",
        Value::Int(_) => "integer",
        Value::Float(_) => "double precision",
        Value::Text(_) => "text",
        Value::Bool(_) => "boolean",
        Value::Timestamp(_) => "timestamp with time zone",
        Value::Date(_) | Value::LocalTimestamp(_) | Value::Interval(_) => {
            v.datetime_type().map_or("unknown", |t| t.pg_name())
        }
        Value::Tid(_) => "tid",
        Value::Real(_) => "real",
        Value::Numeric(_) => "numeric",
        Value::Bytea(_) => "bytea",
        Value::Json(_) => "json",
        Value::Jsonb(_) => "jsonb",
    }
}

fn int(v: &Value, func: ScalarFunc, args: &[Value]) -> Result<i64, SqlError> {
    match v {
        Value::Int(i) => Ok(*i),
        _ => Err(no_such(func, args)),
    }
}

fn text<'a>(v: &'a Value, func: ScalarFunc, args: &[Value]) -> Result<&'a str, SqlError> {
    match v {
        Value::Text(s) => Ok(s.as_str()),
        _ => Err(no_such(func, args)),
    }
}

/// Calls `func` on evaluated arguments.
pub fn call(func: ScalarFunc, args: &[Value]) -> Result<Value, SqlError> {
    use ScalarFunc::*;
    if func.strict() && args.iter().any(Value::is_null) {
        return Ok(Value::Null);
    }
    if super::json::functions::handles(func) {
        return super::json::functions::call(func, args);
    }
    let a = &args[0];
    Ok(match func {
        // Answered above (a constructor may have no argument at all).
        JsonbBuildObject | JsonBuildObject | JsonbBuildArray | JsonBuildArray | ToJsonb
        | ToJson | JsonbSet | JsonbTypeof | JsonTypeof | JsonbArrayLength | JsonArrayLength
        | JsonbPretty | JsonbStripNulls | JsonbExtractPath | JsonbExtractPathText
        | JsonExtractPath | JsonExtractPathText => super::json::functions::call(func, args)?,
        PgColumnSize => column_size(args)?,
        YbHashKey(ty) => yb_hash_key(a, ty)?,
        YbHashCode => yb_hash_code(args)?,
        ToChar => super::formatting::to_char(a, text(&args[1], func, args)?)?,
        NextVal | CurrVal | SetVal | LastVal => {
            return Err(super::error::unsupported(format!(
                "{}() where IndexLab cannot reach the sequences (an index expression, a check)",
                func.name()
            )))
        }
        Format if a.is_null() => Value::Null,
        Format => super::format::format(text(a, func, args)?, &args[1..])?,
        Left => super::text_functions::left(text(a, func, args)?, int(&args[1], func, args)?),
        Right => super::text_functions::right(text(a, func, args)?, int(&args[1], func, args)?),
        SplitPart => super::text_functions::split_part(
            text(a, func, args)?,
            text(&args[1], func, args)?,
            int(&args[2], func, args)?,
        )?,
        Btrim | Ltrim | Rtrim => {
            use super::text_functions::{trim, Ends};
            let set = match args.get(1) {
                Some(v) => text(v, func, args)?,
                None => " ",
            };
            let ends = match func {
                Ltrim => Ends::Leading,
                Rtrim => Ends::Trailing,
                _ => Ends::Both,
            };
            trim(text(a, func, args)?, set, ends)
        }
        Strpos | Position => {
            super::text_functions::position(text(a, func, args)?, text(&args[1], func, args)?)
        }
        CharLength => Value::Int(text(a, func, args)?.chars().count() as i64),
        Initcap => super::text_functions::initcap(text(a, func, args)?),
        Chr => super::text_functions::chr(int(a, func, args)?)?,
        Ascii => super::text_functions::ascii(text(a, func, args)?),
        OctetLength => match a {
            Value::Bytea(b) => Value::Int(b.len() as i64),
            _ => Value::Int(text(a, func, args)?.len() as i64),
        },
        Lower => Value::text(text(a, func, args)?.to_ascii_lowercase()),
        Upper => Value::text(text(a, func, args)?.to_ascii_uppercase()),
        Length => match a {
            Value::Bytea(b) => Value::Int(b.len() as i64),
            _ => Value::Int(text(a, func, args)?.chars().count() as i64),
        },
        Encode | Decode => bytea_call(func, a, &args[1], args)?,
        Md5 => {
            use md5::{Digest, Md5 as Hasher};
            let digest = match a {
                Value::Bytea(b) => Hasher::digest(b.as_slice()),
                _ => Hasher::digest(text(a, func, args)?.as_bytes()),
            };
            Value::text(
                digest
                    .iter()
                    .map(|b| format!("{b:02x}"))
                    .collect::<String>(),
            )
        }
        // A negative integer prints as its two's complement: 32 bits for an
        // integer's range (to_hex(integer)), 64 beyond it (to_hex(bigint)).
        ToHex => Value::text(match int(a, func, args)? {
            n if n >= 0 => format!("{n:x}"),
            n => match i32::try_from(n) {
                Ok(small) => format!("{:x}", small as u32),
                Err(_) => format!("{:x}", n as u64),
            },
        }),
        Substr => match a {
            Value::Bytea(b) => bytea_substr(b, &args[1..], args)?,
            _ => substr(text(a, func, args)?, &args[1..], args)?,
        },
        Extract => super::datetime_functions::extract(text(a, func, args)?, &args[1])?,
        DatePart => super::datetime_functions::date_part(text(a, func, args)?, &args[1])?,
        DateTrunc => super::datetime_functions::date_trunc(text(a, func, args)?, &args[1])?,
        MakeDate => super::datetime_functions::make_date(
            int(a, func, args)?,
            int(&args[1], func, args)?,
            int(&args[2], func, args)?,
        )?,
        PointSubscript => {
            let i = int(&args[1], func, args)?;
            match crate::value::point_coordinate(text(a, func, args)?, i) {
                Some(x) => Value::Float(x),
                None => Value::Null,
            }
        }
        Lpad | Rpad => pad(func, text(a, func, args)?, &args[1..], args)?,
        Repeat => {
            let n = int(&args[1], func, args)?.max(0) as usize;
            let s = text(a, func, args)?;
            if s.len().saturating_mul(n) > 1 << 28 {
                return Err(SqlError::new(
                    ErrorKind::Limit,
                    "requested length too large",
                ));
            }
            Value::text(s.repeat(n))
        }
        Replace => {
            let (s, from, to) = (
                text(a, func, args)?,
                text(&args[1], func, args)?,
                text(&args[2], func, args)?,
            );
            Value::text(if from.is_empty() {
                s.to_string()
            } else {
                s.replace(from, to)
            })
        }
        Abs | Floor | Ceil | Round | Trunc | Sign | Mod => {
            super::numeric_functions::call(func, args)?
        }
        Coalesce => args
            .iter()
            .find(|v| !v.is_null())
            .cloned()
            .unwrap_or(Value::Null),
        // Each argument through its type's output function (`t` for true,
        // where `||` casts to text and gives `true`).
        Concat => Value::text(
            args.iter()
                .filter(|v| !v.is_null())
                .map(Value::pg_text)
                .collect::<String>(),
        ),
        ConcatWs if a.is_null() => Value::Null,
        ConcatWs => Value::text(
            args[1..]
                .iter()
                .filter(|v| !v.is_null())
                .map(Value::pg_text)
                .collect::<Vec<_>>()
                .join(&a.pg_text()),
        ),
        Nullif => {
            let same = !a.is_null()
                && !args[1].is_null()
                && super::eval::compare(a, &args[1]) == Some(std::cmp::Ordering::Equal);
            if same {
                Value::Null
            } else {
                a.clone()
            }
        }
        PgSizePretty => Value::text(size_pretty(int(a, func, args)?)),
        Regclass | PgRelationSize | PgTableSize | PgIndexesSize | PgTotalRelationSize => {
            return Err(unsupported(format!(
                "{}() of anything but a constant relation name",
                func.name()
            )))
        }
        TxidCurrent | PgSleep | PgStatForceNextFlush | TxidStatus | Version => {
            return Err(unsupported(format!("{}() here", func.name())))
        }
        Greatest | Least => {
            let mut best: Option<&Value> = None;
            for v in args.iter().filter(|v| !v.is_null()) {
                let better = match best {
                    None => true,
                    Some(b) => {
                        let ord = super::eval::compare(v, b).ok_or_else(|| no_such(func, args))?;
                        if func == Greatest {
                            ord.is_gt()
                        } else {
                            ord.is_lt()
                        }
                    }
                };
                if better {
                    best = Some(v);
                }
            }
            best.cloned().unwrap_or(Value::Null)
        }
    })
}

/// `pg_size_pretty(bytes)` as PostgreSQL 15 writes it: bytes below 10 kB,
/// then kB, MB, GB, TB, PB, each unit while under 20 480 of it, rounded half
/// away from zero.
pub fn size_pretty(bytes: i64) -> String {
    let half_rounded = |x: i64| (x + if x < 0 { -1 } else { 1 }) / 2;
    let limit = 10 * 1024i64;
    let limit2 = limit * 2 - 1;
    if bytes.abs() < limit {
        return format!("{bytes} bytes");
    }
    // Keep one extra bit for rounding.
    let mut size = bytes >> 9;
    for unit in ["kB", "MB", "GB", "TB"] {
        if size.abs() < limit2 {
            return format!("{} {unit}", half_rounded(size));
        }
        size >>= 10;
    }
    format!("{} PB", half_rounded(size))
}

/// `encode(bytes, format)` / `decode(text, format)`.
fn bytea_call(
    func: ScalarFunc,
    a: &Value,
    format: &Value,
    args: &[Value],
) -> Result<Value, SqlError> {
    use crate::value::bytea;
    let format = text(format, func, args)?;
    let failed = |m: String| SqlError::new(ErrorKind::Execution, m);
    match (func, a) {
        (ScalarFunc::Encode, Value::Bytea(b)) => {
            bytea::encode(b, format).map(Value::text).map_err(failed)
        }
        (ScalarFunc::Decode, Value::Text(s)) => bytea::decode(s, format)
            .map(|b| Value::Bytea(Box::new(b)))
            .map_err(failed),
        _ => Err(no_such(func, args)),
    }
}

/// `substr(bytes, from [, count])`: bytes, counted as [`substr`] counts characters.
fn bytea_substr(b: &[u8], rest: &[Value], args: &[Value]) -> Result<Value, SqlError> {
    let (skip, take) = substr_span(rest, args)?;
    let bytes = b.iter().skip(skip).take(take).copied().collect();
    Ok(Value::Bytea(Box::new(bytes)))
}

/// `substr(s, from [, count])`: characters from position `from` (1-based;
/// positions before 1 count against `count`), as PostgreSQL's text_substr.
fn substr(s: &str, rest: &[Value], args: &[Value]) -> Result<Value, SqlError> {
    let (skip, take) = substr_span(rest, args)?;
    Ok(Value::text(
        s.chars().skip(skip).take(take).collect::<String>(),
    ))
}

/// How many characters (or bytes) `substr`'s `from` and `count` skip and
/// keep: positions before 1 count against `count`, a negative count is an
/// error.
fn substr_span(rest: &[Value], args: &[Value]) -> Result<(usize, usize), SqlError> {
    let from = int(&rest[0], ScalarFunc::Substr, args)?;
    let start = from.max(1);
    let end = match rest.get(1) {
        None => i64::MAX,
        Some(c) => {
            let count = int(c, ScalarFunc::Substr, args)?;
            if count < 0 {
                return Err(SqlError::new(
                    ErrorKind::Execution,
                    "negative substring length not allowed",
                ));
            }
            from.saturating_add(count)
        }
    };
    if end <= start {
        return Ok((0, 0));
    }
    let skip = usize::try_from(start - 1).unwrap_or(usize::MAX);
    Ok((skip, usize::try_from(end - start).unwrap_or(usize::MAX)))
}

/// `lpad`/`rpad(s, length [, fill])`: cut to `length` characters, or filled
/// with `fill` (a space by default) on the left or right up to it.
fn pad(func: ScalarFunc, s: &str, rest: &[Value], args: &[Value]) -> Result<Value, SqlError> {
    let len = int(&rest[0], func, args)?.max(0) as usize;
    if len > 1 << 28 {
        return Err(SqlError::new(
            ErrorKind::Limit,
            "requested length too large",
        ));
    }
    let fill: Vec<char> = match rest.get(1) {
        Some(f) => text(f, func, args)?.chars().collect(),
        None => vec![' '],
    };
    let chars: Vec<char> = s.chars().collect();
    if chars.len() >= len || fill.is_empty() {
        return Ok(Value::text(chars.iter().take(len).collect::<String>()));
    }
    let padding: String = fill.iter().cycle().take(len - chars.len()).collect();
    Ok(Value::text(if func == ScalarFunc::Lpad {
        format!("{padding}{s}")
    } else {
        format!("{s}{padding}")
    }))
}

/// A value as `||` joins it: its text (booleans as `true`/`false`, as the
/// cast to text writes them).
pub fn concat_text(v: &Value) -> String {
    match v {
        Value::Bool(b) => if *b { "true" } else { "false" }.into(),
        other => other.pg_text(),
    }
}

/// SQL LIKE: `%` any run of characters, `_` one character, `\` escapes the
/// next; ILIKE folds ASCII case first (the C collation).
pub fn like(s: &str, pattern: &str, case_insensitive: bool) -> bool {
    let fold = |x: &str| {
        if case_insensitive {
            x.to_ascii_lowercase()
        } else {
            x.to_string()
        }
    };
    let s: Vec<char> = fold(s).chars().collect();
    let p: Vec<char> = fold(pattern).chars().collect();
    matches(&s, &p)
}

fn matches(s: &[char], p: &[char]) -> bool {
    // Iterative wildcard matching with backtracking to the last `%`.
    let (mut i, mut j) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while i < s.len() {
        if j < p.len() && p[j] == '%' {
            star = Some((j, i));
            j += 1;
            continue;
        }
        if j < p.len() {
            let (lit, width) = if p[j] == '\\' && j + 1 < p.len() {
                (Some(p[j + 1]), 2)
            } else if p[j] == '_' {
                (None, 1)
            } else {
                (Some(p[j]), 1)
            };
            if lit.is_none_or(|c| c == s[i]) {
                i += 1;
                j += width;
                continue;
            }
        }
        match star {
            Some((sj, si)) => {
                j = sj + 1;
                i = si + 1;
                star = Some((sj, si + 1));
            }
            None => return false,
        }
    }
    p[j..].iter().all(|c| *c == '%')
}

/// `pg_column_size(v)` with the executor's two arguments: the type's length
/// (-1 varlena, -2 an untyped literal, a cstring) and whether v is a
/// stored column. A stored varlena of up to 126 bytes has a 1-byte header, a
/// computed one always 4 (`VARHDRSZ`).
fn column_size(args: &[Value]) -> Result<Value, SqlError> {
    let (Some(v), Some(Value::Int(len)), Some(Value::Bool(stored))) =
        (args.first(), args.get(1), args.get(2))
    else {
        return Err(super::error::unsupported(
            "pg_column_size() of this expression",
        ));
    };
    let payload = match v {
        _ if *len >= 0 => return Ok(Value::Int(*len)),
        Value::Text(s) if *len == -2 => return Ok(Value::Int(s.len() as i64 + 1)),
        Value::Text(s) => s.len(),
        Value::Bytea(b) => b.len(),
        Value::Numeric(n) => n.payload_size(),
        Value::Json(s) => s.len(),
        Value::Jsonb(j) => j.datum_size() - 4,
        _ => return Err(super::error::unsupported("pg_column_size() of this value")),
    };
    // Past about 2 kB PostgreSQL compresses a stored value (pglz).
    if *stored && payload > 2000 {
        return Err(super::error::unsupported(
            "pg_column_size() of a stored value PostgreSQL may have compressed (over 2000 bytes)",
        ));
    }
    let header = if *stored && payload <= 126 { 1 } else { 4 };
    Ok(Value::Int((payload + header) as i64))
}

/// One `yb_hash_code` argument as the bytes YugabyteDB appends for its type.
fn yb_hash_key(v: &Value, ty: crate::partition_hash::KeyType) -> Result<Value, SqlError> {
    let mut bytes = Vec::new();
    if !crate::partition_hash::append_to_key(v, ty.sql_type(), &mut bytes) {
        return Err(unsupported(format!(
            "yb_hash_code() of this {} value",
            ty.sql_type().pg_name()
        )));
    }
    Ok(Value::Bytea(Box::new(bytes)))
}

/// `yb_hash_code(…)` of arguments already turned into their bytes.
fn yb_hash_code(args: &[Value]) -> Result<Value, SqlError> {
    let mut compound = Vec::new();
    for a in args {
        let Value::Bytea(bytes) = a else {
            return Err(unsupported(
                "yb_hash_code() outside a SELECT's select list, WHERE, GROUP BY, HAVING \
                 or ORDER BY (where IndexLab learns its arguments' types)",
            ));
        };
        compound.extend_from_slice(bytes);
    }
    Ok(Value::Int(i64::from(crate::partition_hash::compound_hash(
        &compound,
    ))))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(s: &str) -> Value {
        Value::text(s)
    }

    #[test]
    fn text_functions_as_postgresql() {
        assert_eq!(
            call(
                ScalarFunc::Substr,
                &[t("hello"), Value::Int(0), Value::Int(3)]
            )
            .unwrap(),
            t("he")
        );
        assert_eq!(
            call(ScalarFunc::Substr, &[t("hello"), Value::Int(2)]).unwrap(),
            t("ello")
        );
        assert_eq!(
            call(ScalarFunc::Lpad, &[t("7"), Value::Int(3), t("0")]).unwrap(),
            t("007")
        );
        assert_eq!(
            call(ScalarFunc::Lpad, &[t("hello"), Value::Int(2)]).unwrap(),
            t("he")
        );
        assert_eq!(
            call(ScalarFunc::Rpad, &[t("ab"), Value::Int(5), t("xy")]).unwrap(),
            t("abxyx")
        );
        assert_eq!(
            call(ScalarFunc::Md5, &[t("abc")]).unwrap(),
            t("900150983cd24fb0d6963f7d28e17f72")
        );
        assert_eq!(
            call(ScalarFunc::ToHex, &[Value::Int(1000)]).unwrap(),
            t("3e8")
        );
        assert_eq!(
            call(ScalarFunc::ToHex, &[Value::Int(-1)]).unwrap(),
            t("ffffffff")
        );
        assert_eq!(call(ScalarFunc::Upper, &[t("abé")]).unwrap(), t("ABé"));
        assert_eq!(call(ScalarFunc::Length, &[t("é1")]).unwrap(), Value::Int(2));
        assert_eq!(
            call(ScalarFunc::Lower, &[Value::Null]).unwrap(),
            Value::Null
        );
        assert_eq!(
            call(ScalarFunc::Round, &[Value::Float(2.5)]).unwrap(),
            Value::Float(2.0)
        );
        // floor(integer) is float8's floor, as PostgreSQL resolves it.
        assert_eq!(
            call(ScalarFunc::Floor, &[Value::Int(2)]).unwrap(),
            Value::Float(2.0)
        );
        assert_eq!(
            call(ScalarFunc::Coalesce, &[Value::Null, Value::Int(3)]).unwrap(),
            Value::Int(3)
        );
    }

    #[test]
    fn like_patterns() {
        assert!(like("abc", "a%", false));
        assert!(like("abc", "%c", false));
        assert!(like("abc", "_b_", false));
        assert!(!like("abc", "a_", false));
        assert!(like("ABC", "a%", true));
        assert!(like("a%c", "a\\%c", false));
        assert!(!like("abc", "a\\%c", false));
        assert!(like("", "%", false));
        assert!(like("aXbXc", "%b%c", false));
    }
}
