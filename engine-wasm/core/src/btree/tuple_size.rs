//! The on-page size of a PostgreSQL index tuple (index_form_tuple), which is what the
//! tree's byte accounting needs for each entry.
//!
//! An IndexTupleData header (6-byte heap TID + 2-byte t_info) is followed, when any
//! attribute is NULL, by a null bitmap sized for INDEX_MAX_KEYS (4 bytes); the data
//! starts MAXALIGN'd after that, so at 8 or 16. Each non-null attribute is aligned
//! to its type's typalign: int4 'i' (4), int8 / timestamptz / float8 'd' (8), bool
//! 'c' (1). Text is a varlena: under 127 bytes it is stored with a 1-byte header and
//! no alignment (a "short varlena"), otherwise with a 4-byte header aligned to 4
//! (TOAST compression of long values is not modelled). The total is MAXALIGN'd.

use super::key::KeyError;
use crate::value::{SqlType, Value};

const HEADER: usize = 8;
const NULL_BITMAP: usize = 4;
/// The largest varlena that still fits a 1-byte header (VARATT_SHORT_MAX).
const SHORT_VARLENA_MAX: usize = 0x7F;

/// Bytes an index tuple with these attribute values takes on a page (line pointer
/// not included). Types give the layout; values only matter for NULLs and text.
pub fn index_tuple_size<V: std::borrow::Borrow<Value>>(
    values: &[V],
    types: &[SqlType],
) -> Result<usize, KeyError> {
    if values.len() != types.len() {
        return Err(KeyError::Arity {
            values: values.len(),
            columns: types.len(),
        });
    }
    let has_null = values.iter().any(|v| v.borrow().is_null());
    let mut off = align(HEADER + if has_null { NULL_BITMAP } else { 0 }, 8);
    for (column, (value, &ty)) in values.iter().zip(types).enumerate() {
        off = match (ty, value.borrow()) {
            (_, Value::Null) => off,
            (SqlType::Int4, Value::Int(_)) | (SqlType::Date, Value::Date(_)) => align(off, 4) + 4,
            (SqlType::Interval, Value::Interval(_)) => align(off, 8) + 16,
            (SqlType::Int2, Value::Int(_)) => align(off, 2) + 2,
            (SqlType::Int8, Value::Int(_))
            | (SqlType::Timestamptz, Value::Timestamp(_))
            | (SqlType::Timestamp, Value::LocalTimestamp(_))
            | (SqlType::Float8, Value::Float(_)) => align(off, 8) + 8,
            (SqlType::Bool, Value::Bool(_)) => off + 1,
            (SqlType::Text | SqlType::Bpchar(_), Value::Text(s)) => text_end(off, s.len()),
            (SqlType::Numeric(_), Value::Numeric(n)) => text_end(off, n.payload_size()),
            // uuid: 16 bytes, char alignment.
            (SqlType::Uuid, Value::Text(_)) => off + 16,
            _ => {
                return Err(KeyError::TypeMismatch {
                    column,
                    expected: ty,
                })
            }
        };
    }
    Ok(align(off, 8))
}

fn text_end(off: usize, len: usize) -> usize {
    // The 1-byte header and the data together must not exceed VARATT_SHORT_MAX.
    if len < SHORT_VARLENA_MAX {
        off + 1 + len
    } else {
        align(off, 4) + 4 + len
    }
}

fn align(n: usize, to: usize) -> usize {
    n.div_ceil(to) * to
}

#[cfg(test)]
mod tests {
    use super::*;

    fn size(values: &[Value], types: &[SqlType]) -> usize {
        index_tuple_size(values, types).unwrap()
    }

    #[test]
    fn article_000_index_entry_is_24_bytes() {
        let v = [Value::Timestamp(1), Value::Int(2)];
        assert_eq!(size(&v, &[SqlType::Timestamptz, SqlType::Int8]), 24);
    }

    #[test]
    fn single_integers() {
        assert_eq!(size(&[Value::Int(1)], &[SqlType::Int8]), 16);
        assert_eq!(size(&[Value::Int(1)], &[SqlType::Int4]), 16);
        // int4 + int4 packs into the first 8 data bytes.
        let two = [Value::Int(1), Value::Int(2)];
        assert_eq!(size(&two, &[SqlType::Int4, SqlType::Int4]), 16);
        // int4 then int8: the int8 is aligned to 8.
        assert_eq!(size(&two, &[SqlType::Int4, SqlType::Int8]), 24);
    }

    #[test]
    fn short_text_is_unaligned_with_a_one_byte_header() {
        let t = |s: &str| Value::text(s);
        assert_eq!(size(&[t("")], &[SqlType::Text]), 16);
        assert_eq!(size(&[t("1234567")], &[SqlType::Text]), 16);
        assert_eq!(size(&[t("12345678")], &[SqlType::Text]), 24);
        let long = "x".repeat(200);
        assert_eq!(size(&[t(&long)], &[SqlType::Text]), 8 + 4 + 200 + 4);
        // bool then text: no padding between them.
        let v = [Value::Bool(true), t("abc")];
        assert_eq!(size(&v, &[SqlType::Bool, SqlType::Text]), 16);
    }

    #[test]
    fn nulls_add_a_bitmap_and_no_data() {
        let v = [Value::Null, Value::Int(5)];
        assert_eq!(size(&v, &[SqlType::Timestamptz, SqlType::Int8]), 24);
        assert_eq!(size(&[Value::Null], &[SqlType::Int8]), 16);
    }

    #[test]
    fn rejects_mismatched_values() {
        let v = [Value::text("a")];
        assert!(index_tuple_size(&v, &[SqlType::Int4]).is_err());
        assert!(index_tuple_size(&v, &[]).is_err());
    }
}
