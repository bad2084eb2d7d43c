//! The memtable's ordered structure: a skip list over an arena, as RocksDB's
//! `InlineSkipList` (branching factor 4, 12 levels). Nodes and their links live
//! in one growing `u64` slab and key/value bytes in a byte arena, both indexed by
//! `u32`, so an insert allocates nothing once they have grown.
//!
//! Locality decides the speed of a large skip list: a search visits ~30 nodes
//! scattered in memory. As RocksDB's inline skip list keeps a node's links next to
//! its key, a node here is one contiguous run of words — the first 8 key bytes
//! (so most comparisons never touch the arena), the trailer, where the key and
//! value are, and the links — and a visit costs one cache miss, not three.
//!
//! Inserts go through a *splice* (RocksDB's `Splice`, kept from the previous
//! insert): the predecessors and successors of the last insert position at every
//! level. A key that lands next to the previous one — sequential keys ascending or
//! descending, as index inserts ordered by time are — is placed in O(height)
//! instead of a full O(log n) descent.
//!
//! Reads keep the splice too: a seek leaves it at the position it found. DocDB
//! seeks a document two or three times before writing a new version of it (a
//! conflict check, then the point read of a uniqueness check) and the write lands
//! at that same position, so the repeats and the insert cost a few comparisons
//! instead of descents through a million nodes. The splice is exact at every
//! moment (every link updates it), which is what makes starting from it correct.

use std::cell::Cell;
use std::cmp::Ordering;

pub(crate) const MAX_HEIGHT: usize = 12;
const BRANCHING: u64 = 4;
pub(crate) const NIL: u32 = u32::MAX;
pub(crate) const HEAD: u32 = 0;

/// Words before a node's links: prefix, trailer, offset|key_len, value_len|height.
const HEADER_WORDS: usize = 4;

/// The first 8 bytes of a key as a big-endian number (zero-padded): comparing two
/// prefixes orders keys unless the prefixes are equal.
#[inline]
fn prefix_of(key: &[u8]) -> u64 {
    let mut b = [0u8; 8];
    let n = key.len().min(8);
    b[..n].copy_from_slice(&key[..n]);
    u64::from_be_bytes(b)
}

/// A search target: key, its prefix, trailer.
#[derive(Clone, Copy)]
struct Target<'k> {
    key: &'k [u8],
    prefix: u64,
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

#[derive(Debug, Clone)]
pub(crate) struct SkipList {
    arena: Vec<u8>,
    slab: Vec<u64>,
    len: usize,
    height: usize,
    /// The predecessors and successors, at every level, of the last position
    /// searched or linked (in cells: a read through `&self` moves it too).
    splice_prev: Cell<[u32; MAX_HEIGHT]>,
    splice_next: Cell<[u32; MAX_HEIGHT]>,
    rng: u64,
}

impl SkipList {
    pub(crate) fn new(seed: u64) -> Self {
        let mut slab = vec![0u64; HEADER_WORDS + MAX_HEIGHT / 2];
        slab[3] = (MAX_HEIGHT as u64) << 32;
        for w in &mut slab[HEADER_WORDS..] {
            *w = u64::MAX; // NIL links
        }
        SkipList {
            arena: Vec::new(),
            slab,
            len: 0,
            height: 1,
            splice_prev: Cell::new([HEAD; MAX_HEIGHT]),
            splice_next: Cell::new([NIL; MAX_HEIGHT]),
            rng: seed | 1,
        }
    }

    /// Linked nodes.
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// Height of a new node: 1, then +1 with probability 1/4 per level.
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

    #[inline]
    fn word(&self, n: u32, i: usize) -> u64 {
        self.slab[n as usize + i]
    }

    #[inline]
    pub(crate) fn key(&self, n: u32) -> &[u8] {
        let w = self.word(n, 2);
        let (offset, len) = (w as u32 as usize, (w >> 32) as usize);
        &self.arena[offset..offset + len]
    }

    #[inline]
    pub(crate) fn trailer(&self, n: u32) -> u64 {
        self.word(n, 1)
    }

    #[inline]
    pub(crate) fn value(&self, n: u32) -> &[u8] {
        let w = self.word(n, 2);
        let start = w as u32 as usize + (w >> 32) as usize;
        let len = self.word(n, 3) as u32 as usize;
        &self.arena[start..start + len]
    }

    #[inline]
    pub(crate) fn next(&self, n: u32, level: usize) -> u32 {
        (self.word(n, HEADER_WORDS + level / 2) >> (32 * (level % 2))) as u32
    }

