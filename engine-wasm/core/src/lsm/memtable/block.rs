//! A block of the memtable's index: up to [`BLOCK_CAP`] [entries](Entry) (a
//! node's 12-byte key prefix, its id and its shape) in key order, in a fixed run of slots with
//! free room on both sides.
//!
//! Linking a node shifts the entries on one side of its place by one slot. A
//! block that only grew rightwards (a `Vec`) would shift everything after the place:
//! half the block on average for a hash-sharded table, whose keys land anywhere,
//! and the whole block for keys arriving in descending order (an index on
//! `value desc` filled by increasing values inserts before every entry). Here
//! the shorter side moves: a quarter of the block on average, and nothing at
//! all at either end while that side has room. When the side to move has no
//! room left, the entries are centred again (one move of the block) rather
//! than the whole block moving by one slot for every insert from then on: keys
//! arriving at one end pay a few block moves per block filled, not one per key.
//! The shifted bytes are mostly cache misses (a search reads a line or two of a
//! block, a shift the rest), so fewer of them is time saved.
//!
//! An entry keeps its prefix, its node id and its shape side by side: a search
//! that ends on an entry has them in the line it just read, where a separate
//! array of ids would cost one more cache miss.
//!
//! What the memtable's top-level search reads of a block — its first prefix
//! and where its entries lie in the slots — is kept in the [`Block`] itself,
//! which the memtable lists by value; only the slots are boxed. A search reads
//! the bounds from the line where it just compared the first prefix, and goes
//! to the slots only for the entries it needs (bounds in the slots' own
//! allocation would be one cache miss more per search). The slots are allocated
//! once at their full size (a growing `Vec` is copied at each reallocation).

pub(crate) use super::entry::Entry;
use super::prefix_search::Prefixes;

/// Most entries a block holds before it splits in two. Larger blocks shift
/// more bytes per link but make the top level shorter (fewer search steps,
/// cheaper block inserts at splits). With the top level holding each block's
/// first prefix and bounds, a million-row load (article 000) gains more from
/// the shorter top level at 512 than it loses to the longer shifts, natively
/// and in wasm; smaller caps lose.
pub(crate) const BLOCK_CAP: usize = 512;
/// Room for one entry more than the cap: the one whose link splits the block.
const SLOTS: usize = BLOCK_CAP + 1;

impl Prefixes for [Entry] {
    #[inline]
    fn count(&self) -> usize {
        self.len()
    }
    #[inline]
    fn prefix(&self, i: usize) -> u128 {
        self[i].prefix()
    }
}

/// Entries in slots `lo..hi`, and the first one's prefix (0 while empty).
#[derive(Debug, Clone)]
pub(crate) struct Block {
    first: u128,
    lo: u16,
    hi: u16,
    slots: Box<[Entry; SLOTS]>,
}

impl Block {
    /// A block holding these entries, centred in its slots so that both ends
    /// have room to grow.
    pub(crate) fn with(entries: &[Entry]) -> Block {
        debug_assert!(entries.len() <= SLOTS);
        let mut b = Block {
            first: 0,
            lo: 0,
            hi: 0,
            slots: Box::new([Entry::default(); SLOTS]),
        };
        b.place(entries.len(), |slots, lo| {
            slots[lo..lo + entries.len()].copy_from_slice(entries)
        });
        b
    }

    /// Puts `len` entries (written by `fill` from the given slot on) in the
    /// middle of the slots.
    fn place(&mut self, len: usize, fill: impl FnOnce(&mut [Entry; SLOTS], usize)) {
        let lo = (SLOTS - len) / 2;
        fill(&mut self.slots, lo);
        (self.lo, self.hi) = (lo as u16, (lo + len) as u16);
        self.first = self.entries().first().map_or(0, Entry::prefix);
    }

    #[inline]
    pub(crate) fn len(&self) -> usize {
        usize::from(self.hi - self.lo)
    }

    /// The first entry's prefix (0 for an empty block).
    #[inline]
    pub(crate) fn first(&self) -> u128 {
        self.first
    }

    /// The entries, in key order.
    #[inline]
    pub(crate) fn entries(&self) -> &[Entry] {
        &self.slots[usize::from(self.lo)..usize::from(self.hi)]
    }

