//! `to_char(value, format)`: a date/time or a number written by a template,
//! as PostgreSQL's `utils/adt/formatting.c` writes it. Date/time templates
//! are here (`YYYY-MM-DD HH24:MI:SS`, `Dy DD Mon`, `FMMonth`, `DDDth`…);
//! number templates in `formatting/number.rs` (`FM999,999.00`).
//! IndexLab's session zone is UTC, so `TZ` is `UTC` and `OF` is `+00`.

mod number;

use super::error::{unsupported, SqlError};
use crate::value::date::{days_from_ymd, iso_weekday, ymd_from_days, US_PER_DAY};
use crate::value::timestamp::fields;
use crate::value::Value;

/// `to_char(value, format)`.
pub fn to_char(value: &Value, format: &str) -> Result<Value, SqlError> {
    let text = match value {
        Value::Timestamp(us) => datetime(*us, format, true)?,
        Value::LocalTimestamp(us) => datetime(*us, format, false)?,
        // A date meets to_char as a timestamptz at midnight (the preferred cast).
        Value::Date(d) => datetime(i64::from(*d) * US_PER_DAY, format, true)?,
        Value::Int(_) | Value::Numeric(_) | Value::Float(_) | Value::Real(_) => {
            number::format(value, format)?
        }
        Value::Interval(_) => return Err(unsupported("to_char() of an interval")),
        other => {
            return Err(super::functions::no_such(
                super::functions::ScalarFunc::ToChar,
                &[other.clone(), Value::text(format)],
            ))
        }
    };
    Ok(Value::text(text))
}

const MONTHS: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];
const DAYS: [&str; 7] = [
    "Sunday",
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
];
const ROMAN: [&str; 12] = [
    "I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII",
];

/// The template's keywords, longest first where one begins another, as
/// PostgreSQL's `DCH_keywords` orders them for matching.
const KEYWORDS: [&str; 52] = [
    "A.D.", "A.M.", "AD", "AM", "B.C.", "BC", "CC", "DAY", "DDD", "DD", "DY", "Day", "Dy", "D",
    "FF1", "FF2", "FF3", "FF4", "FF5", "FF6", "HH24", "HH12", "HH", "IDDD", "ID", "IW", "IYYY",
    "IYY", "IY", "I", "J", "MI", "MM", "MONTH", "MON", "MS", "Month", "Mon", "OF", "P.M.", "PM",
    "Q", "RM", "SSSSS", "SSSS", "SS", "TZH", "TZM", "TZ", "US", "WW", "W",
];
const YEAR_KEYWORDS: [&str; 5] = ["Y,YYY", "YYYY", "YYY", "YY", "Y"];

/// The keyword at the start of `s`: its canonical (upper or mixed case)
/// spelling and the case it was written in.
fn keyword(s: &str) -> Option<(&'static str, Case)> {
    for k in KEYWORDS.iter().chain(YEAR_KEYWORDS.iter()) {
        if s.starts_with(k) {
            let case = if k.chars().any(|c| c.is_ascii_lowercase()) {
                Case::Capitalized
            } else {
                Case::Upper
            };
            return Some((k, case));
        }
        // Every keyword also has an all-lower-case form (`hh24`, `month`, `dy`).
        let lower = k.to_ascii_lowercase();
        if s.starts_with(&lower) && !matches!(*k, "Day" | "Dy" | "Month" | "Mon") {
            return Some((k, Case::Lower));
        }
    }
    None
}

#[derive(Clone, Copy, PartialEq)]
enum Case {
    Upper,
    Capitalized,
    Lower,
}

fn cased(word: &str, case: Case) -> String {
    match case {
        Case::Upper => word.to_ascii_uppercase(),
        Case::Lower => word.to_ascii_lowercase(),
        Case::Capitalized => word.to_string(),
    }
}

/// The calendar of one instant, as the keywords read it.
struct Moment {
    year: i64,
    month: u32,
    day: u32,
    days: i64,
    hour: i64,
    minute: i64,
    second: i64,
    micros: i64,
    with_zone: bool,
}

