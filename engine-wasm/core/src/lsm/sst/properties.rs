//! Table properties: the figures RocksDB writes into an SST's properties block
//! and YugabyteDB's tablet server page shows for it (article 000: entries, raw
//! key/value sizes, data size, index and filter block counts and sizes).

use crate::lsm::types::SeqNo;

/// What an SST holds and how large its parts are. Sizes with "size" in the name
/// include the 5-byte block trailers, as RocksDB's properties do.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TableProperties {
    pub num_entries: u64,
    pub num_deletions: u64,
    /// Values that `TableOptions::tombstone_value` recognises (not RocksDB's).
    pub num_tombstone_values: u64,
    /// Internal keys (user key + 8-byte trailer), as RocksDB's `raw_key_size`.
    pub raw_key_size: u64,
    pub raw_value_size: u64,
    /// Data blocks with trailers (RocksDB's `data_size`; uncompressed here).
    pub data_size: u64,
    /// Data block contents without trailers: what the block cache holds.
    pub data_block_bytes: u64,
    pub num_data_blocks: u64,
    /// Index blocks with trailers (`data_index_size`).
    pub index_size: u64,
    /// Index blocks, all levels (`num_data_index_blocks`).
    pub num_index_blocks: u64,
    /// 1 for a single index block, 2 with a top block over leaf blocks, …
    pub index_levels: u64,
    /// Filter blocks with trailers (`filter_size`).
    pub filter_size: u64,
    pub num_filter_blocks: u64,
    /// The filter index block with its trailer (`filter_index_size`).
    pub filter_index_size: u64,
    /// Distinct filter keys.
    pub filter_keys: u64,
    /// Everything above plus the 48-byte footer. The properties and metaindex
    /// blocks (about 1 KiB in RocksDB) are not modelled.
    pub file_size: u64,
    pub smallest_seq: SeqNo,
    pub largest_seq: SeqNo,
}

impl TableProperties {
    pub fn raw_average_key_size(&self) -> f64 {
        self.raw_key_size as f64 / self.num_entries.max(1) as f64
    }

    pub fn raw_average_value_size(&self) -> f64 {
        self.raw_value_size as f64 / self.num_entries.max(1) as f64
    }
}
