//! Suffix truncation of pivot tuples (PostgreSQL 12+, `_bt_truncate` and
//! `_bt_keepnatts` in nbtutils.c).
//!
//! A leaf split's new high key — and so the downlink posted to the parent — is
//! built from the first item of the right page (`firstright`), keeping only as
//! many key attributes as it takes to tell it from the last item of the left page
//! (`lastleft`). INCLUDE attributes are always dropped. When every key attribute is
//! equal, all are kept and a heap TID is appended: lastleft's, so the pivot is the
//! smallest value above every item of the left page.
//!
//! On the page a truncated pivot is an IndexTupleData header (8 bytes) and the
//! kept attributes, MAXALIGN'd (`index_truncate_tuple`), plus
//! MAXALIGN(sizeof(ItemPointerData)) = 8 bytes when the heap TID is kept
//! (BTreeTupleSetNAtts with BT_PIVOT_HEAP_TID_ATTR).
//!
//! In the tree, a pivot's key is the byte prefix of firstright's key that encodes
//! the kept attributes (every column's encoding is prefix-free, so that prefix
//! sorts before every key that extends it: the truncated attributes are "minus
//! infinity", as `_bt_compare` treats them). Its payload is 0 when the heap TID is
//! truncated (minus infinity again: no heap TID packs to 0), or lastleft's heap TID
//! plus one when it is kept, so that the tree's "last pivot ≤ target" descent sends
//! lastleft itself to the left, as PostgreSQL's "last pivot < scankey" does.

use super::key::{decode_prefix, KeyColumn};
use super::tuple_size::index_tuple_size;
use crate::value::SqlType;

/// MAXALIGN(sizeof(ItemPointerData)): what a kept heap TID adds to a pivot.
pub const HEAP_TID_BYTES: u16 = 8;

/// The key columns of the index a tree serves, which truncation needs to find
/// attribute boundaries in key bytes and to size what it keeps. Without them
/// (a tree over opaque keys) a key is one attribute whose tuple size is the
/// entry's own.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PivotLayout {
    columns: Vec<KeyColumn>,
}

/// A pivot built for a leaf split.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct TruncatedPivot {
    /// Key bytes of the kept attributes.
    pub key: Vec<u8>,
    /// 0 (heap TID truncated) or lastleft's heap TID + 1.
    pub payload: u64,
    /// The pivot's on-page size.
    pub size: u16,
}

impl PivotLayout {
    pub fn new(columns: Vec<KeyColumn>) -> Self {
        PivotLayout { columns }
    }

    /// IndexRelationGetNumberOfKeyAttributes.
    pub fn key_atts(&self) -> usize {
        self.columns.len().max(1)
    }

    /// Where each key attribute's encoding ends in `key` (as many as decode).
    fn ends(&self, key: &[u8]) -> Vec<usize> {
        let mut ends = Vec::with_capacity(self.columns.len());
        let mut pos = 0;
        for c in &self.columns {
            match decode_prefix(&key[pos..], std::slice::from_ref(c)) {
                Ok((_, used)) => {
                    pos += used;
                    ends.push(pos);
                }
                Err(_) => break,
            }
        }
        ends
    }

    /// `_bt_keep_natts_fast`: the number of leading key attributes a pivot
    /// between `lastleft` and `firstright` must keep — the first attribute
    /// that differs — or key attributes + 1 when all are equal (a heap TID is
    /// needed).
    pub fn keep_natts(&self, lastleft: &[u8], firstright: &[u8]) -> usize {
        if lastleft == firstright {
            return self.key_atts() + 1;
        }
        if self.columns.is_empty() {
            return 1;
        }
        let common = lastleft
            .iter()
            .zip(firstright)
            .take_while(|(a, b)| a == b)
            .count();
        // The attribute holding the first differing byte.
        let ends = self.ends(firstright);
        (1 + ends.iter().take_while(|&&e| e <= common).count()).min(self.key_atts())
    }

    /// `_bt_truncate` of a leaf split between `lastleft` and `firstright`
    /// (`firstright_size` is firstright's tuple size, INCLUDE columns and all).
    pub(crate) fn truncate(
        &self,
        lastleft: (&[u8], u64),
        firstright: (&[u8], u64, u16),
    ) -> TruncatedPivot {
        let natts = self.key_atts();
        let keep = self.keep_natts(lastleft.0, firstright.0);
        let (key, bytes) = match self.columns.is_empty() {
            true => (firstright.0.to_vec(), firstright.2),
            false => {
                let kept = keep.min(natts);
                let ends = self.ends(firstright.0);
                let end = ends.get(kept - 1).copied().unwrap_or(firstright.0.len());
                let key = firstright.0[..end].to_vec();
                let size = decode_prefix(&key, &self.columns[..kept])
                    .ok()
                    .and_then(|(values, _)| {
                        let types: Vec<SqlType> =
                            self.columns[..kept].iter().map(|c| c.ty).collect();
                        index_tuple_size(&values, &types).ok()
                    })
                    .map_or(firstright.2, |s| s as u16);
                (key, size)
            }
        };
        if keep > natts {
            TruncatedPivot {
                key,
                payload: lastleft.1 + 1,
                size: bytes + HEAP_TID_BYTES,
            }
        } else {
            TruncatedPivot {
                key,
                payload: 0,
                size: bytes,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::btree::key::encode_key;
    use crate::value::Value;

    fn two_ints() -> PivotLayout {
        PivotLayout::new(vec![
            KeyColumn::asc(SqlType::Int4),
            KeyColumn::asc(SqlType::Int4),
        ])
    }

    fn key(layout: &PivotLayout, a: i64, b: i64) -> Vec<u8> {
        encode_key(&[Value::Int(a), Value::Int(b)], &layout.columns).unwrap()
    }

    #[test]
    fn keeps_attributes_up_to_the_first_difference() {
        let l = two_ints();
        assert_eq!(l.keep_natts(&key(&l, 1, 5), &key(&l, 2, 0)), 1);
        assert_eq!(l.keep_natts(&key(&l, 1, 5), &key(&l, 1, 6)), 2);
        assert_eq!(l.keep_natts(&key(&l, 1, 5), &key(&l, 1, 5)), 3);
        // 256 and 257 share their first three bytes: the attribute still differs.
        assert_eq!(l.keep_natts(&key(&l, 256, 5), &key(&l, 257, 5)), 1);
    }

    #[test]
    fn truncated_pivot_sizes() {
        let l = two_ints();
        // One int4 attribute: 8 + 4 → 16.
        let p = l.truncate((&key(&l, 1, 5), 7), (&key(&l, 2, 0), 9, 16));
        assert_eq!((p.size, p.payload), (16, 0));
        assert_eq!(
            p.key,
            encode_key(&[Value::Int(2)], &l.columns[..1]).unwrap()
        );
        // All equal: both attributes and lastleft's heap TID (+1 in the tree).
        let p = l.truncate((&key(&l, 1, 5), 7), (&key(&l, 1, 5), 9, 16));
        assert_eq!((p.size, p.payload), (24, 8));
        // An opaque key keeps the entry's size.
        let o = PivotLayout::default();
        let p = o.truncate((b"a", 1), (b"b", 2, 40));
        assert_eq!((p.size, p.payload, p.key), (40, 0, b"b".to_vec()));
    }
}
