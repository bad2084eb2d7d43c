//! An index tuple's bytes as `index_form_tuple` lays them out on a page, for
//! the `data` column of `bt_page_items`: each attribute aligned to its type's
//! typalign from the MAXALIGN'd start of the data, in the machine's (little-
//! endian) byte order, short text as a 1-byte varlena header and its bytes,
//! the whole tuple padded with zeros to MAXALIGN. A NULL takes no bytes (it
//! is a bit of the null bitmap, which sits before the data).

use crate::sql::error::{unsupported, SqlError};
use crate::value::numeric::Numeric;
use crate::value::{SqlType, Value};

/// IndexTupleData: a 6-byte TID and the 2-byte t_info.
const HEADER: usize = 8;
/// The null bitmap is sized for INDEX_MAX_KEYS (32 attributes).
const NULL_BITMAP: usize = 4;
/// The largest varlena a 1-byte header can hold (VARATT_SHORT_MAX).
const SHORT_VARLENA_MAX: usize = 0x7F;

/// What pageinspect shows of a formed tuple.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct TupleImage {
    /// IndexTupleSize: header, bitmap, data and padding.
    pub size: usize,
    /// INDEX_NULL_MASK: some attribute is NULL.
    pub has_nulls: bool,
    /// INDEX_VAR_MASK: some non-NULL attribute is a varlena.
    pub has_varwidth: bool,
    /// The bytes from the data offset to the end of the tuple.
    pub data: Vec<u8>,
}

impl TupleImage {
    /// The `data` column: two hex digits a byte, separated by spaces.
    pub fn hex(&self) -> String {
        let parts: Vec<String> = self.data.iter().map(|b| format!("{b:02x}")).collect();
        parts.join(" ")
    }
}

/// Forms the tuple of these attribute values (`index_form_tuple`).
pub(super) fn form(values: &[Value], types: &[SqlType]) -> Result<TupleImage, SqlError> {
    let has_nulls = values.iter().any(Value::is_null);
    let start = align(HEADER + if has_nulls { NULL_BITMAP } else { 0 }, 8);
    let mut data = Vec::new();
    let mut has_varwidth = false;
    for (v, &ty) in values.iter().zip(types) {
        if v.is_null() {
            continue;
        }
        has_varwidth |= matches!(ty, SqlType::Text | SqlType::Bpchar(_) | SqlType::Numeric(_));
        put(&mut data, v, ty)?;
    }
    let size = align(start + data.len(), 8);
    data.resize(size - start, 0);
    Ok(TupleImage {
        size,
        has_nulls,
        has_varwidth,
        data,
    })
}

/// Appends one non-NULL attribute, aligned to its typalign.
fn put(out: &mut Vec<u8>, v: &Value, ty: SqlType) -> Result<(), SqlError> {
    let mut aligned = |to: usize, bytes: &[u8]| {
        out.resize(align(out.len(), to), 0);
        out.extend_from_slice(bytes);
    };
    match (ty, v) {
        (SqlType::Int2, Value::Int(n)) => aligned(2, &(*n as i16).to_le_bytes()),
        (SqlType::Int4, Value::Int(n)) => aligned(4, &(*n as i32).to_le_bytes()),
        (SqlType::Date, Value::Date(d)) => aligned(4, &d.to_le_bytes()),
        (SqlType::Int8, Value::Int(n))
        | (SqlType::Timestamptz, Value::Timestamp(n))
        | (SqlType::Timestamp, Value::LocalTimestamp(n)) => aligned(8, &n.to_le_bytes()),
        (SqlType::Float8, Value::Float(f)) => aligned(8, &f.to_bits().to_le_bytes()),
        (SqlType::Bool, Value::Bool(b)) => aligned(1, &[*b as u8]),
        // Interval: the time in microseconds, then days, then months.
        (SqlType::Interval, Value::Interval(i)) => {
            let mut bytes = i.micros.to_le_bytes().to_vec();
            bytes.extend_from_slice(&i.days.to_le_bytes());
            bytes.extend_from_slice(&i.months.to_le_bytes());
            aligned(8, &bytes)
        }
        (SqlType::Text | SqlType::Bpchar(_), Value::Text(s)) => put_varlena(out, s.as_bytes()),
        (SqlType::Numeric(_), Value::Numeric(n)) => put_varlena(out, &numeric_bytes(n)),
        (SqlType::Uuid, Value::Text(s)) => aligned(1, &uuid_bytes(s)?),
        _ => {
            return Err(unsupported(format!(
                "showing the on-page bytes of a {} index column",
                ty.display_name()
            )))
        }
    }
    Ok(())
}

