//! The memtable's ordered structure: a skip list over an arena, as RocksDB's
//! `InlineSkipList` (branching factor 4, 12 levels). Nodes, links and key/value
//! bytes live in three growing vectors indexed by `u32`, so an insert allocates
//! nothing once the vectors have grown.
//!
//! Inserts go through a *splice* (RocksDB's `Splice`, kept from the previous
//! insert): the predecessors and successors of the last insert position at every
//! level. A key that lands next to the previous one — sequential keys ascending or
//! descending, as index inserts ordered by time are — is placed in O(height)
//! instead of a full O(log n) descent.

use std::cmp::Ordering;

use super::types::cmp_internal;

pub(crate) const MAX_HEIGHT: usize = 12;
const BRANCHING: u64 = 4;
pub(crate) const NIL: u32 = u32::MAX;
pub(crate) const HEAD: u32 = 0;

#[derive(Debug, Clone)]
struct Node {
    /// Key bytes start here in the arena; the value follows the key.
    offset: u32,
    key_len: u32,
    value_len: u32,
    trailer: u64,
    /// Index of this node's level-0 link in `links`.
    links: u32,
    height: u8,
}

#[derive(Debug, Clone)]
pub(crate) struct SkipList {
    arena: Vec<u8>,
    nodes: Vec<Node>,
    links: Vec<u32>,
    height: usize,
    splice_prev: [u32; MAX_HEIGHT],
    splice_next: [u32; MAX_HEIGHT],
    rng: u64,
}

impl SkipList {
    pub(crate) fn new(seed: u64) -> Self {
        let head = Node {
            offset: 0,
            key_len: 0,
            value_len: 0,
            trailer: 0,
            links: 0,
            height: MAX_HEIGHT as u8,
        };
        SkipList {
            arena: Vec::new(),
            nodes: vec![head],
            links: vec![NIL; MAX_HEIGHT],
            height: 1,
            splice_prev: [HEAD; MAX_HEIGHT],
            splice_next: [NIL; MAX_HEIGHT],
            rng: seed | 1,
        }
    }

    pub(crate) fn len(&self) -> usize {
        self.nodes.len() - 1
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
            if r % BRANCHING != 0 {
                break;
            }
            h += 1;
        }
        h
    }

    #[inline]
    pub(crate) fn key(&self, n: u32) -> &[u8] {
        let node = &self.nodes[n as usize];
        &self.arena[node.offset as usize..(node.offset + node.key_len) as usize]
    }

    #[inline]
    pub(crate) fn trailer(&self, n: u32) -> u64 {
        self.nodes[n as usize].trailer
    }

    #[inline]
    pub(crate) fn value(&self, n: u32) -> &[u8] {
        let node = &self.nodes[n as usize];
        let start = (node.offset + node.key_len) as usize;
        &self.arena[start..start + node.value_len as usize]
    }

    pub(crate) fn node_height(&self, n: u32) -> usize {
        self.nodes[n as usize].height as usize
    }

    #[inline]
    pub(crate) fn next(&self, n: u32, level: usize) -> u32 {
        self.links[self.nodes[n as usize].links as usize + level]
    }

    #[inline]
    fn set_next(&mut self, n: u32, level: usize, to: u32) {
        let i = self.nodes[n as usize].links as usize + level;
        self.links[i] = to;
    }

    /// Node `n` sorts before the target.
    #[inline]
    fn before(&self, n: u32, key: &[u8], trailer: u64) -> bool {
        cmp_internal(self.key(n), self.trailer(n), key, trailer) == Ordering::Less
    }

    /// Whether the splice at `level` brackets the target.
    #[inline]
    fn brackets(&self, level: usize, key: &[u8], trailer: u64) -> bool {
        let (p, n) = (self.splice_prev[level], self.splice_next[level]);
        (p == HEAD || self.before(p, key, trailer)) && (n == NIL || !self.before(n, key, trailer))
    }

    /// Inserts an entry whose internal key is not already present. Returns the
    /// new node's height (for memory accounting); `None` when the arena would
    /// pass 4 GiB.
    pub(crate) fn insert(&mut self, key: &[u8], trailer: u64, value: &[u8]) -> Option<usize> {
        let offset = self.arena.len();
        if offset + key.len() + value.len() > u32::MAX as usize {
            return None;
        }
        let height = self.random_height();
        self.height = self.height.max(height);
        // Lowest level whose splice still brackets the key; recompute below it.
        let mut level = 0;
        while level < self.height && !self.brackets(level, key, trailer) {
            level += 1;
        }
        let mut x = if level == self.height { HEAD } else { self.splice_prev[level] };
        for l in (0..level).rev() {
            loop {
                let n = self.next(x, l);
                if n != NIL && self.before(n, key, trailer) {
                    x = n;
                } else {
                    break;
                }
            }
            self.splice_prev[l] = x;
            self.splice_next[l] = self.next(x, l);
        }
        // Levels at and above `level` already bracket the key: the splice describes
        // one position at every level, so a bracket at one level holds above it.
        self.arena.extend_from_slice(key);
        self.arena.extend_from_slice(value);
        let node = self.nodes.len() as u32;
        self.nodes.push(Node {
            offset: offset as u32,
            key_len: key.len() as u32,
            value_len: value.len() as u32,
            trailer,
            links: self.links.len() as u32,
            height: height as u8,
        });
        for l in 0..height {
            self.links.push(self.splice_next[l]);
            let prev = self.splice_prev[l];
            self.set_next(prev, l, node);
            self.splice_prev[l] = node;
        }
        Some(height)
    }

    /// First node at or after the target, or `NIL`.
    pub(crate) fn find_ge(&self, key: &[u8], trailer: u64) -> u32 {
        let x = self.find_last_before(key, trailer);
        self.next(x, 0)
    }

    /// Last node strictly before the target, or `HEAD`.
    pub(crate) fn find_last_before(&self, key: &[u8], trailer: u64) -> u32 {
        let mut x = HEAD;
        for l in (0..self.height).rev() {
            loop {
                let n = self.next(x, l);
                if n != NIL && self.before(n, key, trailer) {
                    x = n;
                } else {
                    break;
                }
            }
        }
        x
    }

    /// Last node at or before the target, or `HEAD`.
    pub(crate) fn find_last_at_or_before(&self, key: &[u8], trailer: u64) -> u32 {
        let mut x = HEAD;
        for l in (0..self.height).rev() {
            loop {
                let n = self.next(x, l);
                if n != NIL && cmp_internal(self.key(n), self.trailer(n), key, trailer) != Ordering::Greater {
                    x = n;
                } else {
                    break;
                }
            }
        }
        x
    }

    /// The last node, or `HEAD` when empty.
    pub(crate) fn last(&self) -> u32 {
        let mut x = HEAD;
        for l in (0..self.height).rev() {
            while self.next(x, l) != NIL {
                x = self.next(x, l);
            }
        }
        x
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lsm::types::{pack, ValueKind};
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
                assert!(list.node_height(n) > l);
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
                let key = k.to_be_bytes().to_vec();
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
}
