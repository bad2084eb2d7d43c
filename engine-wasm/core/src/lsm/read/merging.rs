//! The merging iterator: one cursor per source (each memtable, each L0 SST, one
//! per deeper level), positioned on internal entries in internal-key order.
//!
//! RocksDB keeps its children in a heap; we pick the smallest (forward) or
//! largest (backward) child by a linear scan, because a tree has few sources and
//! the scan makes both directions equally simple. A direction change is a re-seek
//! of every child, done by the user-level iterator (as `DBIter` re-seeks on a
//! direction change).

use std::cmp::Ordering;

use super::ctx::ReadCtx;
use super::level_cursor::LevelCursor;
use super::stats::Position;
use crate::lsm::memtable::cursor::{MemCursor, TailCursor};
use crate::lsm::sst::cursor::TableCursor;
use crate::lsm::types::{cmp_internal, visible_kind, SeqNo, ValueKind};

pub(crate) enum Child<'a> {
    Mem(MemCursor<'a>),
    Tail(TailCursor<'a>),
    Table(TableCursor<'a>),
    Level(LevelCursor<'a>),
}

impl<'a> Child<'a> {
    #[inline]
    fn valid(&self) -> bool {
        match self {
            Child::Mem(c) => c.valid(),
            Child::Tail(c) => c.valid(),
            Child::Table(c) => c.valid(),
            Child::Level(c) => c.table().is_some(),
        }
    }

    #[inline]
    fn key(&self) -> (&'a [u8], u64) {
        match self {
            Child::Mem(c) => (c.key(), c.trailer()),
            Child::Tail(c) => (c.key(), c.trailer()),
            Child::Table(c) => (c.key(), c.trailer()),
            Child::Level(c) => c.table().map_or((&[][..], 0), |t| (t.key(), t.trailer())),
        }
    }

    /// The user key alone: a memtable's entry gives its node's key without
    /// reading the node's header for the trailer.
    #[inline]
    fn user_key(&self) -> &'a [u8] {
        match self {
            Child::Mem(c) => c.key(),
            _ => self.key().0,
        }
    }

    /// The entry's kind if its version is visible at `seq`.
    #[inline]
    fn visible_kind(&self, seq: SeqNo) -> Option<ValueKind> {
        match self {
            Child::Mem(c) => c.visible_kind(seq),
            _ => visible_kind(self.key().1, seq),
        }
    }

    /// The key's first 12 bytes (zero-padded) when the source has them
    /// without reading the key (a memtable's entry).
    #[inline]
    fn key_prefix(&self) -> Option<u128> {
        match self {
            Child::Mem(c) => Some(c.prefix()),
            _ => None,
        }
    }

    #[inline]
    fn value(&self) -> &'a [u8] {
        match self {
            Child::Mem(c) => c.value(),
            Child::Tail(c) => c.value(),
            Child::Table(c) => c.value(),
            Child::Level(c) => c.table().map_or(&[][..], |t| t.value()),
        }
    }

    fn position(&self) -> Option<Position> {
        match self {
            Child::Mem(c) => Some(c.position()),
            Child::Tail(c) => Some(c.position()),
            Child::Table(c) => Some(c.position()),
            Child::Level(c) => c.table().map(|t| t.position()),
        }
    }

    fn seek(&mut self, ctx: &mut ReadCtx, key: &[u8], trailer: u64) {
        match self {
            Child::Mem(c) => {
                ctx.stats.key_comparisons.memtable += c.search_comparisons();
                c.seek(key, trailer)
            }
            Child::Tail(c) => c.seek(key, trailer),
            Child::Table(c) => c.seek(ctx, key, trailer),
            Child::Level(c) => c.seek(ctx, key, trailer),
        }
    }

    fn seek_for_prev(&mut self, ctx: &mut ReadCtx, key: &[u8], trailer: u64) {
        match self {
            Child::Mem(c) => {
                ctx.stats.key_comparisons.memtable += c.search_comparisons();
                c.seek_for_prev(key, trailer)
            }
            Child::Tail(c) => c.seek_for_prev(key, trailer),
            Child::Table(c) => c.seek_for_prev(ctx, key, trailer),
            Child::Level(c) => c.seek_for_prev(ctx, key, trailer),
        }
    }

    fn seek_to_first(&mut self, ctx: &mut ReadCtx) {
        match self {
            Child::Mem(c) => c.seek_to_first(),
            Child::Tail(c) => c.seek_to_first(),
            Child::Table(c) => c.seek_to_first(ctx),
            Child::Level(c) => c.seek_to_first(ctx),
        }
    }

    fn seek_to_last(&mut self, ctx: &mut ReadCtx) {
        match self {
            Child::Mem(c) => c.seek_to_last(),
            Child::Tail(c) => c.seek_to_last(),
            Child::Table(c) => c.seek_to_last(ctx),
            Child::Level(c) => c.seek_to_last(ctx),
        }
    }

    #[inline]
    fn next(&mut self, ctx: &mut ReadCtx) {
        match self {
            Child::Mem(c) => c.next(),
            Child::Tail(c) => c.next(),
            Child::Table(c) => c.next(ctx),
            Child::Level(c) => c.next(ctx),
        }
    }

    fn prev(&mut self, ctx: &mut ReadCtx) {
        match self {
            // The skip list searches again for the node before (see
            // `skip_list_search_comparisons`).
            Child::Mem(c) => {
                ctx.stats.key_comparisons.memtable += c.search_comparisons();
                c.prev()
            }
            Child::Tail(c) => c.prev(),
            Child::Table(c) => c.prev(ctx),
            Child::Level(c) => c.prev(ctx),
        }
    }
}

/// The sources of one iterator: inline up to two (a memtable and its unlinked
/// tail, or a memtable and one level), the common case of a point read.
pub(crate) type Children<'a> = smallvec::SmallVec<[Child<'a>; 2]>;

