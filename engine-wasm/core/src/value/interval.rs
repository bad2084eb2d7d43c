//! `interval`: months, days and microseconds kept apart, as PostgreSQL's
//! `Interval` struct does (a month is not a fixed number of days, a day not
//! a fixed number of hours across a DST change). Input follows
//! `DecodeInterval` (datetime.c), output `EncodeInterval` with IntervalStyle
//! postgres, arithmetic `interval_pl`, `interval_mul` (timestamp.c).

use super::date::US_PER_DAY;

const US_PER_SEC: i64 = 1_000_000;
const US_PER_MINUTE: i64 = 60 * US_PER_SEC;
const US_PER_HOUR: i64 = 60 * US_PER_MINUTE;
const DAYS_PER_MONTH: i64 = 30;
const SECS_PER_DAY: f64 = 86_400.0;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Interval {
    pub micros: i64,
    pub days: i32,
    pub months: i32,
}

/// Why an interval could not be computed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IntervalError {
    Syntax,
    OutOfRange,
}

impl Interval {
    pub const ZERO: Interval = Interval {
        micros: 0,
        days: 0,
        months: 0,
    };

    pub fn of_micros(micros: i64) -> Interval {
        Interval {
            micros,
            ..Interval::ZERO
        }
    }

    /// The value `interval_cmp` orders by: a month as 30 days, a day as 24
    /// hours (so `'1 mon' = '30 days'` is true in PostgreSQL).
    pub fn cmp_key(&self) -> i128 {
        let days = i128::from(self.days) + i128::from(self.months) * i128::from(DAYS_PER_MONTH);
        i128::from(self.micros) + days * i128::from(US_PER_DAY)
    }

    pub fn checked_add(&self, o: &Interval) -> Option<Interval> {
        Some(Interval {
            micros: self.micros.checked_add(o.micros)?,
            days: self.days.checked_add(o.days)?,
            months: self.months.checked_add(o.months)?,
        })
    }

    pub fn checked_neg(&self) -> Option<Interval> {
        Some(Interval {
            micros: self.micros.checked_neg()?,
            days: self.days.checked_neg()?,
            months: self.months.checked_neg()?,
        })
    }

    /// `interval_mul`: whole months and days scale as integers; their
    /// fractions cascade down (a month as 30 days, a day as 86 400 s).
    pub fn mul(&self, factor: f64) -> Option<Interval> {
        self.scale(|x| x * factor)
    }

    /// `interval_div`: as `interval_mul`, dividing each field (not
    /// multiplying by the inverse, whose rounding differs).
    pub fn div(&self, divisor: f64) -> Option<Interval> {
        self.scale(|x| x / divisor)
    }

    fn scale(&self, op: impl Fn(f64) -> f64) -> Option<Interval> {
        let fits32 = |x: f64| x.is_finite() && x >= f64::from(i32::MIN) && x < -f64::from(i32::MIN);
        let month_f = op(f64::from(self.months));
        let day_f = op(f64::from(self.days));
        if !fits32(month_f) || !fits32(day_f) {
            return None;
        }
        let months = month_f as i32;
        let mut days = day_f as i32;
        let month_remainder_days = tsround((month_f - f64::from(months)) * DAYS_PER_MONTH as f64);
        let mut sec_remainder = tsround(
            (day_f - f64::from(days) + month_remainder_days - month_remainder_days.trunc())
                * SECS_PER_DAY,
        );
        if sec_remainder.abs() >= SECS_PER_DAY {
            let whole = (sec_remainder / SECS_PER_DAY) as i32;
            days = days.checked_add(whole)?;
            sec_remainder -= f64::from(whole) * SECS_PER_DAY;
        }
        days = days.checked_add(month_remainder_days as i32)?;
        let micros = (op(self.micros as f64) + sec_remainder * US_PER_SEC as f64).round_ties_even();
        if !micros.is_finite() || micros.abs() >= 9.223_372_036_854_776e18 {
            return None;
        }
        Some(Interval {
            micros: micros as i64,
            days,
            months,
        })
    }

    /// `timestamp_mi`'s result: a difference of microseconds as days and
    /// time (`interval_justify_hours`), never months.
    pub fn from_difference(micros: i64) -> Interval {
        let mut days = micros / US_PER_DAY;
        let mut rest = micros % US_PER_DAY;
        if days > 0 && rest < 0 {
            rest += US_PER_DAY;
            days -= 1;
        } else if days < 0 && rest > 0 {
            rest -= US_PER_DAY;
            days += 1;
        }
        Interval {
            micros: rest,
            days: days as i32,
            months: 0,
        }
    }
}

