//! The memtable: recent writes, ordered by internal key, with RocksDB's memory
//! accounting so that `write_buffer_size` seals it when RocksDB would.
//!
//! RocksDB stores each entry in the arena as `varint32 internal_key_len |
//! internal_key | varint32 value_len | value`, inside a skip-list node carrying one
//! 8-byte link per level; that is what [`Memtable::approximate_bytes`] adds up
//! (arena block slack is not modelled). A sealed memtable is immutable until a
//! flush turns it into an L0 SST.
//!
//! Linking a random key into a large memtable costs a few scattered cache misses,
//! which would make bulk loads of random keys memory-bound. So a write only
//! appends its node; the unlinked *tail* is sorted once when a read or a flush
//! first needs it (kept in a `OnceCell`, so reads stay `&self`), and linked into
//! the ordered structure — in key order, each link starting next to the previous one —
//! only when a write follows such a read. A pure write burst is thus sorted once
//! (cheap, cache-friendly), and reads interleaved with writes see a short tail.
//! A write whose position the last read already found is linked at once.

use std::cell::OnceCell;
use std::cmp::Ordering;

pub(super) mod arena;
mod block;
pub(super) mod cursor;
mod entry;
pub(super) mod node;
mod prefix_search;
mod rep;

use arena::Arena;
use rep::{MemTableRep, NIL};

use super::error::LsmError;
use super::types::{seek_trailer, trailer_kind, varint_len, SeqNo, ValueKind, MAX_SEQ};

/// A memtable (mutable until sealed).
#[derive(Debug, Clone)]
pub struct Memtable {
    id: u64,
    list: MemTableRep,
    /// Allocated, unlinked nodes, in write order.
    tail: Vec<u32>,
    /// The tail in internal-key order, once a read or flush asked for it.
    sorted_tail: OnceCell<Vec<u32>>,
    bytes: u64,
    key_bytes: usize,
    value_bytes: usize,
    deletes: u64,
    smallest_seq: SeqNo,
    largest_seq: SeqNo,
}

impl Memtable {
    pub(crate) fn new(id: u64) -> Self {
        Memtable {
            id,
            list: MemTableRep::new(id.wrapping_mul(0x9E37_79B9_7F4A_7C15)),
            tail: Vec::new(),
            sorted_tail: OnceCell::new(),
            bytes: 0,
            key_bytes: 0,
            value_bytes: 0,
            deletes: 0,
            smallest_seq: MAX_SEQ,
            largest_seq: 0,
        }
    }

    /// Adds a version of `key` written at `seq` (sequence numbers are unique);
    /// returns the bytes it counts for the entry (see [`approximate_bytes`](Self::approximate_bytes)).
    pub(crate) fn add(
        &mut self,
        key: &[u8],
        seq: SeqNo,
        kind: ValueKind,
        value: &[u8],
    ) -> Result<u64, LsmError> {
        if !self.list.has_room(key.len(), value.len()) {
            return Err(LsmError::ValueTooLarge {
                len: value.len(),
                max: u32::MAX as usize,
            });
        }
        if self.sorted_tail.get().is_some() {
            self.link_tail();
        }
        let (node, height) = self.list.alloc(key, super::types::pack(seq, kind), value);
        // A write right after a read of the same key (DocDB's conflict check and
        // uniqueness read) lands where that read left the search hint: link it
        // now, before the next read moves the hint away and a later link of it
        // needs a full search again.
        if !(self.tail.is_empty() && self.list.link_if_at_hint(node)) {
            self.tail.push(node);
        }
        let ikey = key.len() as u64 + 8;
        let v = value.len() as u64;
        let charged = varint_len(ikey) as u64 + ikey + varint_len(v) as u64 + v + 8 * height as u64;
        self.bytes += charged;
        self.key_bytes += key.len();
        self.value_bytes += value.len();
        if kind == ValueKind::Delete {
            self.deletes += 1;
        }
        self.smallest_seq = self.smallest_seq.min(seq);
        self.largest_seq = self.largest_seq.max(seq);
        Ok(charged)
    }

    /// Links the tail into the ordered structure in key order.
    fn link_tail(&mut self) {
        let sorted = self.sorted_tail.take().unwrap_or_else(|| self.sort_tail());
        for n in sorted {
            self.list.link(n);
        }
        self.tail.clear();
    }

    fn sort_tail(&self) -> Vec<u32> {
        let list = &self.list;
        let mut keyed: Vec<(u128, u32)> = self.tail.iter().map(|&n| (list.prefix(n), n)).collect();
        keyed.sort_unstable_by(|a, b| a.0.cmp(&b.0).then_with(|| list.cmp_nodes(a.1, b.1)));
        keyed.into_iter().map(|(_, n)| n).collect()
    }

    /// Whether some entries are not linked yet.
    pub(crate) fn has_tail(&self) -> bool {
        !self.tail.is_empty()
    }

    /// The unlinked entries in internal-key order (sorted on first use).
    pub(crate) fn sorted_tail(&self) -> &[u32] {
        self.sorted_tail.get_or_init(|| self.sort_tail())
    }

