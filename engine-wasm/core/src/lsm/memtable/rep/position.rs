//! Places among the nodes, and steps from one to the next or the previous.

use super::{MemTableRep, NIL};
use crate::lsm::memtable::block::Entry;

/// A place among the nodes: before entry `pos` of block `block` (the end of a
/// block is the same place as the start of the next).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Position {
    pub(super) block: usize,
    pub(super) pos: usize,
}

impl Position {
    /// The place before every node.
    pub(crate) const START: Position = Position { block: 0, pos: 0 };
}

impl MemTableRep {
    /// `at` as the place of a node (the start of the next block for the end of
    /// one), if a node is there.
    #[inline]
    pub(super) fn node_place(&self, at: Position) -> Option<Position> {
        let b = self.blocks.get(at.block)?;
        if at.pos < b.len() {
            Some(at)
        } else {
            (at.block + 1 < self.blocks.len()).then_some(Position {
                block: at.block + 1,
                pos: 0,
            })
        }
    }

    /// The node at `at`, or `NIL` at the end.
    #[inline]
    pub(crate) fn node_at(&self, at: Position) -> u32 {
        self.entry_at(at).map_or(NIL, |e| e.id())
    }

    /// The entry at `at`, if a node is there.
    #[inline]
    pub(crate) fn entry_at(&self, at: Position) -> Option<Entry> {
        self.node_place(at)
            .map(|p| self.blocks[p.block].entries()[p.pos])
    }

    /// The place after the node at `at` (which must be a node).
    #[inline]
    pub(crate) fn step(&self, at: Position) -> Position {
        match self.blocks.get(at.block) {
            Some(b) if at.pos >= b.len() => Position {
                block: at.block + 1,
                pos: 1,
            },
            _ => Position {
                block: at.block,
                pos: at.pos + 1,
            },
        }
    }

    /// The place of the node before `at`, if any.
    #[inline]
    pub(crate) fn step_back(&self, at: Position) -> Option<Position> {
        match at.pos.checked_sub(1) {
            Some(pos) => Some(Position { pos, ..at }),
            None => {
                let block = at.block.checked_sub(1)?;
                Some(Position {
                    block,
                    pos: self.blocks[block].len() - 1,
                })
            }
        }
    }

    /// The place of the last node, if any.
    pub(crate) fn last(&self) -> Option<Position> {
        let block = self.blocks.len().checked_sub(1)?;
        Some(Position {
            block,
            pos: self.blocks[block].len() - 1,
        })
    }
}
