//! A skip scan over a range-sharded key (DocDB's `HybridScanChoices`): a
//! condition on the key's second column, the first unbound or bound by a
//! range. Rather than read every entry and drop those whose second column
//! fails, DocDB seeks: under each value of the first column, straight to the
//! second column's lower bound, and once past its upper bound, straight to
//! the next value of the first column. So `WHERE b = 5` on a key (a, b)
//! costs about two seeks per distinct `a`, not a read of every entry.

use crate::btree::{decode_prefix, KeyColumn};
use std::ops::Bound;

/// The second key column's bounds, as key bytes.
#[derive(Debug, Clone)]
pub struct Skip {
    /// The key's first column, to find where the second begins.
    pub first: KeyColumn,
    pub lower: Bound<Vec<u8>>,
    pub upper: Bound<Vec<u8>>,
}

/// Where a document key stands against the second column's bounds.
#[derive(Debug, PartialEq)]
pub enum Place {
    /// Within them: the row is read.
    Within,
    /// Outside them: the next document that may be within starts at this
    /// key (None: no document after it can be).
    SeekTo(Option<Vec<u8>>),
}

impl Skip {
    /// Where `doc` stands, and where to seek when it is outside.
    pub fn place(&self, doc: &[u8]) -> Place {
        let Ok((_, n)) = decode_prefix(doc, std::slice::from_ref(&self.first)) else {
            return Place::Within;
        };
        let (prefix, second) = doc.split_at(n);
        if !above(second, &self.lower) {
            let target = match &self.lower {
                Bound::Included(lo) => Some([prefix, lo].concat()),
                Bound::Excluded(lo) => successor(lo).map(|s| [prefix, &s].concat()),
                Bound::Unbounded => return Place::Within,
            };
            return Place::SeekTo(target);
        }
        if !below(second, &self.upper) {
            // Past the bound under this first value: on to the next value.
            return Place::SeekTo(successor(prefix));
        }
        Place::Within
    }
}

/// Whether key bytes `k` reach the lower bound (a prefix bound).
fn above(k: &[u8], lower: &Bound<Vec<u8>>) -> bool {
    match lower {
        Bound::Unbounded => true,
        Bound::Included(p) => k >= p.as_slice(),
        Bound::Excluded(p) => k > p.as_slice() && !k.starts_with(p),
    }
}

/// Whether key bytes `k` stay within the upper bound (a prefix bound).
fn below(k: &[u8], upper: &Bound<Vec<u8>>) -> bool {
    match upper {
        Bound::Unbounded => true,
        Bound::Included(p) => k <= p.as_slice() || k.starts_with(p),
        Bound::Excluded(p) => k < p.as_slice(),
    }
}

/// The smallest byte string after every string that starts with `p`.
fn successor(p: &[u8]) -> Option<Vec<u8>> {
    let mut s = p.to_vec();
    while let Some(last) = s.pop() {
        if last < 0xff {
            s.push(last + 1);
            return Some(s);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::btree::{encode_key, SortOrder};
    use crate::value::{SqlType, Value};

    fn col() -> KeyColumn {
        KeyColumn {
            ty: SqlType::Int4,
            order: SortOrder::Asc,
        }
    }

    fn key(a: i64, b: i64) -> Vec<u8> {
        encode_key(&[Value::Int(a), Value::Int(b)], &[col(), col()]).unwrap()
    }

    fn one(v: i64) -> Vec<u8> {
        encode_key(&[Value::Int(v)], &[col()]).unwrap()
    }

    #[test]
    fn below_the_bound_seeks_to_it_and_beyond_it_to_the_next_first_value() {
        let skip = Skip {
            first: col(),
            lower: Bound::Included(one(5)),
            upper: Bound::Included(one(5)),
        };
        assert_eq!(skip.place(&key(1, 5)), Place::Within);
        assert_eq!(skip.place(&key(1, 2)), Place::SeekTo(Some(key(1, 5))));
        let Place::SeekTo(Some(next)) = skip.place(&key(1, 9)) else {
            panic!("a seek past a = 1");
        };
        // After every key of a = 1, before any of a = 2.
        assert!(next > key(1, i64::from(i32::MAX)) && next < key(2, i64::from(i32::MIN)));
    }

    #[test]
    fn the_successor_carries_past_ff_bytes() {
        assert_eq!(successor(&[1, 0xff]), Some(vec![2]));
        assert_eq!(successor(&[0xff, 0xff]), None);
    }
}