    #[inline]
    pub(crate) fn id(&self, pos: usize) -> u32 {
        self.entries()[pos].id()
    }

    /// Puts an entry before entry `pos`, moving the side of `pos` with fewer
    /// entries. When that side has no room the entries are centred first; when
    /// even then it has none (one free slot), the other side moves. The block
    /// must hold at most [`BLOCK_CAP`] entries, so a slot is free somewhere.
    pub(crate) fn insert(&mut self, pos: usize, entry: Entry) {
        let len = self.len();
        debug_assert!(pos <= len && len < SLOTS);
        let move_left = pos < len - pos;
        if (move_left && self.lo == 0) || (!move_left && usize::from(self.hi) == SLOTS) {
            self.recentre();
        }
        let (lo, hi) = (usize::from(self.lo), usize::from(self.hi));
        let slot = if lo > 0 && (move_left || hi == SLOTS) {
            self.slots.copy_within(lo..lo + pos, lo - 1);
            self.lo -= 1;
            lo - 1 + pos
        } else {
            self.slots.copy_within(lo + pos..hi, lo + pos + 1);
            self.hi += 1;
            lo + pos
        };
        self.slots[slot] = entry;
        if pos == 0 {
            self.first = entry.prefix();
        }
    }

    /// Moves the entries to the middle of the slots.
    fn recentre(&mut self) {
        let (lo, hi) = (usize::from(self.lo), usize::from(self.hi));
        self.place(hi - lo, |slots, start| slots.copy_within(lo..hi, start));
    }

    /// Moves entries `at..` to a new block; both are centred again.
    pub(crate) fn split_off(&mut self, at: usize) -> Block {
        let (lo, hi) = (usize::from(self.lo), usize::from(self.hi));
        let right = Block::with(&self.slots[lo + at..hi]);
        self.place(at, |slots, start| slots.copy_within(lo..lo + at, start));
        right
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lsm::memtable::entry::Shape;
    use crate::lsm::types::ValueKind;
    use proptest::prelude::*;

    fn entry(prefix: u128, id: u32) -> Entry {
        let shape = Shape {
            kind: ValueKind::Put,
            key_len: 0,
            value_len: 0,
        };
        Entry::new(prefix, id, shape)
    }

    fn entries(b: &Block) -> Vec<(u128, u32)> {
        b.entries().iter().map(|e| (e.prefix(), e.id())).collect()
    }

    #[test]
    fn grows_at_both_ends_without_moving_the_rest() {
        let pair = entry;
        let mut b = Block::with(&[pair(10, 1), pair(20, 2)]);
        let lo = b.lo;
        b.insert(0, entry(5, 0));
        assert_eq!(b.lo, lo - 1, "an entry at the front takes the slot before");
        b.insert(3, entry(30, 3));
        assert_eq!(entries(&b), vec![(5, 0), (10, 1), (20, 2), (30, 3)]);
    }

    #[test]
    fn an_end_out_of_room_is_made_room_at_once() {
        // Keys arriving in descending order: once the front has no room, the
        // entries are centred, so the next inserts again move nothing.
        let mut b = Block::with(&[]);
        let mut recentred = 0;
        for i in 0..BLOCK_CAP as u32 {
            let before = b.lo;
            b.insert(0, entry(u128::from(u32::MAX - i), i));
            if b.lo >= before {
                recentred += 1;
            }
            assert_eq!(b.first(), u128::from(u32::MAX - i));
        }
        // Each centring halves the room left in front: a handful, not one per
        // insert once the front filled.
        assert!(recentred <= 10, "{recentred} block moves");
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
                b.insert(pos, entry(key, i));
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
                blocks[bi].insert(pos, entry(u128::from(id), id));
                model[bi].insert(pos, (u128::from(id), id));
                if blocks[bi].len() > BLOCK_CAP {
                    let right = blocks[bi].split_off(BLOCK_CAP / 2);
                    let model_right = model[bi].split_off(BLOCK_CAP / 2);
                    blocks.insert(bi + 1, right);
                    model.insert(bi + 1, model_right);
                }
                for (b, m) in blocks.iter().zip(&model) {
                    prop_assert_eq!(&entries(b), m);
                    prop_assert_eq!(b.first(), m.first().map_or(0, |e| e.0));
                }
            }
        }
    }
}