    #[inline]
    fn set_next(&mut self, n: u32, level: usize, to: u32) {
        let w = &mut self.slab[n as usize + HEADER_WORDS + level / 2];
        let shift = 32 * (level % 2);
        *w = (*w & !(0xFFFF_FFFFu64 << shift)) | ((to as u64) << shift);
    }

    /// Order of node `n` against the target.
    #[inline]
    fn cmp(&self, n: u32, t: &Target) -> Ordering {
        let p = self.word(n, 0);
        if p != t.prefix {
            return p.cmp(&t.prefix);
        }
        match self.key(n).cmp(t.key) {
            Ordering::Equal => t.trailer.cmp(&self.trailer(n)),
            other => other,
        }
    }

    #[inline]
    fn before(&self, n: u32, t: &Target) -> bool {
        self.cmp(n, t) == Ordering::Less
    }

    /// Whether a splice at `level` brackets the target.
    #[inline]
    fn brackets(&self, prev: &[u32], next: &[u32], level: usize, t: &Target) -> bool {
        let (p, n) = (prev[level], next[level]);
        (p == HEAD || self.before(p, t)) && (n == NIL || !self.before(n, t))
    }

    /// Moves the splice to the target's position, starting from the lowest level
    /// whose current splice still brackets it (levels above a bracketing level
    /// bracket it too: the splice describes one position at every level). Returns
    /// the new splice: `prev[0]` is the last node before the target, or `HEAD`.
    fn seek_splice(&self, t: &Target) -> ([u32; MAX_HEIGHT], [u32; MAX_HEIGHT]) {
        let (mut prev, mut next) = (self.splice_prev.get(), self.splice_next.get());
        let mut level = 0;
        while level < self.height && !self.brackets(&prev, &next, level, t) {
            level += 1;
        }
        let mut x = if level == self.height {
            HEAD
        } else {
            prev[level]
        };
        for l in (0..level).rev() {
            loop {
                let n = self.next(x, l);
                if n != NIL && self.before(n, t) {
                    x = n;
                } else {
                    break;
                }
            }
            prev[l] = x;
            next[l] = self.next(x, l);
        }
        self.splice_prev.set(prev);
        self.splice_next.set(next);
        (prev, next)
    }

    /// Whether a node fits: the arena and the slab use 32-bit offsets.
    pub(crate) fn has_room(&self, key_len: usize, value_len: usize) -> bool {
        let words = HEADER_WORDS + MAX_HEIGHT / 2;
        self.arena.len() + key_len + value_len <= u32::MAX as usize
            && self.slab.len() + words < NIL as usize
    }

    /// Appends a node without linking it (see [`link`](Self::link)); returns its
    /// id and height. The caller checks [`has_room`](Self::has_room) first.
    pub(crate) fn alloc(&mut self, key: &[u8], trailer: u64, value: &[u8]) -> (u32, usize) {
        let height = self.random_height();
        let offset = self.arena.len() as u64;
        self.arena.extend_from_slice(key);
        self.arena.extend_from_slice(value);
        let id = self.slab.len() as u32;
        self.slab.push(prefix_of(key));
        self.slab.push(trailer);
        self.slab.push(offset | (key.len() as u64) << 32);
        self.slab.push(value.len() as u64 | (height as u64) << 32);
        self.slab
            .extend(std::iter::repeat_n(u64::MAX, height.div_ceil(2)));
        (id, height)
    }

    fn node_height(&self, n: u32) -> usize {
        (self.word(n, 3) >> 32) as usize
    }