/// `TSROUND`: rounds to microsecond precision, so that 0.1 * 30 days is
/// exactly 3 days.
fn tsround(x: f64) -> f64 {
    (x * 1e6).round_ties_even() / 1e6
}

/// An interval as `interval_out` prints it with IntervalStyle postgres:
/// `1 year 2 mons 3 days 04:05:06.5`, `-1 days`, `1 day -02:00:00`, `00:00:00`.
pub fn format_interval(iv: &Interval) -> String {
    let mut out = String::new();
    let mut is_zero = true;
    let mut is_before = false;
    let years = iv.months / 12;
    let months = iv.months % 12;
    for (value, unit) in [(years, "year"), (months, "mon"), (iv.days, "day")] {
        add_part(
            &mut out,
            i64::from(value),
            unit,
            &mut is_zero,
            &mut is_before,
        );
    }
    let t = iv.micros;
    if is_zero || t != 0 {
        let (hours, minutes) = (t / US_PER_HOUR, t / US_PER_MINUTE % 60);
        let secs = t % US_PER_MINUTE;
        let sign = if t < 0 {
            "-"
        } else if is_before {
            "+"
        } else {
            ""
        };
        let space = if is_zero { "" } else { " " };
        out += &format!(
            "{space}{sign}{:02}:{:02}:{}",
            hours.unsigned_abs(),
            minutes.unsigned_abs(),
            format_seconds(secs.unsigned_abs())
        );
    }
    out
}

/// `AddPostgresIntPart`: `3 days`, `1 day`; a positive part after a
/// negative one gets a `+`.
fn add_part(out: &mut String, value: i64, unit: &str, is_zero: &mut bool, is_before: &mut bool) {
    if value == 0 {
        return;
    }
    let space = if *is_zero { "" } else { " " };
    let plus = if *is_before && value > 0 { "+" } else { "" };
    let plural = if value != 1 { "s" } else { "" };
    *out += &format!("{space}{plus}{value} {unit}{plural}");
    *is_before = value < 0;
    *is_zero = false;
}

/// Seconds with their fraction, `05` or `05.25` (`AppendSeconds`, trailing
/// zeros cut).
pub fn format_seconds(us: u64) -> String {
    let (s, frac) = (us / 1_000_000, us % 1_000_000);
    if frac == 0 {
        format!("{s:02}")
    } else {
        let f = format!("{frac:06}");
        format!("{s:02}.{}", f.trim_end_matches('0'))
    }
}

/// The units `DecodeInterval` knows (datetime.c's deltatktbl), each a bit
/// of the mask that refuses the same unit twice.
#[derive(Clone, Copy, PartialEq)]
enum Unit {
    Microsecond,
    Millisecond,
    Second,
    Minute,
    Hour,
    Day,
    Week,
    Month,
    Year,
    Decade,
    Century,
    Millennium,
}

fn unit(word: &str) -> Option<Unit> {
    use Unit::*;
    Some(match word {
        "microsecond" | "microseconds" | "microsecon" | "us" | "usec" | "usecs" | "useconds" => {
            Microsecond
        }
        "millisecond" | "milliseconds" | "millisecon" | "ms" | "msec" | "msecs" | "mseconds" => {
            Millisecond
        }
        "second" | "seconds" | "s" | "sec" | "secs" => Second,
        "minute" | "minutes" | "m" | "min" | "mins" => Minute,
        "hour" | "hours" | "h" | "hr" | "hrs" => Hour,
        "day" | "days" | "d" => Day,
        "week" | "weeks" | "w" => Week,
        "month" | "months" | "mon" | "mons" => Month,
        "year" | "years" | "y" | "yr" | "yrs" => Year,
        "decade" | "decades" | "dec" | "decs" => Decade,
        "century" | "centuries" | "c" | "cent" => Century,
        "millennium" | "millennia" | "mil" | "mils" => Millennium,
        _ => return None,
    })
}

/// One word of an interval's text, as `ParseDateTime` splits it (`1day` is
/// a number then a word).
#[derive(Debug, PartialEq)]
enum Token {
    Number(String),
    Time(String),
    Word(String),
}