fn datetime(us: i64, format: &str, with_zone: bool) -> Result<String, SqlError> {
    let f = fields(us);
    let m = Moment {
        year: f.year,
        month: f.month,
        day: f.day,
        days: f.days,
        hour: f.time / 3_600_000_000,
        minute: f.time / 60_000_000 % 60,
        second: f.time / 1_000_000 % 60,
        micros: f.time % 1_000_000,
        with_zone,
    };
    let mut out = String::new();
    let mut rest = format;
    let mut fill_mode = false;
    let mut translated = false;
    while !rest.is_empty() {
        if let Some(r) = rest.strip_prefix("FM").or_else(|| rest.strip_prefix("fm")) {
            fill_mode = true;
            rest = r;
            continue;
        }
        if let Some(r) = rest.strip_prefix("FX").or_else(|| rest.strip_prefix("fx")) {
            rest = r;
            continue;
        }
        if let Some(r) = rest.strip_prefix("TM").or_else(|| rest.strip_prefix("tm")) {
            // Translation mode: the C locale's names are the English ones,
            // written without padding.
            translated = true;
            rest = r;
            continue;
        }
        if let Some((k, case)) = keyword(rest) {
            rest = &rest[k.len()..];
            let unpadded_name = translated
                && matches!(
                    k,
                    "MONTH" | "Month" | "MON" | "Mon" | "DAY" | "Day" | "DY" | "Dy"
                );
            let (text, numeric) = field(&m, k, case, fill_mode || unpadded_name);
            out.push_str(&text);
            if let Some(n) = numeric {
                rest = ordinal_suffix(rest, n, &mut out);
            }
            fill_mode = false;
            translated = false;
            continue;
        }
        rest = literal(rest, &mut out);
    }
    Ok(out)
}

/// A `TH` or `th` after a number: its English ordinal suffix.
fn ordinal_suffix<'a>(rest: &'a str, n: i64, out: &mut String) -> &'a str {
    let upper = rest.starts_with("TH");
    if !upper && !rest.starts_with("th") {
        return rest;
    }
    out.push_str(&ordinal(n, upper));
    &rest[2..]
}

/// The English ordinal suffix of `n` (`get_th`): st, nd, rd or th.
fn ordinal(n: i64, upper: bool) -> String {
    let suffix = match (n % 100, n % 10) {
        (11..=13, _) => "th",
        (_, 1) => "st",
        (_, 2) => "nd",
        (_, 3) => "rd",
        _ => "th",
    };
    if upper {
        suffix.to_ascii_uppercase()
    } else {
        suffix.to_string()
    }
}

/// Text that is not a keyword: a double-quoted string is copied without
/// its quotes, a backslash escapes the next character, anything else is
/// copied as it is.
fn literal<'a>(rest: &'a str, out: &mut String) -> &'a str {
    let mut chars = rest.chars();
    match chars.next() {
        Some('"') => {
            let mut escaped = false;
            for (i, c) in rest.char_indices().skip(1) {
                match c {
                    '\\' if !escaped => escaped = true,
                    '"' if !escaped => return &rest[i + 1..],
                    c => {
                        out.push(c);
                        escaped = false;
                    }
                }
            }
            ""
        }
        Some('\\') if rest[1..].starts_with('"') => {
            out.push('"');
            &rest[2..]
        }
        Some(c) => {
            out.push(c);
            chars.as_str()
        }
        None => "",
    }
}

/// A zero-padded number, or unpadded in fill mode.
fn padded(n: i64, width: usize, fill_mode: bool) -> String {
    if fill_mode {
        n.to_string()
    } else if n < 0 {
        format!("-{:0width$}", -n, width = width.saturating_sub(1))
    } else {
        format!("{n:0width$}")
    }
}

