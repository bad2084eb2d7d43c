//! DocDB's key layout, as bytes the LSM orders.
//!
//! A RocksDB key of DocDB is a *document key* followed by a suffix:
//! - document key: for a hash-sharded table `G` + the 16-bit hash of the hash
//!   columns (YugabyteDB's own, `crate::partition_hash`), the hash columns, a group end `!`; then the range columns and a
//!   group end. Each column is an order-preserving typed encoding (DESC columns
//!   inverted), so byte order is SQL order within a tablet;
//! - suffix: an optional subkey (`J0` the row's liveness column, `K<id>` a column,
//!   when rows are not packed), then the write's hybrid time `#` + 8 bytes
//!   inverted (newest sorts first) + a 2-byte write id, then one byte giving the
//!   suffix length — as DocDB's encoded `DocHybridTime` ends with its own size —
//!   so the document key of any entry is found from its end.

use crate::btree::{encode_key_into, KeyColumn};
use crate::partition_hash::partition_hash;
use crate::value::Value;

pub const HASH_MARKER: u8 = b'G';
pub const GROUP_END: u8 = b'!';
pub const HT_MARKER: u8 = b'#';
pub const LIVENESS: u8 = b'J';
pub const COLUMN: u8 = b'K';
/// Marker, 8 bytes of time, 2 of write id, and the size byte.
pub const HT_LEN: usize = 12;

/// A hybrid time: microseconds and a logical counter for writes in the same µs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct HybridTime {
    pub micros: u64,
    pub logical: u16,
}

/// Encodes a document key: `hash_columns` (possibly none) then `range_columns`.
pub fn doc_key<V: std::borrow::Borrow<Value>>(
    hash_values: &[V],
    hash_columns: &[KeyColumn],
    range_values: &[V],
    range_columns: &[KeyColumn],
    out: &mut Vec<u8>,
) -> Result<(), crate::btree::KeyError> {
    out.clear();
    if !hash_columns.is_empty() {
        let hash = partition_hash(hash_values, hash_columns)?.to_be_bytes();
        out.extend_from_slice(&[HASH_MARKER, hash[0], hash[1]]);
        encode_key_into(hash_values, hash_columns, out)?;
        out.push(GROUP_END);
    }
    encode_key_into(range_values, range_columns, out)?;
    out.push(GROUP_END);
    Ok(())
}

/// The hash of a document key (0 for a range-sharded one).
pub fn key_hash(doc_key: &[u8]) -> u16 {
    match doc_key {
        [HASH_MARKER, a, b, ..] => u16::from_be_bytes([*a, *b]),
        _ => 0,
    }
}

/// Appends an entry suffix: the subkey (empty, or `J0` / `K<id>`) and `ht`.
pub fn push_suffix(out: &mut Vec<u8>, subkey: &[u8], ht: HybridTime) {
    out.extend_from_slice(subkey);
    push_hybrid_time(out, ht);
    out.push((subkey.len() + HT_LEN) as u8);
}

/// The encoded hybrid time without the size byte (also what transactional
/// writes put in front of a value).
pub fn push_hybrid_time(out: &mut Vec<u8>, ht: HybridTime) {
    // Built whole and appended once (every entry written carries one, and
    // a transactional value a second).
    let mut bytes = [HT_MARKER; HT_LEN - 1];
    bytes[1..9]
        .copy_from_slice(&(!((ht.micros << 12) | u64::from(ht.logical & 0xfff))).to_be_bytes());
    bytes[9..].copy_from_slice(&(!ht.logical).to_be_bytes());
    out.extend_from_slice(&bytes);
}

/// The document key of an entry (the key without its suffix).
pub fn doc_key_of(key: &[u8]) -> &[u8] {
    match key.last() {
        Some(&n) if (n as usize) <= key.len() => &key[..key.len() - n as usize],
        _ => key,
    }
}

/// The subkey of an entry (empty for a packed row or a tombstone).
pub fn subkey_of(key: &[u8]) -> &[u8] {
    let doc = doc_key_of(key).len();
    let end = key.len().saturating_sub(HT_LEN);
    &key[doc.min(end)..end]
}

/// The encoded hybrid time of an entry's key (without its size byte). Times
/// are stored inverted, so a smaller encoding is a newer write.
pub fn hybrid_time_of(key: &[u8]) -> &[u8] {
    let end = key.len().saturating_sub(1);
    &key[end.saturating_sub(HT_LEN - 1)..end]
}

