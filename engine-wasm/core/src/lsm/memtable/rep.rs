//! The memtable's ordered structure (RocksDB's `MemTableRep`): nodes in an
//! arena, listed in internal-key order in a two-level index of sorted blocks.
//!
//! RocksDB's default rep is an inline skip list; its memory accounting (one link
//! per level of a node whose height is drawn 1, then +1 with probability 1/4) is
//! what the memtable charges, so every node still draws that height. The search
//! structure is not a skip list, though: linking a random key into a skip list of
//! a million nodes visits ~40 nodes scattered in memory, and a hash-sharded load
//! (every primary key lands at a random place) would spend most of its time there. Here
//! the nodes are listed in key order in [blocks] of at most [`BLOCK_CAP`](super::block::BLOCK_CAP) entries,
//! each entry the key's first 12 bytes, the node id and the node's
//! [shape](super::entry) (kind and lengths); a search is a binary
//! search over the blocks' first prefixes (small enough to stay in cache), then
//! a guess-and-gallop over a block's prefixes ([`prefix_search`]), touching a
//! node (and its key bytes) only when prefixes tie. That is a B+tree of height
//! two: a handful of cache misses per search instead of dozens. Twelve bytes,
//! not eight: a hash-sharded key's first eight are a marker, the hash and
//! constant bytes, so in a memtable of a million rows ~15 keys tie on an 8-byte
//! prefix and a search would read key bytes (cache misses) several times; twelve
//! reach the bytes that tell rows apart (all of an integer key), and no more:
//! every byte of an entry is shifted when a block takes a key. (Sixteen-byte
//! prefixes would widen every entry and every shift for no fewer ties; the four
//! bytes of the shape cost about as much but save the read of the node a seek
//! lands on.)
//!
//! The blocks are the order: nodes carry no links, and a cursor is a
//! [`Position`] in the blocks (a cursor borrows the memtable, so nothing moves
//! under it). Stepping back is one step, not a search.
//!
//! - [`search`]: where a key goes (prefix comparisons, the block search, the
//!   hint of the last place searched);
//! - [`position`]: places among the nodes and steps between them;
//! - [`link`]: appending nodes and listing them, splitting full blocks.
//!
//! [`prefix_search`]: super::prefix_search
//! [blocks]: super::block

mod link;
mod position;
#[cfg(test)]
mod proptests;
mod search;
#[cfg(test)]
mod tests;

pub(crate) use position::Position;

use super::arena::Arena;
use super::block::{Block, Entry};
use super::entry::Shape;
use super::node::{self, HEADER};
use crate::key_order::abbrev12 as prefix_of;
use crate::lsm::types::trailer_kind;
use std::cell::Cell;

pub(crate) const NIL: u32 = u32::MAX;

/// RocksDB's skip list: a node reaches one level up with probability 1/4.
pub(crate) const BRANCHING: u64 = 4;

/// Key comparisons a search of RocksDB's skip list over `n` nodes makes on
/// average, which the memtable's seeks are charged (its own index answers
/// faster, but the engine models RocksDB's). Pugh's analysis: a search visits
/// about `log_b n` levels and compares about `b` nodes on each, for branching
/// factor `b` — `4 · log₄ n = log₂ n²` here, rounded up (in integers: the
/// same bytes natively and in wasm). A step back is such a search too: the
/// skip list has no back links (`FindLessThan`).
pub(crate) fn skip_list_search_comparisons(n: usize) -> u64 {
    const _: () = assert!(BRANCHING == 4, "the formula below is for branching 4");
    let squared = (n as u128) * (n as u128);
    match squared {
        0 => 0,
        1 => 1,
        _ => u64::from(u128::BITS - (squared - 1).leading_zeros()),
    }
}

#[derive(Debug, Clone)]
pub(crate) struct MemTableRep {
    /// Nodes, in write order.
    arena: Arena,
    /// Blocks in key order (each with its first prefix, for the top-level search).
    blocks: Vec<Block>,
    len: usize,
    /// Where the last search or link ended (a read through `&self` moves it too).
    hint: Cell<Position>,
    rng: u64,
}

impl MemTableRep {
    pub(crate) fn new(seed: u64) -> Self {
        MemTableRep {
            arena: Arena::default(),
            blocks: Vec::new(),
            len: 0,
            hint: Cell::new(Position::START),
            rng: seed | 1,
        }
    }

    /// Nodes listed.
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// The arena, every node where it was written (the index is dropped).
    pub(crate) fn into_arena(self) -> Arena {
        self.arena
    }

    /// Node `n` (see [`node`]).
    #[inline]
    fn node(&self, n: u32) -> (&[u8], usize, usize) {
        node::parts(&self.arena, n)
    }

    #[inline]
    pub(crate) fn key(&self, n: u32) -> &[u8] {
        node::key(&self.arena, n)
    }

    #[inline]
    pub(crate) fn trailer(&self, n: u32) -> u64 {
        node::trailer(&self.arena, n)
    }

    #[inline]
    pub(crate) fn value(&self, n: u32) -> &[u8] {
        node::value(&self.arena, n)
    }

    /// Node `n`'s kind and lengths.
    fn shape(&self, n: u32) -> Shape {
        let (_, key_len, value_len) = self.node(n);
        Shape {
            kind: trailer_kind(self.trailer(n)),
            key_len,
            value_len,
        }
    }

    /// The key of an entry's node, its length known from the entry when it
    /// holds the shape: a slice of the arena, not a read of the node.
    #[inline]
    pub(crate) fn key_of(&self, e: Entry) -> &[u8] {
        match e.shape() {
            Some(s) => &self.arena.from(e.id())[HEADER..HEADER + s.key_len],
            None => self.key(e.id()),
        }
    }

    /// The value of an entry's node (see [`key_of`](Self::key_of)).
    #[inline]
    pub(crate) fn value_of(&self, e: Entry) -> &[u8] {
        match e.shape() {
            Some(s) => {
                let start = HEADER + s.key_len;
                &self.arena.from(e.id())[start..start + s.value_len]
            }
            None => self.value(e.id()),
        }
    }

    /// Node `n`'s 12-byte key prefix.
    #[inline]
    pub(crate) fn prefix(&self, n: u32) -> u128 {
        prefix_of(self.key(n))
    }

    /// The nodes in key order, a block at a time.
    pub(crate) fn blocks_in_order(&self) -> impl Iterator<Item = &[Entry]> {
        self.blocks.iter().map(|b| b.entries())
    }

    /// Reads the nodes of `entries` and the first and last byte of each entry, so that a
    /// walk over them in key order finds them in cache. In key order the nodes lie
    /// scattered over the arena (it is in write order), and a
    /// walk that does real work per entry — a flush building an SST — would take
    /// each cache miss in turn; these loads do not depend on each other, so the
    /// CPU overlaps their misses.
    pub(crate) fn warm(&self, entries: &[Entry]) {
        let mut acc = 0u64;
        for e in entries {
            acc = acc.wrapping_add(u64::from(self.arena.from(e.id())[0]));
        }
        for e in entries {
            let (bytes, key_len, value_len) = self.node(e.id());
            acc ^= u64::from(bytes[HEADER + key_len + value_len - 1]);
        }
        std::hint::black_box(acc);
    }
}