pub(crate) struct MergingIter<'a> {
    children: Children<'a>,
    current: Option<usize>,
}

impl<'a> MergingIter<'a> {
    pub(crate) fn new(children: Children<'a>) -> Self {
        MergingIter {
            children,
            current: None,
        }
    }

    /// The sources, to add to before the first positioning.
    pub(crate) fn children_mut(&mut self) -> &mut Children<'a> {
        &mut self.children
    }

    #[inline]
    pub(crate) fn valid(&self) -> bool {
        self.current.is_some()
    }

    /// Whether every source is a memtable (a positioning reads no block).
    pub(crate) fn in_memory(&self) -> bool {
        self.children
            .iter()
            .all(|c| matches!(c, Child::Mem(_) | Child::Tail(_)))
    }

    /// The current entry's user key and trailer (call only when valid).
    #[inline]
    pub(crate) fn key(&self) -> (&'a [u8], u64) {
        self.current
            .map_or((&[][..], 0), |c| self.children[c].key())
    }

    /// The current entry's user key (call only when valid).
    #[inline]
    pub(crate) fn user_key(&self) -> &'a [u8] {
        self.current
            .map_or(&[][..], |c| self.children[c].user_key())
    }

    /// The current entry's kind if visible at `seq` (call only when valid).
    #[inline]
    pub(crate) fn visible_kind(&self, seq: SeqNo) -> Option<ValueKind> {
        self.current
            .and_then(|c| self.children[c].visible_kind(seq))
    }

    /// The current key's first 12 bytes, when its source has them at hand.
    #[inline]
    pub(crate) fn key_prefix(&self) -> Option<u128> {
        self.current.and_then(|c| self.children[c].key_prefix())
    }

    #[inline]
    pub(crate) fn value(&self) -> &'a [u8] {
        self.current.map_or(&[][..], |c| self.children[c].value())
    }

    pub(crate) fn position(&self) -> Option<Position> {
        self.current.and_then(|c| self.children[c].position())
    }

    /// The valid child whose key compares `want` against all others.
    fn pick(&mut self, ctx: &mut ReadCtx, want: Ordering) {
        // One source (a point read of a tablet whose data is all in its
        // memtable): nothing to compare, and no need to read its key here.
        if let [only] = self.children.as_slice() {
            self.current = only.valid().then_some(0);
            return;
        }
        let mut best: Option<(usize, &'a [u8], u64)> = None;
        for (i, c) in self.children.iter().enumerate() {
            if !c.valid() {
                continue;
            }
            let (k, t) = c.key();
            let better = match best {
                None => true,
                Some((_, bk, bt)) => {
                    ctx.stats.key_comparisons.merge += 1;
                    cmp_internal(k, t, bk, bt) == want
                }
            };
            if better {
                best = Some((i, k, t));
            }
        }
        self.current = best.map(|b| b.0);
    }

    pub(crate) fn seek(&mut self, ctx: &mut ReadCtx, key: &[u8], trailer: u64) {
        for c in &mut self.children {
            c.seek(ctx, key, trailer);
        }
        self.pick(ctx, Ordering::Less);
    }

    pub(crate) fn seek_for_prev(&mut self, ctx: &mut ReadCtx, key: &[u8], trailer: u64) {
        for c in &mut self.children {
            c.seek_for_prev(ctx, key, trailer);
        }
        self.pick(ctx, Ordering::Greater);
    }

    pub(crate) fn seek_to_first(&mut self, ctx: &mut ReadCtx) {
        for c in &mut self.children {
            c.seek_to_first(ctx);
        }
        self.pick(ctx, Ordering::Less);
    }

    pub(crate) fn seek_to_last(&mut self, ctx: &mut ReadCtx) {
        for c in &mut self.children {
            c.seek_to_last(ctx);
        }
        self.pick(ctx, Ordering::Greater);
    }

    /// Moves forward (only after a forward positioning).
    #[inline]
    pub(crate) fn next(&mut self, ctx: &mut ReadCtx) {
        if let Some(c) = self.current {
            self.children[c].next(ctx);
            self.pick(ctx, Ordering::Less);
        }
    }

    /// Moves backward (only after a backward positioning).
    pub(crate) fn prev(&mut self, ctx: &mut ReadCtx) {
        if let Some(c) = self.current {
            self.children[c].prev(ctx);
            self.pick(ctx, Ordering::Greater);
        }
    }
}
