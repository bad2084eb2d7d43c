//! The memtable's ordered structure (RocksDB's `MemTableRep`): nodes in an
//! arena, linked in internal-key order, found through a two-level index of
//! sorted blocks.
//!
//! RocksDB's default rep is an inline skip list; its memory accounting (one link
//! per level of a node whose height is drawn 1, then +1 with probability 1/4) is
//! what the memtable charges, so every node still draws that height. The search
//! structure is not a skip list, though: linking a random key into a skip list of
//! a million nodes visits ~40 nodes scattered in memory, and a hash-sharded load
//! (every primary key lands at a random place) spent most of its time there. Here
//! the linked nodes are also listed in key order in blocks of at most
//! [`BLOCK_CAP`] entries, each entry the key's first 16 bytes and the node id;
//! a search is a binary search over the blocks' first prefixes (small enough to
//! stay in cache), then one over a block's prefixes, touching a node (and its
//! key bytes) only when prefixes tie. That is a B+tree of height two: a handful
//! of cache misses per search instead of dozens. Sixteen bytes, not eight: a
//! hash-sharded key's first eight are a marker, the hash and constant bytes, so
//! a memtable of a million rows tied ~15 keys per 8-byte prefix and read key
//! bytes (cache misses) several times per search; sixteen reach the bytes that
//! tell rows apart.
//!
//! The last position searched is kept (like RocksDB's splice): a write landing
//! where the previous read or write left off — DocDB writes a key right after
//! reading it, and index keys ordered by time arrive in order — is placed with
//! two comparisons.

use crate::key_order::{abbrev16 as prefix_of, cmp_bytes};
use std::cell::Cell;
use std::cmp::Ordering;

pub(crate) const NIL: u32 = u32::MAX;
/// The sentinel node before the first one (its `next` is the first node).
pub(crate) const HEAD: u32 = 0;
/// Most entries a block holds before it splits in two.
const BLOCK_CAP: usize = 256;
const MAX_HEIGHT: usize = 12;
const BRANCHING: u64 = 4;

/// Words per node: prefix (high, low), trailer, offset|key_len,
/// value_len|height, next.
const NODE_WORDS: usize = 6;
const PREFIX_HI: usize = 0;
const PREFIX_LO: usize = 1;
const TRAILER: usize = 2;
const WHERE: usize = 3;
const SIZES: usize = 4;
const NEXT: usize = 5;
/// Bytes a prefix covers.
const PREFIX_BYTES: usize = 16;

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

/// Linked nodes in key order: their prefixes and ids.
#[derive(Debug, Clone, Default)]
struct Block {
    prefixes: Vec<u128>,
    ids: Vec<u32>,
}

/// A place among the linked nodes: before entry `pos` of block `block`.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Position {
    block: usize,
    pos: usize,
}

#[derive(Debug, Clone)]
pub(crate) struct MemTableRep {
    arena: Vec<u8>,
    slab: Vec<u64>,
    /// Blocks in key order.
    blocks: Vec<Block>,
    /// Each block's first prefix and node id, for the top-level search.
    first_prefixes: Vec<u128>,
    first_ids: Vec<u32>,
    len: usize,
    /// Where the last search or link ended (a read through `&self` moves it too).
    hint: Cell<Position>,
    rng: u64,
}

impl MemTableRep {
    pub(crate) fn new(seed: u64) -> Self {
        let mut slab = vec![0u64; NODE_WORDS];
        slab[NEXT] = NIL as u64;
        MemTableRep {
            arena: Vec::new(),
            slab,
            blocks: Vec::new(),
            first_prefixes: Vec::new(),
            first_ids: Vec::new(),
            len: 0,
            hint: Cell::new(Position { block: 0, pos: 0 }),
            rng: seed | 1,
        }
    }

