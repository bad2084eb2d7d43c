//! Tuning knobs, named after the RocksDB / YugabyteDB options they model (the
//! settings registry maps its settings onto these fields).

use std::fmt;
use std::sync::Arc;

use super::error::LsmError;

/// Largest key accepted (RocksDB has no small limit; this keeps offsets 32-bit).
pub const MAX_KEY_LEN: usize = 1 << 20;
/// Largest value accepted.
pub const MAX_VALUE_LEN: usize = 64 << 20;
/// Largest memtable budget: memtable offsets are 32-bit.
pub const MAX_WRITE_BUFFER: u64 = 2 << 30;

/// Which part of a key the bloom filter indexes (RocksDB's prefix extractor; YB's
/// DocDB filter key transformer hashes the document key without the hybrid time).
///
/// The function must return a prefix of its argument, so that keys sharing a
/// filter key are contiguous in key order (file range checks rely on it).
#[derive(Clone)]
pub struct BloomKey(Arc<BloomKeyFn>);

type BloomKeyFn = dyn Fn(&[u8]) -> &[u8] + Send + Sync;

impl BloomKey {
    pub fn new<F>(f: F) -> Self
    where
        F: Fn(&[u8]) -> &[u8] + Send + Sync + 'static,
    {
        BloomKey(Arc::new(f))
    }

    /// The whole user key (RocksDB's `whole_key_filtering`).
    pub fn whole_key() -> Self {
        BloomKey::new(|k| k)
    }

    /// The first `n` bytes (RocksDB's `NewFixedPrefixTransform`, shorter keys whole).
    pub fn fixed_prefix(n: usize) -> Self {
        BloomKey::new(move |k| &k[..k.len().min(n)])
    }

    #[inline]
    pub fn apply<'k>(&self, key: &'k [u8]) -> &'k [u8] {
        (self.0)(key)
    }
}

impl fmt::Debug for BloomKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("BloomKey(..)")
    }
}

/// How an SST is laid out (RocksDB's `BlockBasedTableOptions`).
#[derive(Debug, Clone)]
pub struct TableOptions {
    /// Target data block size (YB's `db_block_size_bytes`, 32 KiB).
    pub block_size: u32,
    /// Entries between restart points in a data block (`block_restart_interval`).
    pub block_restart_interval: u32,
    /// Percent under `block_size` at which a block closes early rather than
    /// overflow (`block_size_deviation`).
    pub block_size_deviation: u32,
    /// Target size of an index block (`index_block_size`).
    pub index_block_size: u32,
    /// YB's `db_min_keys_per_index_block`: an index block holds at least this many
    /// entries before it may close.
    pub min_keys_per_index_block: u32,
    /// Size of a fixed-size bloom filter block (`db_filter_block_size_bytes`).
    pub filter_block_size: u32,
    /// Bloom bits per key (0: no filter).
    pub bloom_bits_per_key: u32,
    /// What the filter indexes.
    pub bloom_key: BloomKey,
    /// Recognises a value that marks a deleted document above the LSM (DocDB
    /// writes a tombstone *value*, not a RocksDB Delete): counted in the
    /// table properties so the player can show them.
    pub tombstone_value: Option<fn(&[u8]) -> bool>,
}

impl Default for TableOptions {
    fn default() -> Self {
        TableOptions {
            block_size: 32 * 1024,
            block_restart_interval: 16,
            block_size_deviation: 10,
            index_block_size: 64 * 1024,
            min_keys_per_index_block: 100,
            filter_block_size: 64 * 1024,
            bloom_bits_per_key: 10,
            bloom_key: BloomKey::whole_key(),
            tombstone_value: None,
        }
    }
}

/// Size-tiered (YugabyteDB's default) or leveled compaction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CompactionStyle {
    Universal,
    Leveled,
}

/// Compaction knobs for both styles (the names of the settings registry).
#[derive(Debug, Clone, PartialEq)]
pub struct CompactionOptions {
    pub style: CompactionStyle,
    /// Sorted runs (universal) or L0 files (leveled) that start a compaction.
    pub level0_file_num_compaction_trigger: u32,
    /// Target size of L1 (leveled).
    pub max_bytes_for_level_base: u64,
    /// Growth factor between levels (leveled).
    pub max_bytes_for_level_multiplier: f64,
    /// Size at which leveled compaction output is cut into a new file.
    pub target_file_size_base: u64,
    /// Number of levels (leveled; universal keeps every sorted run in L0, as
    /// YugabyteDB's single-level universal compaction does).
    pub num_levels: u32,
    /// Percent by which the next run may be larger and still join (universal).
    pub universal_size_ratio: u32,
    /// Fewest runs a size-ratio compaction merges (universal).
    pub universal_min_merge_width: u32,
    /// Most runs a size-ratio compaction merges (universal).
    pub universal_max_merge_width: u32,
    /// Space amplification that forces a full compaction (universal).
    pub universal_max_size_amplification_percent: u32,
}

impl Default for CompactionOptions {
    fn default() -> Self {
        CompactionOptions {
            style: CompactionStyle::Universal,
            level0_file_num_compaction_trigger: 5,
            max_bytes_for_level_base: 256 << 20,
            max_bytes_for_level_multiplier: 10.0,
            target_file_size_base: 64 << 20,
            num_levels: 7,
            universal_size_ratio: 20,
            universal_min_merge_width: 4,
            universal_max_merge_width: u32::MAX,
            universal_max_size_amplification_percent: 200,
        }
    }
}

