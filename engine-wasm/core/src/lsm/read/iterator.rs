//! The user-level iterator (RocksDB's `DBIter`) over a merging iterator: it shows
//! each user key once, with its newest version visible at the read's sequence
//! number, and hides keys whose newest visible version is a tombstone.
//!
//! Going forward, the merging iterator stays on the entry shown and `next` skips
//! the rest of that key's versions. Going backward, `prev` scans all versions of
//! the previous key (oldest to newest) to find the newest visible one, leaving the
//! merging iterator on the key before it. Changing direction re-seeks.
//!
//! Counters follow RocksDB: every seek variant counts in `number_db_seek`, `_found`
//! when it lands on an entry; `iter_bytes_read` adds the user key and value of
//! every entry shown (`key().size() + value().size()` in `DBIter`).

use super::ctx::ReadCtx;
use super::merging::{Children, MergingIter};
use super::stats::{Comparisons, IterOp, Position, ReadEvent, ReadStats};
use crate::lsm::cache::CacheMode;
use crate::lsm::types::{seek_trailer, visible_kind, SeqNo, ValueKind, LAST_TRAILER, MAX_SEQ};

/// A seek target kept for a repeat, inline up to 64 bytes: DocDB keys fit, so
/// the iterator every write opens for its conflict check allocates nothing
/// (on wasm, where allocation is dearer, an allocation per write is a sizeable
/// share of a load).
type EntryBuf = smallvec::SmallVec<[u8; 64]>;

pub struct DbIter<'a> {
    merge: MergingIter<'a>,
    ctx: ReadCtx<'a>,
    seq: SeqNo,
    valid: bool,
    forward: bool,
    /// The current entry's user key and value. Not copies: every source (the
    /// memtables' arenas, the SSTs' entries) lives as long as the iterator's
    /// borrow of the tree, whatever the merging iterator does next.
    key: &'a [u8],
    value: &'a [u8],
    /// The key's first 12 bytes when its source had them at hand (a memtable
    /// entry): [`key_starts_with`](Self::key_starts_with) answers most
    /// questions from them without reading the key.
    key_prefix: Option<u128>,
    position: Option<Position>,
    /// Set by a seek over memtables only, forgotten by any other move (see
    /// [`seek`](Self::seek)).
    repeatable: Option<RepeatableSeek>,
    /// Key comparisons counted when the last call was recorded.
    recorded_comparisons: Comparisons,
}

/// A seek that can be counted again without being redone: its target and the
/// versions it stepped over.
struct RepeatableSeek {
    target: EntryBuf,
    key_skipped: u64,
    delete_skipped: u64,
    key_comparisons: Comparisons,
}

impl<'a> DbIter<'a> {
    pub(crate) fn new(merge: MergingIter<'a>, ctx: ReadCtx<'a>, seq: SeqNo) -> Self {
        DbIter {
            merge,
            ctx,
            seq,
            valid: false,
            forward: true,
            key: &[],
            value: &[],
            key_prefix: None,
            position: None,
            repeatable: None,
            recorded_comparisons: Comparisons::default(),
        }
    }

    /// The merging iterator's sources and the read context, for
    /// [`Lsm::iter`](crate::lsm::Lsm::iter) to add sources before any move.
    pub(crate) fn sources_mut(&mut self) -> (&mut Children<'a>, &mut ReadCtx<'a>) {
        (self.merge.children_mut(), &mut self.ctx)
    }

    pub fn valid(&self) -> bool {
        self.valid
    }

    /// The current user key (empty when not valid).
    pub fn key(&self) -> &[u8] {
        if self.valid {
            self.key
        } else {
            &[]
        }
    }

    /// Whether the current key starts with `prefix` (false when not valid).
    /// A key from a memtable whose first bytes differ from `prefix`'s is told
    /// apart by its entry's prefix, without reading the key: DocDB's check
    /// for an existing row lands on the key after it, whose bytes nothing
    /// else reads.
    pub fn key_starts_with(&self, prefix: &[u8]) -> bool {
        if !self.valid {
            return false;
        }
        if let Some(own) = self.key_prefix {
            // Compare the first `n` bytes of both zero-padded 12-byte prefixes:
            // a difference there means a different byte or a shorter key.
            let n = prefix.len().min(12) as u32;
            if n > 0 && (own ^ crate::key_order::abbrev12(prefix)) >> (8 * (12 - n)) != 0 {
                return false;
            }
        }
        self.key.starts_with(prefix)
    }