    /// Linked nodes.
    pub(crate) fn len(&self) -> usize {
        self.len
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

    #[inline]
    fn word(&self, n: u32, i: usize) -> u64 {
        self.slab[n as usize + i]
    }

    #[inline]
    pub(crate) fn key(&self, n: u32) -> &[u8] {
        let w = self.word(n, WHERE);
        let (offset, len) = (w as u32 as usize, (w >> 32) as usize);
        &self.arena[offset..offset + len]
    }

    #[inline]
    pub(crate) fn trailer(&self, n: u32) -> u64 {
        self.word(n, TRAILER)
    }

    #[inline]
    pub(crate) fn value(&self, n: u32) -> &[u8] {
        let w = self.word(n, WHERE);
        let start = w as u32 as usize + (w >> 32) as usize;
        let len = self.word(n, SIZES) as u32 as usize;
        &self.arena[start..start + len]
    }

    /// The node after `n` in key order (`n` may be `HEAD`), or `NIL`.
    #[inline]
    pub(crate) fn next(&self, n: u32) -> u32 {
        self.word(n, NEXT) as u32
    }

    fn set_next(&mut self, n: u32, to: u32) {
        self.slab[n as usize + NEXT] = to as u64;
    }

    /// Order of node `n` against the target.
    #[inline]
    fn cmp(&self, n: u32, t: &Target) -> Ordering {
        self.cmp_entry(self.prefix(n), n, t)
    }

    /// Order of a block entry (its prefix known without touching the node).
    #[inline]
    fn cmp_entry(&self, prefix: u128, n: u32, t: &Target) -> Ordering {
        if prefix != t.prefix {
            return prefix.cmp(&t.prefix);
        }
        self.cmp_full(n, t)
    }

    /// Order once the 16-byte prefixes tie: the bytes both keys have within
    /// those 16 are equal, so only the rest is compared.
    #[inline]
    fn cmp_full(&self, n: u32, t: &Target) -> Ordering {
        let (a, b) = (self.key(n), t.key);
        let skip = PREFIX_BYTES.min(a.len()).min(b.len());
        match cmp_bytes(&a[skip..], &b[skip..]) {
            Ordering::Equal => t.trailer.cmp(&self.trailer(n)),
            other => other,
        }
    }

    /// The first place whose entry does not satisfy `before` (entries that do
    /// come first: the order is monotone).
    fn search(&self, before: impl Fn(u128, u32) -> bool) -> Position {
        let starts_before = |i: usize| before(self.first_prefixes[i], self.first_ids[i]);
        // The target belongs in the last block that starts before it.
        let Some(block) = first_false(0, self.blocks.len(), starts_before).checked_sub(1) else {
            return Position { block: 0, pos: 0 };
        };
        let b = &self.blocks[block];
        let pos = first_false(1, b.ids.len(), |i| before(b.prefixes[i], b.ids[i]));
        Position { block, pos }
    }

    /// The node just before `at`, or `HEAD`.
    fn node_before(&self, at: Position) -> u32 {
        match at.pos.checked_sub(1) {
            Some(p) => self.blocks[at.block].ids[p],
            None => match at.block.checked_sub(1) {
                Some(b) => *self.blocks[b].ids.last().expect("blocks are never empty"),
                None => HEAD,
            },
        }
    }

    /// Whether `at` (a valid place) is where the target goes: after every node
    /// before it, before every node after it.
    fn brackets(&self, at: Position, t: &Target) -> bool {
        let prev = self.node_before(at);
        let next = self.next(prev);
        (prev == HEAD || self.cmp(prev, t) == Ordering::Less)
            && (next == NIL || self.cmp(next, t) != Ordering::Less)
    }

    /// The hint, if the target goes there.
    fn at_hint(&self, t: &Target) -> Option<Position> {
        let hint = self.hint.get();
        let valid = match self.blocks.get(hint.block) {
            Some(b) => hint.pos <= b.ids.len(),
            None => self.blocks.is_empty() && hint == Position { block: 0, pos: 0 },
        };
        (valid && self.brackets(hint, t)).then_some(hint)
    }

    /// Where the target goes among the linked nodes (the hint first).
    fn place_of(&self, t: &Target) -> Position {
        let at = self
            .at_hint(t)
            .unwrap_or_else(|| self.search(|p, n| self.cmp_entry(p, n, t) == Ordering::Less));
        self.hint.set(at);
        at
    }

    /// Whether a node fits: the arena and the slab use 32-bit offsets.
    pub(crate) fn has_room(&self, key_len: usize, value_len: usize) -> bool {
        self.arena.len() + key_len + value_len <= u32::MAX as usize
            && self.slab.len() + NODE_WORDS < NIL as usize
    }

    /// Appends a node without linking it (see [`link`](Self::link)); returns its
    /// id and the height a skip-list node would have. The caller checks
    /// [`has_room`](Self::has_room) first.
    pub(crate) fn alloc(&mut self, key: &[u8], trailer: u64, value: &[u8]) -> (u32, usize) {
        let height = self.random_height();
        let offset = self.arena.len() as u64;
        self.arena.extend_from_slice(key);
        self.arena.extend_from_slice(value);
        let id = self.slab.len() as u32;
        let prefix = prefix_of(key);
        self.slab.push((prefix >> 64) as u64);
        self.slab.push(prefix as u64);
        self.slab.push(trailer);
        self.slab.push(offset | (key.len() as u64) << 32);
        self.slab.push(value.len() as u64 | (height as u64) << 32);
        self.slab.push(NIL as u64);
        (id, height)
    }

    /// The search target of node `n`'s own key.
    fn target_of(&self, n: u32) -> Target<'_> {
        Target {
            key: self.key(n),
            prefix: self.prefix(n),
            trailer: self.trailer(n),
        }
    }

