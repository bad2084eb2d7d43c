//! Appending nodes to the arena and listing them in the blocks: a full block
//! splits, where the keys' arrival order says.

use super::{MemTableRep, Position, BRANCHING};
use crate::lsm::memtable::block::{Block, Entry, BLOCK_CAP};
use crate::lsm::memtable::node::{self, HEADER};

const MAX_HEIGHT: usize = 12;

impl MemTableRep {
    /// Height a RocksDB skip-list node would have: 1, then +1 with probability
    /// 1/4 per level (the memtable charges 8 bytes per level).
    fn random_height(&mut self) -> usize {
        let mut h = 1;
        while h < MAX_HEIGHT {
            // xorshift64*: deterministic, and cheap enough for every insert.
            self.rng ^= self.rng >> 12;
            self.rng ^= self.rng << 25;
            self.rng ^= self.rng >> 27;
            let r = self.rng.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 32;
            if !r.is_multiple_of(BRANCHING) {
                break;
            }
            h += 1;
        }
        h
    }

    /// Whether a node fits: its lengths are 32-bit, and so are node ids.
    pub(crate) fn has_room(&self, key_len: usize, value_len: usize) -> bool {
        let len = HEADER + key_len + value_len;
        len < u32::MAX as usize && self.arena.has_room(len)
    }

    /// Appends a node without listing it (see [`link`](Self::link)); returns its
    /// id and the height a skip-list node would have. The caller checks
    /// [`has_room`](Self::has_room) first.
    pub(crate) fn alloc(&mut self, key: &[u8], trailer: u64, value: &[u8]) -> (u32, usize) {
        let height = self.random_height();
        (node::append(&mut self.arena, key, trailer, value), height)
    }

    /// Lists an allocated node whose internal key is not already listed.
    pub(crate) fn link(&mut self, node: u32) {
        let at = {
            let t = self.target_of(node);
            self.place_of(&t)
        };
        self.link_at(node, at);
    }

    /// Lists `node` now if the last search ended where it goes (a few
    /// comparisons); false otherwise.
    pub(crate) fn link_if_at_hint(&mut self, node: u32) -> bool {
        let Some(at) = self.at_hint(&self.target_of(node)) else {
            return false;
        };
        self.link_at(node, at);
        true
    }

    fn link_at(&mut self, node: u32, at: Position) {
        let entry = Entry::new(self.prefix(node), node, self.shape(node));
        if self.blocks.is_empty() {
            self.blocks.push(Block::with(&[]));
        }
        self.blocks[at.block].insert(at.pos, entry);
        let mut after = Position {
            block: at.block,
            pos: at.pos + 1,
        };
        if self.blocks[at.block].len() > BLOCK_CAP {
            let split = self.split_point(at);
            let right = self.blocks[at.block].split_off(split);
            self.blocks.insert(at.block + 1, right);
            if after.pos > split {
                after = Position {
                    block: at.block + 1,
                    pos: after.pos - split,
                };
            }
        }
        self.hint.set(after);
        self.len += 1;
    }

    /// Where a block over its cap splits, the node just linked at `at`: in the
    /// middle, unless the node went in front of every node or after every
    /// node. Keys arriving at one end of the memtable keep arriving there (an
    /// ascending key, an index on `value desc` filled in time order), so the
    /// block is split at the new node and the full side, which no key will
    /// reach again, stays full — as PostgreSQL splits a B-tree's rightmost
    /// page and SQLite balances an append. Split in the middle, such blocks
    /// would stay half empty: twice the blocks to hold, search and walk.
    fn split_point(&self, at: Position) -> usize {
        let len = self.blocks[at.block].len();
        if at.block == 0 && at.pos == 0 {
            1
        } else if at.block + 1 == self.blocks.len() && at.pos + 1 == len {
            len - 1
        } else {
            BLOCK_CAP / 2
        }
    }

    /// Allocates and links (tests; the memtable links in batches).
    #[cfg(test)]
    pub(crate) fn insert(&mut self, key: &[u8], trailer: u64, value: &[u8]) -> Option<usize> {
        if !self.has_room(key.len(), value.len()) {
            return None;
        }
        let (node, height) = self.alloc(key, trailer, value);
        self.link(node);
        Some(height)
    }
}
