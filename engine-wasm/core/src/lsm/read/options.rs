//! Per-read options (RocksDB's `ReadOptions`) and snapshots.

use crate::lsm::cache::CacheMode;
use crate::lsm::types::SeqNo;

/// A consistent view: reads at a snapshot see the writes up to its sequence
/// number, and compaction keeps the versions it needs until it is released.
/// Only an [`Lsm`](crate::lsm::Lsm) makes them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Snapshot(pub(crate) SeqNo);

impl Snapshot {
    pub fn sequence(&self) -> SeqNo {
        self.0
    }
}

/// How one read (a point lookup or an iterator) runs.
#[derive(Debug, Clone, Default)]
pub struct ReadOptions {
    /// Read as of this snapshot (default: the latest write).
    pub snapshot: Option<Snapshot>,
    /// How blocks go through the cache (RocksDB's `fill_cache`, and a full bypass).
    pub cache_mode: CacheMode,
    /// After this many data blocks read through the cache, later data blocks
    /// bypass it (YugabyteDB stops filling the cache past a scan's readahead
    /// threshold; `yb_scan_cache_bypass_blocks`).
    pub bypass_cache_after_data_blocks: Option<u64>,
    /// For iterators: the filter key (already through the table's
    /// [`BloomKey`](crate::lsm::BloomKey)) every key this iterator will visit shares.
    /// SSTs whose key range or bloom filter excludes it are left out when the
    /// iterator is created — YugabyteDB's DocDB iterators filter files on the
    /// document key this way. Point lookups always use their key's filter key.
    pub bloom_filter_key: Option<Vec<u8>>,
    /// Record [`ReadEvent`](crate::lsm::ReadEvent)s (for the trace; costs a copy of
    /// every key visited).
    pub record_events: bool,
}
