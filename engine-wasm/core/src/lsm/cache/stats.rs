//! Block cache counters, as RocksDB's tickers: per-kind hit/miss, `add` and
//! `bytes_write` when a block is inserted, `bytes_read` on a hit (the block's
//! size), plus reads that bypassed the cache.

use super::access::{BlockKind, CacheOutcome};

/// Counters for one block kind.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct KindStats {
    pub hit: u64,
    pub miss: u64,
    pub add: u64,
    pub bytes_read: u64,
    pub bytes_write: u64,
}

/// Block cache counters (running totals, or the part one operation caused).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CacheStats {
    pub data: KindStats,
    pub index: KindStats,
    pub filter: KindStats,
    /// Blocks read without the cache ([`CacheMode::Bypass`](super::CacheMode::Bypass)).
    pub bypass_reads: u64,
    pub bypass_bytes: u64,
    /// Bytes read from storage: misses and bypassed reads.
    pub storage_read_bytes: u64,
    /// Blocks pushed out to make room.
    pub evictions: u64,
}

impl CacheStats {
    pub fn kind(&self, kind: BlockKind) -> &KindStats {
        match kind {
            BlockKind::Data => &self.data,
            BlockKind::Index => &self.index,
            BlockKind::Filter => &self.filter,
        }
    }

    fn kind_mut(&mut self, kind: BlockKind) -> &mut KindStats {
        match kind {
            BlockKind::Data => &mut self.data,
            BlockKind::Index => &mut self.index,
            BlockKind::Filter => &mut self.filter,
        }
    }

    fn sum(&self, f: impl Fn(&KindStats) -> u64) -> u64 {
        f(&self.data) + f(&self.index) + f(&self.filter)
    }

    /// `rocksdb_block_cache_hit`.
    pub fn hits(&self) -> u64 {
        self.sum(|k| k.hit)
    }
    /// `rocksdb_block_cache_miss`.
    pub fn misses(&self) -> u64 {
        self.sum(|k| k.miss)
    }
    /// `rocksdb_block_cache_add`.
    pub fn adds(&self) -> u64 {
        self.sum(|k| k.add)
    }
    /// `rocksdb_block_cache_bytes_read`.
    pub fn bytes_read(&self) -> u64 {
        self.sum(|k| k.bytes_read)
    }
    /// `rocksdb_block_cache_bytes_write`.
    pub fn bytes_write(&self) -> u64 {
        self.sum(|k| k.bytes_write)
    }

    /// Counts one read.
    pub fn record(&mut self, kind: BlockKind, outcome: CacheOutcome, bytes: u32) {
        let bytes = bytes as u64;
        let k = self.kind_mut(kind);
        match outcome {
            CacheOutcome::Hit => {
                k.hit += 1;
                k.bytes_read += bytes;
            }
            CacheOutcome::MissAdded => {
                k.miss += 1;
                k.add += 1;
                k.bytes_write += bytes;
            }
            CacheOutcome::Miss => k.miss += 1,
            CacheOutcome::Bypassed => {
                self.bypass_reads += 1;
                self.bypass_bytes += bytes;
            }
        }
        if outcome != CacheOutcome::Hit {
            self.storage_read_bytes += bytes;
        }
    }

    /// Adds another set of counters to this one.
    pub fn merge(&mut self, o: &CacheStats) {
        for kind in [BlockKind::Data, BlockKind::Index, BlockKind::Filter] {
            let (a, b) = (self.kind_mut(kind), o.kind(kind));
            a.hit += b.hit;
            a.miss += b.miss;
            a.add += b.add;
            a.bytes_read += b.bytes_read;
            a.bytes_write += b.bytes_write;
        }
        self.bypass_reads += o.bypass_reads;
        self.bypass_bytes += o.bypass_bytes;
        self.storage_read_bytes += o.storage_read_bytes;
        self.evictions += o.evictions;
    }
}