/// A varlena: short (1-byte header `(len + 1) << 1 | 1`, unaligned) when it
/// fits, else a 4-byte header `len << 2` aligned to 4 (TOAST compression of
/// long keys is not modelled: the tree refuses such tuples as too large first).
fn put_varlena(out: &mut Vec<u8>, bytes: &[u8]) {
    if bytes.len() < SHORT_VARLENA_MAX {
        out.push((((bytes.len() + 1) << 1) | 1) as u8);
    } else {
        out.resize(align(out.len(), 4), 0);
        out.extend_from_slice(&(((bytes.len() + 4) << 2) as u32).to_le_bytes());
    }
    out.extend_from_slice(bytes);
}

/// A numeric's varlena payload (numeric.c): NUMERIC_SHORT's 2-byte header
/// (sign, display scale, weight) when they fit it, else NUMERIC_LONG's sign
/// and scale then weight; then the base-10000 digits, leading and trailing
/// zero digits stripped.
fn numeric_bytes(n: &Numeric) -> Vec<u8> {
    let (weight, digits) = n.base10000();
    let (negative, dscale) = (n.signum() < 0, n.scale());
    let mut out = Vec::with_capacity(4 + 2 * digits.len());
    if dscale <= 63 && (-64..=63).contains(&weight) {
        let header = 0x8000
            | if negative { 0x2000 } else { 0 }
            | (dscale << 7)
            | if weight < 0 { 0x0040 } else { 0 }
            | (weight as u16 & 0x003F);
        out.extend_from_slice(&header.to_le_bytes());
    } else {
        let sign_dscale = if negative { 0x4000 } else { 0 } | (dscale & 0x3FFF);
        out.extend_from_slice(&sign_dscale.to_le_bytes());
        out.extend_from_slice(&(weight as i16).to_le_bytes());
    }
    for d in digits {
        out.extend_from_slice(&d.to_le_bytes());
    }
    out
}

/// A uuid's 16 bytes from its canonical text.
fn uuid_bytes(s: &str) -> Result<Vec<u8>, SqlError> {
    let hex: Vec<u8> = s.bytes().filter(|b| *b != b'-').collect();
    let digit = |b: u8| (b as char).to_digit(16).map(|d| d as u8);
    let bytes: Option<Vec<u8>> = hex
        .chunks(2)
        .map(|p| Some(digit(p[0])? << 4 | digit(*p.get(1)?)?))
        .collect();
    match bytes {
        Some(b) if b.len() == 16 => Ok(b),
        _ => Err(unsupported(format!("the uuid value '{s}'"))),
    }
}

fn align(n: usize, to: usize) -> usize {
    n.div_ceil(to) * to
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn int8_is_little_endian_and_text_has_a_short_header() {
        let t = form(&[Value::Int(1)], &[SqlType::Int8]).unwrap();
        assert_eq!((t.size, t.hex().as_str()), (16, "01 00 00 00 00 00 00 00"));
        let t = form(&[Value::text("hello world")], &[SqlType::Text]).unwrap();
        assert_eq!(t.hex(), "19 68 65 6c 6c 6f 20 77 6f 72 6c 64 00 00 00 00");
        assert!(t.has_varwidth && !t.has_nulls);
    }

    #[test]
    fn a_null_moves_the_data_past_the_bitmap() {
        let t = form(
            &[Value::Int(1), Value::Null],
            &[SqlType::Int4, SqlType::Int8],
        )
        .unwrap();
        assert_eq!((t.size, t.hex().as_str()), (24, "01 00 00 00 00 00 00 00"));
        assert!(t.has_nulls);
    }
}
