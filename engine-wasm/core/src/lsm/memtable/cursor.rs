//! Cursors over a memtable: its linked nodes, and its sorted tail of entries
//! not linked yet. No block reads: memtables are in memory.

use super::entry::Entry;
use super::rep::Position as Place;
use super::Memtable;
use crate::lsm::read::Position;
use crate::lsm::types::{visible_kind, SeqNo, ValueKind};

/// A cursor over one memtable (no block reads: memtables are in memory).
pub(crate) struct MemCursor<'a> {
    mem: &'a Memtable,
    at: Place,
    /// The entry at `at`, `None` when not valid.
    entry: Option<Entry>,
}

impl<'a> MemCursor<'a> {
    pub(crate) fn new(mem: &'a Memtable) -> Self {
        MemCursor {
            mem,
            at: Place::START,
            entry: None,
        }
    }

    #[inline]
    pub(crate) fn valid(&self) -> bool {
        self.entry.is_some()
    }
    #[inline]
    fn current(&self) -> Entry {
        self.entry.expect("a valid cursor")
    }
    #[inline]
    pub(crate) fn key(&self) -> &'a [u8] {
        self.mem.list().key_of(self.current())
    }
    #[inline]
    pub(crate) fn trailer(&self) -> u64 {
        self.mem.list().trailer(self.current().id())
    }
    #[inline]
    pub(crate) fn value(&self) -> &'a [u8] {
        self.mem.list().value_of(self.current())
    }
    /// The current key's first 12 bytes (zero-padded), from the entry.
    #[inline]
    pub(crate) fn prefix(&self) -> u128 {
        self.current().prefix()
    }
    /// The entry's kind if its version is visible at `seq`. When `seq` sees
    /// every version in the memtable, the entry's shape answers without a
    /// read of the node.
    #[inline]
    pub(crate) fn visible_kind(&self, seq: SeqNo) -> Option<ValueKind> {
        match self.current().shape() {
            Some(shape) if self.mem.largest_seq() <= seq => Some(shape.kind),
            _ => visible_kind(self.trailer(), seq),
        }
    }
    pub(crate) fn position(&self) -> Position {
        Position::Memtable {
            memtable: self.mem.id(),
        }
    }

    #[inline]
    fn go(&mut self, at: Option<Place>) {
        match at {
            Some(at) => {
                self.at = at;
                self.entry = self.mem.list().entry_at(at);
            }
            None => self.entry = None,
        }
    }

    /// Key comparisons a seek or a step back here is charged.
    pub(crate) fn search_comparisons(&self) -> u64 {
        self.mem.search_comparisons()
    }

    pub(crate) fn seek(&mut self, key: &[u8], trailer: u64) {
        self.go(Some(self.mem.list().find_ge(key, trailer)));
    }
    pub(crate) fn seek_for_prev(&mut self, key: &[u8], trailer: u64) {
        self.go(self.mem.list().find_last_at_or_before(key, trailer));
    }
    pub(crate) fn seek_to_first(&mut self) {
        self.go(Some(Place::START));
    }
    pub(crate) fn seek_to_last(&mut self) {
        self.go(self.mem.list().last());
    }
    #[inline]
    pub(crate) fn next(&mut self) {
        if self.valid() {
            self.go(Some(self.mem.list().step(self.at)));
        }
    }
    /// One step back: the blocks list the nodes in order (RocksDB's skip list
    /// has no back links and searches again).
    pub(crate) fn prev(&mut self) {
        if self.valid() {
            self.go(self.mem.list().step_back(self.at));
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
