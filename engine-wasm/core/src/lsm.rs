//! A log-structured merge tree modelled on RocksDB as YugabyteDB's DocDB uses it,
//! over opaque byte keys.
//!
//! Entries are versions: (user key, sequence number, Put | Delete). Writes go to
//! a memtable (with the memory accounting of RocksDB's skip list); a full
//! memtable is sealed and flushed to an L0 SST; compaction merges SSTs by a leveled or a
//! universal (size-tiered) policy, dropping versions no snapshot can see and
//! tombstones once nothing older lies below. Reads merge the memtables and SSTs,
//! showing the newest visible version of each key.
//!
//! SSTs live in memory but are accounted byte for byte as RocksDB's block-based
//! table lays them out: data blocks of `block_size` with key-prefix compression and
//! restart points, a multi-level index of separator keys, fixed-size bloom filter
//! blocks with real bits, table properties. No compression is modelled beyond the
//! key prefix. A flushed SST keeps the memtable's arena and reads its entries
//! where the memtable wrote them; a compaction's output holds copies. Every block a read touches goes through a shared LRU
//! [`BlockCache`] with RocksDB's counters.
//!
//! Pure and deterministic: no threads, clock or I/O; flushes and compactions run
//! inline where RocksDB would schedule them.
//!
//! ```
//! use indexlab_engine::lsm::{BlockCache, Lsm, LsmOptions, ReadOptions};
//!
//! let mut lsm = Lsm::new(LsmOptions::default()).unwrap();
//! lsm.put(b"a", b"1").unwrap();
//! lsm.put(b"b", b"2").unwrap();
//! lsm.delete(b"a").unwrap();
//! lsm.compact_all().unwrap(); // flush, then one sorted run
//!
//! let mut cache = BlockCache::new(64 << 20); // one per tablet server
//! let mut it = lsm.iter(&mut cache, &ReadOptions::default());
//! assert!(it.seek(b"a"));
//! assert_eq!((it.key(), it.value()), (&b"b"[..], &b"2"[..]));
//! assert!(!it.next());
//! let s = it.stats();
//! assert_eq!((s.number_db_seek, s.cache.index.miss, s.cache.data.miss), (1, 1, 1));
//! ```
//!
//! - `types`, `options`, `error`: keys, knobs, refusals.
//! - `memtable`: the write buffer (its arena, nodes, ordered rep and cursor);
//!   `write_batch`: writes applied together.
//! - `sst`: tables (blocks, index, bloom filter, builder, properties, cursor).
//! - `cache`: the LRU cache of blocks and its counters.
//! - `read`: point lookups and iterators (merging cursors over memtables and
//!   levels, read options and counters).
//! - `flush`, [`compaction`] (policies, executor, version GC, running them):
//!   flush and compaction.
//! - `db`, `introspect`, `events`, `stats`, `check`: the tree and what it reports.

mod cache;
mod check;
pub mod compaction;
mod db;
mod error;
mod events;
mod flush;
mod introspect;
mod memtable;
mod options;
mod read;
mod sst;
mod stats;
mod types;
mod write_batch;

pub use cache::{
    BlockCache, BlockId, BlockKind, CacheMode, CacheOccupancy, CacheOutcome, CacheStats, KindStats,
};
pub use compaction::{CompactionReason, CompactionTask, LevelInputs, LevelsSnapshot, SstMeta};
pub use db::Lsm;
pub use error::LsmError;
pub use events::{LsmEvent, SstInfo};
pub use introspect::{LevelInfo, LsmShape, MemtableInfo};
pub use memtable::Memtable;
pub use options::{
    BloomKey, CompactionOptions, CompactionStyle, LsmOptions, TableOptions, MAX_KEY_LEN,
    MAX_VALUE_LEN, MAX_WRITE_BUFFER,
};
pub use read::DbIter;
pub use read::GetResult;
pub use read::{Comparisons, IterOp, Position, ReadEvent, ReadStats};
pub use read::{ReadOptions, Snapshot};
pub use sst::Sst;
pub use sst::TableProperties;
pub use sst::{BloomBlock, BloomLayout};
pub use stats::LsmStats;
pub use types::{SeqNo, SstId, ValueKind, MAX_SEQ};
pub use write_batch::WriteBatch;

#[cfg(test)]
mod tests;