    /// The newest sequence number written here (0 while empty).
    pub(crate) fn largest_seq(&self) -> SeqNo {
        self.largest_seq
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
        self.list.len() + self.tail.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Key comparisons one seek in this memtable is charged (see
    /// [`rep::skip_list_search_comparisons`]).
    pub(crate) fn search_comparisons(&self) -> u64 {
        rep::skip_list_search_comparisons(self.len())
    }

    /// User key bytes held (all versions).
    pub(crate) fn key_bytes(&self) -> usize {
        self.key_bytes
    }

    pub(crate) fn value_bytes(&self) -> usize {
        self.value_bytes
    }

    pub fn num_deletes(&self) -> u64 {
        self.deletes
    }

    pub fn sequence_range(&self) -> Option<(SeqNo, SeqNo)> {
        (!self.is_empty()).then_some((self.smallest_seq, self.largest_seq))
    }

    pub(crate) fn list(&self) -> &MemTableRep {
        &self.list
    }

    /// The arena holding every node, for the SST a flush makes of them.
    pub(crate) fn into_arena(self) -> Arena {
        self.list.into_arena()
    }

    /// First position in the sorted tail at or after the target.
    pub(crate) fn tail_seek(&self, key: &[u8], trailer: u64) -> usize {
        self.sorted_tail()
            .partition_point(|&n| self.list.cmp_key(n, key, trailer) == Ordering::Less)
    }

    /// The newest version of `key` at or below `seq`.
    pub(crate) fn get(&self, key: &[u8], seq: SeqNo) -> Option<(ValueKind, &[u8])> {
        let target = seek_trailer(seq);
        let linked = self.list.node_at(self.list.find_ge(key, target));
        let tail = self.sorted_tail().get(self.tail_seek(key, target)).copied();
        let n = match (linked != NIL, tail) {
            (true, Some(t)) if self.list.cmp_nodes(t, linked) == Ordering::Less => t,
            (true, _) => linked,
            (false, Some(t)) => t,
            (false, None) => return None,
        };
        (self.list.key(n) == key).then(|| (trailer_kind(self.list.trailer(n)), self.list.value(n)))
    }

    /// This memtable without the entries written at `discarded` (an aborted
    /// transaction's provisional records), the rest written again in their
    /// order, under the same id.
    pub(crate) fn without(
        &self,
        discarded: &std::collections::BTreeSet<SeqNo>,
    ) -> Result<Memtable, LsmError> {
        let mut kept = Vec::new();
        self.for_each_sorted(|_, key, trailer, value| {
            let seq = super::types::trailer_seq(trailer);
            if !discarded.contains(&seq) {
                kept.push((seq, trailer_kind(trailer), key.to_vec(), value.to_vec()));
            }
            Ok(())
        })?;
        kept.sort_by_key(|e| e.0);
        let mut fresh = Memtable::new(self.id);
        for (seq, kind, key, value) in kept {
            fresh.add(&key, seq, kind, &value)?;
        }
        Ok(fresh)
    }

    /// Every entry in internal-key order, with its node: the linked nodes merged
    /// with the tail.
    pub(crate) fn for_each_sorted<'m>(
        &'m self,
        mut f: impl FnMut(u32, &'m [u8], u64, &'m [u8]) -> Result<(), LsmError>,
    ) -> Result<(), LsmError> {
        let list = &self.list;
        let tail = self.sorted_tail();
        let mut emit = |n: u32| f(n, list.key(n), list.trailer(n), list.value(n));
        let mut i = 0;
        for block in list.blocks_in_order() {
            list.warm(block);
            for n in block.iter().map(|e| e.id()) {
                while i < tail.len() && list.cmp_nodes(tail[i], n) == Ordering::Less {
                    emit(tail[i])?;
                    i += 1;
                }
                emit(n)?;
            }
        }
        tail[i..].iter().try_for_each(|&n| emit(n))
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
        // A write after a read links the tail; reads see both parts.
        m.add(b"a", 4, ValueKind::Put, b"a").unwrap();
        assert_eq!(m.get(b"a", 9), Some((ValueKind::Put, &b"a"[..])));
        assert_eq!(m.get(b"k", 9), Some((ValueKind::Delete, &b""[..])));
        let mut seen = Vec::new();
        m.for_each_sorted(|_, k, t, _| {
            seen.push((k.to_vec(), t >> 8));
            Ok(())
        })
        .unwrap();
        assert_eq!(
            seen,
            vec![
                (b"a".to_vec(), 4),
                (b"k".to_vec(), 3),
                (b"k".to_vec(), 2),
                (b"k".to_vec(), 1)
            ]
        );
        assert_eq!(m.num_deletes(), 1);
        assert_eq!(m.sequence_range(), Some((1, 4)));
    }

    #[test]
    fn bytes_follow_rocksdb_entry_encoding() {
        let mut m = Memtable::new(1);
        m.add(&[7u8; 53], 1, ValueKind::Put, &[1u8; 15]).unwrap();
        // Varint length, the internal key (53 + 8-byte trailer), varint length,
        // the value; plus 8 bytes per link (height ≥ 1).
        let entry = 1 + (53 + 8) + 1 + 15;
        let b = m.approximate_bytes();
        assert!(b >= entry + 8 && (b - entry).is_multiple_of(8), "{b}");
    }
}