    pub fn value(&self) -> &[u8] {
        if self.valid {
            self.value
        } else {
            &[]
        }
    }

    /// Where the current entry came from.
    pub fn position(&self) -> Option<Position> {
        self.position.filter(|_| self.valid)
    }

    /// The read sequence number this iterator sees.
    pub fn sequence(&self) -> SeqNo {
        self.seq
    }

    /// What this iterator has done so far (block reads included).
    pub fn stats(&self) -> &ReadStats {
        &self.ctx.stats
    }

    /// Events recorded so far, drained.
    pub fn take_events(&mut self) -> Vec<ReadEvent> {
        self.ctx
            .events
            .as_mut()
            .map(std::mem::take)
            .unwrap_or_default()
    }

    /// Changes how later block reads use the cache.
    pub fn set_cache_mode(&mut self, mode: CacheMode) {
        self.ctx.mode = mode;
    }

    /// Positions at the first key ≥ `target`.
    ///
    /// DocDB seeks the key it is about to write three times in a row (conflict
    /// check, point read, latest version). When nothing but memtables lies
    /// below, a seek to the previous seek's target with no move in between
    /// lands on the same entry over the same skipped versions and reads no
    /// block: it is counted (seek, bytes, skips, event) without being redone.
    pub fn seek(&mut self, target: &[u8]) -> bool {
        let repeat = match self.repeatable.take().filter(|r| r.target[..] == *target) {
            Some(r) => {
                self.ctx.stats.internal_key_skipped += r.key_skipped;
                self.ctx.stats.internal_delete_skipped += r.delete_skipped;
                self.ctx.stats.key_comparisons.add(&r.key_comparisons);
                Some(r)
            }
            None => self.seek_anew(target),
        };
        let found = self.finish_seek(IterOp::Seek, Some(target));
        self.repeatable = repeat;
        found
    }

    /// Does a seek; returns it as repeatable when only memtables lie below.
    fn seek_anew(&mut self, target: &[u8]) -> Option<RepeatableSeek> {
        let skipped = (
            self.ctx.stats.internal_key_skipped,
            self.ctx.stats.internal_delete_skipped,
            self.ctx.stats.key_comparisons,
        );
        self.merge
            .seek(&mut self.ctx, target, seek_trailer(self.seq));
        self.forward = true;
        self.find_next_user_entry(false);
        self.merge.in_memory().then(|| RepeatableSeek {
            target: EntryBuf::from_slice(target),
            key_skipped: self.ctx.stats.internal_key_skipped - skipped.0,
            delete_skipped: self.ctx.stats.internal_delete_skipped - skipped.1,
            key_comparisons: self.ctx.stats.key_comparisons.since(&skipped.2),
        })
    }

    /// Positions at the last key ≤ `target`.
    pub fn seek_for_prev(&mut self, target: &[u8]) -> bool {
        self.merge
            .seek_for_prev(&mut self.ctx, target, LAST_TRAILER);
        self.forward = false;
        self.prev_user_entry();
        self.finish_seek(IterOp::SeekForPrev, Some(target))
    }

    pub fn seek_to_first(&mut self) -> bool {
        self.merge.seek_to_first(&mut self.ctx);
        self.forward = true;
        self.find_next_user_entry(false);
        self.finish_seek(IterOp::SeekToFirst, None)
    }

    pub fn seek_to_last(&mut self) -> bool {
        self.merge.seek_to_last(&mut self.ctx);
        self.forward = false;
        self.prev_user_entry();
        self.finish_seek(IterOp::SeekToLast, None)
    }

    /// Moves to the next key; false (and no count) when not valid.
    ///
    /// As in YugabyteDB's `DBIter::Next`, a step that runs off the end of the
    /// merged data is not counted in `number_db_next`.
    // Named after RocksDB's `Iterator::Next`: this is a cursor over borrowed
    // entries, not a `std::iter::Iterator`.
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> bool {
        if !self.valid {
            return false;
        }
        if self.forward {
            self.merge.next(&mut self.ctx);
        } else {
            // Back to the first version of the current key; the skip below passes it.
            self.merge
                .seek(&mut self.ctx, self.key, seek_trailer(MAX_SEQ));
            self.forward = true;
        }
        if !self.merge.valid() {
            self.valid = false;
            return self.finish_step(IterOp::Next);
        }
        self.ctx.stats.number_db_next += 1;
        self.find_next_user_entry(true);
        if self.valid {
            self.ctx.stats.number_db_next_found += 1;
        }
        self.finish_step(IterOp::Next)
    }

