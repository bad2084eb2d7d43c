//! PostgreSQL's exact `numeric` (src/backend/utils/adt/numeric.c), held as
//! an `i128` of decimal digits and a display scale (`dscale`): `1.50` is
//! 150 at scale 2. PostgreSQL's own type goes to 131 072 digits; IndexLab
//! holds up to 38, what a teaching script needs (money, averages, ratios),
//! and refuses a value beyond that by name rather than round it.
//!
//! Results follow numeric.c: rounding is half away from zero (`round_var`),
//! the scale of a result is the one PostgreSQL picks (`add_var`: the larger
//! scale; `mul_var`: the sum; `select_div_scale` for a quotient), and two
//! values with different scales compare by value (`1.5 = 1.50`).

use std::cmp::Ordering;

/// The most decimal digits (before and after the point together) held.
pub const MAX_DIGITS: u32 = 38;
/// numeric.c's NUMERIC_MIN_SIG_DIGITS: a quotient has at least this many
/// significant digits.
const MIN_SIG_DIGITS: i32 = 16;
/// numeric.c's DEC_DIGITS: decimal digits in one base-10000 digit.
const DEC_DIGITS: i32 = 4;

/// Why a numeric operation has no answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NumericError {
    /// More digits than [`MAX_DIGITS`]: PostgreSQL has the answer, IndexLab refuses it.
    TooManyDigits,
    /// NaN or ±Infinity, which IndexLab's numeric does not hold.
    Special,
    /// Not a number in numeric_in's syntax.
    Syntax,
    DivisionByZero,
    /// A value that does not fit `numeric(precision, scale)`.
    FieldOverflow {
        precision: u16,
        scale: u16,
    },
    /// A conversion to an integer type out of its range.
    IntegerOutOfRange,
}

/// An exact decimal: `unscaled / 10^scale`.
#[derive(Debug, Clone, Copy)]
pub struct Numeric {
    unscaled: i128,
    scale: u16,
}

fn pow10(n: u32) -> Result<i128, NumericError> {
    10i128.checked_pow(n).ok_or(NumericError::TooManyDigits)
}

/// Within IndexLab's digit budget: at most 38 digits after the point (the
/// unscaled `i128` bounds the digits in all).
fn checked(unscaled: i128, scale: u32) -> Result<Numeric, NumericError> {
    if scale > MAX_DIGITS {
        return Err(NumericError::TooManyDigits);
    }
    Ok(Numeric {
        unscaled,
        scale: scale as u16,
    })
}

impl Numeric {
    pub fn from_i64(i: i64) -> Numeric {
        Numeric {
            unscaled: i128::from(i),
            scale: 0,
        }
    }

    pub fn from_i128(i: i128) -> Result<Numeric, NumericError> {
        checked(i, 0)
    }

    /// The same value without trailing zeros after the point (equal values
    /// normalize alike).
    pub fn normalized(&self) -> Numeric {
        self.stripped()
    }

    /// The display scale: digits printed after the point.
    pub fn scale(&self) -> u16 {
        self.scale
    }

    pub fn is_zero(&self) -> bool {
        self.unscaled == 0
    }

    pub fn signum(&self) -> i32 {
        self.unscaled.signum() as i32
    }

    /// numeric_in: `[sign] digits [. digits] [e [sign] digits]` with spaces
    /// around; the scale is the digits after the point less the exponent.
    pub fn parse(text: &str) -> Result<Numeric, NumericError> {
        let t = text.trim();
        let lower = t.to_ascii_lowercase();
        let unsigned = lower.trim_start_matches(['+', '-']);
        if ["nan", "infinity", "inf"].contains(&unsigned) {
            return Err(NumericError::Special);
        }
        let (negative, body) = match t.as_bytes().first() {
            Some(b'-') => (true, &t[1..]),
            Some(b'+') => (false, &t[1..]),
            _ => (false, t),
        };
        let (mantissa, exponent) = match body.find(['e', 'E']) {
            Some(at) => (&body[..at], Some(&body[at + 1..])),
            None => (body, None),
        };
        let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
        let all_digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
        if whole.len() + fraction.len() == 0 || !all_digits(whole) || !all_digits(fraction) {
            return Err(NumericError::Syntax);
        }
        let exponent: i64 = match exponent {
            Some(e) => e.parse().map_err(|_| NumericError::Syntax)?,
            None => 0,
        };
        let digits = format!("{whole}{fraction}");
        let digits = digits.trim_start_matches('0');
        if digits.len() > MAX_DIGITS as usize {
            return Err(NumericError::TooManyDigits);
        }
        let mut unscaled: i128 = if digits.is_empty() {
            0
        } else {
            digits.parse().map_err(|_| NumericError::TooManyDigits)?
        };
        let scale = fraction.len() as i64 - exponent;
        if scale < 0 {
            let shift = u32::try_from(-scale).map_err(|_| NumericError::TooManyDigits)?;
            unscaled = unscaled
                .checked_mul(pow10(shift)?)
                .ok_or(NumericError::TooManyDigits)?;
        }
        if negative {
            unscaled = -unscaled;
        }
        checked(
            unscaled,
            u32::try_from(scale.max(0)).map_err(|_| NumericError::TooManyDigits)?,
        )
    }

