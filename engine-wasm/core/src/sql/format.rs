//! `format(template, args…)` (`text_format` in `utils/adt/varlena.c`):
//! `%s` an argument's text (NULL as nothing), `%I` it quoted as an
//! identifier when it needs to be, `%L` quoted as a literal (NULL as
//! `NULL`), `%%` a percent sign; each with an optional position (`%2$s`),
//! `-` flag and width (`%-10s`, `%*s`, `%*1$s`).

use super::error::{ErrorKind, SqlError};
use crate::value::Value;

fn error(message: &str) -> SqlError {
    SqlError::new(ErrorKind::Execution, message)
}

/// `format(template, args…)`; a NULL template gives NULL (the caller checks).
pub fn format(template: &str, args: &[Value]) -> Result<Value, SqlError> {
    let mut out = String::new();
    let mut chars = template.chars().peekable();
    let mut next_arg = 0usize;
    while let Some(c) = chars.next() {
        if c != '%' {
            out.push(c);
            continue;
        }
        if chars.peek() == Some(&'%') {
            chars.next();
            out.push('%');
            continue;
        }
        let spec = Spec::read(&mut chars)?;
        let width = match spec.width {
            Width::None => None,
            Width::Fixed(w) => Some(w),
            Width::Star(pos) => {
                let i = pos.unwrap_or_else(|| {
                    next_arg += 1;
                    next_arg
                });
                let v = args
                    .get(i - 1)
                    .ok_or_else(|| error("too few arguments for format()"))?;
                next_arg = i;
                match v {
                    Value::Null => None,
                    Value::Int(n) => Some(*n),
                    _ => return Err(error("width argument must be an integer")),
                }
            }
        };
        let i = spec.position.unwrap_or(next_arg + 1);
        let arg = args
            .get(i - 1)
            .ok_or_else(|| error("too few arguments for format()"))?;
        next_arg = i;
        let text = convert(spec.kind, arg)?;
        pad(&mut out, &text, width, spec.left);
    }
    Ok(Value::text(out))
}

enum Width {
    None,
    Fixed(i64),
    /// `*` or `*n$`: taken from an argument.
    Star(Option<usize>),
}

struct Spec {
    position: Option<usize>,
    left: bool,
    width: Width,
    kind: char,
}

impl Spec {
    fn read(chars: &mut std::iter::Peekable<std::str::Chars>) -> Result<Spec, SqlError> {
        let unterminated = || error("unterminated format() type specifier");
        let mut spec = Spec {
            position: None,
            left: false,
            width: Width::None,
            kind: ' ',
        };
        // `n$`: a position, or (without the `$`) a width.
        let number = digits(chars);
        if let Some(n) = number {
            if chars.peek() == Some(&'$') {
                chars.next();
                spec.position = Some(position(n)?);
            } else {
                spec.width = Width::Fixed(n);
            }
        }
        if matches!(spec.width, Width::None) {
            while chars.peek() == Some(&'-') {
                chars.next();
                spec.left = true;
            }
            if chars.peek() == Some(&'*') {
                chars.next();
                let at = digits(chars);
                let pos = match at {
                    Some(n) if chars.peek() == Some(&'$') => {
                        chars.next();
                        Some(position(n)?)
                    }
                    Some(_) => return Err(unterminated()),
                    None => None,
                };
                spec.width = Width::Star(pos);
            } else if let Some(n) = digits(chars) {
                spec.width = Width::Fixed(n);
            }
        }
        spec.kind = chars.next().ok_or_else(unterminated)?;
        if !matches!(spec.kind, 's' | 'I' | 'L') {
            return Err(error(&format!(
                "unrecognized format() type specifier \"{}\"",
                spec.kind
            ))
            .with_hint("For a single \"%\" use \"%%\"."));
        }
        Ok(spec)
    }
}

fn digits(chars: &mut std::iter::Peekable<std::str::Chars>) -> Option<i64> {
    let mut n: Option<i64> = None;
    while let Some(d) = chars.peek().and_then(|c| c.to_digit(10)) {
        chars.next();
        n = Some(
            n.unwrap_or(0)
                .saturating_mul(10)
                .saturating_add(i64::from(d)),
        );
    }
    n
}

fn position(n: i64) -> Result<usize, SqlError> {
    if n < 1 {
        return Err(error(
            "format specifies argument 0, but arguments are numbered from 1",
        ));
    }
    usize::try_from(n).map_err(|_| error("argument number is out of range"))
}

