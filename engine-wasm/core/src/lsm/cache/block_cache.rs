//! An LRU cache of SST blocks, charged by block size (RocksDB's `LRUCache` behind
//! `block_cache`, with `cache_index_and_filter_blocks=true` as YugabyteDB sets it,
//! so index and filter blocks compete with data blocks).
//!
//! One cache may serve several trees (YugabyteDB has one block cache per tablet
//! server, shared by all its tablets): blocks are keyed by (owner, SST, kind,
//! block number). Blocks of deleted SSTs are not erased; like RocksDB's, they age
//! out of the LRU list.
//!
//! Counters follow RocksDB's tickers: per-kind hit/miss, `add` and
//! `bytes_write` when a block is inserted, `bytes_read` on a hit (the block's
//! size). Three ways to read, chosen per read:
//! - [`CacheMode::Fill`]: look up, insert on a miss (the default);
//! - [`CacheMode::NoFill`]: look up, do not insert on a miss (`fill_cache=false`,
//!   as RocksDB compactions and large scans use);
//! - [`CacheMode::Bypass`]: do not touch the cache at all; the read goes to
//!   storage and is only counted as a bypassed read (what article 000 shows for a
//!   50000-row request: past the readahead threshold blocks are no longer read
//!   through the cache, so they count neither as hits nor as misses).

use std::collections::HashMap;

use super::access::{BlockId, CacheMode, CacheOutcome};
use super::stats::CacheStats;
use rustc_hash::FxBuildHasher as FxBuild;

const NIL: u32 = u32::MAX;

#[derive(Debug, Clone)]
struct Node {
    id: BlockId,
    charge: u32,
    prev: u32,
    next: u32,
}

/// How full the cache is, for the UI.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CacheOccupancy {
    pub capacity: u64,
    pub used: u64,
    pub blocks: u64,
    /// (blocks, bytes) per kind: data, index, filter.
    pub per_kind: [(u64, u64); 3],
}

/// The LRU block cache.
#[derive(Debug, Clone)]
pub struct BlockCache {
    capacity: u64,
    used: u64,
    map: HashMap<BlockId, u32, FxBuild>,
    nodes: Vec<Node>,
    free: Vec<u32>,
    /// Most recently used.
    head: u32,
    /// Least recently used: the next victim.
    tail: u32,
    stats: CacheStats,
}

impl BlockCache {
    /// A cache of `capacity` bytes; 0 disables it (every read is a miss).
    pub fn new(capacity: u64) -> Self {
        BlockCache {
            capacity,
            used: 0,
            map: HashMap::default(),
            nodes: Vec::new(),
            free: Vec::new(),
            head: NIL,
            tail: NIL,
            stats: CacheStats::default(),
        }
    }

    pub fn capacity(&self) -> u64 {
        self.capacity
    }

    pub fn used(&self) -> u64 {
        self.used
    }

