//! The memtable: recent writes, ordered by internal key, with RocksDB's memory
//! accounting so that `write_buffer_size` seals it when RocksDB would.
//!
//! RocksDB stores each entry in the arena as `varint32 internal_key_len |
//! internal_key | varint32 value_len | value`, inside a skip-list node carrying one
//! 8-byte link per level; that is what [`Memtable::approximate_bytes`] adds up
//! (arena block slack is not modelled). A sealed memtable is immutable until a
//! flush turns it into an L0 SST.

use super::error::LsmError;
use super::skiplist::{SkipList, NIL};
use super::types::{pack, seek_trailer, trailer_kind, varint_len, SeqNo, ValueKind, MAX_SEQ};

/// A memtable (mutable until sealed).
#[derive(Debug, Clone)]
pub struct Memtable {
    id: u64,
    list: SkipList,
    bytes: u64,
    deletes: u64,
    smallest_seq: SeqNo,
    largest_seq: SeqNo,
}

impl Memtable {
    pub(crate) fn new(id: u64) -> Self {
        Memtable {
            id,
            list: SkipList::new(id.wrapping_mul(0x9E37_79B9_7F4A_7C15)),
            bytes: 0,
            deletes: 0,
            smallest_seq: MAX_SEQ,
            largest_seq: 0,
        }
    }

    /// Adds a version of `key` written at `seq` (sequence numbers are unique).
    pub(crate) fn add(&mut self, key: &[u8], seq: SeqNo, kind: ValueKind, value: &[u8]) -> Result<(), LsmError> {
        let height = self
            .list
            .insert(key, pack(seq, kind), value)
            .ok_or(LsmError::ValueTooLarge {
                len: value.len(),
                max: u32::MAX as usize,
            })?;
        let ikey = key.len() as u64 + 8;
        let v = value.len() as u64;
        self.bytes += varint_len(ikey) as u64 + ikey + varint_len(v) as u64 + v + 8 * height as u64;
        if kind == ValueKind::Delete {
            self.deletes += 1;
        }
        self.smallest_seq = self.smallest_seq.min(seq);
        self.largest_seq = self.largest_seq.max(seq);
        Ok(())
    }

    pub fn id(&self) -> u64 {
        self.id
    }

    /// Memory the entries take (RocksDB's `ApproximateMemoryUsage` without arena
    /// block slack).
    pub fn approximate_bytes(&self) -> u64 {
        self.bytes
    }

    pub fn len(&self) -> usize {
        self.list.len()
    }

    pub fn is_empty(&self) -> bool {
        self.list.len() == 0
    }

    pub fn num_deletes(&self) -> u64 {
        self.deletes
    }

    pub fn sequence_range(&self) -> Option<(SeqNo, SeqNo)> {
        (!self.is_empty()).then_some((self.smallest_seq, self.largest_seq))
    }

    pub(crate) fn list(&self) -> &SkipList {
        &self.list
    }

    /// The newest version of `key` at or below `seq`.
    pub(crate) fn get(&self, key: &[u8], seq: SeqNo) -> Option<(ValueKind, &[u8])> {
        let n = self.list.find_ge(key, seek_trailer(seq));
        if n == NIL || self.list.key(n) != key {
            return None;
        }
        Some((trailer_kind(self.list.trailer(n)), self.list.value(n)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_and_snapshots() {
        let mut m = Memtable::new(1);
        m.add(b"k", 1, ValueKind::Put, b"one").unwrap();
        m.add(b"k", 2, ValueKind::Put, b"two").unwrap();
        m.add(b"k", 3, ValueKind::Delete, b"").unwrap();
        assert_eq!(m.get(b"k", 3), Some((ValueKind::Delete, &b""[..])));
        assert_eq!(m.get(b"k", 2), Some((ValueKind::Put, &b"two"[..])));
        assert_eq!(m.get(b"k", 1), Some((ValueKind::Put, &b"one"[..])));
        assert_eq!(m.get(b"k", 0), None);
        assert_eq!(m.get(b"j", 9), None);
        assert_eq!(m.len(), 3);
        assert_eq!(m.num_deletes(), 1);
        assert_eq!(m.sequence_range(), Some((1, 3)));
    }

    #[test]
    fn bytes_follow_rocksdb_entry_encoding() {
        let mut m = Memtable::new(1);
        m.add(&[7u8; 53], 1, ValueKind::Put, &[1u8; 15]).unwrap();
        // 1 + 61 + 1 + 15 = 78 bytes of entry, plus 8 bytes per link (height ≥ 1).
        let b = m.approximate_bytes();
        assert!(b >= 86 && (b - 78) % 8 == 0, "{b}");
    }
}
