//! Showing a value as PostgreSQL's `SHOW` does: sizes and durations in the
//! largest unit that divides them exactly (`128MB`, `800us`), zero bare, booleans
//! as `on`/`off`.

use super::def::{Kind, Value, GB, KB, MB, MS, NS, SEC, US};

const SHOW_BYTES: &[(&str, u64)] = &[
    ("TB", 1024 * GB),
    ("GB", GB),
    ("MB", MB),
    ("kB", KB),
    ("B", 1),
];

const SHOW_TIME: &[(&str, u64)] = &[
    ("d", 86_400 * SEC),
    ("h", 3600 * SEC),
    ("min", 60 * SEC),
    ("s", SEC),
    ("ms", MS),
    ("us", US),
    ("ns", NS),
];

pub fn show(value: &Value) -> String {
    match *value {
        Value::Int(n) => n.to_string(),
        Value::Bytes(b) => in_largest_unit(b, SHOW_BYTES),
        Value::Float(f) => show_float(f),
        Value::Bool(b) => if b { "on" } else { "off" }.to_string(),
        Value::Enum(e) => e.to_string(),
        Value::Duration {
            preset: Some(name), ..
        } => name.to_string(),
        Value::Duration {
            nanos,
            preset: None,
        } => in_largest_unit(nanos, SHOW_TIME),
    }
}

/// The accepted range of a numeric kind, shown like values (for error messages
/// and the UI); empty for kinds without a range.
pub fn bounds(kind: &Kind) -> (String, String) {
    match *kind {
        Kind::Int { min, max, .. } => (min.to_string(), max.to_string()),
        Kind::Bytes { min, max, .. } => (
            in_largest_unit(min, SHOW_BYTES),
            in_largest_unit(max, SHOW_BYTES),
        ),
        Kind::Float { min, max, .. } => (show_float(min), show_float(max)),
        Kind::Duration { min, max, .. } => (
            in_largest_unit(min, SHOW_TIME),
            in_largest_unit(max, SHOW_TIME),
        ),
        Kind::Bool { .. } | Kind::Enum { .. } => (String::new(), String::new()),
    }
}

fn in_largest_unit(amount: u64, units: &[(&str, u64)]) -> String {
    if amount == 0 {
        return "0".to_string();
    }
    units
        .iter()
        .find(|(_, size)| amount.checked_rem(*size) == Some(0))
        .map_or_else(
            || amount.to_string(),
            |(unit, size)| format!("{}{unit}", amount / size),
        )
}

/// Like C's `%g` for the values settings hold: no trailing `.0`.
fn show_float(f: f64) -> String {
    format!("{f}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_in_the_largest_exact_unit() {
        assert_eq!(show(&Value::Bytes(128 * MB)), "128MB");
        assert_eq!(show(&Value::Bytes(16 * 8 * KB)), "128kB");
        assert_eq!(show(&Value::Bytes(1536)), "1536B");
        assert_eq!(show(&Value::Bytes(1536 * KB)), "1536kB");
        assert_eq!(show(&Value::Bytes(2048 * GB)), "2TB");
        assert_eq!(show(&Value::Bytes(0)), "0");
    }

    #[test]
    fn durations_in_the_largest_exact_unit() {
        let d = |nanos| Value::Duration {
            nanos,
            preset: None,
        };
        assert_eq!(show(&d(800 * US)), "800us");
        assert_eq!(show(&d(90 * MS)), "90ms");
        assert_eq!(show(&d(2 * SEC)), "2s");
        assert_eq!(show(&d(120 * SEC)), "2min");
        assert_eq!(show(&d(200)), "200ns");
        assert_eq!(show(&d(0)), "0");
        let preset = Value::Duration {
            nanos: 800 * US,
            preset: Some("multi-az"),
        };
        assert_eq!(show(&preset), "multi-az");
    }

    #[test]
    fn other_values() {
        assert_eq!(show(&Value::Int(1024)), "1024");
        assert_eq!(show(&Value::Bool(true)), "on");
        assert_eq!(show(&Value::Bool(false)), "off");
        assert_eq!(show(&Value::Float(10.0)), "10");
        assert_eq!(show(&Value::Float(1.5)), "1.5");
        assert_eq!(show(&Value::Enum("lru")), "lru");
    }
}