    /// float8_numeric: the float printed with `%.15g` (DBL_DIG digits), then
    /// read as numeric, so `0.1::float8::numeric` is `0.1`.
    pub fn from_f64(f: f64) -> Result<Numeric, NumericError> {
        if !f.is_finite() {
            return Err(NumericError::Special);
        }
        Ok(Numeric::parse(&format!("{f:.14e}"))?.stripped())
    }

    /// numeric_float8: the value's text read as a float8 (correctly rounded).
    pub fn to_f64(&self) -> f64 {
        self.to_string().parse().unwrap_or(f64::NAN)
    }

    /// numericvar_to_int64: rounded half away from zero.
    pub fn to_i64_rounded(&self) -> Result<i64, NumericError> {
        let r = self.round(0)?;
        i64::try_from(r.unscaled).map_err(|_| NumericError::IntegerOutOfRange)
    }

    /// The same value without trailing zeros after the point.
    fn stripped(mut self) -> Numeric {
        while self.scale > 0 && self.unscaled % 10 == 0 {
            self.unscaled /= 10;
            self.scale -= 1;
        }
        self
    }

    /// The same value printed with `scale` digits (at least its own).
    fn rescaled_up(&self, scale: u16) -> Result<Numeric, NumericError> {
        let by = pow10(u32::from(scale - self.scale))?;
        let unscaled = self
            .unscaled
            .checked_mul(by)
            .ok_or(NumericError::TooManyDigits)?;
        checked(unscaled, u32::from(scale))
    }

    /// Both at the larger scale, as add_var and mod_var line them up.
    fn aligned(&self, other: &Numeric) -> Result<(i128, i128, u16), NumericError> {
        let scale = self.scale.max(other.scale);
        Ok((
            self.rescaled_up(scale)?.unscaled,
            other.rescaled_up(scale)?.unscaled,
            scale,
        ))
    }

    pub fn add(&self, other: &Numeric) -> Result<Numeric, NumericError> {
        let (a, b, scale) = self.aligned(other)?;
        checked(
            a.checked_add(b).ok_or(NumericError::TooManyDigits)?,
            u32::from(scale),
        )
    }

    pub fn sub(&self, other: &Numeric) -> Result<Numeric, NumericError> {
        self.add(&other.neg())
    }

    /// mul_var: exact, at the sum of the scales.
    pub fn mul(&self, other: &Numeric) -> Result<Numeric, NumericError> {
        let unscaled = self
            .unscaled
            .checked_mul(other.unscaled)
            .ok_or(NumericError::TooManyDigits)?;
        checked(unscaled, u32::from(self.scale) + u32::from(other.scale))
    }

    /// numeric_div: the quotient rounded (half away from zero) to
    /// `select_div_scale`'s scale.
    pub fn div(&self, other: &Numeric) -> Result<Numeric, NumericError> {
        if other.is_zero() {
            return Err(NumericError::DivisionByZero);
        }
        let rscale = select_div_scale(self, other);
        self.div_to_scale(other, rscale)
    }

