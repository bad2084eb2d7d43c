//! What reads report: RocksDB-named counters and, when asked for, a list of
//! events (iterator steps with the position they landed on, block reads, bloom
//! checks) so the UI can animate a cursor stepping through SST blocks.

use crate::lsm::cache::{BlockId, CacheOutcome, CacheStats};
use crate::lsm::types::SstId;

/// Read counters, named as RocksDB's statistics tickers (YugabyteDB prints them
/// with a `rocksdb_` prefix).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ReadStats {
    /// Seek, SeekForPrev, SeekToFirst and SeekToLast calls (`NUMBER_DB_SEEK`).
    pub number_db_seek: u64,
    /// … that left the iterator on an entry.
    pub number_db_seek_found: u64,
    pub number_db_next: u64,
    pub number_db_next_found: u64,
    pub number_db_prev: u64,
    pub number_db_prev_found: u64,
    /// User key + value bytes of the entries iterators stopped on
    /// (`ITER_BYTES_READ`).
    pub iter_bytes_read: u64,
    /// Point lookups (`NUMBER_KEYS_READ`) and the value bytes they returned
    /// (`BYTES_READ`).
    pub number_keys_read: u64,
    pub bytes_read: u64,
    /// Point lookups answered by a memtable.
    pub memtable_hit: u64,
    pub memtable_miss: u64,
    /// Filter probes (`BLOOM_FILTER_CHECKED`, YB's `rocksdb_bloom_filter_checked`)
    /// and those that said "absent", saving the index and data reads
    /// (`BLOOM_FILTER_USEFUL`).
    pub bloom_filter_checked: u64,
    pub bloom_filter_useful: u64,
    /// Older versions stepped over (perf context `internal_key_skipped_count`).
    pub internal_key_skipped: u64,
    /// Tombstones stepped over (`internal_delete_skipped_count`).
    pub internal_delete_skipped: u64,
    /// Key comparisons the iterators made (perf context
    /// `user_key_comparison_count`), by where they were made: what makes a
    /// seek dear and a next cheap. The virtual clock charges
    /// `cost_cpu_comparison` for each.
    pub key_comparisons: Comparisons,
    /// Block reads this operation made, through the cache or around it.
    pub cache: CacheStats,
}

impl ReadStats {
    /// Adds another set of counters to this one.
    pub fn merge(&mut self, o: &ReadStats) {
        self.number_db_seek += o.number_db_seek;
        self.number_db_seek_found += o.number_db_seek_found;
        self.number_db_next += o.number_db_next;
        self.number_db_next_found += o.number_db_next_found;
        self.number_db_prev += o.number_db_prev;
        self.number_db_prev_found += o.number_db_prev_found;
        self.iter_bytes_read += o.iter_bytes_read;
        self.number_keys_read += o.number_keys_read;
        self.bytes_read += o.bytes_read;
        self.memtable_hit += o.memtable_hit;
        self.memtable_miss += o.memtable_miss;
        self.bloom_filter_checked += o.bloom_filter_checked;
        self.bloom_filter_useful += o.bloom_filter_useful;
        self.internal_key_skipped += o.internal_key_skipped;
        self.internal_delete_skipped += o.internal_delete_skipped;
        self.key_comparisons.add(&o.key_comparisons);
        self.cache.merge(&o.cache);
    }

    /// Data blocks entered (through the cache or bypassing it).
    pub fn data_blocks_read(&self) -> u64 {
        self.cache.data.hit + self.cache.data.miss + self.cache.bypass_reads
    }
}

/// Key comparisons by the part of a read that made them. A seek searches
/// every source — the memtable's skip list; a level's files; an SST's index
/// block, then one data block's restart points, then the keys after one —
/// and the merging iterator picks among the sources; a next steps to the
/// entry after the current one and compares it with the key it left
/// (`versions`: DBIter skipping older versions of a key).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Comparisons {
    pub memtable: u64,
    pub files: u64,
    pub index: u64,
    pub restarts: u64,
    pub keys: u64,
    pub merge: u64,
    pub versions: u64,
}

impl Comparisons {
    pub fn total(&self) -> u64 {
        self.memtable
            + self.files
            + self.index
            + self.restarts
            + self.keys
            + self.merge
            + self.versions
    }

    /// Each count minus `earlier`'s (what was made since).
    pub fn since(&self, earlier: &Comparisons) -> Comparisons {
        Comparisons {
            memtable: self.memtable - earlier.memtable,
            files: self.files - earlier.files,
            index: self.index - earlier.index,
            restarts: self.restarts - earlier.restarts,
            keys: self.keys - earlier.keys,
            merge: self.merge - earlier.merge,
            versions: self.versions - earlier.versions,
        }
    }

    pub fn add(&mut self, o: &Comparisons) {
        self.memtable += o.memtable;
        self.files += o.files;
        self.index += o.index;
        self.restarts += o.restarts;
        self.keys += o.keys;
        self.merge += o.merge;
        self.versions += o.versions;
    }
}

/// Where an entry was found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Position {
    /// In a memtable (mutable or sealed), by memtable id.
    Memtable { memtable: u64 },
    /// In data block `block` of an SST at `level`.
    Sst { sst: SstId, level: u32, block: u32 },
}

/// An iterator call or a point lookup.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IterOp {
    Seek,
    SeekForPrev,
    SeekToFirst,
    SeekToLast,
    Next,
    Prev,
    Get,
}

/// One step of a read, for the trace.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReadEvent {
    /// An iterator call: its target (seeks and gets) and the entry it stopped on.
    Iter {
        op: IterOp,
        target: Option<Vec<u8>>,
        key: Option<Vec<u8>>,
        position: Option<Position>,
        /// Key comparisons the call made (see [`ReadStats::key_comparisons`]).
        comparisons: Comparisons,
    },
    /// One block read.
    Block {
        block: BlockId,
        level: u32,
        bytes: u32,
        outcome: CacheOutcome,
    },
    /// One bloom filter probe of an SST.
    Bloom {
        sst: SstId,
        level: u32,
        may_match: bool,
    },
}