    pub fn len(&self) -> usize {
        self.map.len()
    }

    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }

    pub fn contains(&self, id: &BlockId) -> bool {
        self.map.contains_key(id)
    }

    /// Running totals since creation (or [`reset_stats`](Self::reset_stats)).
    pub fn stats(&self) -> &CacheStats {
        &self.stats
    }

    pub fn reset_stats(&mut self) {
        self.stats = CacheStats::default();
    }

    /// Reads one block of `bytes` bytes through the cache.
    pub fn access(&mut self, id: BlockId, bytes: u32, mode: CacheMode) -> CacheOutcome {
        let outcome = self.lookup_or_insert(id, bytes, mode);
        self.stats.record(id.kind, outcome, bytes);
        outcome
    }

    fn lookup_or_insert(&mut self, id: BlockId, bytes: u32, mode: CacheMode) -> CacheOutcome {
        if mode == CacheMode::Bypass {
            return CacheOutcome::Bypassed;
        }
        if let Some(&slot) = self.map.get(&id) {
            self.unlink(slot);
            self.push_front(slot);
            return CacheOutcome::Hit;
        }
        if mode == CacheMode::NoFill || bytes as u64 > self.capacity {
            return CacheOutcome::Miss;
        }
        self.insert(id, bytes);
        CacheOutcome::MissAdded
    }

    fn insert(&mut self, id: BlockId, charge: u32) {
        while self.used + charge as u64 > self.capacity && self.tail != NIL {
            self.evict_tail();
        }
        let node = Node {
            id,
            charge,
            prev: NIL,
            next: NIL,
        };
        let slot = match self.free.pop() {
            Some(s) => {
                self.nodes[s as usize] = node;
                s
            }
            None => {
                self.nodes.push(node);
                (self.nodes.len() - 1) as u32
            }
        };
        self.push_front(slot);
        self.map.insert(id, slot);
        self.used += charge as u64;
    }

    fn evict_tail(&mut self) {
        let slot = self.tail;
        self.unlink(slot);
        let node = &self.nodes[slot as usize];
        self.used -= node.charge as u64;
        self.map.remove(&node.id);
        self.free.push(slot);
        self.stats.evictions += 1;
    }

    fn unlink(&mut self, slot: u32) {
        let (prev, next) = {
            let n = &self.nodes[slot as usize];
            (n.prev, n.next)
        };
        if prev == NIL {
            self.head = next;
        } else {
            self.nodes[prev as usize].next = next;
        }
        if next == NIL {
            self.tail = prev;
        } else {
            self.nodes[next as usize].prev = prev;
        }
    }

    fn push_front(&mut self, slot: u32) {
        let old = self.head;
        {
            let n = &mut self.nodes[slot as usize];
            n.prev = NIL;
            n.next = old;
        }
        if old == NIL {
            self.tail = slot;
        } else {
            self.nodes[old as usize].prev = slot;
        }
        self.head = slot;
    }

    /// Blocks from most to least recently used (for the UI and tests).
    pub fn lru_order(&self) -> Vec<BlockId> {
        let mut out = Vec::with_capacity(self.map.len());
        let mut s = self.head;
        while s != NIL {
            out.push(self.nodes[s as usize].id);
            s = self.nodes[s as usize].next;
        }
        out
    }

    /// Occupancy, for all owners or for one.
    pub fn occupancy(&self, owner: Option<u32>) -> CacheOccupancy {
        let mut o = CacheOccupancy {
            capacity: self.capacity,
            used: 0,
            ..CacheOccupancy::default()
        };
        for &slot in self.map.values() {
            let n = &self.nodes[slot as usize];
            if owner.is_some_and(|w| w != n.id.owner) {
                continue;
            }
            let k = n.id.kind as usize;
            o.per_kind[k].0 += 1;
            o.per_kind[k].1 += n.charge as u64;
            o.blocks += 1;
            o.used += n.charge as u64;
        }
        o
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lsm::cache::BlockKind;

    fn id(sst: u64, kind: BlockKind, block: u32) -> BlockId {
        BlockId {
            owner: 0,
            sst,
            kind,
            block,
        }
    }

    #[test]
    fn hits_misses_and_adds_are_counted_per_kind() {
        let mut c = BlockCache::new(10_000);
        assert_eq!(
            c.access(id(1, BlockKind::Data, 0), 1000, CacheMode::Fill),
            CacheOutcome::MissAdded
        );
        assert_eq!(
            c.access(id(1, BlockKind::Data, 0), 1000, CacheMode::Fill),
            CacheOutcome::Hit
        );
        assert_eq!(
            c.access(id(1, BlockKind::Index, 0), 300, CacheMode::Fill),
            CacheOutcome::MissAdded
        );
        assert_eq!(
            c.access(id(1, BlockKind::Filter, 0), 200, CacheMode::Fill),
            CacheOutcome::MissAdded
        );
        assert_eq!(
            c.access(id(1, BlockKind::Filter, 0), 200, CacheMode::Fill),
            CacheOutcome::Hit
        );
        let s = c.stats();
        assert_eq!((s.data.hit, s.data.miss, s.data.add), (1, 1, 1));
        assert_eq!((s.index.hit, s.index.miss), (0, 1));
        assert_eq!((s.filter.hit, s.filter.miss), (1, 1));
        assert_eq!(s.hits(), 2);
        assert_eq!(s.misses(), 3);
        assert_eq!(s.bytes_read(), 1200);
        assert_eq!(s.bytes_write(), 1500);
        assert_eq!(c.used(), 1500);
    }

    #[test]
    fn evicts_least_recently_used() {
        let mut c = BlockCache::new(3000);
        for b in 0..3 {
            c.access(id(1, BlockKind::Data, b), 1000, CacheMode::Fill);
        }
        // Touch block 0: block 1 becomes the LRU victim.
        c.access(id(1, BlockKind::Data, 0), 1000, CacheMode::Fill);
        c.access(id(1, BlockKind::Data, 3), 1000, CacheMode::Fill);
        assert!(!c.contains(&id(1, BlockKind::Data, 1)));
        assert!(c.contains(&id(1, BlockKind::Data, 0)));
        assert_eq!(
            c.lru_order().iter().map(|b| b.block).collect::<Vec<_>>(),
            vec![3, 0, 2]
        );
        assert_eq!(c.stats().evictions, 1);
        assert_eq!(c.used(), 3000);
        // A big block pushes out several.
        c.access(id(2, BlockKind::Data, 0), 2500, CacheMode::Fill);
        assert_eq!(c.len(), 1);
        assert_eq!(c.used(), 2500);
    }

    #[test]
    fn no_fill_and_bypass_do_not_insert() {
        let mut c = BlockCache::new(10_000);
        assert_eq!(
            c.access(id(1, BlockKind::Data, 0), 100, CacheMode::NoFill),
            CacheOutcome::Miss
        );
        assert!(c.is_empty());
        c.access(id(1, BlockKind::Data, 0), 100, CacheMode::Fill);
        // NoFill still hits what is there.
        assert_eq!(
            c.access(id(1, BlockKind::Data, 0), 100, CacheMode::NoFill),
            CacheOutcome::Hit
        );
        // Bypass neither looks up nor counts a hit or miss.
        let before = *c.stats();
        assert_eq!(
            c.access(id(1, BlockKind::Data, 0), 100, CacheMode::Bypass),
            CacheOutcome::Bypassed
        );
        let after = c.stats();
        assert_eq!(after.hits(), before.hits());
        assert_eq!(after.misses(), before.misses());
        assert_eq!(after.bypass_reads, 1);
        assert_eq!(after.bypass_bytes, 100);
        assert_eq!(after.storage_read_bytes, 300);
    }

    #[test]
    fn zero_capacity_disables() {
        let mut c = BlockCache::new(0);
        for _ in 0..3 {
            assert_eq!(
                c.access(id(1, BlockKind::Index, 0), 10, CacheMode::Fill),
                CacheOutcome::Miss
            );
        }
        assert_eq!(c.stats().index.miss, 3);
        assert_eq!(c.stats().adds(), 0);
        assert!(c.is_empty());
    }

    #[test]
    fn owners_share_one_cache() {
        let mut c = BlockCache::new(10_000);
        let mut a = id(1, BlockKind::Data, 0);
        c.access(a, 100, CacheMode::Fill);
        a.owner = 7;
        assert_eq!(c.access(a, 100, CacheMode::Fill), CacheOutcome::MissAdded);
        assert_eq!(c.occupancy(Some(7)).blocks, 1);
        let all = c.occupancy(None);
        assert_eq!((all.blocks, all.used), (2, 200));
        assert_eq!(all.per_kind[0], (2, 200));
    }
}
