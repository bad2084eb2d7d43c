//! A cursor over one SST, reporting every block it enters to the read context.
//!
//! Block reads follow RocksDB's `BlockBasedTableIterator`: opening a table reads
//! its top index block; moving to a data block reads the index blocks below the
//! top that lead to it when they change, then the data block — unless the cursor
//! is already in that block (a re-seek inside the current block reads nothing).

use super::Sst;
use crate::lsm::cache::BlockKind;
use crate::lsm::read::ctx::ReadCtx;
use crate::lsm::read::Position;
use crate::lsm::types::cmp_internal;

const NONE: u32 = u32::MAX;

/// A cursor over one SST.
pub(crate) struct TableCursor<'a> {
    sst: &'a Sst,
    level: u32,
    entry: u32,
    block: u32,
    opened: bool,
    /// Index block loaded at each level below the top.
    loaded: Vec<u32>,
}

impl<'a> TableCursor<'a> {
    pub(crate) fn new(sst: &'a Sst, level: u32) -> Self {
        TableCursor {
            sst,
            level,
            entry: NONE,
            block: NONE,
            opened: false,
            loaded: vec![NONE; sst.index.num_levels().saturating_sub(1)],
        }
    }

    #[inline]
    pub(crate) fn valid(&self) -> bool {
        self.entry != NONE
    }
    #[inline]
    pub(crate) fn key(&self) -> &'a [u8] {
        self.sst.user_key(self.entry)
    }
    #[inline]
    pub(crate) fn trailer(&self) -> u64 {
        self.sst.trailer(self.entry)
    }
    #[inline]
    pub(crate) fn value(&self) -> &'a [u8] {
        self.sst.value(self.entry)
    }
    pub(crate) fn position(&self) -> Position {
        Position::Sst {
            sst: self.sst.id(),
            level: self.level,
            block: self.block,
        }
    }

    /// Reads the top index block, once per cursor.
    fn open(&mut self, ctx: &mut ReadCtx) {
        if self.opened {
            return;
        }
        self.opened = true;
        let index = &self.sst.index;
        let top = index.num_levels() - 1;
        let number = index.block_number(top, 0);
        ctx.read_block(
            self.sst,
            self.level,
            BlockKind::Index,
            number,
            index.block_bytes(top, 0),
        );
    }

    /// Enters data block `b`: the index blocks leading to it, then the block.
    fn load_block(&mut self, ctx: &mut ReadCtx, b: u32) {
        if self.block == b {
            return;
        }
        let index = &self.sst.index;
        let below_top = self.loaded.len();
        let mut path = [0u32; 16];
        let mut child = b;
        for (lvl, slot) in path.iter_mut().enumerate().take(below_top.min(16)) {
            child = index.levels[lvl].block_of(child);
            *slot = child;
        }
        for lvl in (0..below_top.min(16)).rev() {
            if self.loaded[lvl] != path[lvl] {
                self.loaded[lvl] = path[lvl];
                let number = index.block_number(lvl, path[lvl]);
                ctx.read_block(
                    self.sst,
                    self.level,
                    BlockKind::Index,
                    number,
                    index.block_bytes(lvl, path[lvl]),
                );
            }
        }
        self.block = b;
        ctx.read_block(
            self.sst,
            self.level,
            BlockKind::Data,
            b,
            self.sst.data_block_bytes(b),
        );
    }

    pub(crate) fn seek(&mut self, ctx: &mut ReadCtx, key: &[u8], trailer: u64) {
        self.open(ctx);
        let compared = &mut ctx.stats.key_comparisons.index;
        let Some(b) = self.sst.index.find(key, trailer, compared) else {
            self.invalidate();
            return;
        };
        self.load_block(ctx, b);
        let compared = &mut ctx.stats.key_comparisons;
        if let Some(e) = self.sst.seek_in_block(b, key, trailer, compared) {
            self.entry = e;
        } else if b + 1 < self.sst.num_data_blocks() {
            // The target fell between the block's last key and its separator.
            self.load_block(ctx, b + 1);
            self.entry = self.sst.block_entries(b + 1).start;
        } else {
            self.invalidate();
        }
    }

    /// Off either end: RocksDB drops the data block iterator
    /// (`ResetDataIter`), so the next positioning reads its block again.
    fn invalidate(&mut self) {
        self.entry = NONE;
        self.block = NONE;
    }

    pub(crate) fn seek_for_prev(&mut self, ctx: &mut ReadCtx, key: &[u8], trailer: u64) {
        self.seek(ctx, key, trailer);
        if !self.valid() {
            self.seek_to_last(ctx);
            return;
        }
        ctx.stats.key_comparisons.keys += 1;
        if cmp_internal(self.key(), self.trailer(), key, trailer).is_gt() {
            self.prev(ctx);
        }
    }

    pub(crate) fn seek_to_first(&mut self, ctx: &mut ReadCtx) {
        self.open(ctx);
        self.load_block(ctx, 0);
        self.entry = 0;
    }

    pub(crate) fn seek_to_last(&mut self, ctx: &mut ReadCtx) {
        self.open(ctx);
        self.load_block(ctx, self.sst.num_data_blocks() - 1);
        self.entry = self.sst.len() as u32 - 1;
    }

    #[inline]
    pub(crate) fn next(&mut self, ctx: &mut ReadCtx) {
        if !self.valid() {
            return;
        }
        self.entry += 1;
        if self.entry as usize == self.sst.len() {
            self.invalidate();
        } else if self.entry >= self.sst.block_entries(self.block).end {
            self.load_block(ctx, self.block + 1);
        }
    }

    pub(crate) fn prev(&mut self, ctx: &mut ReadCtx) {
        if !self.valid() {
            return;
        }
        if self.entry == 0 {
            self.invalidate();
            return;
        }
        self.entry -= 1;
        if self.entry < self.sst.block_entries(self.block).start {
            self.load_block(ctx, self.block - 1);
        }
    }
}
