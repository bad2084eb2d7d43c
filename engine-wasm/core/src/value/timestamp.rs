//! `timestamp` (without time zone) and what it shares with `timestamptz`:
//! microseconds since 2000-01-01 00:00, input (`DecodeDateTime` for the ISO
//! forms), output with DateStyle ISO (`EncodeDateTime`), and the calendar
//! arithmetic of timestamp.c (`timestamp_pl_interval`, `timestamp_trunc`,
//! `timestamp_part`). IndexLab's session zone is UTC, so a timestamptz is the
//! same count of microseconds as the timestamp it prints as.

use super::date::{
    days_from_ymd, days_in_month, display_year, iso_weekday, ymd_from_days, US_PER_DAY,
};
use super::interval::{format_seconds, Interval};

/// PostgreSQL's range: 4714-11-24 00:00 BC up to (not including) 294277-01-01.
const MIN_TIMESTAMP: i64 = -211_813_488_000_000_000;
const END_TIMESTAMP: i64 = 9_223_371_331_200_000_000;

pub fn is_valid_timestamp(us: i64) -> bool {
    (MIN_TIMESTAMP..END_TIMESTAMP).contains(&us)
}

/// A timestamp's calendar fields (`timestamp2tm`; year 0 is 1 BC).
#[derive(Debug, Clone, Copy)]
pub struct Fields {
    pub days: i64,
    pub year: i64,
    pub month: u32,
    pub day: u32,
    /// Microseconds since midnight.
    pub time: i64,
}

pub fn fields(us: i64) -> Fields {
    let days = us.div_euclid(US_PER_DAY);
    let (year, month, day) = ymd_from_days(days);
    Fields {
        days,
        year,
        month,
        day,
        time: us.rem_euclid(US_PER_DAY),
    }
}

/// `YYYY-MM-DD HH:MM:SS[.ffffff]`, then ` BC` for a year before 1; a
/// timestamptz puts its zone (`+00`) before the era.
pub fn format_timestamp(us: i64, zone: &str) -> String {
    let f = fields(us);
    let (year, bc) = display_year(f.year);
    let secs = f.time / 1_000_000;
    format!(
        "{year:04}-{:02}-{:02} {:02}:{:02}:{}{zone}{bc}",
        f.month,
        f.day,
        secs / 3600,
        secs / 60 % 60,
        format_seconds((f.time % 60_000_000) as u64)
    )
}

/// Why a date or timestamp's text was not read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DateTimeError {
    /// `invalid input syntax for type …`
    Syntax,
    /// `date/time field value out of range: "…"`
    FieldRange,
    /// A form PostgreSQL reads that IndexLab does not (other DateStyles,
    /// month names, zone names, `today`, `infinity`).
    Unsupported,
}

/// What an ISO date/time text says: the local date and time, and the zone
/// offset it names (which a timestamp without time zone ignores).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DateTimeInput {
    pub local_us: i64,
    pub offset_us: i64,
}

/// Reads `YYYY-MM-DD[( |T)HH:MM[:SS[.ffffff]]][zone][ BC]`, and `epoch`.
pub fn parse_datetime(text: &str) -> Result<DateTimeInput, DateTimeError> {
    let t = text.trim().to_ascii_lowercase();
    if t == "epoch" {
        return Ok(DateTimeInput {
            local_us: -10_957 * US_PER_DAY,
            offset_us: 0,
        });
    }
    if !t.contains(|c: char| c.is_ascii_digit()) {
        let special = [
            "now",
            "today",
            "tomorrow",
            "yesterday",
            "infinity",
            "-infinity",
            "allballs",
        ];
        return Err(if special.contains(&t.as_str()) {
            DateTimeError::Unsupported
        } else {
            DateTimeError::Syntax
        });
    }
    let (t, bc) = match t.strip_suffix(" bc") {
        Some(rest) => (rest.trim_end().to_string(), true),
        None => (
            t.strip_suffix(" ad").unwrap_or(&t).trim_end().to_string(),
            false,
        ),
    };
    let (date, rest) = t.split_at(t.find([' ', 't']).unwrap_or(t.len()));
    let (y, m, d) = iso_date(date)?;
    let y = if bc { 1 - y } else { y };
    if !(1..=12).contains(&m) || d < 1 || d > days_in_month(y, m) {
        return Err(DateTimeError::FieldRange);
    }
    let rest = rest.trim_start_matches([' ', 't']);
    let zone_at = rest.find(['+', '-', 'z', 'u', 'g']).unwrap_or(rest.len());
    let (time, zone) = rest.split_at(zone_at);
    let time_us = match time.trim() {
        "" => 0,
        time => parse_clock(time)?,
    };
    let offset_us = parse_zone(zone.trim())?;
    Ok(DateTimeInput {
        local_us: days_from_ymd(y, m, d) * US_PER_DAY + time_us,
        offset_us,
    })
}

