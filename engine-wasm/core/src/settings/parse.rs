//! Reading a setting's value from text, as PostgreSQL's `SET` reads it.
//!
//! Numbers may be fractional and are rounded to the setting's unit (PostgreSQL
//! 12+ does the same, rounding half to even like `rint`). Sizes and durations take
//! a unit, with or without a space (`128MB`, `8 kB`); a bare number counts in the
//! setting's base unit. We are more lenient than PostgreSQL on one point: units are
//! case-insensitive, because the articles write `32KB` and `64KB`.

use super::def::{Check, Kind, SettingDef, Value, GB, KB, MB, MS, NS, SEC, US};
use super::error::SettingError;
use super::format;

const BYTE_UNITS: &[(&str, u64)] = &[
    ("b", 1),
    ("kb", KB),
    ("kib", KB),
    ("mb", MB),
    ("mib", MB),
    ("gb", GB),
    ("gib", GB),
    ("tb", 1024 * GB),
    ("tib", 1024 * GB),
];

const TIME_UNITS: &[(&str, u64)] = &[
    ("ns", NS),
    ("us", US),
    ("ms", MS),
    ("s", SEC),
    ("min", 60 * SEC),
    ("h", 3600 * SEC),
    ("d", 86_400 * SEC),
];

const BYTE_HINT: &str =
    "Valid units for this parameter are \"B\", \"kB\", \"MB\", \"GB\", and \"TB\".";
const TIME_HINT: &str =
    "Valid units for this parameter are \"ns\", \"us\", \"ms\", \"s\", \"min\", \"h\", and \"d\".";

/// Parses `text` (possibly quoted) as a value of `def`.
pub fn parse_value(def: &'static SettingDef, text: &str) -> Result<Value, SettingError> {
    let raw = unquote(text.trim());
    let raw = raw.trim();
    let value = match def.kind {
        Kind::Int { min, max, .. } => parse_int(def, raw, min, max)?,
        Kind::Bytes { min, max, base, .. } => parse_bytes(def, raw, min, max, base)?,
        Kind::Float { min, max, .. } => parse_float(def, raw, min, max)?,
        Kind::Bool { .. } => Value::Bool(parse_bool(raw).ok_or_else(|| {
            invalid(
                def,
                raw,
                Some("Boolean values are on, off, true, false, yes, no, 1 and 0."),
            )
        })?),
        Kind::Enum { values, .. } => parse_enum(def, raw, values)?,
        Kind::Duration { .. } => parse_duration(def, raw)?,
    };
    check_rule(def, raw, &value)?;
    Ok(value)
}

/// Strips one level of `'…'` (with `''` for a quote) or `"…"`, as `SET` accepts
/// a string literal or a quoted identifier as the value.
pub fn unquote(text: &str) -> String {
    for q in ['\'', '"'] {
        if text.len() >= 2 && text.starts_with(q) && text.ends_with(q) {
            let doubled: String = [q, q].iter().collect();
            return text[1..text.len() - 1].replace(&doubled, &q.to_string());
        }
    }
    text.to_string()
}

/// PostgreSQL's `parse_bool`: words and their unique prefixes, any case.
pub fn parse_bool(text: &str) -> Option<bool> {
    let t = text.to_ascii_lowercase();
    let prefix_of = |word: &str, min: usize| t.len() >= min && word.starts_with(&t);
    if prefix_of("true", 1) || prefix_of("yes", 1) || prefix_of("on", 2) || t == "1" {
        Some(true)
    } else if prefix_of("false", 1) || prefix_of("no", 1) || prefix_of("off", 2) || t == "0" {
        Some(false)
    } else {
        None
    }
}

/// Splits `12.5 MB` into the number's text and the unit (`""` if none).
fn split_number(text: &str) -> Option<(&str, &str)> {
    let s = text.as_bytes();
    let mut i = usize::from(matches!(s.first(), Some(b'+' | b'-')));
    let digits = |mut i: usize| {
        while i < s.len() && s[i].is_ascii_digit() {
            i += 1;
        }
        i
    };
    let int_end = digits(i);
    let mut end = int_end;
    if s.get(end) == Some(&b'.') {
        end = digits(end + 1);
    }
    if end == i || (end == int_end + 1 && int_end == i) {
        return None; // no digit at all ("", "-", ".")
    }
    if matches!(s.get(end), Some(b'e' | b'E')) {
        let mut j = end + 1;
        j += usize::from(matches!(s.get(j), Some(b'+' | b'-')));
        if digits(j) > j {
            end = digits(j);
        }
    }
    i = end;
    Some((&text[..i], text[i..].trim_start()))
}

/// A number with a unit from `units` (or none: then `base`), in the unit's
/// canonical measure.
fn measure(text: &str, units: &[(&str, u64)], base: u64) -> Option<f64> {
    let (number, unit) = split_number(text)?;
    let number: f64 = number.parse().ok()?;
    let factor = if unit.is_empty() {
        base
    } else {
        units.iter().find(|u| u.0.eq_ignore_ascii_case(unit))?.1
    };
    Some(number * factor as f64)
}

fn parse_int(
    def: &'static SettingDef,
    raw: &str,
    min: i64,
    max: i64,
) -> Result<Value, SettingError> {
    let (number, unit) = split_number(raw).ok_or_else(|| invalid(def, raw, None))?;
    if !unit.is_empty() {
        return Err(invalid(def, raw, None));
    }
    // Exact for integers beyond 2^53 (seeds); fractions go through f64 and rint.
    let value = match number.parse::<i64>() {
        Ok(v) => v as f64,
        Err(_) => number
            .parse::<f64>()
            .map_err(|_| invalid(def, raw, None))?
            .round_ties_even(),
    };
    if !(min as f64..=max as f64).contains(&value) {
        return Err(out_of_range(def, raw));
    }
    Ok(Value::Int(number.parse::<i64>().unwrap_or(value as i64)))
}

