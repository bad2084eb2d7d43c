//! Write-ahead log volume, as PostgreSQL's `EXPLAIN (WAL)` and `pg_stat_wal` count
//! it: every change writes a record (header + block reference + data), and the
//! first change of a page after a checkpoint also logs a full-page image (FPI) of
//! that page, minus the free "hole" in its middle. That rule is why WAL volume
//! jumps right after `\checkpoint` and why random updates cost more WAL than
//! appends.

use crate::buffer_pool::RelId;
use crate::storage::PageNo;

/// `XLogRecord` (24 bytes) + one `XLogRecordBlockHeader` with its `RelFileLocator`
/// and block number (20 bytes) + a short data header (2 bytes).
const RECORD_OVERHEAD: u64 = 24 + 20 + 2;

/// Bytes of an `XLogRecordBlockImageHeader` in front of a full-page image.
const FPI_HEADER: u64 = 5;

#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct WalStats {
    pub records: u64,
    pub fpi: u64,
    pub bytes: u64,
}

#[derive(Debug, Default)]
pub struct Wal {
    /// Pages already imaged since the last checkpoint: a bitset per relation
    /// (checked on every change, so no hashing).
    imaged: Vec<Vec<u64>>,
    pub stats: WalStats,
}

fn maxalign(n: u64) -> u64 {
    n.div_ceil(8) * 8
}

impl Wal {
    /// Logs a change of `page` carrying `payload` bytes of record data.
    /// `page_used` gives the page's used bytes, asked only when an image is due.
    pub fn log(&mut self, rel: RelId, page: PageNo, payload: u64, page_used: impl FnOnce() -> u64) {
        let mut bytes = RECORD_OVERHEAD + payload;
        if self.mark_imaged(rel, page) {
            bytes += FPI_HEADER + page_used();
            self.stats.fpi += 1;
        }
        self.stats.records += 1;
        self.stats.bytes += maxalign(bytes);
    }

    /// Marks the page imaged; true if it was not yet.
    fn mark_imaged(&mut self, rel: RelId, page: PageNo) -> bool {
        let (r, word, bit) = (rel as usize, page as usize / 64, page % 64);
        if self.imaged.len() <= r {
            self.imaged.resize_with(r + 1, Vec::new);
        }
        let bits = &mut self.imaged[r];
        if bits.len() <= word {
            bits.resize(word + 1, 0);
        }
        let fresh = bits[word] & (1 << bit) == 0;
        bits[word] |= 1 << bit;
        fresh
    }

    /// A checkpoint: the next change of every page logs an image again.
    pub fn checkpoint(&mut self) {
        self.imaged.clear();
    }

    /// Hands over the counters of the statement just run.
    pub fn take(&mut self) -> WalStats {
        std::mem::take(&mut self.stats)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_change_after_a_checkpoint_logs_a_page_image() {
        let mut wal = Wal::default();
        wal.log(1, 0, 40, || 4000);
        wal.log(1, 0, 40, || unreachable!("imaged already"));
        assert_eq!(wal.stats.records, 2);
        assert_eq!(wal.stats.fpi, 1);
        assert_eq!(wal.stats.bytes, maxalign(46 + 40 + 5 + 4000) + maxalign(86));
        wal.checkpoint();
        wal.log(1, 0, 40, || 100);
        assert_eq!(wal.take().fpi, 2);
        assert_eq!(wal.stats, WalStats::default());
    }
}