/// `YYYY-MM-DD`; a date in any other form (`1/8/1999`, `Jan 8 1999`,
/// `19990108`) is one PostgreSQL reads by DateStyle rules IndexLab lacks.
fn iso_date(date: &str) -> Result<(i64, u32, u32), DateTimeError> {
    let parts: Vec<&str> = date.split('-').collect();
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if parts.len() != 3 || !parts.iter().all(|p| digits(p)) {
        let looks_iso = parts.len() > 1 && digits(parts[0]);
        return Err(if looks_iso {
            DateTimeError::Syntax
        } else {
            DateTimeError::Unsupported
        });
    }
    let y: i64 = parts[0].parse().map_err(|_| DateTimeError::FieldRange)?;
    let m: u32 = parts[1].parse().map_err(|_| DateTimeError::FieldRange)?;
    let d: u32 = parts[2].parse().map_err(|_| DateTimeError::FieldRange)?;
    if parts[0].len() > 7 || y == 0 {
        return Err(DateTimeError::FieldRange);
    }
    Ok((y, m, d))
}

/// `HH:MM[:SS[.ffffff]]` as microseconds since midnight (24:00:00 allowed).
fn parse_clock(time: &str) -> Result<i64, DateTimeError> {
    let parts: Vec<&str> = time.split(':').collect();
    if !(2..=3).contains(&parts.len()) {
        return Err(DateTimeError::Syntax);
    }
    let int = |s: &str| s.parse::<i64>().map_err(|_| DateTimeError::Syntax);
    let (h, mi) = (int(parts[0])?, int(parts[1])?);
    let sec: f64 = match parts.get(2) {
        Some(s) if s.bytes().all(|b| b.is_ascii_digit() || b == b'.') && !s.is_empty() => {
            s.parse().map_err(|_| DateTimeError::Syntax)?
        }
        Some(_) => return Err(DateTimeError::Syntax),
        None => 0.0,
    };
    let us = (h * 3600 + mi * 60) * 1_000_000 + (sec * 1e6).round() as i64;
    if h < 0 || mi > 59 || sec >= 60.0 || us > US_PER_DAY {
        return Err(DateTimeError::FieldRange);
    }
    Ok(us)
}

/// `Z`, `UTC`, `GMT`, `+HH`, `-HH:MM`, `+HHMM` as an offset east of UTC.
fn parse_zone(zone: &str) -> Result<i64, DateTimeError> {
    if matches!(zone, "" | "z" | "utc" | "gmt") {
        return Ok(0);
    }
    let (sign, body) = match zone.as_bytes().first() {
        Some(b'+') => (1, &zone[1..]),
        Some(b'-') => (-1, &zone[1..]),
        _ if zone
            .bytes()
            .all(|b| b.is_ascii_alphabetic() || b == b'/' || b == b'_') =>
        {
            return Err(DateTimeError::Unsupported)
        }
        _ => return Err(DateTimeError::Syntax),
    };
    let (h, m) = match body.split_once(':') {
        Some((h, m)) => (h, m),
        None if body.len() == 4 => body.split_at(2),
        None => (body, "0"),
    };
    let (h, m): (i64, i64) = (
        h.parse().map_err(|_| DateTimeError::Syntax)?,
        m.parse().map_err(|_| DateTimeError::Syntax)?,
    );
    if h > 15 || m > 59 {
        return Err(DateTimeError::FieldRange);
    }
    Ok(sign * (h * 3600 + m * 60) * 1_000_000)
}

