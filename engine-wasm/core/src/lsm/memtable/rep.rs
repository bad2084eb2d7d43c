//! The memtable's ordered structure (RocksDB's `MemTableRep`): nodes in an
//! arena, listed in internal-key order in a two-level index of sorted blocks.
//!
//! RocksDB's default rep is an inline skip list; its memory accounting (one link
//! per level of a node whose height is drawn 1, then +1 with probability 1/4) is
//! what the memtable charges, so every node still draws that height. The search
//! structure is not a skip list, though: linking a random key into a skip list of
//! a million nodes visits ~40 nodes scattered in memory, and a hash-sharded load
//! (every primary key lands at a random place) spent most of its time there. Here
//! the nodes are listed in key order in [blocks] of at most [`BLOCK_CAP`] entries,
//! each entry the key's first 12 bytes, the node id and the node's
//! [shape](super::entry) (kind and lengths); a search is a binary
//! search over the blocks' first prefixes (small enough to stay in cache), then
//! a guess-and-gallop over a block's prefixes ([`prefix_search`]), touching a
//! node (and its key bytes) only when prefixes tie. That is a B+tree of height
//! two: a handful of cache misses per search instead of dozens. Twelve bytes,
//! not eight: a hash-sharded key's first eight are a marker, the hash and
//! constant bytes, so a memtable of a million rows tied ~15 keys per 8-byte
//! prefix and read key bytes (cache misses) several times per search; twelve
//! reach the bytes that tell rows apart (all of an integer key), and no more:
//! every byte of an entry is shifted when a block takes a key. (Sixteen-byte
//! prefixes cost ~4% on article 000's load for nothing; the four bytes of the
//! shape cost about as much but save the read of the node a seek lands on.)
//!
//! The blocks are the order: nodes carry no links, and a cursor is a
//! [`Position`] in the blocks (a cursor borrows the memtable, so nothing moves
//! under it). Stepping back is one step, not a search.
//!
//! The last position searched is kept (like RocksDB's splice): a write landing
//! where the previous read or write left off — DocDB writes a key right after
//! reading it, and index keys ordered by time arrive in order — is placed with
//! two prefix comparisons. A link leaves the hint after the node it linked; the
//! place just before that node is tried too, for keys that arrive in descending
//! order (an index on `value desc` filled in time order puts every key before
//! the previous one).
//!
//! [`prefix_search`]: super::prefix_search
//! [blocks]: super::block

use super::arena::Arena;
use super::block::{Block, Entry, BLOCK_CAP};
use super::entry::Shape;
use super::node::{self, HEADER};
use super::prefix_search::lower_bound;
use crate::key_order::{abbrev12 as prefix_of, cmp_bytes};
use crate::lsm::types::trailer_kind;
use std::cell::Cell;
use std::cmp::Ordering;

pub(crate) const NIL: u32 = u32::MAX;
const MAX_HEIGHT: usize = 12;
const BRANCHING: u64 = 4;

/// Bytes a prefix covers.
const PREFIX_BYTES: usize = 12;

/// A search target: key, its prefix, trailer.
#[derive(Clone, Copy)]
struct Target<'k> {
    key: &'k [u8],
    prefix: u128,
    trailer: u64,
}

impl<'k> Target<'k> {
    fn new(key: &'k [u8], trailer: u64) -> Self {
        Target {
            key,
            prefix: prefix_of(key),
            trailer,
        }
    }
}

/// The first index in `lo..hi` where `pred` is false (`hi` if none), for a
/// `pred` true then false along the range.
fn first_false(mut lo: usize, mut hi: usize, pred: impl Fn(usize) -> bool) -> usize {
    while lo < hi {
        let mid = (lo + hi) / 2;
        if pred(mid) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    lo
}

/// A place among the nodes: before entry `pos` of block `block` (the end of a
/// block is the same place as the start of the next).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Position {
    block: usize,
    pos: usize,
}

impl Position {
    /// The place before every node.
    pub(crate) const START: Position = Position { block: 0, pos: 0 };
}

/// Which side of the target's own key a search stops on.
#[derive(Clone, Copy, PartialEq)]
enum Bound {
    /// Before the first entry at or after the target.
    Ge,
    /// Before the first entry after the target.
    Gt,
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

    /// Order of a node against the target, its prefix known: the node (read
    /// through `node`, a load that may miss the cache) only when prefixes tie.
    #[inline]
    fn cmp_entry(&self, prefix: u128, node: impl FnOnce() -> u32, t: &Target) -> Ordering {
        if prefix != t.prefix {
            return prefix.cmp(&t.prefix);
        }
        self.cmp_full(node(), t)
    }

