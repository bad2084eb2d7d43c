//! Where a key goes among the nodes: compared by 12-byte prefix first, the
//! node's key bytes read only on a tie; a binary search over the blocks, then
//! a guess-and-gallop within one.
//!
//! The last position searched is kept (like RocksDB's splice): a write landing
//! where the previous read or write left off — DocDB writes a key right after
//! reading it, and index keys ordered by time arrive in order — is placed with
//! two prefix comparisons. A link leaves the hint after the node it linked; the
//! place just before that node is tried too, for keys that arrive in descending
//! order (an index on `value desc` filled in time order puts every key before
//! the previous one).

use super::{MemTableRep, Position};
use crate::key_order::{abbrev12 as prefix_of, cmp_bytes};
use crate::lsm::memtable::block::{Block, Entry};
use crate::lsm::memtable::prefix_search::lower_bound;
use std::cmp::Ordering;

/// Bytes a prefix covers.
const PREFIX_BYTES: usize = 12;

/// A search target: key, its prefix, trailer.
#[derive(Clone, Copy)]
pub(super) struct Target<'k> {
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

/// Which side of the target's own key a search stops on.
#[derive(Clone, Copy, PartialEq)]
pub(super) enum Bound {
    /// Before the first entry at or after the target.
    Ge,
    /// Before the first entry after the target.
    Gt,
}

impl MemTableRep {
    /// Order of a node against the target, its prefix known: the node (read
    /// through `node`, a load that may miss the cache) only when prefixes tie.
    #[inline]
    pub(super) fn cmp_entry(
        &self,
        prefix: u128,
        node: impl FnOnce() -> u32,
        t: &Target,
    ) -> Ordering {
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
    pub(super) fn search(&self, t: &Target, bound: Bound) -> Position {
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
    /// branching search are mispredicted, each costing more than the step.
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

    /// Whether the node at `p` comes before the target (true for no node).
    #[inline]
    pub(super) fn before_target(&self, p: Option<Position>, t: &Target) -> bool {
        p.is_none_or(|p| self.cmp_at(p, t) == Ordering::Less)
    }

    /// The hint, or the place one node before it, if the target goes there
    /// (after every node before the place, before every node from it on).
    /// Block prefixes answer unless they tie. The node before the hint is
    /// compared once: it tells which of the two places can be the one.
    pub(super) fn at_hint(&self, t: &Target) -> Option<Position> {
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
    pub(super) fn place_of(&self, t: &Target) -> Position {
        let at = self.at_hint(t).unwrap_or_else(|| self.search(t, Bound::Ge));
        self.hint.set(at);
        at
    }

    /// The search target of node `n`'s own key.
    pub(super) fn target_of(&self, n: u32) -> Target<'_> {
        Target {
            key: self.key(n),
            prefix: self.prefix(n),
            trailer: self.trailer(n),
        }
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
}
