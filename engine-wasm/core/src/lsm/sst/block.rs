//! Byte accounting of RocksDB's block format (table/block_builder.cc), without
//! writing the bytes: the SST keeps its entries in flat arrays and only needs to
//! know how large each block *would* be.
//!
//! A block entry is `varint32 shared | varint32 unshared | varint32 value_len |
//! key[shared..] | value`, where `shared` is the prefix the key has in common with
//! the previous key (key-prefix compression). Every `restart_interval` entries the
//! key is stored whole (a restart point), and the block ends with one 4-byte offset
//! per restart point plus a 4-byte count. On disk every block is followed by a
//! 5-byte trailer (compression type and CRC). We model no compression beyond the
//! key prefix.

use crate::lsm::types::varint_len;

/// Compression type byte + 32-bit checksum after every block on disk.
pub(crate) const BLOCK_TRAILER_BYTES: u64 = 5;
/// The fixed-size footer at the end of a block-based table (format version 2).
pub(crate) const FOOTER_BYTES: u64 = 48;

/// The running size of a block being built (RocksDB's `BlockBuilder` estimate).
#[derive(Debug, Clone)]
pub(crate) struct BlockSizer {
    restart_interval: u32,
    buffer: u64,
    restarts: u32,
    counter: u32,
    keys: u32,
}

impl BlockSizer {
    pub(crate) fn new(restart_interval: u32) -> Self {
        BlockSizer {
            restart_interval: restart_interval.max(1),
            buffer: 0,
            restarts: 1,
            counter: 0,
            keys: 0,
        }
    }

    pub(crate) fn reset(&mut self) {
        *self = BlockSizer::new(self.restart_interval);
    }

    #[inline]
    pub(crate) fn is_empty(&self) -> bool {
        self.keys == 0
    }

    #[inline]
    pub(crate) fn num_keys(&self) -> u32 {
        self.keys
    }

    /// True when the next entry starts a restart point (its key is stored whole).
    #[inline]
    pub(crate) fn next_is_restart(&self) -> bool {
        self.keys == 0 || self.counter >= self.restart_interval
    }

    /// `CurrentSizeEstimate`: entries, restart array and restart count. Exact once
    /// the block is finished.
    #[inline]
    pub(crate) fn size(&self) -> u64 {
        self.buffer + 4 * self.restarts as u64 + 4
    }

    /// `EstimateSizeAfterKV`: counts the whole key as unshared and a 4-byte shared
    /// length, as RocksDB does.
    #[inline]
    pub(crate) fn size_after(&self, key_len: u32, value_len: u32) -> u64 {
        let restart = if self.counter >= self.restart_interval {
            4
        } else {
            0
        };
        self.size()
            + key_len as u64
            + value_len as u64
            + restart
            + 4
            + varint_len(key_len as u64) as u64
            + varint_len(value_len as u64) as u64
    }

    /// Adds an entry whose key shares `shared` bytes with the previous key (the
    /// caller passes 0 when [`next_is_restart`](Self::next_is_restart)).
    /// Returns the entry's encoded size.
    #[inline]
    pub(crate) fn add(&mut self, shared: u32, key_len: u32, value_len: u32) -> u64 {
        let shared = if self.next_is_restart() {
            if self.keys > 0 {
                self.restarts += 1;
            }
            self.counter = 0;
            0
        } else {
            shared.min(key_len)
        };
        let unshared = key_len - shared;
        let entry = varint_len(shared as u64) as u64
            + varint_len(unshared as u64) as u64
            + varint_len(value_len as u64) as u64
            + unshared as u64
            + value_len as u64;
        self.buffer += entry;
        self.counter += 1;
        self.keys += 1;
        entry
    }
}

/// YugabyteDB's `FlushBlockBySizePolicy::Update`: close the block before adding
/// this entry if it already reached `block_size`, or if the entry would overflow it
/// while the block is within `deviation` percent of full — and only once the block
/// holds `min_keys` entries.
#[inline]
pub(crate) fn block_is_full(
    sizer: &BlockSizer,
    block_size: u32,
    deviation: u32,
    min_keys: u32,
    key_len: u32,
    value_len: u32,
) -> bool {
    if sizer.is_empty() || sizer.num_keys() < min_keys {
        return false;
    }
    let size = sizer.size();
    let block_size = block_size as u64;
    if size >= block_size {
        return true;
    }
    deviation > 0
        && sizer.size_after(key_len, value_len) > block_size
        && size * 100 > block_size * (100 - deviation as u64)
}