    /// Order once the 12-byte prefixes tie: the bytes both keys have within
    /// those 12 are equal, so only the rest is compared.
    #[inline]
    fn cmp_full(&self, n: u32, t: &Target) -> Ordering {
        let (a, b) = (self.key(n), t.key);
        let skip = PREFIX_BYTES.min(a.len()).min(b.len());
        match cmp_bytes(&a[skip..], &b[skip..]) {
            Ordering::Equal => t.trailer.cmp(&self.trailer(n)),
            other => other,
        }
    }

    /// Whether a node comes before the place a search for `t` stops at.
    #[inline]
    fn before(&self, prefix: u128, node: impl FnOnce() -> u32, t: &Target, bound: Bound) -> bool {
        match self.cmp_entry(prefix, node, t) {
            Ordering::Less => true,
            Ordering::Equal => bound == Bound::Gt,
            Ordering::Greater => false,
        }
    }

    /// The place a search for `t` stops at: after every node [`before`](Self::before) it.
    fn search(&self, t: &Target, bound: Bound) -> Position {
        // The target belongs in the last block that starts before it: those
        // whose first prefix is below the target's, then (rarely) some whose
        // first prefix ties and whose first key comes before.
        let mut starts_before = self.blocks_below(t.prefix);
        while let Some(b) = self.blocks.get(starts_before) {
            if b.first() != t.prefix || !self.before(b.first(), || b.id(0), t, bound) {
                break;
            }
            starts_before += 1;
        }
        let Some(block) = starts_before.checked_sub(1) else {
            return Position::START;
        };
        let b = &self.blocks[block];
        // Nodes whose prefix is below the target's come first; among those
        // whose prefix ties, the keys decide (entry 0 is known to come before).
        let high = self.blocks.get(block + 1).map_or(u128::MAX, Block::first);
        let entries = b.entries();
        let tied = lower_bound(entries, t.prefix, b.first(), high).max(1);
        let pos = if entries.get(tied).map(Entry::prefix) == Some(t.prefix) {
            first_false(tied, entries.len(), |i| {
                self.before(entries[i].prefix(), || entries[i].id(), t, bound)
            })
        } else {
            tied
        };
        Position { block, pos }
    }

    /// How many blocks start with a prefix below `prefix`. A binary search
    /// whose steps select with a conditional move rather than branch: with
    /// keys landing anywhere (a hash-sharded table), half the branches of a
    /// branching search were mispredicted, each costing more than the step.
    #[inline]
    fn blocks_below(&self, prefix: u128) -> usize {
        let blocks = &self.blocks[..];
        if blocks.is_empty() {
            return 0;
        }
        let (mut base, mut size) = (0, blocks.len());
        while size > 1 {
            let half = size / 2;
            let mid = base + half;
            base = if blocks[mid].first() < prefix {
                mid
            } else {
                base
            };
            size -= half;
        }
        base + usize::from(blocks[base].first() < prefix)
    }

    /// Order of the node at `at` (a node's place) against the target.
    #[inline]
    fn cmp_at(&self, at: Position, t: &Target) -> Ordering {
        let b = &self.blocks[at.block];
        let e = b.entries()[at.pos];
        self.cmp_entry(e.prefix(), || e.id(), t)
    }