/// Whether the entry with key `a` was written after the one with key `b`.
pub fn written_after(a: &[u8], b: &[u8]) -> bool {
    hybrid_time_of(a) < hybrid_time_of(b)
}

/// The smallest key after every entry of document `doc`.
pub fn after_doc(doc: &[u8]) -> Vec<u8> {
    let mut k = doc.to_vec();
    k.push(0xff);
    k
}

/// Escapes a document key to embed it as a key column (the base row's ybctid in
/// a secondary index): 0x00 becomes 0x00 0xff, then a 0x00 0x01 terminator, so
/// the embedding is prefix-free and keeps order.
pub fn push_escaped(out: &mut Vec<u8>, bytes: &[u8]) {
    // Written into room made once for the longest result (a secondary index
    // escapes its base row's key for every row written, and an integer key is
    // mostly zero bytes: a push per byte checks for room, a copy per run
    // between zeros is a call each). Every byte is written with a 0xff after
    // it, which the next byte overwrites unless this one was a zero.
    let start = out.len();
    out.resize(start + 2 * bytes.len() + 3, 0);
    let room = &mut out[start..];
    room[0] = b'S';
    let mut at = 1;
    for &b in bytes {
        room[at] = b;
        room[at + 1] = 0xff;
        at += 1 + usize::from(b == 0);
    }
    room[at..at + 2].copy_from_slice(&[0, 1]);
    out.truncate(start + at + 2);
}

/// Reads back what [`push_escaped`] wrote at the start of `bytes`: the document
/// key and the bytes consumed.
pub fn read_escaped(bytes: &[u8]) -> Option<(Vec<u8>, usize)> {
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 1;
    if bytes.first() != Some(&b'S') {
        return None;
    }
    while i < bytes.len() {
        match (bytes[i], bytes.get(i + 1)) {
            (0, Some(1)) => return Some((out, i + 2)),
            (0, Some(0xff)) => {
                out.push(0);
                i += 2;
            }
            (b, _) => {
                out.push(b);
                i += 1;
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::SqlType;

    #[test]
    fn newer_versions_sort_first_and_the_doc_key_is_found_from_the_end() {
        let mut d = Vec::new();
        doc_key(
            &[Value::Int(7)],
            &[KeyColumn::asc(SqlType::Int8)],
            &[],
            &[],
            &mut d,
        )
        .unwrap();
        let (mut old, mut new, mut col) = (d.clone(), d.clone(), d.clone());
        push_suffix(
            &mut old,
            &[],
            HybridTime {
                micros: 10,
                logical: 0,
            },
        );
        push_suffix(
            &mut new,
            &[],
            HybridTime {
                micros: 11,
                logical: 0,
            },
        );
        push_suffix(
            &mut col,
            &[COLUMN, 1],
            HybridTime {
                micros: 12,
                logical: 0,
            },
        );
        assert!(new < old && old < col);
        for k in [&old, &new, &col] {
            assert_eq!(doc_key_of(k), &d[..]);
        }
        assert_eq!(subkey_of(&col), &[COLUMN, 1]);
        assert!(subkey_of(&old).is_empty());
        assert!(after_doc(&d) > col);
    }

    #[test]
    fn escaped_doc_keys_round_trip_and_keep_order() {
        let a = vec![1, 0, 2];
        let b = vec![1, 0, 3, 0];
        let (mut ea, mut eb) = (Vec::new(), Vec::new());
        push_escaped(&mut ea, &a);
        push_escaped(&mut eb, &b);
        assert!(ea < eb);
        assert_eq!(read_escaped(&ea), Some((a, ea.len())));
        assert_eq!(read_escaped(&eb).unwrap().0, b);
    }

    proptest::proptest! {
        /// Escaping a run at a time writes what escaping byte by byte does.
        #[test]
        fn escaping_matches_the_byte_rule(
            bytes in proptest::collection::vec(proptest::sample::select(vec![0u8, 1, 0xff, 7]), 0..40),
            before in proptest::collection::vec(proptest::num::u8::ANY, 0..4),
        ) {
            let mut want = before.clone();
            want.push(b'S');
            for &b in &bytes {
                want.extend_from_slice(if b == 0 { &[0, 0xff][..] } else { std::slice::from_ref(&b) });
            }
            want.extend_from_slice(&[0, 1]);
            let mut got = before;
            push_escaped(&mut got, &bytes);
            proptest::prop_assert_eq!(got, want);
        }
    }
}
