//! `date`: days since 2000-01-01 (PostgreSQL's epoch), as `date.c` stores it
//! in an int4. Calendar arithmetic is the proleptic Gregorian calendar,
//! which is what PostgreSQL's `date2j` / `j2date` compute.

/// 2000-01-01 is day 10 957 since 1970-01-01 (the civil algorithms' epoch).
pub const EPOCH_SHIFT: i64 = 10_957;
pub const US_PER_DAY: i64 = 86_400_000_000;

/// PostgreSQL's range: Julian day 0 (4714-11-24 BC) up to 5874897-12-31,
/// as days since 2000-01-01 (`IS_VALID_DATE`).
const MIN_DAY: i64 = -2_451_545;
const END_DAY: i64 = 2_147_483_494 - 2_451_545;

pub fn is_valid_day(days: i64) -> bool {
    (MIN_DAY..END_DAY).contains(&days)
}

pub fn days_in_month(y: i64, m: u32) -> u32 {
    match m {
        2 if (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Days since 2000-01-01 of a calendar date (year 0 is 1 BC, as in `date2j`).
pub fn days_from_ymd(y: i64, m: u32, d: u32) -> i64 {
    days_from_civil(y, m, d) - EPOCH_SHIFT
}

/// The calendar date of a day since 2000-01-01.
pub fn ymd_from_days(days: i64) -> (i64, u32, u32) {
    civil_from_days(days + EPOCH_SHIFT)
}

/// A date as `date_out` prints it with DateStyle ISO: `YYYY-MM-DD`, and
/// ` BC` after a year before 1 (year 0 is 1 BC).
pub fn format_date(days: i32) -> String {
    let (y, m, d) = ymd_from_days(i64::from(days));
    let (year, bc) = display_year(y);
    format!("{year:04}-{m:02}-{d:02}{bc}")
}

/// The year as printed and its era suffix: PostgreSQL numbers years before
/// 1 AD as 1 BC, 2 BC…
pub fn display_year(y: i64) -> (i64, &'static str) {
    if y <= 0 {
        (1 - y, " BC")
    } else {
        (y, "")
    }
}

/// ISO day of the week, Monday 1 … Sunday 7 (2000-01-01 was a Saturday).
pub fn iso_weekday(days: i64) -> i64 {
    (days + 5).rem_euclid(7) + 1
}

/// Howard Hinnant's civil-to-days algorithm (days since 1970-01-01).
pub(crate) fn days_from_civil(y: i64, m: u32, d: u32) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y.rem_euclid(400);
    let mp = i64::from((m + 9) % 12);
    let doy = (153 * mp + 2) / 5 + i64::from(d) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// Howard Hinnant's days-to-civil algorithm (days since 1970-01-01).
pub(crate) fn civil_from_days(z: i64) -> (i64, u32, u32) {
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
    fn dates_print_as_date_out_does() {
        assert_eq!(format_date(0), "2000-01-01");
        assert_eq!(format_date(-1), "1999-12-31");
        assert_eq!(format_date(days_from_ymd(2016, 2, 29) as i32), "2016-02-29");
        assert_eq!(format_date(days_from_ymd(0, 1, 1) as i32), "0001-01-01 BC");
        assert_eq!(iso_weekday(0), 6);
    }
}
