//! How many bytes a row takes on a heap page (heaptuple.c `heap_compute_data_size`).
//!
//! A heap tuple is a 23-byte `HeapTupleHeaderData`, plus a null bitmap (one bit per
//! column) when any column is null, padded to MAXALIGN (8) — that is `t_hoff`. Then
//! the columns, each aligned to its type's `typalign` relative to the start of the
//! data: int4 on 4, int8 / timestamptz / float8 on 8, bool on 1. Text is a varlena:
//! a value of at most 126 bytes is stored with a 1-byte header and no alignment
//! ("short varlena"); a longer one has a 4-byte header and is aligned on 4. Nulls take
//! no data bytes. The page stores the tuple MAXALIGN'd, and each tuple also needs a
//! 4-byte line pointer (counted by the page, not here).
//!
//! Example: `(bigint, timestamptz)` = 24 (header) + 8 + 8 = 40 bytes.
//!
//! TOAST, simplified: when a tuple would exceed `TOAST_TUPLE_THRESHOLD` (2032 bytes
//! for 8 KiB pages), PostgreSQL compresses and/or moves its largest varlena values
//! out of line until it fits. IndexLab does not model compression or the TOAST
//! table's pages: the largest text values are replaced by their 18-byte TOAST pointer
//! until the tuple is under the threshold.

use crate::value::{SqlType, Value};

/// `MAXIMUM_ALIGNOF` on 64-bit platforms.
pub const MAXALIGN: u32 = 8;
/// `SizeofHeapTupleHeader`: the fixed part of a heap tuple header.
pub const HEAP_TUPLE_HEADER_SIZE: u32 = 23;
/// `SizeOfPageHeaderData`.
pub const PAGE_HEADER_SIZE: u32 = 24;
/// `sizeof(ItemIdData)`: one line pointer.
pub const ITEM_ID_SIZE: u32 = 4;
/// A short varlena holds at most 126 data bytes (`VARATT_SHORT_MAX` = 127 with header).
const SHORT_VARLENA_MAX_DATA: usize = 126;
/// An out-of-line TOAST pointer: 2-byte external header + `varatt_external` (16).
const TOAST_POINTER_SIZE: u32 = 18;

/// Rounds up to a multiple of [`MAXALIGN`].
pub const fn maxalign(n: u32) -> u32 {
    (n + MAXALIGN - 1) & !(MAXALIGN - 1)
}

const fn align_to(n: u32, align: u32) -> u32 {
    (n + align - 1) & !(align - 1)
}

/// `TOAST_TUPLE_THRESHOLD` for a page size: a quarter of the usable page, MAXALIGN'd
/// down (2032 for 8 KiB).
pub fn toast_tuple_threshold(page_size: u32) -> u32 {
    let usable = page_size.saturating_sub(maxalign(PAGE_HEADER_SIZE + 4 * ITEM_ID_SIZE));
    (usable / 4) & !(MAXALIGN - 1)
}

/// The MAXALIGN'd size of a heap tuple holding `values` of columns `types`, for
/// 8 KiB pages. See the module documentation for the layout rules.
pub fn heap_tuple_size(values: &[Value], types: &[SqlType]) -> u16 {
    heap_tuple_size_for_page(values, types, 8192)
}

/// [`heap_tuple_size`] for another page size (only the TOAST threshold depends on it).
/// Never panics: a value without a declared type is laid out by its own kind, and
/// a size beyond `u16::MAX` saturates (the heap then rejects the row as too big).
pub fn heap_tuple_size_for_page(values: &[Value], types: &[SqlType], page_size: u32) -> u16 {
    let len = heap_tuple_len_for_page(values, types, page_size);
    u16::try_from(maxalign(u32::from(len))).unwrap_or(u16::MAX)
}