fn tokenize(text: &str) -> Result<Vec<Token>, IntervalError> {
    let chars: Vec<char> = text.to_ascii_lowercase().chars().collect();
    let mut tokens = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let start = i;
        if c.is_whitespace() || (c == '@' && tokens.is_empty()) {
            i += 1;
        } else if c.is_ascii_digit() || c == '.' || c == '+' || c == '-' {
            i += 1;
            while i < chars.len() && (chars[i].is_ascii_digit() || matches!(chars[i], '.' | ':')) {
                i += 1;
            }
            let s: String = chars[start..i].iter().collect();
            tokens.push(if s.contains(':') {
                Token::Time(s)
            } else {
                Token::Number(s)
            });
        } else if c.is_ascii_alphabetic() {
            while i < chars.len() && chars[i].is_ascii_alphabetic() {
                i += 1;
            }
            tokens.push(Token::Word(chars[start..i].iter().collect()));
        } else {
            return Err(IntervalError::Syntax);
        }
    }
    Ok(tokens)
}

/// Reads an interval as `interval_in` does for the postgres-style forms
/// (`1 day 2 hours`, `-1.5 months`, `01:02:03`, `3 days ago`, `@ 1 day`).
/// ISO 8601 (`P1D`) and SQL-standard (`1-2`) forms are refused by the caller.
pub fn parse_interval(text: &str) -> Result<Interval, IntervalError> {
    let tokens = tokenize(text)?;
    if tokens.is_empty() {
        return Err(IntervalError::Syntax);
    }
    let mut acc = Accumulator::default();
    let mut seen: Vec<Unit> = Vec::new();
    let mut ago = false;
    let mut i = 0;
    while i < tokens.len() {
        match &tokens[i] {
            Token::Time(t) => {
                mark(&mut seen, &[Unit::Hour, Unit::Minute, Unit::Second])?;
                acc.micros = acc
                    .micros
                    .checked_add(parse_time(t)?)
                    .ok_or(IntervalError::OutOfRange)?;
            }
            Token::Number(n) => {
                let (whole, frac) = split_number(n)?;
                let u = match tokens.get(i + 1) {
                    Some(Token::Word(w)) if w != "ago" => {
                        i += 1;
                        unit(w).ok_or(IntervalError::Syntax)?
                    }
                    _ => Unit::Second,
                };
                mark(&mut seen, &[u])?;
                acc.add(u, whole, frac)?;
            }
            Token::Word(w) if w == "ago" && i == tokens.len() - 1 => ago = true,
            Token::Word(_) => return Err(IntervalError::Syntax),
        }
        i += 1;
    }
    let iv = acc.finish()?;
    if ago {
        return iv.checked_neg().ok_or(IntervalError::OutOfRange);
    }
    Ok(iv)
}

/// A unit may appear once (`1 day 2 days` is an error in PostgreSQL).
fn mark(seen: &mut Vec<Unit>, units: &[Unit]) -> Result<(), IntervalError> {
    if units.iter().any(|u| seen.contains(u)) {
        return Err(IntervalError::Syntax);
    }
    seen.extend_from_slice(units);
    Ok(())
}

/// `-1.5` as its integer part and its fraction of the same sign.
fn split_number(n: &str) -> Result<(i64, f64), IntervalError> {
    let f: f64 = n.parse().map_err(|_| IntervalError::Syntax)?;
    let (int_text, _) = n.split_once('.').unwrap_or((n, ""));
    let whole: i64 = match int_text.trim_start_matches(['+', '-']) {
        "" => 0,
        digits => digits.parse().map_err(|_| IntervalError::OutOfRange)?,
    };
    let whole = if n.starts_with('-') { -whole } else { whole };
    Ok((whole, f - whole as f64))
}

/// `[-]H:MM[:SS[.ffffff]]` as microseconds (`DecodeTime`).
fn parse_time(t: &str) -> Result<i64, IntervalError> {
    let negative = t.starts_with('-');
    let body = t.trim_start_matches(['+', '-']);
    let parts: Vec<&str> = body.split(':').collect();
    if !(2..=3).contains(&parts.len()) {
        return Err(IntervalError::Syntax);
    }
    let int = |s: &str| s.parse::<i64>().map_err(|_| IntervalError::Syntax);
    let (h, m) = (int(parts[0])?, int(parts[1])?);
    let sec: f64 = match parts.get(2) {
        Some(s) => s.parse().map_err(|_| IntervalError::Syntax)?,
        None => 0.0,
    };
    if !(0..60).contains(&m) || !(0.0..60.0).contains(&sec) {
        return Err(IntervalError::OutOfRange);
    }
    let us = h
        .checked_mul(US_PER_HOUR)
        .and_then(|x| x.checked_add(m * US_PER_MINUTE + (sec * 1e6).round() as i64))
        .ok_or(IntervalError::OutOfRange)?;
    Ok(if negative { -us } else { us })
}

/// The interval being read, each field as `DecodeInterval`'s `itm_in`.
#[derive(Default)]
struct Accumulator {
    micros: i64,
    days: i64,
    months: i64,
}