/// `timestamp_pl_interval`: months first (the day clamped to the month's
/// end: Jan 31 + 1 mon is Feb 29), then days, then microseconds. `None`
/// past the type's range.
pub fn add_interval(us: i64, iv: &Interval) -> Option<i64> {
    let mut us = us;
    if iv.months != 0 {
        let f = fields(us);
        let month0 = f.year * 12 + i64::from(f.month) - 1 + i64::from(iv.months);
        let (y, m) = (month0.div_euclid(12), (month0.rem_euclid(12) + 1) as u32);
        let d = f.day.min(days_in_month(y, m));
        us = days_from_ymd(y, m, d)
            .checked_mul(US_PER_DAY)?
            .checked_add(f.time)?;
    }
    if iv.days != 0 {
        us = us.checked_add(i64::from(iv.days).checked_mul(US_PER_DAY)?)?;
    }
    let us = us.checked_add(iv.micros)?;
    is_valid_timestamp(us).then_some(us)
}

/// A unit name as `DecodeUnits` reads it (plural and short forms), in
/// PostgreSQL's canonical spelling.
pub fn canonical_unit(name: &str) -> Option<&'static str> {
    Some(match name.trim().to_ascii_lowercase().as_str() {
        "microsecond" | "microseconds" | "us" | "usec" | "usecs" | "useconds" => "microseconds",
        "millisecond" | "milliseconds" | "ms" | "msec" | "msecs" | "mseconds" => "milliseconds",
        "second" | "seconds" | "s" | "sec" | "secs" => "second",
        "minute" | "minutes" | "m" | "min" | "mins" => "minute",
        "hour" | "hours" | "h" | "hr" | "hrs" => "hour",
        "day" | "days" | "d" => "day",
        "week" | "weeks" | "w" => "week",
        "month" | "months" | "mon" | "mons" => "month",
        "quarter" | "qtr" => "quarter",
        "year" | "years" | "y" | "yr" | "yrs" => "year",
        "decade" | "decades" | "dec" | "decs" => "decade",
        "century" | "centuries" | "c" | "cent" => "century",
        "millennium" | "millennia" | "mil" | "mils" => "millennium",
        "dow" => "dow",
        "isodow" => "isodow",
        "doy" => "doy",
        "epoch" => "epoch",
        "isoyear" => "isoyear",
        "julian" | "j" => "julian",
        _ => return None,
    })
}

/// `timestamp_trunc`: the timestamp cut down to the start of its `unit`.
/// `None` for a unit it does not truncate to.
pub fn trunc(unit: &str, us: i64) -> Option<i64> {
    let f = fields(us);
    let at = |y: i64, m: u32, d: u32| days_from_ymd(y, m, d) * US_PER_DAY;
    let y = f.year;
    Some(match unit {
        "millennium" if y > 0 => at((y + 999) / 1000 * 1000 - 999, 1, 1),
        "millennium" => at(-((999 - (y - 1)) / 1000) * 1000 + 1, 1, 1),
        "century" if y > 0 => at((y + 99) / 100 * 100 - 99, 1, 1),
        "century" => at(-((99 - (y - 1)) / 100) * 100 + 1, 1, 1),
        "decade" if y > 0 => at(y / 10 * 10, 1, 1),
        "decade" => at(-((8 - (y - 1)) / 10) * 10, 1, 1),
        "year" => at(y, 1, 1),
        "quarter" => at(y, 3 * ((f.month - 1) / 3) + 1, 1),
        "month" => at(y, f.month, 1),
        "week" => (f.days - (iso_weekday(f.days) - 1)) * US_PER_DAY,
        "day" => f.days * US_PER_DAY,
        "hour" => us - f.time % 3_600_000_000,
        "minute" => us - f.time % 60_000_000,
        "second" => us - f.time % 1_000_000,
        "milliseconds" => us - f.time % 1_000,
        "microseconds" => us,
        _ => return None,
    })
}