fn parse_bytes(
    def: &'static SettingDef,
    raw: &str,
    min: u64,
    max: u64,
    base: u64,
) -> Result<Value, SettingError> {
    let bytes = measure(raw, BYTE_UNITS, base).ok_or_else(|| invalid(def, raw, Some(BYTE_HINT)))?;
    // Kept in whole base units, as PostgreSQL stores it.
    let bytes = (bytes / base as f64).round_ties_even() * base as f64;
    if !(min as f64..=max as f64).contains(&bytes) {
        return Err(out_of_range(def, raw));
    }
    Ok(Value::Bytes(bytes as u64))
}

fn parse_float(
    def: &'static SettingDef,
    raw: &str,
    min: f64,
    max: f64,
) -> Result<Value, SettingError> {
    let value = match split_number(raw) {
        Some((number, "")) => number.parse::<f64>().ok(),
        _ => None,
    }
    .ok_or_else(|| invalid(def, raw, None))?;
    if !(min..=max).contains(&value) {
        return Err(out_of_range(def, raw));
    }
    Ok(Value::Float(value))
}

fn parse_enum(
    def: &'static SettingDef,
    raw: &str,
    values: &'static [&'static str],
) -> Result<Value, SettingError> {
    values
        .iter()
        .find(|v| v.eq_ignore_ascii_case(raw))
        .map(|v| Value::Enum(v))
        .ok_or_else(|| {
            invalid(
                def,
                raw,
                Some(&format!("Available values: {}.", values.join(", "))),
            )
        })
}

fn parse_duration(def: &'static SettingDef, raw: &str) -> Result<Value, SettingError> {
    let Kind::Duration {
        min,
        max,
        base,
        presets,
        ..
    } = def.kind
    else {
        return Err(invalid(def, raw, None));
    };
    if let Some(&(name, nanos)) = presets.iter().find(|p| p.0.eq_ignore_ascii_case(raw)) {
        return Ok(Value::Duration {
            nanos,
            preset: Some(name),
        });
    }
    let hint = if presets.is_empty() {
        TIME_HINT.to_string()
    } else {
        let names: Vec<&str> = presets.iter().map(|p| p.0).collect();
        format!(
            "Use {}, or a duration such as 5ms (a bare number counts milliseconds).",
            names.join(", ")
        )
    };
    let nanos = measure(raw, TIME_UNITS, base)
        .ok_or_else(|| invalid(def, raw, Some(&hint)))?
        .round();
    if !(min as f64..=max as f64).contains(&nanos) {
        return Err(out_of_range(def, raw));
    }
    Ok(Value::Duration {
        nanos: nanos as u64,
        preset: None,
    })
}

fn check_rule(def: &'static SettingDef, raw: &str, value: &Value) -> Result<(), SettingError> {
    let broken = match (def.check, value) {
        (Check::PowerOfTwo, Value::Bytes(b)) => {
            (!b.is_power_of_two()).then_some("it must be a power of two")
        }
        (Check::Odd, Value::Int(n)) => {
            (n % 2 == 0).then_some("it must be odd, so that a majority of replicas exists")
        }
        _ => None,
    };
    match broken {
        Some(rule) => Err(SettingError::Rule {
            name: def.name,
            value: raw.to_string(),
            rule,
        }),
        None => Ok(()),
    }
}

fn invalid(def: &'static SettingDef, raw: &str, hint: Option<&str>) -> SettingError {
    SettingError::Invalid {
        name: def.name,
        value: raw.to_string(),
        hint: hint.map(str::to_string),
    }
}

fn out_of_range(def: &'static SettingDef, raw: &str) -> SettingError {
    let (min, max) = format::bounds(&def.kind);
    SettingError::OutOfRange {
        name: def.name,
        value: raw.to_string(),
        min,
        max,
        note: def.range_note,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_and_units_split() {
        assert_eq!(split_number("128MB"), Some(("128", "MB")));
        assert_eq!(split_number("8 kB"), Some(("8", "kB")));
        assert_eq!(split_number("-1.5e3x"), Some(("-1.5e3", "x")));
        assert_eq!(split_number("1e"), Some(("1", "e")));
        assert_eq!(split_number(".5"), Some((".5", "")));
        assert_eq!(split_number("5."), Some(("5.", "")));
        for bad in ["", "-", ".", "MB", "e5"] {
            assert_eq!(split_number(bad), None, "{bad}");
        }
    }

    #[test]
    fn booleans_as_postgres_reads_them() {
        for t in ["on", "ON", "true", "t", "tr", "yes", "y", "1"] {
            assert_eq!(parse_bool(t), Some(true), "{t}");
        }
        for f in ["off", "of", "false", "F", "no", "n", "0"] {
            assert_eq!(parse_bool(f), Some(false), "{f}");
        }
        for bad in ["o", "", "2", "onn", "nope"] {
            assert_eq!(parse_bool(bad), None, "{bad}");
        }
    }

    #[test]
    fn unquoting() {
        assert_eq!(unquote("'128MB'"), "128MB");
        assert_eq!(unquote("\"lru\""), "lru");
        assert_eq!(unquote("'it''s'"), "it's");
        assert_eq!(unquote("'"), "'");
        assert_eq!(unquote("on"), "on");
    }
}
