//! Buffer counters, counted the way PostgreSQL's `pgBufferUsage` counts them (the
//! numbers behind `EXPLAIN (BUFFERS)` and `pg_stat_statements`).
//!
//! - `shared_hit`: the page was found in the pool (bufmgr.c, `shared_blks_hit`).
//! - `shared_read`: the page had to be read from storage (`shared_blks_read`).
//! - `shared_dirtied`: a clean buffer became dirty (`MarkBufferDirty` counts only the
//!   clean → dirty transition, so a page modified a thousand times between two
//!   write-backs counts once).
//! - `shared_written`: a page was written to storage: a dirty victim written back on
//!   eviction (`FlushBuffer`), a checkpoint write, or a relation extension (PostgreSQL
//!   counts the zero-filled page it adds to the file as a write:
//!   `pgBufferUsage.shared_blks_written += extend_by` in `ExtendBufferedRelShared`).
//!   `extends` says how many of the writes were extensions.
//!
//! Counters are plain totals; a caller takes a snapshot before some work and
//! [`BufferStats::since`] after it to get what that work did (one EXPLAIN node, one
//! statement).

/// Buffer counters: running totals, or the difference between two snapshots.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct BufferStats {
    pub shared_hit: u64,
    pub shared_read: u64,
    pub shared_dirtied: u64,
    pub shared_written: u64,
    /// Pages added at the end of a relation (included in `shared_written`).
    pub extends: u64,
    /// Victims removed from the pool to make room (clean or dirty).
    pub evictions: u64,
    /// Bytes read from storage: `shared_read` × page size.
    pub io_read_bytes: u64,
    /// Bytes written to storage: `shared_written` × page size.
    pub io_write_bytes: u64,
}

impl BufferStats {
    /// What happened between `earlier` (a previous snapshot of the same counters) and
    /// `self`. Saturates at zero if the counters were reset in between.
    pub fn since(&self, earlier: &BufferStats) -> BufferStats {
        BufferStats {
            shared_hit: self.shared_hit.saturating_sub(earlier.shared_hit),
            shared_read: self.shared_read.saturating_sub(earlier.shared_read),
            shared_dirtied: self.shared_dirtied.saturating_sub(earlier.shared_dirtied),
            shared_written: self.shared_written.saturating_sub(earlier.shared_written),
            extends: self.extends.saturating_sub(earlier.extends),
            evictions: self.evictions.saturating_sub(earlier.evictions),
            io_read_bytes: self.io_read_bytes.saturating_sub(earlier.io_read_bytes),
            io_write_bytes: self.io_write_bytes.saturating_sub(earlier.io_write_bytes),
        }
    }

    /// Adds `other` into `self` (summing per-relation figures into a statement's).
    pub fn add(&mut self, other: &BufferStats) {
        self.shared_hit += other.shared_hit;
        self.shared_read += other.shared_read;
        self.shared_dirtied += other.shared_dirtied;
        self.shared_written += other.shared_written;
        self.extends += other.extends;
        self.evictions += other.evictions;
        self.io_read_bytes += other.io_read_bytes;
        self.io_write_bytes += other.io_write_bytes;
    }

    /// Buffer accesses that looked up an existing page: hits plus reads.
    pub fn accesses(&self) -> u64 {
        self.shared_hit + self.shared_read
    }

    /// Whether every counter is zero (EXPLAIN omits an empty `Buffers:` line).
    pub fn is_empty(&self) -> bool {
        *self == BufferStats::default()
    }

    /// The counters under the metric names of DESIGN.md, for the metrics panel.
    pub fn metrics(&self) -> [(&'static str, u64); 8] {
        [
            ("shared_hit", self.shared_hit),
            ("shared_read", self.shared_read),
            ("shared_dirtied", self.shared_dirtied),
            ("shared_written", self.shared_written),
            ("shared_extended", self.extends),
            ("buffer_evictions", self.evictions),
            ("io_read_bytes", self.io_read_bytes),
            ("io_write_bytes", self.io_write_bytes),
        ]
    }

    /// Adds what one access did (see [`AccessOutcome`](super::AccessOutcome)).
    pub fn record(&mut self, outcome: &super::AccessOutcome, page_size: u64) {
        match outcome.kind {
            super::AccessKind::Hit => self.count_hit(),
            super::AccessKind::Read => self.count_read(page_size),
            super::AccessKind::Extend => self.count_extend(page_size),
        }
        if outcome.dirtied {
            self.shared_dirtied += 1;
        }
        if let Some(ev) = outcome.evicted {
            self.evictions += 1;
            if ev.written_back {
                self.count_write(page_size);
            }
        }
    }

    pub(super) fn count_hit(&mut self) {
        self.shared_hit += 1;
    }

    pub(super) fn count_read(&mut self, page_size: u64) {
        self.shared_read += 1;
        self.io_read_bytes += page_size;
    }

    pub(super) fn count_write(&mut self, page_size: u64) {
        self.shared_written += 1;
        self.io_write_bytes += page_size;
    }

    pub(super) fn count_extend(&mut self, page_size: u64) {
        self.extends += 1;
        self.count_write(page_size);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn since_and_add_are_inverse() {
        let mut a = BufferStats::default();
        a.count_hit();
        a.count_read(8192);
        let snapshot = a;
        a.count_hit();
        a.count_extend(8192);
        a.shared_dirtied += 1;
        let d = a.since(&snapshot);
        assert_eq!(d.shared_hit, 1);
        assert_eq!(d.shared_read, 0);
        assert_eq!(d.shared_written, 1);
        assert_eq!(d.extends, 1);
        assert_eq!(d.io_write_bytes, 8192);
        let mut back = snapshot;
        back.add(&d);
        assert_eq!(back, a);
        assert_eq!(a.accesses(), 3);
        assert!(!d.is_empty());
        assert!(snapshot.since(&a).is_empty(), "saturates after a reset");
        assert_eq!(a.metrics()[0], ("shared_hit", 2));
    }
}
