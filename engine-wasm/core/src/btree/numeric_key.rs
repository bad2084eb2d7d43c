//! A `numeric` key column as order-preserving bytes: a sign byte (negative,
//! zero, positive), then for a nonzero value its decimal exponent (2 bytes,
//! sign bit flipped) and significant digits (each digit + 1, a 0 byte ends
//! them, so `0.5` sorts before `0.55`), all inverted for a negative value so
//! that a larger magnitude sorts first. The display scale follows in 2
//! bytes: `1.5` and `1.50` are equal numerics but print differently, and an
//! index-only scan (or a yb row, stored in this encoding) must give back
//! what was written; equal values of different scales sort by scale.

use crate::value::{Numeric, SqlType, Value};

const NEGATIVE: u8 = 0x00;
const ZERO: u8 = 0x01;
const POSITIVE: u8 = 0x02;
const DIGITS_END: u8 = 0x00;

pub fn encode(n: &Numeric, out: &mut Vec<u8>) {
    let negative = n.signum() < 0;
    if n.is_zero() {
        out.push(ZERO);
    } else {
        out.push(if negative { NEGATIVE } else { POSITIVE });
        let (exponent, digits) = n.significand();
        let flip = |b: u8| if negative { !b } else { b };
        let e = ((exponent as i16 as u16) ^ 0x8000).to_be_bytes();
        out.extend(e.iter().map(|b| flip(*b)));
        out.extend(digits.bytes().map(|d| flip(d - b'0' + 1)));
        out.push(flip(DIGITS_END));
    }
    out.extend_from_slice(&n.scale().to_be_bytes());
}

/// A scan bound on a numeric key column, as the key bytes it is compared
/// with. A column with a typmod stores every value at its scale: a bound
/// exact at that scale is written at it, so an equal stored value has the
/// very same bytes (`= 2.5` meets `2.50`, a hash key hashes alike); one that
/// is not (`2.555` against scale 2) equals no stored value and sorts by
/// value. Without a typmod equal values may differ in scale: the bound
/// drops its scale bytes, and as a prefix bound it covers them all.
pub fn bound_bytes(v: &Value, ty: SqlType, mut encoded: Vec<u8>) -> Vec<u8> {
    if matches!((v, ty), (Value::Numeric(_), SqlType::Numeric(None))) {
        encoded.truncate(encoded.len().saturating_sub(2));
    }
    encoded
}

/// The bound's value at the column's scale when that is exact (see [`bound_bytes`]).
pub fn bound_value(v: Value, ty: SqlType) -> Value {
    match (&v, ty) {
        (Value::Numeric(n), SqlType::Numeric(Some((_, scale)))) => {
            match n.round(i32::from(scale)) {
                Ok(r) if r == **n => Value::numeric(r),
                _ => v,
            }
        }
        _ => v,
    }
}

/// The value at the start of `bytes` (inverted when the column is DESC) and
/// the bytes it took.
pub fn decode(bytes: &[u8], invert: bool) -> Option<(Numeric, usize)> {
    let at = |i: usize| bytes.get(i).map(|b| if invert { !b } else { *b });
    let sign = at(0)?;
    let mut pos = 1;
    let mut parts = None;
    if sign != ZERO {
        let negative = sign == NEGATIVE;
        let flip = |b: u8| if negative { !b } else { b };
        let e = u16::from_be_bytes([flip(at(1)?), flip(at(2)?)]) ^ 0x8000;
        pos = 3;
        let mut digits = String::new();
        loop {
            let d = flip(at(pos)?);
            pos += 1;
            if d == DIGITS_END {
                break;
            }
            digits.push(char::from(b'0' + d - 1));
        }
        parts = Some((negative, i32::from(e as i16), digits));
    }
    let scale = u16::from_be_bytes([at(pos)?, at(pos + 1)?]);
    pos += 2;
    let n = match parts {
        None => Numeric::parse(&format!("0.{}", "0".repeat(usize::from(scale)))).ok()?,
        Some((negative, exponent, digits)) => {
            Numeric::from_significand(negative, exponent, &digits, scale)?
        }
    };
    Some((n, pos))
}

/// The byte range holding every key equal in value to `values`. A
/// `numeric` column without a typmod keeps each value's display scale after
/// its digits (`2.5` and `2.50` are one value, two keys), so the range
/// spans all its scales: the two scale bytes at their lowest, then at
/// their highest (after a DESC column's inversion). With several columns
/// the range may hold keys that differ in a later column: the caller
/// compares the values.
pub fn equal_value_range(
    values: &[Value],
    columns: &[super::KeyColumn],
) -> Result<(Vec<u8>, Vec<u8>), super::KeyError> {
    let (mut lo, mut hi) = (Vec::new(), Vec::new());
    for (v, c) in values.iter().zip(columns) {
        let start = lo.len();
        super::encode_key_into(std::slice::from_ref(v), std::slice::from_ref(c), &mut lo)?;
        hi.extend_from_slice(&lo[start..]);
        if c.ty == SqlType::Numeric(None) && !v.is_null() {
            let (l, h) = (lo.len(), hi.len());
            lo[l - 2..].copy_from_slice(&[0x00, 0x00]);
            hi[h - 2..].copy_from_slice(&[0xFF, 0xFF]);
        }
    }
    Ok((lo, hi))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(s: &str) -> Vec<u8> {
        let mut out = Vec::new();
        encode(&Numeric::parse(s).unwrap(), &mut out);
        out
    }

    #[test]
    fn byte_order_is_numeric_order() {
        let sorted = [
            "-100", "-1.5", "-0.55", "-0.5", "0", "0.0012", "0.5", "0.55", "1", "1.50", "2", "10",
            "123.4",
        ];
        for w in sorted.windows(2) {
            assert!(key(w[0]) < key(w[1]), "{} < {}", w[0], w[1]);
        }
    }

    #[test]
    fn decodes_what_it_encoded_with_its_scale() {
        for s in ["-100", "-1.50", "0", "0.00", "0.0012", "12345.678", "1e20"] {
            let bytes = key(s);
            let (n, used) = decode(&bytes, false).unwrap();
            assert_eq!(used, bytes.len());
            assert_eq!(n.to_string(), Numeric::parse(s).unwrap().to_string());
            let inverted: Vec<u8> = bytes.iter().map(|b| !b).collect();
            assert_eq!(
                decode(&inverted, true).unwrap().0.to_string(),
                n.to_string()
            );
        }
    }
}
