//! An SST's bloom filter: a sequence of fixed-size filter blocks, each covering a
//! contiguous range of filter keys, and a filter index (one separator per block,
//! YB's `filter_index_builder`) that says which block to probe for a key.
//!
//! Filter keys are the bloom keys of the table's entries (the user key through the
//! table's [`BloomKey`](crate::lsm::BloomKey)), added once per run of equal keys and
//! never when empty, as `BlockBasedTableBuilder::Add` does. The table builder
//! passes the last key added along (it is a slice of a key the table already
//! holds), so the filter copies no key.

use super::block::{
    handle_len, short_successor, shortest_separator, BlockSizer, BLOCK_TRAILER_BYTES,
};
use super::bloom::{BloomBlock, BloomLayout};
use super::hash::hash64;
use crate::lsm::types::KeyList;

/// A finished filter.
#[derive(Debug, Clone)]
pub(crate) struct Filter {
    pub(crate) layout: BloomLayout,
    pub(crate) blocks: Vec<BloomBlock>,
    /// Separator (bytewise) ending each block's key range.
    seps: KeyList,
    /// Bytes of the filter index block (without its trailer).
    pub(crate) index_bytes: u32,
    /// Distinct filter keys added.
    pub(crate) keys: u64,
}

impl Filter {
    /// The block whose range holds `key`; `None` when the key sorts after every
    /// key in the table.
    pub(crate) fn locate(&self, key: &[u8]) -> Option<u32> {
        let (mut lo, mut hi) = (0usize, self.seps.len());
        while lo < hi {
            let mid = (lo + hi) / 2;
            if self.seps.get(mid) < key {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        (lo < self.seps.len()).then_some(lo as u32)
    }

    /// Filter blocks with trailers (RocksDB's `filter_size` property).
    pub(crate) fn blocks_total_bytes(&self) -> u64 {
        self.blocks.len() as u64 * (self.layout.block_bytes() as u64 + BLOCK_TRAILER_BYTES)
    }

    /// The filter index block with its trailer (`filter_index_size`).
    pub(crate) fn index_total_bytes(&self) -> u64 {
        self.index_bytes as u64 + BLOCK_TRAILER_BYTES
    }
}

/// Builds the filter while the table's entries stream in.
#[derive(Debug)]
pub(crate) struct FilterBuilder {
    layout: BloomLayout,
    hashes: Vec<u64>,
    blocks: Vec<BloomBlock>,
    seps: KeyList,
    sep_buf: Vec<u8>,
    keys: u64,
    index: BlockSizer,
    meta_offset: u64,
}

impl FilterBuilder {
    pub(crate) fn new(filter_block_size: u32, bits_per_key: u32) -> Self {
        let layout = BloomLayout::fixed_size(filter_block_size, bits_per_key);
        FilterBuilder {
            layout,
            hashes: Vec::with_capacity(layout.capacity.min(1 << 16) as usize),
            blocks: Vec::new(),
            seps: KeyList::default(),
            sep_buf: Vec::new(),
            keys: 0,
            index: BlockSizer::new(1),
            meta_offset: 0,
        }
    }

    /// Adds a filter key; `last` is the previous key added (the caller skips
    /// empty keys and repeats of `last`).
    #[inline]
    pub(crate) fn add(&mut self, key: &[u8], last: Option<&[u8]>) {
        if let Some(last) = last {
            if self.hashes.len() as u32 >= self.layout.capacity {
                self.close_block(last, Some(key));
            }
        }
        self.hashes.push(hash64(key));
        self.keys += 1;
    }

    fn close_block(&mut self, last: &[u8], next: Option<&[u8]>) {
        let block = BloomBlock::build(self.layout, &self.hashes);
        self.hashes.clear();
        let bytes = block.bytes() as u64;
        self.blocks.push(block);
        match next {
            Some(n) => shortest_separator(last, n, &mut self.sep_buf),
            None => short_successor(last, &mut self.sep_buf),
        };
        self.seps.push(&self.sep_buf);
        let handle = handle_len(self.meta_offset, bytes);
        self.index.add(0, self.sep_buf.len() as u32, handle);
        self.meta_offset += bytes + BLOCK_TRAILER_BYTES;
    }

    /// The filter, or `None` when no key had a non-empty filter key.
    /// `last` is the last key added.
    pub(crate) fn finish(mut self, last: Option<&[u8]>) -> Option<Filter> {
        let last = last.filter(|_| self.keys > 0)?;
        self.close_block(last, None);
        Some(Filter {
            layout: self.layout,
            blocks: self.blocks,
            seps: self.seps,
            index_bytes: self.index.size() as u32,
            keys: self.keys,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_split_at_capacity_and_cover_ranges() {
        // 512-byte blocks: 8 lines -> 7 (even, ≥ 4 KiB? no: 512 < 4096, so 9 lines).
        let mut b = FilterBuilder::new(512, 10);
        let cap = b.layout.capacity as u64;
        let n = cap * 3 + 5;
        let mut last: Option<String> = None;
        for i in 0..n {
            let k = format!("k{i:08}");
            b.add(k.as_bytes(), last.as_deref().map(str::as_bytes));
            last = Some(k);
        }
        let f = b
            .finish(last.as_deref().map(str::as_bytes))
            .expect("filter");
        assert_eq!(f.keys, n);
        assert_eq!(f.blocks.len(), 4);
        assert!(f.blocks[..3].iter().all(|blk| blk.keys() as u64 == cap));
        for i in (0..n).step_by(7) {
            let k = format!("k{i:08}");
            let block = f.locate(k.as_bytes()).expect("in range") as usize;
            assert_eq!(block as u64, i / cap);
            assert!(f.blocks[block].may_contain(k.as_bytes()));
        }
        assert_eq!(f.locate(b"z"), None);
        assert_eq!(f.locate(b"a"), Some(0));
        assert_eq!(
            f.blocks_total_bytes(),
            4 * (f.layout.block_bytes() as u64 + 5)
        );
        assert!(f.index_bytes > 4 * 8);
    }

    #[test]
    fn no_keys_no_filter() {
        assert!(FilterBuilder::new(512, 10).finish(None).is_none());
    }
}
