//! A block of the memtable's index: up to [`BLOCK_CAP`] entries (a node's
//! 16-byte key prefix and its id) in key order, in a fixed run of slots with
//! free room on both sides.
//!
//! Linking a node shifts the entries on one side of its place by one slot. A
//! block that only grew rightwards (a `Vec`) shifted everything after the place:
//! half the block on average for a hash-sharded table, whose keys land anywhere,
//! and the whole block for keys arriving in descending order (an index on
//! `value desc` filled by increasing values inserts before every entry). Here
//! the shorter side moves: a quarter of the block on average, and nothing at
//! all at either end while that side has room. The shifted bytes are mostly
//! cache misses (a search reads a line or two of a block, a shift the rest), so
//! fewer of them is time saved.
//!
//! An entry keeps its prefix and its node id side by side: a search that ends
//! on an entry has its id in the line it just read, where a separate array of
//! ids cost one more cache miss before the node's own.
//!
//! The slots are allocated once at their full size (a grown `Vec` was copied by
//! its reallocation), and the memtable lists blocks as boxes: a block split
//! inserts 8 bytes into that list, not a 48-byte pair of `Vec` headers.

use super::prefix_search::Prefixes;

/// Most entries a block holds before it splits in two.
pub(crate) const BLOCK_CAP: usize = 256;
/// Room for one entry more than the cap: the one whose link splits the block.
const SLOTS: usize = BLOCK_CAP + 1;

/// A node's key prefix and id: 20 bytes, aligned to 4 so that a block is a
/// plain run of them (the prefix is read by value, never borrowed).
#[derive(Debug, Clone, Copy, Default)]
#[repr(C, packed(4))]
pub(crate) struct Entry {
    prefix: u128,
    id: u32,
}

impl Entry {
    #[inline]
    pub(crate) fn prefix(&self) -> u128 {
        self.prefix
    }

    #[inline]
    pub(crate) fn id(&self) -> u32 {
        self.id
    }
}

impl Prefixes for [Entry] {
    #[inline]
    fn count(&self) -> usize {
        self.len()
    }
    #[inline]
    fn prefix(&self, i: usize) -> u128 {
        self[i].prefix
    }
}

/// Entries in slots `lo..hi`.
#[derive(Debug, Clone)]
pub(crate) struct Block {
    lo: usize,
    hi: usize,
    slots: [Entry; SLOTS],
}

impl Block {
    /// A block holding these entries, centred in its slots so that both ends
    /// have room to grow.
    pub(crate) fn with(entries: &[Entry]) -> Box<Block> {
        debug_assert!(entries.len() <= SLOTS);
        let mut b = Box::new(Block {
            lo: 0,
            hi: 0,
            slots: [Entry::default(); SLOTS],
        });
        let lo = (SLOTS - entries.len()) / 2;
        b.slots[lo..lo + entries.len()].copy_from_slice(entries);
        (b.lo, b.hi) = (lo, lo + entries.len());
        b
    }

    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.hi - self.lo
    }

    /// The entries, in key order.
    #[inline]
    pub(crate) fn entries(&self) -> &[Entry] {
        &self.slots[self.lo..self.hi]
    }

    #[inline]
    pub(crate) fn prefix(&self, pos: usize) -> u128 {
        self.entries()[pos].prefix
    }

    #[inline]
    pub(crate) fn id(&self, pos: usize) -> u32 {
        self.entries()[pos].id
    }

    /// Puts an entry before entry `pos`, moving the side of `pos` with fewer
    /// entries (the other when that one has no room). The block must hold at
    /// most [`BLOCK_CAP`] entries, so a slot is free on one side at least.
    pub(crate) fn insert(&mut self, pos: usize, prefix: u128, id: u32) {
        let (lo, hi) = (self.lo, self.hi);
        debug_assert!(pos <= hi - lo && hi - lo < SLOTS);
        let left_is_shorter = pos < hi - lo - pos;
        let slot = if lo > 0 && (left_is_shorter || hi == SLOTS) {
            self.slots.copy_within(lo..lo + pos, lo - 1);
            self.lo -= 1;
            lo - 1 + pos
        } else {
            self.slots.copy_within(lo + pos..hi, lo + pos + 1);
            self.hi += 1;
            lo + pos
        };
        self.slots[slot] = Entry { prefix, id };
    }

    /// Moves entries `at..` to a new block; both are centred again.
    pub(crate) fn split_off(&mut self, at: usize) -> Box<Block> {
        let mid = self.lo + at;
        let right = Block::with(&self.slots[mid..self.hi]);
        let (lo, len) = (self.lo, at);
        let start = (SLOTS - len) / 2;
        self.slots.copy_within(lo..mid, start);
        (self.lo, self.hi) = (start, start + len);
        right
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn entries(b: &Block) -> Vec<(u128, u32)> {
        b.entries().iter().map(|e| (e.prefix(), e.id())).collect()
    }

    #[test]
    fn grows_at_both_ends_without_moving_the_rest() {
        let pair = |prefix, id| Entry { prefix, id };
        let mut b = Block::with(&[pair(10, 1), pair(20, 2)]);
        let lo = b.lo;
        b.insert(0, 5, 0);
        assert_eq!(b.lo, lo - 1, "an entry at the front takes the slot before");
        b.insert(3, 30, 3);
        assert_eq!(entries(&b), vec![(5, 0), (10, 1), (20, 2), (30, 3)]);
    }

    #[test]
    fn fills_to_one_past_the_cap_from_either_end() {
        for front in [true, false] {
            let mut b = Block::with(&[]);
            for i in 0..SLOTS as u32 {
                let pos = if front { 0 } else { b.len() };
                let key = if front {
                    u128::from(u32::MAX - i)
                } else {
                    u128::from(i)
                };
                b.insert(pos, key, i);
            }
            assert_eq!(b.len(), SLOTS);
            assert!(b
                .entries()
                .windows(2)
                .all(|w| w[0].prefix() < w[1].prefix()));
            let right = b.split_off(BLOCK_CAP / 2);
            assert_eq!(
                (b.len(), right.len()),
                (BLOCK_CAP / 2, SLOTS - BLOCK_CAP / 2)
            );
        }
    }

    proptest! {
        /// Inserts and splits keep exactly what a `Vec` of the same inserts
        /// holds, in the same order.
        #[test]
        fn matches_a_vec(ops in proptest::collection::vec((any::<u16>(), any::<u32>()), 1..800)) {
            let mut blocks = vec![Block::with(&[])];
            let mut model: Vec<Vec<(u128, u32)>> = vec![vec![]];
            for (pick, id) in ops {
                let bi = pick as usize % blocks.len();
                let pos = (pick as usize / 7) % (blocks[bi].len() + 1);
                blocks[bi].insert(pos, u128::from(id), id);
                model[bi].insert(pos, (u128::from(id), id));
                if blocks[bi].len() > BLOCK_CAP {
                    let right = blocks[bi].split_off(BLOCK_CAP / 2);
                    let model_right = model[bi].split_off(BLOCK_CAP / 2);
                    blocks.insert(bi + 1, right);
                    model.insert(bi + 1, model_right);
                }
                for (b, m) in blocks.iter().zip(&model) {
                    prop_assert_eq!(&entries(b), m);
                }
            }
        }
    }
}