/// Everything an [`Lsm`](super::Lsm) is built with.
#[derive(Debug, Clone)]
pub struct LsmOptions {
    /// Identifies this tree's blocks in a block cache shared by several trees (one
    /// cache per tablet server, one tree per tablet).
    pub owner: u32,
    /// Memtable budget in bytes (YB's `memstore_size_mb`).
    pub write_buffer_size: u64,
    pub table: TableOptions,
    pub compaction: CompactionOptions,
    /// Flush a memtable as soon as it is sealed (RocksDB's background flush, run
    /// inline). Off: sealed memtables wait for [`Lsm::flush`](super::Lsm::flush).
    pub auto_flush: bool,
    /// Run compactions after every flush (off: RocksDB's
    /// `disable_auto_compactions`).
    pub auto_compact: bool,
}

impl Default for LsmOptions {
    fn default() -> Self {
        LsmOptions {
            owner: 0,
            write_buffer_size: 128 << 20,
            table: TableOptions::default(),
            compaction: CompactionOptions::default(),
            auto_flush: true,
            auto_compact: true,
        }
    }
}

fn invalid(name: &'static str, reason: impl Into<String>) -> LsmError {
    LsmError::InvalidOption {
        name,
        reason: reason.into(),
    }
}

fn in_range(name: &'static str, v: u64, lo: u64, hi: u64) -> Result<(), LsmError> {
    if (lo..=hi).contains(&v) {
        Ok(())
    } else {
        Err(invalid(name, format!("{v} is outside {lo}..={hi}")))
    }
}

impl TableOptions {
    pub fn validate(&self) -> Result<(), LsmError> {
        in_range("block_size", self.block_size as u64, 64, 1 << 30)?;
        in_range(
            "block_restart_interval",
            self.block_restart_interval as u64,
            1,
            1 << 16,
        )?;
        in_range(
            "block_size_deviation",
            self.block_size_deviation as u64,
            0,
            100,
        )?;
        in_range(
            "index_block_size",
            self.index_block_size as u64,
            64,
            1 << 30,
        )?;
        in_range(
            "min_keys_per_index_block",
            self.min_keys_per_index_block as u64,
            2,
            1 << 20,
        )?;
        in_range(
            "filter_block_size",
            self.filter_block_size as u64,
            64,
            1 << 26,
        )?;
        in_range("bloom_bits_per_key", self.bloom_bits_per_key as u64, 0, 64)
    }
}

impl CompactionOptions {
    pub fn validate(&self) -> Result<(), LsmError> {
        in_range(
            "level0_file_num_compaction_trigger",
            self.level0_file_num_compaction_trigger as u64,
            1,
            1 << 16,
        )?;
        in_range(
            "max_bytes_for_level_base",
            self.max_bytes_for_level_base,
            1,
            u64::MAX >> 8,
        )?;
        let m = self.max_bytes_for_level_multiplier;
        if !(m.is_finite() && (1.0..=1000.0).contains(&m)) {
            return Err(invalid(
                "max_bytes_for_level_multiplier",
                format!("{m} is outside 1..=1000"),
            ));
        }
        in_range(
            "target_file_size_base",
            self.target_file_size_base,
            1,
            u64::MAX >> 8,
        )?;
        in_range("num_levels", self.num_levels as u64, 2, 64)?;
        in_range(
            "universal_min_merge_width",
            self.universal_min_merge_width as u64,
            2,
            u32::MAX as u64,
        )?;
        if self.universal_max_merge_width < self.universal_min_merge_width {
            return Err(invalid(
                "universal_max_merge_width",
                "below universal_min_merge_width",
            ));
        }
        Ok(())
    }
}

impl LsmOptions {
    pub fn validate(&self) -> Result<(), LsmError> {
        in_range(
            "write_buffer_size",
            self.write_buffer_size,
            64,
            MAX_WRITE_BUFFER,
        )?;
        self.table.validate()?;
        self.compaction.validate()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_yugabyte_like_and_valid() {
        let o = LsmOptions::default();
        assert!(o.validate().is_ok());
        assert_eq!(o.table.block_size, 32 * 1024);
        assert_eq!(o.compaction.style, CompactionStyle::Universal);
    }

    #[test]
    fn rejects_out_of_range() {
        let mut o = LsmOptions {
            write_buffer_size: 1,
            ..LsmOptions::default()
        };
        assert!(matches!(
            o.validate(),
            Err(LsmError::InvalidOption {
                name: "write_buffer_size",
                ..
            })
        ));
        o.write_buffer_size = 1 << 20;
        o.compaction.max_bytes_for_level_multiplier = f64::NAN;
        assert!(o.validate().is_err());
        o.compaction.max_bytes_for_level_multiplier = 10.0;
        o.table.bloom_bits_per_key = 65;
        assert!(o.validate().is_err());
    }

    #[test]
    fn bloom_keys_are_prefixes() {
        assert_eq!(BloomKey::whole_key().apply(b"abc"), b"abc");
        assert_eq!(BloomKey::fixed_prefix(2).apply(b"abc"), b"ab");
        assert_eq!(BloomKey::fixed_prefix(5).apply(b"abc"), b"abc");
        let doc_key = BloomKey::new(|k| k.split(|b| *b == 0).next().unwrap_or(k));
        assert_eq!(doc_key.apply(b"doc\0ht"), b"doc");
    }
}