    /// Links an allocated node whose internal key is not already linked.
    pub(crate) fn link(&mut self, node: u32) {
        let at = {
            let t = self.target_of(node);
            self.place_of(&t)
        };
        self.link_at(node, at);
    }

    /// Links `node` now if the last search ended where it goes (a few
    /// comparisons); false otherwise.
    pub(crate) fn link_if_at_hint(&mut self, node: u32) -> bool {
        let Some(at) = self.at_hint(&self.target_of(node)) else {
            return false;
        };
        self.link_at(node, at);
        true
    }

    fn link_at(&mut self, node: u32, at: Position) {
        let prev = self.node_before(at);
        self.set_next(node, self.next(prev));
        self.set_next(prev, node);
        let prefix = self.prefix(node);
        if self.blocks.is_empty() {
            self.blocks.push(Block::default());
            self.first_prefixes.push(0);
            self.first_ids.push(NIL);
        }
        let b = &mut self.blocks[at.block];
        b.prefixes.insert(at.pos, prefix);
        b.ids.insert(at.pos, node);
        if at.pos == 0 {
            self.first_prefixes[at.block] = prefix;
            self.first_ids[at.block] = node;
        }
        let mut after = Position {
            block: at.block,
            pos: at.pos + 1,
        };
        if self.blocks[at.block].ids.len() > BLOCK_CAP {
            let half = BLOCK_CAP / 2;
            let b = &mut self.blocks[at.block];
            let right = Block {
                prefixes: b.prefixes.split_off(half),
                ids: b.ids.split_off(half),
            };
            self.first_prefixes.insert(at.block + 1, right.prefixes[0]);
            self.first_ids.insert(at.block + 1, right.ids[0]);
            self.blocks.insert(at.block + 1, right);
            if after.pos > half {
                after = Position {
                    block: at.block + 1,
                    pos: after.pos - half,
                };
            }
        }
        self.hint.set(after);
        self.len += 1;
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

    /// The cached 16-byte key prefix of node `n`.
    #[inline]
    pub(crate) fn prefix(&self, n: u32) -> u128 {
        u128::from(self.word(n, PREFIX_HI)) << 64 | u128::from(self.word(n, PREFIX_LO))
    }

    /// First node at or after the target, or `NIL`.
    pub(crate) fn find_ge(&self, key: &[u8], trailer: u64) -> u32 {
        let x = self.find_last_before(key, trailer);
        self.next(x)
    }

    /// Last node strictly before the target, or `HEAD`.
    pub(crate) fn find_last_before(&self, key: &[u8], trailer: u64) -> u32 {
        let at = self.place_of(&Target::new(key, trailer));
        self.node_before(at)
    }

    /// Last node at or before the target, or `HEAD`.
    pub(crate) fn find_last_at_or_before(&self, key: &[u8], trailer: u64) -> u32 {
        let t = Target::new(key, trailer);
        let at = self.search(|p, n| self.cmp_entry(p, n, &t) != Ordering::Greater);
        self.node_before(at)
    }

    /// The linked nodes in key order, a block at a time.
    pub(crate) fn blocks_in_order(&self) -> impl Iterator<Item = &[u32]> {
        self.blocks.iter().map(|b| b.ids.as_slice())
    }

    /// Reads the nodes `ids` and the first and last byte of each entry, so that a
    /// walk over them in key order finds them in cache. In key order the nodes lie
    /// scattered over the slab and arena (they are in write order there), and a
    /// walk that does real work per entry — a flush building an SST — would take
    /// each cache miss in turn; these loads do not depend on each other, so the
    /// CPU overlaps their misses.
    pub(crate) fn warm(&self, ids: &[u32]) {
        let mut acc = 0u64;
        for &n in ids {
            acc = acc.wrapping_add(self.word(n, WHERE) ^ self.word(n, SIZES));
        }
        for &n in ids {
            let w = self.word(n, WHERE);
            let start = w as u32 as usize;
            let end = start + (w >> 32) as usize + self.word(n, SIZES) as u32 as usize;
            if end > start {
                acc ^= u64::from(self.arena[start]) ^ u64::from(self.arena[end - 1]);
            }
        }
        std::hint::black_box(acc);
    }

    /// The last node, or `HEAD` when empty.
    pub(crate) fn last(&self) -> u32 {
        self.blocks
            .last()
            .and_then(|b| b.ids.last().copied())
            .unwrap_or(HEAD)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lsm::types::{cmp_internal, pack, ValueKind};
    use crate::rng::Rng;

    fn collect(list: &MemTableRep) -> Vec<(Vec<u8>, u64)> {
        let mut out = Vec::new();
        let mut n = list.next(HEAD);
        while n != NIL {
            out.push((list.key(n).to_vec(), list.trailer(n)));
            n = list.next(n);
        }
        out
    }

    /// The blocks list exactly the linked nodes, in order, each within its cap,
    /// with the right first entries; the splits happened (no block over the cap).
    fn check_blocks(list: &MemTableRep) {
        let mut n = list.next(HEAD);
        for (bi, b) in list.blocks.iter().enumerate() {
            assert!(!b.ids.is_empty() && b.ids.len() <= BLOCK_CAP);
            assert_eq!(b.ids.len(), b.prefixes.len());
            assert_eq!(
                (list.first_prefixes[bi], list.first_ids[bi]),
                (b.prefixes[0], b.ids[0])
            );
            for (&p, &id) in b.prefixes.iter().zip(&b.ids) {
                assert_eq!(id, n, "blocks follow the links");
                assert_eq!(p, list.prefix(id));
                n = list.next(n);
            }
        }
        assert_eq!(n, NIL, "every linked node is in a block");
        assert_eq!(list.blocks.len(), list.first_ids.len());
        let linked: usize = list.blocks.iter().map(|b| b.ids.len()).sum();
        assert_eq!(linked, list.len());
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

    #[test]
    fn searches() {
        let mut list = MemTableRep::new(1);
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
        assert_eq!(MemTableRep::new(3).last(), HEAD);
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
        (n != NIL && n != HEAD).then(|| (rep.key(n).to_vec(), rep.trailer(n)))
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
                        prop_assert_eq!(as_pair(&rep, rep.find_ge(&last_search, t)), want);
                    }
                    Op::SeekForPrev(k) => {
                        let k = key(k);
                        let t = pack(0, ValueKind::Put);
                        let want = model
                            .range(..=(k.clone(), Reverse(t)))
                            .next_back()
                            .map(|((k, Reverse(t)), _)| (k.clone(), *t));
                        prop_assert_eq!(as_pair(&rep, rep.find_last_at_or_before(&k, t)), want);
                    }
                }
            }
            let all: Vec<(Vec<u8>, u64)> =
                model.keys().map(|(k, Reverse(t))| (k.clone(), *t)).collect();
            let mut linked = Vec::new();
            let mut n = rep.next(HEAD);
            while n != NIL {
                linked.push((rep.key(n).to_vec(), rep.trailer(n)));
                n = rep.next(n);
            }
            prop_assert_eq!(&linked, &all);
            prop_assert_eq!(as_pair(&rep, rep.last()), all.last().cloned());
            prop_assert_eq!(rep.len(), all.len());
        }
    }
}