    /// `at` as the place of a node (the start of the next block for the end of
    /// one), if a node is there.
    #[inline]
    fn node_place(&self, at: Position) -> Option<Position> {
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

    /// Whether the node at `p` comes before the target (true for no node).
    #[inline]
    fn before_target(&self, p: Option<Position>, t: &Target) -> bool {
        p.is_none_or(|p| self.cmp_at(p, t) == Ordering::Less)
    }

    /// The hint, or the place one node before it, if the target goes there
    /// (after every node before the place, before every node from it on).
    /// Block prefixes answer unless they tie. The node before the hint is
    /// compared once: it tells which of the two places can be the one.
    fn at_hint(&self, t: &Target) -> Option<Position> {
        let hint = self.hint.get();
        let valid = match self.blocks.get(hint.block) {
            Some(b) => hint.pos <= b.len(),
            None => self.blocks.is_empty() && hint == Position::START,
        };
        if !valid {
            return None;
        }
        if self.before_target(self.step_back(hint), t) {
            // The hint, unless the node at it comes before the target too.
            let at_or_after = self
                .node_place(hint)
                .is_none_or(|p| self.cmp_at(p, t) != Ordering::Less);
            return at_or_after.then_some(hint);
        }
        // The target is not after the node before the hint: the place before
        // that node, if the target is after the one before it.
        let before = Position {
            pos: hint.pos.checked_sub(1)?,
            ..hint
        };
        self.before_target(self.step_back(before), t)
            .then_some(before)
    }

    /// Where the target goes among the nodes (the hint first).
    fn place_of(&self, t: &Target) -> Position {
        let at = self.at_hint(t).unwrap_or_else(|| self.search(t, Bound::Ge));
        self.hint.set(at);
        at
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

    /// The search target of node `n`'s own key.
    fn target_of(&self, n: u32) -> Target<'_> {
        Target {
            key: self.key(n),
            prefix: self.prefix(n),
            trailer: self.trailer(n),
        }
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
    /// stayed half empty: twice the blocks to hold, search and walk.
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

    /// Internal-key order of two allocated nodes.
    pub(crate) fn cmp_nodes(&self, a: u32, b: u32) -> Ordering {
        self.cmp_entry(self.prefix(a), || a, &self.target_of(b))
    }

    /// Order of node `n` against a target key.
    pub(crate) fn cmp_key(&self, n: u32, key: &[u8], trailer: u64) -> Ordering {
        self.cmp_entry(self.prefix(n), || n, &Target::new(key, trailer))
    }

    /// The place of the first node at or after the target (the end if none).
    pub(crate) fn find_ge(&self, key: &[u8], trailer: u64) -> Position {
        self.place_of(&Target::new(key, trailer))
    }

    /// The place of the last node at or before the target, if any.
    pub(crate) fn find_last_at_or_before(&self, key: &[u8], trailer: u64) -> Option<Position> {
        let after = self.search(&Target::new(key, trailer), Bound::Gt);
        self.step_back(after)
    }

    /// The place of the last node, if any.
    pub(crate) fn last(&self) -> Option<Position> {
        let block = self.blocks.len().checked_sub(1)?;
        Some(Position {
            block,
            pos: self.blocks[block].len() - 1,
        })
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lsm::types::{cmp_internal, pack, ValueKind};
    use crate::rng::Rng;

    /// Every listed node, walked with cursor steps.
    pub(super) fn walk(list: &MemTableRep) -> Vec<u32> {
        let mut out = Vec::new();
        let mut at = Position::START;
        while list.node_at(at) != NIL {
            out.push(list.node_at(at));
            at = list.step(at);
        }
        out
    }

    fn collect(list: &MemTableRep) -> Vec<(Vec<u8>, u64)> {
        walk(list)
            .into_iter()
            .map(|n| (list.key(n).to_vec(), list.trailer(n)))
            .collect()
    }

    /// The blocks list every node once, in order, each block within its cap and
    /// with the right first prefix; the splits happened (no block over the cap);
    /// stepping back from the end visits the same nodes in reverse.
    fn check_blocks(list: &MemTableRep) {
        let walked = walk(list);
        let mut i = 0;
        for b in &list.blocks {
            assert!(b.len() > 0 && b.len() <= BLOCK_CAP);
            assert_eq!(b.first(), b.entries()[0].prefix());
            for (p, id) in b.entries().iter().map(|e| (e.prefix(), e.id())) {
                assert_eq!(id, walked[i], "steps follow the blocks");
                assert_eq!(p, list.prefix(id));
                i += 1;
            }
        }
        assert_eq!(i, walked.len());
        assert_eq!(walked.len(), list.len());
        for w in walked.windows(2) {
            assert_eq!(
                list.cmp_nodes(w[0], w[1]),
                Ordering::Less,
                "strictly ordered"
            );
        }
        let mut back = Vec::new();
        let mut at = list.last();
        while let Some(p) = at {
            back.push(list.node_at(p));
            at = list.step_back(p);
        }
        back.reverse();
        assert_eq!(back, walked);
    }

    #[test]
    fn keeps_order_for_any_insert_pattern() {
        for pattern in 0..3 {
            let mut list = MemTableRep::new(42);
            let mut rng = Rng::new(pattern);
            let mut expected = Vec::new();
            for i in 0..3000u64 {
                let k = match pattern {
                    0 => i,
                    1 => 1_000_000 - i,
                    _ => rng.below(500),
                };
                // Variable lengths, shared 8-byte prefixes: the full-key path.
                let mut key = b"prefix--".to_vec();
                key.extend_from_slice(&k.to_be_bytes()[..(k % 9) as usize]);
                key.extend_from_slice(&k.to_be_bytes());
                let t = pack(i + 1, ValueKind::Put);
                list.insert(&key, t, b"v").expect("fits");
                expected.push((key, t));
            }
            expected.sort_by(|a, b| cmp_internal(&a.0, a.1, &b.0, b.1));
            assert_eq!(collect(&list), expected, "pattern {pattern}");
            check_blocks(&list);
            assert_eq!(list.len(), 3000);
        }
    }

    /// Keys arriving at either end of the memtable leave full blocks behind
    /// (split in the middle, every block but the last written stayed half
    /// empty); random keys still split in the middle, and the order holds.
    #[test]
    fn keys_arriving_at_one_end_fill_their_blocks() {
        for descending in [true, false] {
            let mut list = MemTableRep::new(9);
            let n = 20 * BLOCK_CAP as u64;
            for i in 0..n {
                let k = if descending { n - i } else { i };
                let node = list
                    .alloc(&k.to_be_bytes(), pack(i + 1, ValueKind::Put), b"v")
                    .0;
                if !list.link_if_at_hint(node) {
                    list.link(node);
                }
            }
            check_blocks(&list);
            let full = list.blocks.iter().filter(|b| b.len() == BLOCK_CAP).count();
            assert!(
                full + 1 >= list.blocks.len(),
                "descending {descending}: {full} of {} blocks full",
                list.blocks.len()
            );
        }
        let mut list = MemTableRep::new(9);
        let mut rng = Rng::new(4);
        for i in 0..20 * BLOCK_CAP as u64 {
            list.insert(
                &rng.below(1 << 40).to_be_bytes(),
                pack(i + 1, ValueKind::Put),
                b"v",
            );
        }
        check_blocks(&list);
        let least = list.blocks.iter().map(Block::len).min().unwrap();
        assert!(
            least >= BLOCK_CAP / 4,
            "random keys split in the middle: {least}"
        );
    }

    #[test]
    fn searches() {
        let mut list = MemTableRep::new(1);
        for (i, k) in [b"b", b"d", b"f"].iter().enumerate() {
            list.insert(*k, pack(i as u64 + 1, ValueKind::Put), b"x");
        }
        let t = pack(100, ValueKind::Put);
        let ge = |k: &[u8]| list.node_at(list.find_ge(k, t));
        let at_or_before = |k: &[u8], t| list.find_last_at_or_before(k, t).map(|p| list.node_at(p));
        assert_eq!(list.key(ge(b"c")), b"d");
        assert_eq!(list.key(ge(b"d")), b"d");
        assert_eq!(ge(b"g"), NIL);
        assert_eq!(at_or_before(b"a", 0), None);
        assert_eq!(list.key(at_or_before(b"d", 0).unwrap()), b"d");
        assert_eq!(list.key(at_or_before(b"d", t).unwrap()), b"b");
        let last = list.node_at(list.last().unwrap());
        assert_eq!((list.key(last), list.value(last)), (&b"f"[..], &b"x"[..]));
        assert_eq!(MemTableRep::new(3).last(), None);
        assert_eq!(MemTableRep::new(3).node_at(Position::START), NIL);
    }

    /// Seeks move the hint that inserts start from: interleaved seeks (repeated,
    /// near, far) and inserts must keep every seek answer and the order exact.
    #[test]
    fn seeks_between_inserts_leave_the_list_exact() {
        let mut list = MemTableRep::new(7);
        let mut rng = Rng::new(11);
        let mut model: Vec<(Vec<u8>, u64)> = Vec::new();
        let key_of = |k: u64| {
            let mut key = b"doc-pfx:".to_vec();
            key.extend_from_slice(&k.to_be_bytes());
            key
        };
        for i in 0..4000u64 {
            let probe = key_of(rng.below(2000));
            let t = pack(u64::MAX >> 9, ValueKind::Put);
            for _ in 0..1 + rng.below(3) {
                let got = list.node_at(list.find_ge(&probe, t));
                let want = model
                    .iter()
                    .find(|(k, tr)| cmp_internal(k, *tr, &probe, t) != Ordering::Less);
                match want {
                    None => assert_eq!(got, NIL),
                    Some((k, tr)) => assert_eq!((list.key(got), list.trailer(got)), (&k[..], *tr)),
                }
            }
            // Insert right where the seek went (DocDB's pattern) or elsewhere.
            let key = if rng.below(2) == 0 {
                probe.clone()
            } else {
                key_of(rng.below(2000))
            };
            let tr = pack(i + 1, ValueKind::Put);
            let same_place = key == probe;
            if i % 2 == 0 {
                list.insert(&key, tr, b"v").expect("fits");
            } else {
                // The memtable's path: link at once only where the seek left
                // the hint; a newer version of the probed key always is.
                let (node, _) = list.alloc(&key, tr, b"v");
                let linked = list.link_if_at_hint(node);
                if same_place {
                    assert!(linked, "a write at the probed key is at the hint");
                }
                if !linked {
                    list.link(node);
                }
            }
            let at =
                model.partition_point(|(k, t2)| cmp_internal(k, *t2, &key, tr) == Ordering::Less);
            model.insert(at, (key, tr));
        }
        assert_eq!(collect(&list), model);
        check_blocks(&list);
    }
}

/// Model-based: every search answers as a sorted `BTreeMap` of internal keys
/// does, whatever mix of inserts (linked at once or through a search) and
/// searches, over keys that tie on their 8-byte prefixes and blocks that split.
#[cfg(test)]
mod proptests {
    use super::*;
    use crate::lsm::types::{pack, ValueKind};
    use proptest::prelude::*;
    use std::cmp::Reverse;
    use std::collections::BTreeMap;

    #[derive(Debug, Clone)]
    enum Op {
        Insert(u16),
        /// Insert the key the last search was for (DocDB's read-then-write).
        InsertAtSearch,
        Seek(u16),
        SeekForPrev(u16),
    }

    fn op() -> impl Strategy<Value = Op> {
        prop_oneof![
            4 => any::<u16>().prop_map(Op::Insert),
            2 => Just(Op::InsertAtSearch),
            2 => any::<u16>().prop_map(Op::Seek),
            1 => any::<u16>().prop_map(Op::SeekForPrev),
        ]
    }

    fn key(k: u16) -> Vec<u8> {
        // Shared 8-byte prefix, then a spread key: most comparisons tie on prefix.
        let mut key = b"tablet01".to_vec();
        key.extend_from_slice(&(k % 700).to_be_bytes());
        key
    }

    type Model = BTreeMap<(Vec<u8>, Reverse<u64>), ()>;

    fn as_pair(rep: &MemTableRep, n: u32) -> Option<(Vec<u8>, u64)> {
        (n != NIL).then(|| (rep.key(n).to_vec(), rep.trailer(n)))
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        #[test]
        fn matches_a_sorted_map(ops in proptest::collection::vec(op(), 1..1500)) {
            let mut rep = MemTableRep::new(5);
            let mut model = Model::new();
            let mut last_search = key(0);
            let mut seq = 0u64;
            for op in ops {
                match op {
                    Op::Insert(_) | Op::InsertAtSearch => {
                        seq += 1;
                        let k = match op {
                            Op::Insert(k) => key(k),
                            _ => last_search.clone(),
                        };
                        let t = pack(seq, ValueKind::Put);
                        let (node, _) = rep.alloc(&k, t, b"v");
                        if !rep.link_if_at_hint(node) {
                            rep.link(node);
                        }
                        model.insert((k, Reverse(t)), ());
                    }
                    Op::Seek(k) => {
                        last_search = key(k);
                        let t = pack(u64::MAX >> 9, ValueKind::Put);
                        let want = model
                            .range((last_search.clone(), Reverse(t))..)
                            .next()
                            .map(|((k, Reverse(t)), _)| (k.clone(), *t));
                        prop_assert_eq!(as_pair(&rep, rep.node_at(rep.find_ge(&last_search, t))), want);
                    }
                    Op::SeekForPrev(k) => {
                        let k = key(k);
                        let t = pack(0, ValueKind::Put);
                        let want = model
                            .range(..=(k.clone(), Reverse(t)))
                            .next_back()
                            .map(|((k, Reverse(t)), _)| (k.clone(), *t));
                        let got = rep.find_last_at_or_before(&k, t).map_or(NIL, |p| rep.node_at(p));
                        prop_assert_eq!(as_pair(&rep, got), want);
                    }
                }
            }
            let all: Vec<(Vec<u8>, u64)> =
                model.keys().map(|(k, Reverse(t))| (k.clone(), *t)).collect();
            let linked: Vec<(Vec<u8>, u64)> = super::tests::walk(&rep)
                .into_iter()
                .map(|n| (rep.key(n).to_vec(), rep.trailer(n)))
                .collect();
            prop_assert_eq!(&linked, &all);
            prop_assert_eq!(as_pair(&rep, rep.last().map_or(NIL, |p| rep.node_at(p))), all.last().cloned());
            prop_assert_eq!(rep.len(), all.len());
        }
    }
}
