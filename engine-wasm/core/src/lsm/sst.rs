//! An SST file held in memory: its entries in flat arrays (the bytes RocksDB would
//! prefix-compress into blocks), the data block boundaries with their encoded
//! sizes, the index and the bloom filter. Nothing is serialized; every size is
//! computed as the block-based table format would lay it out.

use std::cmp::Ordering;

pub(super) mod block;
mod bloom;
pub(super) mod builder;
pub(super) mod cursor;
mod entries;
mod filter;
mod hash;
mod index;
mod properties;

pub use bloom::{BloomBlock, BloomLayout};
pub use properties::TableProperties;

use entries::SstEntries;
use filter::Filter;
use index::Index;

use super::read::Comparisons;
use super::types::{cmp_internal, trailer_kind, trailer_seq, SeqNo, SstId, ValueKind};

/// An immutable sorted table.
#[derive(Debug, Clone)]
pub struct Sst {
    pub(crate) id: SstId,
    /// Keys and values (copied, or in the arena of the memtable flushed).
    pub(crate) entries: SstEntries,
    /// Entries whose user key is the previous entry's (older versions).
    pub(crate) older_versions: u64,
    pub(crate) trailers: Vec<u64>,
    /// First entry of each data block.
    pub(crate) block_first: Vec<u32>,
    /// Encoded bytes of each data block (without trailer).
    pub(crate) block_bytes: Vec<u32>,
    /// Entries between a data block's restart points (`block_restart_interval`).
    pub(crate) restart_interval: u32,
    pub(crate) index: Index,
    pub(crate) filter: Option<Filter>,
    pub(crate) props: TableProperties,
}

impl Sst {
    pub fn id(&self) -> SstId {
        self.id
    }

    pub fn properties(&self) -> &TableProperties {
        &self.props
    }

    pub fn len(&self) -> usize {
        self.trailers.len()
    }

    pub fn is_empty(&self) -> bool {
        self.trailers.is_empty()
    }

    pub fn file_size(&self) -> u64 {
        self.props.file_size
    }

    /// Smallest and largest user keys (an SST is never empty).
    pub fn smallest_key(&self) -> &[u8] {
        self.entries.key(0)
    }

    pub fn largest_key(&self) -> &[u8] {
        self.len()
            .checked_sub(1)
            .map_or(&[], |i| self.entries.key(i))
    }

    /// Entry `i`: user key, sequence number, kind and value.
    pub fn entry(&self, i: usize) -> (&[u8], SeqNo, ValueKind, &[u8]) {
        let t = self.trailers[i];
        (
            self.entries.key(i),
            trailer_seq(t),
            trailer_kind(t),
            self.entries.value(i),
        )
    }

    pub fn num_data_blocks(&self) -> u32 {
        self.block_first.len() as u32
    }

    /// Encoded size of data block `b` (what the block cache charges for it).
    pub fn data_block_bytes(&self, b: u32) -> u32 {
        self.block_bytes[b as usize]
    }

    /// Entries of data block `b`: `start..end`.
    pub fn block_entries(&self, b: u32) -> std::ops::Range<u32> {
        let start = self.block_first[b as usize];
        let end = self
            .block_first
            .get(b as usize + 1)
            .copied()
            .unwrap_or(self.len() as u32);
        start..end
    }

    #[inline]
    pub(crate) fn user_key(&self, i: u32) -> &[u8] {
        self.entries.key(i as usize)
    }

    #[inline]
    pub(crate) fn trailer(&self, i: u32) -> u64 {
        self.trailers[i as usize]
    }

    #[inline]
    pub(crate) fn value(&self, i: u32) -> &[u8] {
        self.entries.value(i as usize)
    }

    /// First entry of block `b` at or after the target, found as RocksDB's
    /// `DataBlockIter::Seek` finds it: a binary search over the restart points
    /// (every `restart_interval`-th entry, whose key is stored whole), then a
    /// walk from the last restart point before the target, comparing each key.
    /// Every comparison is counted in `compared` (`restarts`, then `keys`).
    pub(crate) fn seek_in_block(
        &self,
        b: u32,
        key: &[u8],
        trailer: u64,
        compared: &mut Comparisons,
    ) -> Option<u32> {
        let range = self.block_entries(b);
        let before = |i: u32, counter: &mut u64| {
            *counter += 1;
            cmp_internal(self.user_key(i), self.trailer(i), key, trailer) == Ordering::Less
        };
        // Restart points r = 0, 1, … at entries start + r·interval: find the
        // last one whose key is before the target.
        let interval = self.restart_interval;
        let restarts = (range.end - range.start).div_ceil(interval);
        let (mut lo, mut hi) = (0u32, restarts);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if before(range.start + mid * interval, &mut compared.restarts) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        // Restart points 0..lo are before the target; walk on from the last one.
        let mut i = range.start + lo.saturating_sub(1) * interval;
        if lo == 0 {
            return (i < range.end).then_some(i);
        }
        i += 1;
        while i < range.end && before(i, &mut compared.keys) {
            i += 1;
        }
        (i < range.end).then_some(i)
    }

    /// Whether the filter may hold `bloom_key`, and which filter block was probed.
    /// `None` when the table has no filter or the key cannot use it (empty).
    pub(crate) fn filter_probe(&self, bloom_key: &[u8]) -> Option<(Option<u32>, bool)> {
        let filter = self.filter.as_ref()?;
        if bloom_key.is_empty() {
            return None;
        }
        Some(match filter.locate(bloom_key) {
            Some(b) => (Some(b), filter.blocks[b as usize].may_contain(bloom_key)),
            None => (None, false),
        })
    }

    /// Number of filter blocks (the filter index is numbered after them).
    pub(crate) fn num_filter_blocks(&self) -> u32 {
        self.filter.as_ref().map_or(0, |f| f.blocks.len() as u32)
    }

    pub(crate) fn filter_block_bytes(&self) -> u32 {
        self.filter.as_ref().map_or(0, |f| f.layout.block_bytes())
    }

    pub(crate) fn filter_index_bytes(&self) -> u32 {
        self.filter.as_ref().map_or(0, |f| f.index_bytes)
    }
}