fn convert(kind: char, v: &Value) -> Result<String, SqlError> {
    Ok(match (kind, v) {
        ('s', Value::Null) => String::new(),
        ('s', v) => v.pg_text(),
        ('L', Value::Null) => "NULL".to_string(),
        ('L', v) => quote_literal(&v.pg_text()),
        ('I', Value::Null) => {
            return Err(error(
                "null values cannot be formatted as an SQL identifier",
            ))
        }
        (_, v) => quote_ident(&v.pg_text()),
    })
}

fn pad(out: &mut String, text: &str, width: Option<i64>, left: bool) {
    let Some(w) = width else {
        out.push_str(text);
        return;
    };
    // A negative width means left-aligned.
    let (left, w) = (left || w < 0, w.unsigned_abs() as usize);
    let fill = w.saturating_sub(text.chars().count());
    if left {
        out.push_str(text);
        out.extend(std::iter::repeat_n(' ', fill));
    } else {
        out.extend(std::iter::repeat_n(' ', fill));
        out.push_str(text);
    }
}

/// `quote_literal`: in single quotes, each doubled; with a backslash the
/// string is an `E'…'` one and backslashes are doubled too.
pub fn quote_literal(s: &str) -> String {
    let body = s.replace('\'', "''");
    if s.contains('\\') {
        format!("E'{}'", body.replace('\\', "\\\\"))
    } else {
        format!("'{body}'")
    }
}

/// `quote_ident`: as it is when it is a lower-case name that is not a
/// keyword PostgreSQL reserves in any position, else in double quotes.
pub fn quote_ident(s: &str) -> String {
    let plain = s
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_lowercase() || c == '_')
        && s.chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
    if plain && !NOT_UNRESERVED.contains(&s) {
        s.to_string()
    } else {
        format!("\"{}\"", s.replace('"', "\"\""))
    }
}

/// PostgreSQL 15's keywords that are not "unreserved" (reserved, column
/// name and type/function name keywords, `kwlist.h`): quote_ident quotes them.
const NOT_UNRESERVED: &[&str] = &[
    "all",
    "analyse",
    "analyze",
    "and",
    "any",
    "array",
    "as",
    "asc",
    "asymmetric",
    "authorization",
    "between",
    "bigint",
    "binary",
    "bit",
    "boolean",
    "both",
    "case",
    "cast",
    "char",
    "character",
    "check",
    "coalesce",
    "collate",
    "collation",
    "column",
    "concurrently",
    "constraint",
    "create",
    "cross",
    "current_catalog",
    "current_date",
    "current_role",
    "current_schema",
    "current_time",
    "current_timestamp",
    "current_user",
    "dec",
    "decimal",
    "default",
    "deferrable",
    "desc",
    "distinct",
    "do",
    "else",
    "end",
    "except",
    "exists",
    "extract",
    "false",
    "fetch",
    "float",
    "for",
    "foreign",
    "freeze",
    "from",
    "full",
    "grant",
    "greatest",
    "group",
    "grouping",
    "having",
    "ilike",
    "in",
    "initially",
    "inner",
    "inout",
    "int",
    "integer",
    "intersect",
    "interval",
    "into",
    "is",
    "isnull",
    "join",
    "lateral",
    "leading",
    "least",
    "left",
    "like",
    "limit",
    "localtime",
    "localtimestamp",
    "national",
    "natural",
    "nchar",
    "none",
    "normalize",
    "not",
    "notnull",
    "null",
    "nullif",
    "numeric",
    "offset",
    "on",
    "only",
    "or",
    "order",
    "out",
    "outer",
    "overlaps",
    "overlay",
    "placing",
    "position",
    "precision",
    "primary",
    "real",
    "references",
    "returning",
    "right",
    "row",
    "select",
    "session_user",
    "setof",
    "similar",
    "smallint",
    "some",
    "substring",
    "symmetric",
    "table",
    "tablesample",
    "then",
    "time",
    "timestamp",
    "to",
    "trailing",
    "treat",
    "trim",
    "true",
    "union",
    "unique",
    "user",
    "using",
    "values",
    "varchar",
    "variadic",
    "verbose",
    "when",
    "where",
    "window",
    "with",
    "xmlattributes",
    "xmlconcat",
    "xmlelement",
    "xmlexists",
    "xmlforest",
    "xmlnamespaces",
    "xmlparse",
    "xmlpi",
    "xmlroot",
    "xmlserialize",
    "xmltable",
];