/// RocksDB's `BytewiseComparator::FindShortestSeparator`: a short string in
/// `[start, limit)` written to `out`. Returns false (and leaves `out` as `start`)
/// when no shorter string exists.
pub(crate) fn shortest_separator(start: &[u8], limit: &[u8], out: &mut Vec<u8>) -> bool {
    out.clear();
    out.extend_from_slice(start);
    let min_len = start.len().min(limit.len());
    let diff = crate::lsm::types::common_prefix(start, limit);
    if diff >= min_len {
        return false; // one is a prefix of the other
    }
    let (s, l) = (start[diff], limit[diff]);
    if s >= l {
        return false;
    }
    if diff < limit.len() - 1 || s + 1 < l {
        out[diff] += 1;
        out.truncate(diff + 1);
        return true;
    }
    // Incrementing start[diff] would reach limit: increment the first non-0xff
    // byte after it instead.
    for i in diff + 1..start.len() {
        if start[i] < 0xff {
            out[i] += 1;
            out.truncate(i + 1);
            return true;
        }
    }
    false
}

/// RocksDB's `FindShortSuccessor`: a short string ≥ `key` (the last index entry).
pub(crate) fn short_successor(key: &[u8], out: &mut Vec<u8>) -> bool {
    out.clear();
    out.extend_from_slice(key);
    for i in 0..key.len() {
        if key[i] != 0xff {
            out[i] += 1;
            out.truncate(i + 1);
            return true;
        }
    }
    false
}

/// Bytes of a `BlockHandle` (varint64 offset, varint64 size).
#[inline]
pub(crate) fn handle_len(offset: u64, size: u64) -> u32 {
    varint_len(offset) + varint_len(size)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entry_sizes_follow_the_block_format() {
        let mut b = BlockSizer::new(16);
        // One 4-byte restart offset and the 4-byte restart count.
        assert_eq!(b.size(), 4 + 4);
        // First entry: whole key. Three 1-byte varints + 10 key + 5 value.
        let first = b.add(7, 10, 5);
        assert_eq!(first, 1 + 1 + 1 + 10 + 5);
        // Second: shares 7 bytes, stores 3.
        let second = b.add(7, 10, 5);
        assert_eq!(second, 1 + 1 + 1 + 3 + 5);
        assert_eq!(b.size(), 4 + 4 + first + second);
    }

    #[test]
    fn restarts_every_interval() {
        let mut b = BlockSizer::new(4);
        for _ in 0..4 {
            b.add(6, 8, 0);
        }
        let before = b.size();
        assert!(b.next_is_restart());
        // The fifth entry is a restart: whole key, and a new 4-byte restart offset.
        let entry = b.add(6, 8, 0);
        assert_eq!(entry, 3 + 8);
        assert_eq!(b.size(), before + entry + 4);
    }

    #[test]
    fn large_lengths_take_longer_varints() {
        let mut b = BlockSizer::new(16);
        // 200-byte value: 2-byte varint.
        assert_eq!(b.add(0, 1, 200), 1 + 1 + 2 + 1 + 200);
    }

    #[test]
    fn flush_policy_fills_to_about_block_size() {
        let mut b = BlockSizer::new(16);
        let mut n = 0;
        while !block_is_full(&b, 4096, 10, 1, 61, 15) {
            b.add(if b.next_is_restart() { 0 } else { 40 }, 61, 15);
            n += 1;
        }
        assert!(
            b.size() <= 4096 && b.size() * 100 > 4096 * 90,
            "{} bytes",
            b.size()
        );
        assert!(n > 80, "{n} entries");
        // Never flush an empty block or one under min_keys.
        assert!(!block_is_full(&BlockSizer::new(16), 1, 10, 1, 61, 15));
        assert!(!block_is_full(&b, 4096, 10, 10_000, 61, 15));
    }

    #[test]
    fn separators_like_rocksdb() {
        let mut out = Vec::new();
        assert!(shortest_separator(
            b"the quick brown fox",
            b"the who",
            &mut out
        ));
        assert_eq!(out, b"the r");
        assert!(!shortest_separator(b"abc", b"abcd", &mut out));
        assert_eq!(out, b"abc");
        // Adjacent bytes at the end of limit: bump a later byte of start instead.
        assert!(shortest_separator(b"ab1xyz", b"ab2", &mut out));
        assert_eq!(out, b"ab1y");
        assert!(short_successor(b"\xff\xffa", &mut out));
        assert_eq!(out, b"\xff\xffb");
        assert!(!short_successor(b"\xff", &mut out));
        assert_eq!(handle_len(0, 100), 2);
        assert_eq!(handle_len(1 << 20, 32_000), 3 + 3);
    }
}