/// The tuple's length before MAXALIGN (the line pointer's `lp_len`):
/// header, null bitmap and padding to `t_hoff`, then the data.
pub fn heap_tuple_len_for_page(values: &[Value], types: &[SqlType], page_size: u32) -> u16 {
    let natts = values.len().max(types.len()) as u32;
    let any_null = values.iter().any(Value::is_null) || types.len() > values.len();
    let bitmap = if any_null { natts.div_ceil(8) } else { 0 };
    let t_hoff = maxalign(HEAP_TUPLE_HEADER_SIZE + bitmap);
    if !text_lens_needed(values) {
        // Nothing to toast: the common all-fixed-width row, without allocating.
        return u16::try_from(t_hoff + data_length(values, types, &[])).unwrap_or(u16::MAX);
    }
    let mut text_lens: Vec<Option<usize>> = values
        .iter()
        .zip(types.iter().map(Some).chain(std::iter::repeat(None)))
        .map(|(v, ty)| {
            if ty == Some(&SqlType::Uuid) {
                None
            } else {
                text_len(v)
            }
        })
        .collect();
    let threshold = toast_tuple_threshold(page_size);
    loop {
        let total = t_hoff + data_length(values, types, &text_lens);
        if total <= threshold || !toast_largest(&mut text_lens) {
            return u16::try_from(total).unwrap_or(u16::MAX);
        }
    }
}

fn text_lens_needed(values: &[Value]) -> bool {
    values
        .iter()
        .any(|v| matches!(v, Value::Text(_) | Value::Json(_) | Value::Jsonb(_)))
}

/// The inline data length of a text or JSON value (`None`: not one, or
/// already toasted). A jsonb takes its binary format's bytes.
fn text_len(v: &Value) -> Option<usize> {
    match v {
        Value::Text(s) | Value::Json(s) => Some(s.len()),
        Value::Jsonb(j) => Some(j.datum_size() - 4),
        _ => None,
    }
}

/// Moves the largest inline text value out of line. Returns false when nothing is
/// left worth moving (PostgreSQL only toasts values larger than a TOAST pointer).
fn toast_largest(text_lens: &mut [Option<usize>]) -> bool {
    let biggest = text_lens
        .iter()
        .enumerate()
        .filter_map(|(i, l)| l.map(|l| (l, i)))
        .filter(|&(l, _)| l > SHORT_VARLENA_MAX_DATA)
        .max();
    match biggest {
        Some((_, i)) => {
            text_lens[i] = None;
            true
        }
        None => false,
    }
}

/// Bytes of the data area: each non-null column aligned then appended.
fn data_length(values: &[Value], types: &[SqlType], text_lens: &[Option<usize>]) -> u32 {
    let mut off = 0u32;
    for (i, v) in values.iter().enumerate() {
        let (len, align) = match v {
            Value::Null => continue,
            Value::Text(_) if types.get(i) == Some(&SqlType::Uuid) => (16, 1),
            Value::Text(_) | Value::Json(_) | Value::Jsonb(_) => varlena_layout(text_lens[i]),
            // Always a short varlena within IndexLab's 38 digits, unaligned.
            Value::Numeric(n) => varlena_layout(Some(n.payload_size())),
            other => fixed_layout(other, types.get(i).copied()),
        };
        off = align_to(off, align).saturating_add(len);
    }
    off
}

/// (length, alignment) of a fixed-width value; the column type decides int4 vs int8.
fn fixed_layout(v: &Value, ty: Option<SqlType>) -> (u32, u32) {
    match (v, ty) {
        (Value::Int(_), Some(SqlType::Int4)) => (4, 4),
        (Value::Int(_), Some(SqlType::Int2)) => (2, 2),
        (Value::Bool(_), _) => (1, 1),
        // date: an int4 (typalign 'i'); interval: 16 bytes, typalign 'd'.
        (Value::Date(_), _) => (4, 4),
        (Value::Interval(_), _) => (16, 8),
        _ => (8, 8),
    }
}

