//! Cursors over a memtable: its linked nodes, and its sorted tail of entries
//! not linked yet. No block reads: memtables are in memory.

use super::memtable::Memtable;
use super::memtable_rep::{HEAD, NIL};
use super::read_stats::Position;

/// A cursor over one memtable (no block reads: memtables are in memory).
pub(crate) struct MemCursor<'a> {
    mem: &'a Memtable,
    node: u32,
}

impl<'a> MemCursor<'a> {
    pub(crate) fn new(mem: &'a Memtable) -> Self {
        MemCursor { mem, node: NIL }
    }

    #[inline]
    pub(crate) fn valid(&self) -> bool {
        self.node != NIL
    }
    #[inline]
    pub(crate) fn key(&self) -> &'a [u8] {
        self.mem.list().key(self.node)
    }
    #[inline]
    pub(crate) fn trailer(&self) -> u64 {
        self.mem.list().trailer(self.node)
    }
    #[inline]
    pub(crate) fn value(&self) -> &'a [u8] {
        self.mem.list().value(self.node)
    }
    pub(crate) fn position(&self) -> Position {
        Position::Memtable {
            memtable: self.mem.id(),
        }
    }

    fn or_nil(n: u32) -> u32 {
        if n == HEAD {
            NIL
        } else {
            n
        }
    }

    pub(crate) fn seek(&mut self, key: &[u8], trailer: u64) {
        self.node = self.mem.list().find_ge(key, trailer);
    }
    pub(crate) fn seek_for_prev(&mut self, key: &[u8], trailer: u64) {
        self.node = Self::or_nil(self.mem.list().find_last_at_or_before(key, trailer));
    }
    pub(crate) fn seek_to_first(&mut self) {
        self.node = self.mem.list().next(HEAD);
    }
    pub(crate) fn seek_to_last(&mut self) {
        self.node = Self::or_nil(self.mem.list().last());
    }
    #[inline]
    pub(crate) fn next(&mut self) {
        if self.valid() {
            self.node = self.mem.list().next(self.node);
        }
    }
    /// Nodes have no back links: find the last node before this one, as
    /// RocksDB's skip-list iterator does (O(log n)).
    pub(crate) fn prev(&mut self) {
        if self.valid() {
            let (k, t) = (self.key(), self.trailer());
            self.node = Self::or_nil(self.mem.list().find_last_before(k, t));
        }
    }
}

/// A cursor over a memtable's unlinked tail, in sorted order.
pub(crate) struct TailCursor<'a> {
    mem: &'a Memtable,
    sorted: &'a [u32],
    pos: usize,
}

impl<'a> TailCursor<'a> {
    pub(crate) fn new(mem: &'a Memtable) -> Self {
        let sorted = mem.sorted_tail();
        TailCursor {
            mem,
            sorted,
            pos: sorted.len(),
        }
    }

    #[inline]
    pub(crate) fn valid(&self) -> bool {
        self.pos < self.sorted.len()
    }
    #[inline]
    fn node(&self) -> u32 {
        self.sorted[self.pos]
    }
    #[inline]
    pub(crate) fn key(&self) -> &'a [u8] {
        self.mem.list().key(self.node())
    }
    #[inline]
    pub(crate) fn trailer(&self) -> u64 {
        self.mem.list().trailer(self.node())
    }
    #[inline]
    pub(crate) fn value(&self) -> &'a [u8] {
        self.mem.list().value(self.node())
    }
    pub(crate) fn position(&self) -> Position {
        Position::Memtable {
            memtable: self.mem.id(),
        }
    }
    pub(crate) fn seek(&mut self, key: &[u8], trailer: u64) {
        self.pos = self.mem.tail_seek(key, trailer);
    }
    pub(crate) fn seek_for_prev(&mut self, key: &[u8], trailer: u64) {
        let list = self.mem.list();
        let after = self
            .sorted
            .partition_point(|&n| list.cmp_key(n, key, trailer) != std::cmp::Ordering::Greater);
        self.pos = after.checked_sub(1).unwrap_or(self.sorted.len());
    }
    pub(crate) fn seek_to_first(&mut self) {
        self.pos = 0;
    }
    /// The last entry (an empty tail stays invalid: position 0 = its length).
    pub(crate) fn seek_to_last(&mut self) {
        self.pos = self.sorted.len().saturating_sub(1);
    }
    #[inline]
    pub(crate) fn next(&mut self) {
        if self.valid() {
            self.pos += 1;
        }
    }
    pub(crate) fn prev(&mut self) {
        if self.valid() {
            self.pos = self.pos.checked_sub(1).unwrap_or(self.sorted.len());
        }
    }
}