    /// `self / other` rounded half away from zero at `rscale` digits.
    pub fn div_to_scale(&self, other: &Numeric, rscale: u32) -> Result<Numeric, NumericError> {
        if other.is_zero() {
            return Err(NumericError::DivisionByZero);
        }
        let too_big = NumericError::TooManyDigits;
        // quotient * 10^rscale = self.unscaled * 10^(rscale + s2 - s1) / other.unscaled
        let shift = i64::from(rscale) + i64::from(other.scale) - i64::from(self.scale);
        let (num, den) = if shift >= 0 {
            let p = pow10(shift as u32)?;
            (
                self.unscaled.checked_mul(p).ok_or(too_big.clone())?,
                other.unscaled,
            )
        } else {
            let p = pow10((-shift) as u32)?;
            (self.unscaled, other.unscaled.checked_mul(p).ok_or(too_big)?)
        };
        let (q, r) = (num / den, num % den);
        let sign = if (num < 0) != (den < 0) { -1 } else { 1 };
        let half_or_more = r.unsigned_abs() >= den.unsigned_abs() - r.unsigned_abs();
        let q = if r != 0 && half_or_more { q + sign } else { q };
        checked(q, rscale)
    }

    /// mod_var: `self - other * trunc(self / other)`, at the larger scale; the
    /// sign is the dividend's.
    pub fn rem(&self, other: &Numeric) -> Result<Numeric, NumericError> {
        if other.is_zero() {
            return Err(NumericError::DivisionByZero);
        }
        let (a, b, scale) = self.aligned(other)?;
        checked(a % b, u32::from(scale))
    }

    pub fn neg(&self) -> Numeric {
        Numeric {
            unscaled: -self.unscaled,
            scale: self.scale,
        }
    }

    pub fn abs(&self) -> Numeric {
        Numeric {
            unscaled: self.unscaled.abs(),
            scale: self.scale,
        }
    }

    /// numeric_round: half away from zero at `digits` after the point
    /// (negative: before it); the display scale becomes `max(digits, 0)`.
    pub fn round(&self, digits: i32) -> Result<Numeric, NumericError> {
        self.rounded_to(digits, true)
    }

    /// numeric_trunc: as round, toward zero.
    pub fn trunc(&self, digits: i32) -> Result<Numeric, NumericError> {
        self.rounded_to(digits, false)
    }

    fn rounded_to(&self, digits: i32, round: bool) -> Result<Numeric, NumericError> {
        let digits = digits.clamp(-2000, 2000);
        let out_scale = digits.max(0) as u32;
        if digits >= i32::from(self.scale) {
            return self
                .rescaled_up(u16::try_from(out_scale).map_err(|_| NumericError::TooManyDigits)?);
        }
        // Drop `drop` digits, then put back the zeros of a negative `digits`.
        let drop = (i32::from(self.scale) - digits) as u32;
        let Ok(unit) = pow10(drop) else {
            // More digits dropped than the value has: it rounds to zero.
            return checked(0, out_scale);
        };
        let (q, r) = (self.unscaled / unit, self.unscaled % unit);
        let up = round && r.unsigned_abs() >= unit.unsigned_abs() - r.unsigned_abs();
        let q = if up { q + self.unscaled.signum() } else { q };
        let back = pow10((out_scale as i32 - digits) as u32)?;
        checked(
            q.checked_mul(back).ok_or(NumericError::TooManyDigits)?,
            out_scale,
        )
    }

    /// numeric_ceil: the least integer not below the value, scale 0.
    pub fn ceil(&self) -> Result<Numeric, NumericError> {
        let t = self.trunc(0)?;
        let frac = self.sub(&t)?;
        if frac.signum() > 0 {
            t.add(&Numeric::from_i64(1))
        } else {
            Ok(t)
        }
    }

    /// numeric_floor: the greatest integer not above the value, scale 0.
    pub fn floor(&self) -> Result<Numeric, NumericError> {
        let t = self.trunc(0)?;
        let frac = self.sub(&t)?;
        if frac.signum() < 0 {
            t.sub(&Numeric::from_i64(1))
        } else {
            Ok(t)
        }
    }

    /// apply_typmod: rounded to `scale` digits, then refused when its integer
    /// part has more than `precision - scale` digits.
    pub fn apply_typmod(&self, precision: u16, scale: u16) -> Result<Numeric, NumericError> {
        let r = self.round(i32::from(scale))?;
        let max_int_digits = u32::from(precision - scale);
        let limit = pow10(max_int_digits + u32::from(scale));
        if let Ok(limit) = limit {
            if r.unscaled.unsigned_abs() >= limit.unsigned_abs() {
                return Err(NumericError::FieldOverflow { precision, scale });
            }
        }
        Ok(r)
    }