/// (length, alignment) of a text value with `len` inline bytes (`None`: toasted).
fn varlena_layout(len: Option<usize>) -> (u32, u32) {
    match len {
        None => (TOAST_POINTER_SIZE, 1),
        Some(l) if l <= SHORT_VARLENA_MAX_DATA => (l as u32 + 1, 1),
        Some(l) => (u32::try_from(l).unwrap_or(u32::MAX).saturating_add(4), 4),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use SqlType::*;

    fn size(values: &[Value], types: &[SqlType]) -> u16 {
        heap_tuple_size(values, types)
    }

    #[test]
    fn article_000_row_is_40_bytes() {
        // (id bigserial, value timestamptz): header 24 + 8 + 8.
        let row = [Value::Int(1), Value::Timestamp(0)];
        assert_eq!(size(&row, &[Int8, Timestamptz]), 24 + 8 + 8);
        // (n bigint) of article 004: 24 + 8.
        assert_eq!(size(&[Value::Int(5)], &[Int8]), 24 + 8);
    }

    #[test]
    fn alignment_padding_follows_typalign() {
        // int4 then int8: 4 bytes, pad to 8, 8 bytes.
        let int4_int8 = size(&[Value::Int(1), Value::Int(2)], &[Int4, Int8]);
        assert_eq!(int4_int8, 24 + 4 + 4 + 8);
        // int8 then int4: 12 bytes, MAXALIGN'd.
        let int8_int4 = size(&[Value::Int(2), Value::Int(1)], &[Int8, Int4]);
        assert_eq!(int8_int4, maxalign(24 + 8 + 4) as u16);
        // bool, int4: 1, pad to 4, 4.
        let bool_int4 = size(&[Value::Bool(true), Value::Int(1)], &[Bool, Int4]);
        assert_eq!(bool_int4, 24 + 1 + 3 + 4);
        // A lone int4, MAXALIGN'd.
        assert_eq!(size(&[Value::Int(1)], &[Int4]), maxalign(24 + 4) as u16);
    }

    #[test]
    fn short_text_is_unaligned_long_text_aligned() {
        let short = Value::text("x".repeat(10));
        // bool(1) + short text (1-byte header + 10), no padding, MAXALIGN'd.
        let bool_short = size(&[Value::Bool(true), short], &[Bool, Text]);
        assert_eq!(bool_short, maxalign(24 + 1 + 1 + 10) as u16);
        // 126 bytes still short: a 1-byte header.
        let short_126 = size(&[Value::text("a".repeat(126))], &[Text]);
        assert_eq!(short_126, maxalign(24 + 1 + 126) as u16);
        // 127 bytes takes a 4-byte header.
        let long_127 = size(&[Value::text("a".repeat(127))], &[Text]);
        assert_eq!(long_127, maxalign(24 + 4 + 127) as u16);
        // bool then a long text: 1, pad to 4, 4-byte header + 200.
        let long = Value::text("b".repeat(200));
        let bool_long = size(&[Value::Bool(false), long], &[Bool, Text]);
        assert_eq!(bool_long, 24 + 1 + 3 + 4 + 200);
    }

    #[test]
    fn nulls_add_a_bitmap_and_no_data() {
        // 23 + 1 bitmap byte = 24, still one MAXALIGN unit; value omitted.
        assert_eq!(
            size(&[Value::Int(1), Value::Null], &[Int8, Timestamptz]),
            32
        );
        // 9 columns → 2 bitmap bytes: 25 → t_hoff 32.
        let mut row = vec![Value::Null];
        row.extend((0..8).map(|_| Value::Bool(true)));
        assert_eq!(size(&row, &[Bool; 9]), 40);
    }

    #[test]
    fn oversized_text_is_toasted() {
        assert_eq!(toast_tuple_threshold(8192), 2032);
        let big = Value::text("z".repeat(100_000));
        // Out of line: the int8 and an 18-byte TOAST pointer, MAXALIGN'd.
        let toasted = size(&[Value::Int(1), big], &[Int8, Text]);
        assert_eq!(toasted, maxalign(24 + 8 + 18) as u16);
        let medium = Value::text("z".repeat(1500));
        assert_eq!(size(&[medium], &[Text]), maxalign(24 + 1504) as u16);
    }

    #[test]
    fn mismatched_inputs_do_not_panic() {
        assert_eq!(size(&[Value::Int(1), Value::Float(1.0)], &[]), 40);
        // A declared column without a value counts as null.
        assert_eq!(size(&[Value::Int(1)], &[Int8, Int8]), 32);
        assert_eq!(size(&[], &[]), 24);
    }
}