impl Accumulator {
    fn add(&mut self, u: Unit, whole: i64, frac: f64) -> Result<(), IntervalError> {
        use Unit::*;
        match u {
            Microsecond => self.add_micros(whole, frac, 1),
            Millisecond => self.add_micros(whole, frac, 1_000),
            Second => self.add_micros(whole, frac, US_PER_SEC),
            Minute => self.add_micros(whole, frac, US_PER_MINUTE),
            Hour => self.add_micros(whole, frac, US_PER_HOUR),
            Day => {
                self.days += whole;
                self.add_micros(0, frac, US_PER_DAY)
            }
            Week => {
                self.days += whole * 7;
                self.add_fract_days(frac * 7.0)
            }
            Month => {
                self.months += whole;
                self.add_fract_days(frac * DAYS_PER_MONTH as f64)
            }
            Year => self.add_years(whole, frac, 1),
            Decade => self.add_years(whole, frac, 10),
            Century => self.add_years(whole, frac, 100),
            Millennium => self.add_years(whole, frac, 1000),
        }
    }

    fn add_micros(&mut self, whole: i64, frac: f64, scale: i64) -> Result<(), IntervalError> {
        let us = whole
            .checked_mul(scale)
            .and_then(|x| x.checked_add((frac * scale as f64).round_ties_even() as i64))
            .ok_or(IntervalError::OutOfRange)?;
        self.micros = self
            .micros
            .checked_add(us)
            .ok_or(IntervalError::OutOfRange)?;
        Ok(())
    }

    /// `AdjustFractDays`: whole days, the rest as microseconds.
    fn add_fract_days(&mut self, frac_days: f64) -> Result<(), IntervalError> {
        let whole = frac_days.trunc();
        self.days += whole as i64;
        self.add_micros(0, frac_days - whole, US_PER_DAY)
    }

    /// `AdjustYears` and `AdjustFractYears` (a fraction of a year in whole months).
    fn add_years(&mut self, whole: i64, frac: f64, scale: i64) -> Result<(), IntervalError> {
        self.months += whole
            .checked_mul(scale * 12)
            .ok_or(IntervalError::OutOfRange)?;
        self.months += (frac * scale as f64 * 12.0).round_ties_even() as i64;
        Ok(())
    }

    fn finish(self) -> Result<Interval, IntervalError> {
        Ok(Interval {
            micros: self.micros,
            days: i32::try_from(self.days).map_err(|_| IntervalError::OutOfRange)?,
            months: i32::try_from(self.months).map_err(|_| IntervalError::OutOfRange)?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(s: &str) -> String {
        format_interval(&parse_interval(s).unwrap())
    }

    /// Outputs from psql 15 (IntervalStyle postgres).
    #[test]
    fn reads_and_prints_as_postgresql() {
        for (input, out) in [
            ("1.5 days", "1 day 12:00:00"),
            ("1.5 months", "1 mon 15 days"),
            ("1.5 years", "1 year 6 mons"),
            ("-1 day", "-1 days"),
            ("1 day -2 hours", "1 day -02:00:00"),
            ("01:00:00", "01:00:00"),
            ("1", "00:00:01"),
            ("-01:30", "-01:30:00"),
            ("1 week", "7 days"),
            ("2 days ago", "-2 days"),
            ("100 hours", "100:00:00"),
            ("1 mon -1 day", "1 mon -1 days"),
            ("-1 mon +1 day", "-1 mons +1 day"),
            ("0.000001 sec", "00:00:00.000001"),
            ("1.25 s", "00:00:01.25"),
            ("1:2:3.5", "01:02:03.5"),
            ("3 millennia", "3000 years"),
        ] {
            assert_eq!(round_trip(input), out, "{input}");
        }
        assert_eq!(parse_interval("x"), Err(IntervalError::Syntax));
        assert_eq!(parse_interval("1 day 2 days"), Err(IntervalError::Syntax));
    }

    #[test]
    fn multiplies_as_interval_mul() {
        let m = |s: &str, f: f64| format_interval(&parse_interval(s).unwrap().mul(f).unwrap());
        assert_eq!(m("1 day", 1.5), "1 day 12:00:00");
        assert_eq!(m("1 mon", 0.5), "15 days");
        assert_eq!(
            format_interval(&parse_interval("1 mon").unwrap().div(3.0).unwrap()),
            "10 days"
        );
        assert_eq!(
            format_interval(&parse_interval("1 day").unwrap().div(7.0).unwrap()),
            "03:25:42.857143"
        );
        assert_eq!(m("-1 days 3 hours", 2.5), "-2 days -04:30:00");
    }
}
