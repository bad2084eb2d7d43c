//! The SST index: one entry per data block (a short separator key and the block's
//! handle), split into index blocks of `index_block_size` and stacked into levels
//! until one block remains — YugabyteDB's `kMultiLevelBinarySearch` index
//! (table/index_builder.cc). A seek reads the top block and then one block per
//! level below it; article 000's table has two leaf blocks and a top block
//! ("data index blocks=3").
//!
//! Index blocks use restart interval 1 (`index_block_restart_interval`), so every
//! entry stores its whole key plus a 4-byte restart offset.

use std::cmp::Ordering;

use super::block::{block_is_full, handle_len, BlockSizer, BLOCK_TRAILER_BYTES};
use crate::lsm::types::{cmp_internal, KeyList};

/// The blocks of one index level. Block `i` covers children
/// `first_child[i]..first_child[i + 1]` (data blocks for the leaf level, blocks of
/// the level below otherwise).
#[derive(Debug, Clone, Default)]
pub(crate) struct IndexLevel {
    pub(crate) first_child: Vec<u32>,
    pub(crate) bytes: Vec<u32>,
}

impl IndexLevel {
    /// The block of this level covering `child`.
    #[inline]
    pub(crate) fn block_of(&self, child: u32) -> u32 {
        (self.first_child.partition_point(|&f| f <= child) - 1) as u32
    }
}

/// A finished index.
#[derive(Debug, Clone, Default)]
pub(crate) struct Index {
    /// Separator user key and trailer for each data block.
    pub(crate) seps: KeyList,
    pub(crate) trailers: Vec<u64>,
    /// Level 0 is the leaf level; the last level is the single top block.
    pub(crate) levels: Vec<IndexLevel>,
    /// All index blocks with their trailers (RocksDB's `data_index_size`).
    pub(crate) total_bytes: u64,
}