    /// The value as PostgreSQL's base-10000 digits: (weight of the first
    /// digit, the digits) with leading and trailing zero digits stripped, as
    /// make_result stores them. Zero has no digits and weight 0.
    pub fn base10000(&self) -> (i32, Vec<u16>) {
        let abs = self.unscaled.unsigned_abs();
        let unit = 10u128.pow(u32::from(self.scale).min(38));
        let (int, frac) = (abs / unit, abs % unit);
        let int_text = if int == 0 {
            String::new()
        } else {
            int.to_string()
        };
        let mut frac_text = format!("{frac:0width$}", width = usize::from(self.scale));
        if self.scale == 0 {
            frac_text.clear();
        }
        let int_groups = int_text.len().div_ceil(4);
        let int_text = format!("{int_text:0>width$}", width = int_groups * 4);
        let frac_groups = frac_text.len().div_ceil(4);
        let frac_text = format!("{frac_text:0<width$}", width = frac_groups * 4);
        let all = format!("{int_text}{frac_text}");
        let mut groups: Vec<u16> = all
            .as_bytes()
            .chunks(4)
            .map(|c| std::str::from_utf8(c).unwrap_or("0").parse().unwrap_or(0))
            .collect();
        let mut weight = int_groups as i32 - 1;
        let leading = groups.iter().take_while(|g| **g == 0).count();
        groups.drain(..leading);
        weight -= leading as i32;
        while groups.last() == Some(&0) {
            groups.pop();
        }
        if groups.is_empty() {
            weight = 0;
        }
        (weight, groups)
    }

    /// Bytes of the value's on-disk form without its varlena header: the
    /// 2-byte NUMERIC_SHORT header when dscale and weight fit it (they always
    /// do within 38 digits), else NUMERIC_LONG's 4, then 2 per base-10000 digit.
    pub fn payload_size(&self) -> usize {
        let (weight, digits) = self.base10000();
        let short = self.scale <= 63 && (-64..=63).contains(&weight);
        (if short { 2 } else { 4 }) + 2 * digits.len()
    }

    /// The decimal exponent and significant digits of a nonzero value
    /// (`0.0123` is `(-1, "123")`: 0.123 × 10^-1), for the key encoding.
    pub fn significand(&self) -> (i32, String) {
        let text = self.unscaled.unsigned_abs().to_string();
        let exponent = text.len() as i32 - i32::from(self.scale);
        (exponent, text.trim_end_matches('0').to_string())
    }

    /// The value from [`Numeric::significand`]'s parts, a sign and a scale.
    pub fn from_significand(
        negative: bool,
        exponent: i32,
        digits: &str,
        scale: u16,
    ) -> Option<Numeric> {
        let sign = if negative { "-" } else { "" };
        let n = Numeric::parse(&format!("{sign}0.{digits}e{exponent}")).ok()?;
        n.rescaled_up(scale).ok().or(Some(n))
    }
}

/// select_div_scale: enough digits for 16 significant ones in the quotient,
/// and no fewer than either input's scale.
fn select_div_scale(a: &Numeric, b: &Numeric) -> u32 {
    let first = |n: &Numeric| {
        let (weight, digits) = n.base10000();
        (weight, digits.first().copied().unwrap_or(0))
    };
    let ((weight1, first1), (weight2, first2)) = (first(a), first(b));
    let mut qweight = weight1 - weight2;
    if first1 <= first2 {
        qweight -= 1;
    }
    let rscale = (MIN_SIG_DIGITS - qweight * DEC_DIGITS)
        .max(i32::from(a.scale))
        .max(i32::from(b.scale))
        .clamp(0, 1000);
    rscale as u32
}

impl Ord for Numeric {
    /// By value: integer parts, then fractions at 38 digits (both fit an i128).
    fn cmp(&self, other: &Numeric) -> Ordering {
        let parts = |n: &Numeric| {
            let unit = 10i128.pow(u32::from(n.scale));
            let frac = (n.unscaled % unit) * 10i128.pow(MAX_DIGITS - u32::from(n.scale));
            (n.unscaled / unit, frac)
        };
        parts(self).cmp(&parts(other))
    }
}