/// ISO 8601 week number and week-numbering year (`date2isoweek`,
/// `date2isoyear`): week 1 holds the year's first Thursday.
fn iso_week(days: i64) -> (i64, i64) {
    let thursday = days - iso_weekday(days) + 4;
    let (iso_year, _, _) = ymd_from_days(thursday);
    let week = (thursday - days_from_ymd(iso_year, 1, 1)) / 7 + 1;
    (week, iso_year)
}

/// `timestamp_part`: a field of a timestamp as a number; `None` for a unit
/// that is not a field of a timestamp.
pub fn part(unit: &str, us: i64) -> Option<f64> {
    let f = fields(us);
    let y = f.year;
    let sec_us = f.time % 60_000_000;
    Some(match unit {
        "microseconds" => sec_us as f64,
        "milliseconds" => sec_us as f64 / 1000.0,
        "second" => sec_us as f64 / 1e6,
        "minute" => (f.time / 60_000_000 % 60) as f64,
        "hour" => (f.time / 3_600_000_000) as f64,
        "day" => f64::from(f.day),
        "month" => f64::from(f.month),
        "quarter" => f64::from((f.month - 1) / 3 + 1),
        "week" => iso_week(f.days).0 as f64,
        "year" => (if y > 0 { y } else { y - 1 }) as f64,
        "decade" => {
            (if y >= 0 {
                y / 10
            } else {
                -((8 - (y - 1)) / 10)
            }) as f64
        }
        "century" => {
            (if y > 0 {
                (y + 99) / 100
            } else {
                -((99 - (y - 1)) / 100)
            }) as f64
        }
        "millennium" => {
            (if y > 0 {
                (y + 999) / 1000
            } else {
                -((999 - (y - 1)) / 1000)
            }) as f64
        }
        "dow" => (iso_weekday(f.days) % 7) as f64,
        "isodow" => iso_weekday(f.days) as f64,
        "doy" => (f.days - days_from_ymd(y, 1, 1) + 1) as f64,
        "isoyear" => {
            let iy = iso_week(f.days).1;
            (if iy > 0 { iy } else { iy - 1 }) as f64
        }
        "epoch" => (us + 10_957 * US_PER_DAY) as f64 / 1e6,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ts(s: &str) -> i64 {
        parse_datetime(s).unwrap().local_us
    }

    #[test]
    fn reads_and_prints_iso_forms() {
        assert_eq!(
            format_timestamp(ts("2016-01-01 10:00"), ""),
            "2016-01-01 10:00:00"
        );
        assert_eq!(
            format_timestamp(ts("2016-01-01 24:00"), ""),
            "2016-01-02 00:00:00"
        );
        assert_eq!(
            format_timestamp(ts("0001-12-31 BC"), ""),
            "0001-12-31 00:00:00 BC"
        );
        assert_eq!(parse_datetime("2016-13-01"), Err(DateTimeError::FieldRange));
        assert_eq!(
            parse_datetime("2016-01-01 25:00"),
            Err(DateTimeError::FieldRange)
        );
        assert_eq!(parse_datetime("abc"), Err(DateTimeError::Syntax));
        assert_eq!(
            parse_datetime("2016-01-01 junk"),
            Err(DateTimeError::Syntax)
        );
        assert_eq!(parse_datetime("1/8/1999"), Err(DateTimeError::Unsupported));
        let z = parse_datetime("2016-01-01 10:00:00+02").unwrap();
        assert_eq!(z.offset_us, 7_200_000_000);
    }

    #[test]
    fn adds_months_clamped_to_the_month_end() {
        let one_month = Interval {
            months: 1,
            ..Interval::ZERO
        };
        let r = add_interval(ts("2016-01-31"), &one_month).unwrap();
        assert_eq!(format_timestamp(r, ""), "2016-02-29 00:00:00");
    }

    #[test]
    fn truncates_and_extracts() {
        let t = ts("2016-03-05 10:11:12.5");
        assert_eq!(
            format_timestamp(trunc("week", t).unwrap(), ""),
            "2016-02-29 00:00:00"
        );
        assert_eq!(part("second", t), Some(12.5));
        assert_eq!(part("dow", t), Some(6.0));
        assert_eq!(part("week", ts("2016-01-01")), Some(53.0));
        assert_eq!(part("epoch", t), Some(1_457_172_672.5));
    }
}