    /// The search target of node `n`'s own key.
    fn target_of(&self, n: u32) -> Target<'_> {
        Target {
            key: self.key(n),
            prefix: self.word(n, 0),
            trailer: self.trailer(n),
        }
    }

    /// Links an allocated node whose internal key is not already linked, starting
    /// from the splice of the previous link.
    pub(crate) fn link(&mut self, node: u32) {
        let height = self.node_height(node);
        self.height = self.height.max(height);
        let (mut prev, next) = {
            let t = self.target_of(node);
            self.seek_splice(&t)
        };
        for l in 0..height {
            self.set_next(node, l, next[l]);
            self.set_next(prev[l], l, node);
            prev[l] = node;
        }
        self.splice_prev.set(prev);
        self.splice_next.set(next);
        self.len += 1;
    }

    /// Links `node` now if the splice already brackets it (the last search or
    /// link ended next to it), which costs a few comparisons; false otherwise.
    pub(crate) fn link_if_at_splice(&mut self, node: u32) -> bool {
        let (prev, next) = (self.splice_prev.get(), self.splice_next.get());
        if !self.brackets(&prev, &next, 0, &self.target_of(node)) {
            return false;
        }
        self.link(node);
        true
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
        self.cmp(a, &self.target_of(b))
    }

    /// Order of node `n` against a target key.
    pub(crate) fn cmp_key(&self, n: u32, key: &[u8], trailer: u64) -> Ordering {
        self.cmp(n, &Target::new(key, trailer))
    }

    /// The cached 8-byte key prefix of node `n`.
    pub(crate) fn prefix(&self, n: u32) -> u64 {
        self.word(n, 0)
    }

    /// Last node for which `keep_going(node)` holds along the search path, or HEAD.
    #[inline]
    fn descend(&self, mut advance: impl FnMut(u32) -> bool) -> u32 {
        let mut x = HEAD;
        for l in (0..self.height).rev() {
            loop {
                let n = self.next(x, l);
                if n != NIL && advance(n) {
                    x = n;
                } else {
                    break;
                }
            }
        }
        x
    }

    /// First node at or after the target, or `NIL`.
    pub(crate) fn find_ge(&self, key: &[u8], trailer: u64) -> u32 {
        let x = self.find_last_before(key, trailer);
        self.next(x, 0)
    }

    /// Last node strictly before the target, or `HEAD`.
    pub(crate) fn find_last_before(&self, key: &[u8], trailer: u64) -> u32 {
        self.seek_splice(&Target::new(key, trailer)).0[0]
    }

    /// Last node at or before the target, or `HEAD`.
    pub(crate) fn find_last_at_or_before(&self, key: &[u8], trailer: u64) -> u32 {
        let t = Target::new(key, trailer);
        self.descend(|n| self.cmp(n, &t) != Ordering::Greater)
    }

    /// The last node, or `HEAD` when empty.
    pub(crate) fn last(&self) -> u32 {
        self.descend(|_| true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lsm::types::{cmp_internal, pack, ValueKind};
    use crate::rng::Rng;

    fn collect(list: &SkipList) -> Vec<(Vec<u8>, u64)> {
        let mut out = Vec::new();
        let mut n = list.next(HEAD, 0);
        while n != NIL {
            out.push((list.key(n).to_vec(), list.trailer(n)));
            n = list.next(n, 0);
        }
        out
    }

    /// Every level is a sorted sub-list of the level below.
    fn check_levels(list: &SkipList) {
        for l in 1..MAX_HEIGHT {
            let mut n = list.next(HEAD, l);
            let mut prev: Option<u32> = None;
            while n != NIL {
                assert!(
                    list.word(n, 3) >> 32 > l as u64,
                    "node on a level above its height"
                );
                if let Some(p) = prev {
                    assert_eq!(
                        cmp_internal(list.key(p), list.trailer(p), list.key(n), list.trailer(n)),
                        Ordering::Less
                    );
                }
                prev = Some(n);
                n = list.next(n, l);
            }
        }
    }

    #[test]
    fn keeps_order_for_any_insert_pattern() {
        for pattern in 0..3 {
            let mut list = SkipList::new(42);
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
            check_levels(&list);
            assert_eq!(list.len(), 3000);
        }
    }

    #[test]
    fn searches() {
        let mut list = SkipList::new(1);
        for (i, k) in [b"b", b"d", b"f"].iter().enumerate() {
            list.insert(*k, pack(i as u64 + 1, ValueKind::Put), b"x");
        }
        let t = pack(100, ValueKind::Put);
        assert_eq!(list.key(list.find_ge(b"c", t)), b"d");
        assert_eq!(list.key(list.find_ge(b"d", t)), b"d");
        assert_eq!(list.find_ge(b"g", t), NIL);
        assert_eq!(list.key(list.find_last_before(b"d", t)), b"b");
        assert_eq!(list.find_last_before(b"b", t), HEAD);
        assert_eq!(list.key(list.find_last_at_or_before(b"d", 0)), b"d");
        assert_eq!(list.key(list.last()), b"f");
        assert_eq!(list.value(list.last()), b"x");
        assert_eq!(SkipList::new(3).last(), HEAD);
    }

    /// Seeks move the splice that inserts start from: interleaved seeks (repeated,
    /// near, far) and inserts must keep every seek answer and the order exact.
    #[test]
    fn seeks_between_inserts_leave_the_list_exact() {
        let mut list = SkipList::new(7);
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
                let got = list.find_ge(&probe, t);
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
                // the splice; a newer version of the probed key always is.
                let (node, _) = list.alloc(&key, tr, b"v");
                let linked = list.link_if_at_splice(node);
                if same_place {
                    assert!(linked, "a write at the probed key is at the splice");
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
        check_levels(&list);
    }
}