/// One keyword's text, and the number it printed (for a `TH` suffix).
fn field(m: &Moment, k: &str, case: Case, fm: bool) -> (String, Option<i64>) {
    let num = |n: i64, width: usize| (padded(n, width, fm), Some(n));
    let word = |w: &str, width: usize| {
        let w = cased(w, case);
        let text = if fm { w } else { format!("{w:<width$}") };
        (text, None)
    };
    // Years before 1 print as positive numbers (1 BC is year 0 inside).
    let year = if m.year <= 0 { 1 - m.year } else { m.year };
    let pm = m.hour >= 12;
    let doy = m.days - days_from_ymd(m.year, 1, 1) + 1;
    let (iso_week, iso_year) = iso_week(m.days);
    match k {
        "HH24" => num(m.hour, 2),
        "HH" | "HH12" => num(if m.hour % 12 == 0 { 12 } else { m.hour % 12 }, 2),
        "MI" => num(m.minute, 2),
        "SS" => num(m.second, 2),
        "MS" => num(m.micros / 1000, 3),
        "US" => num(m.micros, 6),
        "FF1" | "FF2" | "FF3" | "FF4" | "FF5" | "FF6" => {
            let digits = usize::from(k.as_bytes()[2] - b'0');
            let n = m.micros / 10i64.pow(6 - digits as u32);
            (format!("{n:0digits$}"), Some(n))
        }
        "SSSS" | "SSSSS" => {
            let n = m.hour * 3600 + m.minute * 60 + m.second;
            (n.to_string(), Some(n))
        }
        "AM" | "PM" => (cased(if pm { "PM" } else { "AM" }, case), None),
        "A.M." | "P.M." => (cased(if pm { "P.M." } else { "A.M." }, case), None),
        "AD" | "BC" => (cased(if m.year <= 0 { "BC" } else { "AD" }, case), None),
        "A.D." | "B.C." => (cased(if m.year <= 0 { "B.C." } else { "A.D." }, case), None),
        "YYYY" => num(year, 4),
        "YYY" => num(year % 1000, 3),
        "YY" => num(year % 100, 2),
        "Y" => num(year % 10, 1),
        "Y,YYY" => (format!("{},{:03}", year / 1000, year % 1000), Some(year)),
        "IYYY" => num(iso_year, 4),
        "IYY" => num(iso_year % 1000, 3),
        "IY" => num(iso_year % 100, 2),
        "I" => num(iso_year % 10, 1),
        "MM" => num(i64::from(m.month), 2),
        "MONTH" | "Month" => word(MONTHS[m.month as usize - 1], 9),
        "MON" | "Mon" => word(&MONTHS[m.month as usize - 1][..3], 3),
        "RM" => word(ROMAN[m.month as usize - 1], 4),
        "DD" => num(i64::from(m.day), 2),
        "DDD" => num(doy, 3),
        "IDDD" => num((iso_week - 1) * 7 + iso_weekday(m.days), 3),
        "D" => num(iso_weekday(m.days) % 7 + 1, 1),
        "ID" => num(iso_weekday(m.days), 1),
        "DAY" | "Day" => word(DAYS[(iso_weekday(m.days) % 7) as usize], 9),
        "DY" | "Dy" => word(&DAYS[(iso_weekday(m.days) % 7) as usize][..3], 3),
        "WW" => num((doy - 1) / 7 + 1, 2),
        "IW" => num(iso_week, 2),
        "W" => num((i64::from(m.day) - 1) / 7 + 1, 1),
        "Q" => num(i64::from((m.month - 1) / 3 + 1), 1),
        "CC" => {
            let cc = if m.year > 0 {
                (m.year + 99) / 100
            } else {
                -((99 - (m.year - 1)) / 100)
            };
            num(cc, 2)
        }
        // Julian day: days since 4714-11-24 BC.
        "J" => {
            let j = m.days + 2_451_545;
            (j.to_string(), Some(j))
        }
        "TZ" => (cased(if m.with_zone { "UTC" } else { "" }, case), None),
        // The offset is the session zone's, UTC, for either type (only the
        // zone's name is missing from a timestamp without one).
        "OF" | "TZH" => ("+00".to_string(), None),
        "TZM" => ("00".to_string(), None),
        _ => (String::new(), None),
    }
}

/// ISO 8601 week and week-numbering year: week 1 holds the first Thursday.
fn iso_week(days: i64) -> (i64, i64) {
    let thursday = days - iso_weekday(days) + 4;
    let (iso_year, _, _) = ymd_from_days(thursday);
    ((thursday - days_from_ymd(iso_year, 1, 1)) / 7 + 1, iso_year)
}
