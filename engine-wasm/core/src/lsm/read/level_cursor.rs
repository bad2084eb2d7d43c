//! A cursor over one level below L0, one SST at a time.

use super::ctx::ReadCtx;
use crate::lsm::sst::cursor::TableCursor;
use crate::lsm::sst::Sst;

/// A cursor over the SSTs of one level ≥ 1 (sorted, disjoint key ranges; a user
/// key never spans two files), opening one table at a time as RocksDB's
/// `LevelIterator` does.
pub(crate) struct LevelCursor<'a> {
    files: Vec<&'a Sst>,
    level: u32,
    idx: usize,
    cur: Option<TableCursor<'a>>,
}

impl<'a> LevelCursor<'a> {
    pub(crate) fn new(files: Vec<&'a Sst>, level: u32) -> Self {
        LevelCursor {
            files,
            level,
            idx: 0,
            cur: None,
        }
    }

    pub(crate) fn table(&self) -> Option<&TableCursor<'a>> {
        self.cur.as_ref().filter(|c| c.valid())
    }

    /// The cursor of file `i`, reusing the open one (and the blocks it holds).
    fn open(&mut self, i: usize) -> &mut TableCursor<'a> {
        if self.idx != i {
            self.idx = i;
            self.cur = None;
        }
        let (files, level) = (&self.files, self.level);
        self.cur
            .get_or_insert_with(|| TableCursor::new(files[i], level))
    }

    pub(crate) fn seek(&mut self, ctx: &mut ReadCtx, key: &[u8], trailer: u64) {
        // RocksDB's `FindFile`: a binary search over the files' key ranges.
        let i = self.files.partition_point(|f| {
            ctx.stats.key_comparisons.files += 1;
            f.largest_key() < key
        });
        if i == self.files.len() {
            self.cur = None;
            return;
        }
        self.open(i).seek(ctx, key, trailer);
        if !self.open(i).valid() && i + 1 < self.files.len() {
            self.open(i + 1).seek_to_first(ctx);
        }
    }

    pub(crate) fn seek_for_prev(&mut self, ctx: &mut ReadCtx, key: &[u8], trailer: u64) {
        let i = self.files.partition_point(|f| {
            ctx.stats.key_comparisons.files += 1;
            f.smallest_key() <= key
        });
        if i == 0 {
            self.cur = None;
            return;
        }
        self.open(i - 1).seek_for_prev(ctx, key, trailer);
        if !self.open(i - 1).valid() && i >= 2 {
            self.open(i - 2).seek_to_last(ctx);
        }
    }

    pub(crate) fn seek_to_first(&mut self, ctx: &mut ReadCtx) {
        if !self.files.is_empty() {
            self.open(0).seek_to_first(ctx);
        }
    }

    pub(crate) fn seek_to_last(&mut self, ctx: &mut ReadCtx) {
        if let Some(last) = self.files.len().checked_sub(1) {
            self.open(last).seek_to_last(ctx);
        }
    }

    pub(crate) fn next(&mut self, ctx: &mut ReadCtx) {
        let Some(cur) = &mut self.cur else { return };
        if !cur.valid() {
            return;
        }
        cur.next(ctx);
        if !cur.valid() && self.idx + 1 < self.files.len() {
            let i = self.idx + 1;
            self.open(i).seek_to_first(ctx);
        }
    }

    pub(crate) fn prev(&mut self, ctx: &mut ReadCtx) {
        let Some(cur) = &mut self.cur else { return };
        if !cur.valid() {
            return;
        }
        cur.prev(ctx);
        if !cur.valid() && self.idx > 0 {
            let i = self.idx - 1;
            self.open(i).seek_to_last(ctx);
        }
    }
}