impl Index {
    /// First data block whose separator is ≥ the target: the only block that can
    /// hold the first entry ≥ target. A binary search over the separators
    /// (restart interval 1), each step one key comparison, counted in `compared`.
    pub(crate) fn find(&self, key: &[u8], trailer: u64, compared: &mut u64) -> Option<u32> {
        let (mut lo, mut hi) = (0usize, self.trailers.len());
        while lo < hi {
            let mid = (lo + hi) / 2;
            *compared += 1;
            if cmp_internal(self.seps.get(mid), self.trailers[mid], key, trailer) == Ordering::Less
            {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        (lo < self.trailers.len()).then_some(lo as u32)
    }

    pub(crate) fn num_levels(&self) -> usize {
        self.levels.len()
    }

    pub(crate) fn num_blocks(&self) -> u32 {
        self.levels.iter().map(|l| l.bytes.len() as u32).sum()
    }

    /// A number unique among this table's index blocks (leaf blocks first), for
    /// block cache keys.
    pub(crate) fn block_number(&self, level: usize, block: u32) -> u32 {
        let below: u32 = self.levels[..level]
            .iter()
            .map(|l| l.bytes.len() as u32)
            .sum();
        below + block
    }

    pub(crate) fn block_bytes(&self, level: usize, block: u32) -> u32 {
        self.levels[level].bytes[block as usize]
    }
}

/// One level under construction.
#[derive(Debug)]
struct LevelBuilder {
    sizer: BlockSizer,
    level: IndexLevel,
    /// Index of the last separator of each finished block (keys of the next level).
    last_sep: Vec<u32>,
    /// Separator of the entry added last (ends the open block if it closes now).
    last_added: u32,
    children: u32,
}

impl LevelBuilder {
    fn new() -> Self {
        LevelBuilder {
            sizer: BlockSizer::new(1),
            level: IndexLevel::default(),
            last_sep: Vec::new(),
            last_added: 0,
            children: 0,
        }
    }

    /// Adds one entry; returns the finished block's size if the entry closed it.
    fn add(&mut self, key_len: u32, handle: u32, sep: u32, limits: &Limits) -> Option<u32> {
        if self.sizer.is_empty() {
            self.level.first_child.push(self.children);
        }
        self.sizer.add(0, key_len, handle);
        self.children += 1;
        self.last_added = sep;
        // YB checks the policy *after* adding the entry (MultiLevelIndexBuilder).
        block_is_full(
            &self.sizer,
            limits.block_size,
            limits.deviation,
            limits.min_keys,
            key_len,
            handle,
        )
        .then(|| self.close())
    }

    fn close(&mut self) -> u32 {
        let bytes = self.sizer.size() as u32;
        self.level.bytes.push(bytes);
        self.last_sep.push(self.last_added);
        self.sizer.reset();
        bytes
    }
}

#[derive(Debug, Clone, Copy)]
struct Limits {
    block_size: u32,
    deviation: u32,
    min_keys: u32,
}

/// Builds the index as data blocks close.
#[derive(Debug)]
pub(crate) struct IndexBuilder {
    limits: Limits,
    seps: KeyList,
    trailers: Vec<u64>,
    leaf: LevelBuilder,
    /// Offset of the next index block in the file's metadata part.
    meta_offset: u64,
}

impl IndexBuilder {
    pub(crate) fn new(block_size: u32, deviation: u32, min_keys: u32) -> Self {
        IndexBuilder {
            limits: Limits {
                block_size,
                deviation,
                min_keys,
            },
            seps: KeyList::default(),
            trailers: Vec::new(),
            leaf: LevelBuilder::new(),
            meta_offset: 0,
        }
    }

    /// Adds the entry of a data block at `offset` of `size` bytes.
    pub(crate) fn add(&mut self, sep: &[u8], trailer: u64, offset: u64, size: u64) -> bool {
        if !self.seps.push(sep) {
            return false;
        }
        self.trailers.push(trailer);
        let n = (self.trailers.len() - 1) as u32;
        let key_len = sep.len() as u32 + 8;
        if let Some(bytes) = self
            .leaf
            .add(key_len, handle_len(offset, size), n, &self.limits)
        {
            self.meta_offset += bytes as u64 + BLOCK_TRAILER_BYTES;
        }
        true
    }

    pub(crate) fn finish(mut self) -> Index {
        let mut levels = Vec::new();
        let mut current = std::mem::replace(&mut self.leaf, LevelBuilder::new());
        loop {
            if !current.sizer.is_empty() {
                let bytes = current.close();
                self.meta_offset += bytes as u64 + BLOCK_TRAILER_BYTES;
            }
            if current.level.bytes.len() <= 1 {
                levels.push(current.level);
                break;
            }
            let next = self.build_parent(&current);
            levels.push(current.level);
            current = next;
        }
        let total_bytes = levels
            .iter()
            .flat_map(|l| l.bytes.iter())
            .map(|&b| b as u64 + BLOCK_TRAILER_BYTES)
            .sum();
        let mut seps = self.seps;
        seps.shrink_to_fit();
        Index {
            seps,
            trailers: self.trailers,
            levels,
            total_bytes,
        }
    }

    /// The level above `child`: one entry per block of `child`, keyed by that
    /// block's last separator (not shortened again, as in YB).
    fn build_parent(&mut self, child: &LevelBuilder) -> LevelBuilder {
        let mut parent = LevelBuilder::new();
        let mut offset = 0u64;
        for (i, &bytes) in child.level.bytes.iter().enumerate() {
            let sep = child.last_sep[i];
            let key_len = self.seps.get(sep as usize).len() as u32 + 8;
            let handle = handle_len(offset, bytes as u64);
            offset += bytes as u64 + BLOCK_TRAILER_BYTES;
            if let Some(b) = parent.add(key_len, handle, sep, &self.limits) {
                self.meta_offset += b as u64 + BLOCK_TRAILER_BYTES;
            }
        }
        parent
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lsm::types::{pack, ValueKind};

    fn build(blocks: u32, index_block_size: u32) -> Index {
        let mut b = IndexBuilder::new(index_block_size, 10, 2);
        let mut offset = 0;
        for i in 0..blocks {
            let sep = format!("key{i:06}");
            assert!(b.add(sep.as_bytes(), pack(1, ValueKind::Put), offset, 4000));
            offset += 4005;
        }
        b.finish()
    }

    #[test]
    fn a_small_index_is_one_block() {
        let idx = build(10, 64 * 1024);
        assert_eq!(idx.num_levels(), 1);
        assert_eq!(idx.num_blocks(), 1);
        // 10 entries: 1 + 1 + 1 varints, 17-byte key, 4-5 byte handle, 4-byte restart.
        let bytes = idx.block_bytes(0, 0) as u64;
        assert!((10 * 27..=10 * 29 + 4).contains(&bytes), "{bytes}");
        assert_eq!(idx.total_bytes, bytes + BLOCK_TRAILER_BYTES);
    }

    #[test]
    fn a_large_index_grows_levels() {
        let idx = build(5000, 1024);
        assert!(idx.num_levels() >= 2);
        let leaf = &idx.levels[0];
        assert!(leaf.bytes.iter().all(|&b| b <= 1024 + 64));
        assert_eq!(idx.levels.last().map(|l| l.bytes.len()), Some(1));
        // Every data block belongs to one leaf block, in order.
        assert_eq!(leaf.block_of(0), 0);
        assert_eq!(leaf.block_of(4999) as usize, leaf.bytes.len() - 1);
        let numbers: Vec<u32> = (0..idx.num_levels())
            .flat_map(|l| (0..idx.levels[l].bytes.len() as u32).map(move |b| (l, b)))
            .map(|(l, b)| idx.block_number(l, b))
            .collect();
        assert_eq!(numbers, (0..idx.num_blocks()).collect::<Vec<_>>());
    }

    #[test]
    fn find_returns_first_separator_at_or_after() {
        let idx = build(100, 4096);
        let t = pack(1, ValueKind::Put);
        let find = |key: &[u8], trailer| idx.find(key, trailer, &mut 0);
        assert_eq!(find(b"key000000", t), Some(0));
        assert_eq!(find(b"key000050", pack(5, ValueKind::Put)), Some(50));
        // Same key, older version: sorts after the separator.
        assert_eq!(find(b"key000050", pack(0, ValueKind::Put)), Some(51));
        assert_eq!(find(b"a", t), Some(0));
        assert_eq!(find(b"z", t), None);
    }

    #[test]
    fn find_counts_the_steps_of_a_binary_search() {
        let idx = build(100, 4096);
        let mut compared = 0;
        idx.find(b"key000050", pack(5, ValueKind::Put), &mut compared);
        // 100 separators: a binary search halves the range each step.
        let steps = u64::from(100u32.ilog2());
        assert!((steps..=steps + 1).contains(&compared), "{compared}");
    }
}