impl PartialOrd for Numeric {
    fn partial_cmp(&self, other: &Numeric) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// Equal by value, as numeric_eq: `1.5 = 1.50`.
impl PartialEq for Numeric {
    fn eq(&self, other: &Numeric) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Numeric {}

/// numeric_out: every digit of the display scale, no exponent.
impl std::fmt::Display for Numeric {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let digits = self.unscaled.unsigned_abs().to_string();
        let scale = usize::from(self.scale);
        let digits = format!("{digits:0>width$}", width = scale + 1);
        let (int, frac) = digits.split_at(digits.len() - scale);
        if self.unscaled < 0 {
            f.write_str("-")?;
        }
        f.write_str(int)?;
        if scale > 0 {
            write!(f, ".{frac}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn n(s: &str) -> Numeric {
        Numeric::parse(s).unwrap()
    }

    #[test]
    fn reads_and_prints_as_numeric_in_and_out() {
        assert_eq!(n("1.50").to_string(), "1.50");
        assert_eq!(n("1e3").to_string(), "1000");
        assert_eq!(n("1.5e-3").to_string(), "0.0015");
        assert_eq!(n("-0.0").to_string(), "0.0");
        assert_eq!(n(" -12.5 ").to_string(), "-12.5");
        assert_eq!(n(".5").to_string(), "0.5");
        assert_eq!(Numeric::parse("NaN"), Err(NumericError::Special));
        assert_eq!(Numeric::parse("1.2.3"), Err(NumericError::Syntax));
    }

    #[test]
    fn scales_follow_numeric_c() {
        assert_eq!(
            n("1").div(&n("3.0")).unwrap().to_string(),
            "0.33333333333333333333"
        );
        assert_eq!(
            n("10").div(&n("4.0")).unwrap().to_string(),
            "2.5000000000000000"
        );
        assert_eq!(n("1.5").mul(&n("2.25")).unwrap().to_string(), "3.375");
        assert_eq!(n("2.50").add(&n("1")).unwrap().to_string(), "3.50");
        assert_eq!(n("-7.5").rem(&n("2")).unwrap().to_string(), "-1.5");
    }

    #[test]
    fn rounds_half_away_from_zero() {
        assert_eq!(n("2.5").round(0).unwrap().to_string(), "3");
        assert_eq!(n("-2.5").round(0).unwrap().to_string(), "-3");
        assert_eq!(n("2.345").round(2).unwrap().to_string(), "2.35");
        assert_eq!(n("1234.5").round(-2).unwrap().to_string(), "1200");
        assert_eq!(n("2.789").trunc(1).unwrap().to_string(), "2.7");
        assert_eq!(n("-2.5").ceil().unwrap().to_string(), "-2");
        assert_eq!(n("-2.5").floor().unwrap().to_string(), "-3");
        assert_eq!(n("2.5").round(4).unwrap().to_string(), "2.5000");
    }

    #[test]
    fn typmod_rounds_then_checks_the_integer_digits() {
        assert_eq!(n("1.25").apply_typmod(10, 1).unwrap().to_string(), "1.3");
        assert_eq!(
            n("123.45").apply_typmod(4, 2),
            Err(NumericError::FieldOverflow {
                precision: 4,
                scale: 2
            })
        );
    }

    #[test]
    fn on_disk_sizes_match_pg_column_size() {
        // pg_column_size less the 4-byte varlena header.
        assert_eq!(n("1.50").payload_size(), 6);
        assert_eq!(n("0").payload_size(), 2);
        assert_eq!(n("12345.678").payload_size(), 8);
        assert_eq!(n("1e30").payload_size(), 4);
        assert_eq!(n("-1").payload_size(), 4);
    }

    #[test]
    fn floats_convert_through_fifteen_digits() {
        assert_eq!(Numeric::from_f64(0.1).unwrap().to_string(), "0.1");
        assert_eq!(
            Numeric::from_f64(1.0 / 3.0).unwrap().to_string(),
            "0.333333333333333"
        );
        assert_eq!(
            Numeric::from_f64(1e20).unwrap().to_string(),
            "100000000000000000000"
        );
        assert_eq!(n("1.5").to_f64(), 1.5);
    }

    #[test]
    fn compares_by_value() {
        assert_eq!(n("1.0"), n("1.00"));
        assert!(n("-0.55") < n("-0.5"));
        assert!(n("2") > n("1.99999"));
    }
}
