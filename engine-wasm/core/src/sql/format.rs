//! `format(template, args…)` (`text_format` in `utils/adt/varlena.c`):
//! `%s` an argument's text (NULL as nothing), `%I` it quoted as an
//! identifier when it needs to be, `%L` quoted as a literal (NULL as
//! `NULL`), `%%` a percent sign; each with an optional position (`%2$s`),
//! `-` flag and width (`%-10s`, `%*s`, `%*1$s`).

use super::error::{ErrorKind, SqlError};
use super::quote::{quote_ident, quote_literal};
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