    /// Moves to the previous key; false (and no count) when not valid.
    pub fn prev(&mut self) -> bool {
        if !self.valid {
            return false;
        }
        self.ctx.stats.number_db_prev += 1;
        if self.forward {
            // To the last entry before the current key (RocksDB's ReverseToBackward).
            self.merge
                .seek_for_prev(&mut self.ctx, self.key, LAST_TRAILER);
            while self.merge.valid() && self.compare_user_key().is_ge() {
                self.merge.prev(&mut self.ctx);
            }
            self.forward = false;
        }
        self.prev_user_entry();
        if self.valid {
            self.ctx.stats.number_db_prev_found += 1;
        }
        self.finish_step(IterOp::Prev)
    }

    fn finish_seek(&mut self, op: IterOp, target: Option<&[u8]>) -> bool {
        self.ctx.stats.number_db_seek += 1;
        if self.valid {
            self.ctx.stats.number_db_seek_found += 1;
        }
        self.record(op, target);
        self.valid
    }

    fn finish_step(&mut self, op: IterOp) -> bool {
        self.record(op, None);
        self.valid
    }

    /// Every move ends here, so a later seek is not a repeat of an earlier one
    /// ([`seek`](Self::seek) sets its own after this).
    fn record(&mut self, op: IterOp, target: Option<&[u8]>) {
        self.repeatable = None;
        if self.valid {
            self.ctx.stats.iter_bytes_read += (self.key.len() + self.value.len()) as u64;
        }
        if self.ctx.recording() {
            let comparisons = self
                .ctx
                .stats
                .key_comparisons
                .since(&self.recorded_comparisons);
            self.recorded_comparisons = self.ctx.stats.key_comparisons;
            let event = ReadEvent::Iter {
                op,
                target: target.map(<[u8]>::to_vec),
                key: self.valid.then(|| self.key.to_vec()),
                position: self.position(),
                comparisons,
            };
            self.ctx.push(event);
        }
    }

    fn save_current(&mut self) {
        self.key = self.merge.user_key();
        self.key_prefix = self.merge.key_prefix();
        self.value = self.merge.value();
        self.position = self.merge.position();
    }

    /// The merging iterator's user key against the current one: a key
    /// comparison, counted (see [`ReadStats::key_comparisons`]).
    fn compare_user_key(&mut self) -> std::cmp::Ordering {
        self.ctx.stats.key_comparisons.versions += 1;
        self.merge.user_key().cmp(self.key)
    }

    /// RocksDB's `FindNextUserEntry`: from the merging iterator's entry forward,
    /// the first visible, non-deleted version of a key other than the one being
    /// skipped.
    ///
    /// It asks the merging iterator for the entry's kind at the read's sequence
    /// number and for its key separately: a memtable answers both from its
    /// index entry, and the node is read only if its bytes are.
    fn find_next_user_entry(&mut self, mut skipping: bool) {
        while self.merge.valid() {
            if let Some(kind) = self.merge.visible_kind(self.seq) {
                let k = self.merge.user_key();
                if skipping && self.compare_user_key().is_eq() {
                    self.ctx.stats.internal_key_skipped += 1;
                } else if kind == ValueKind::Delete {
                    self.key = k;
                    skipping = true;
                    self.ctx.stats.internal_delete_skipped += 1;
                } else {
                    self.save_current();
                    self.valid = true;
                    return;
                }
            }
            self.merge.next(&mut self.ctx);
        }
        self.valid = false;
    }

    /// RocksDB's `PrevInternal`: the previous key whose newest visible version is
    /// a value, leaving the merging iterator on the key before it.
    fn prev_user_entry(&mut self) {
        while self.merge.valid() {
            self.key = self.merge.key().0;
            let mut live = false;
            // Versions come oldest first going backward: the last visible one wins.
            while self.merge.valid() && self.compare_user_key().is_eq() {
                if let Some(kind) = visible_kind(self.merge.key().1, self.seq) {
                    live = kind == ValueKind::Put;
                    if live {
                        self.value = self.merge.value();
                        self.position = self.merge.position();
                    } else {
                        self.ctx.stats.internal_delete_skipped += 1;
                    }
                }
                self.merge.prev(&mut self.ctx);
            }
            if live {
                self.valid = true;
                return;
            }
        }
        self.valid = false;
    }
}
