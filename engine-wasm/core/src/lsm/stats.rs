//! Write-side counters of one tree: what was written, flushed and compacted.

/// Running totals since the tree was created.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct LsmStats {
    pub puts: u64,
    pub deletes: u64,
    /// Key + value bytes the user wrote (the denominator of write amplification).
    pub user_bytes_written: u64,
    pub memtables_sealed: u64,
    pub flushes: u64,
    /// SST bytes written by flushes (`flush_bytes`).
    pub flush_bytes: u64,
    pub flush_entries: u64,
    /// Versions a flush did not write (shadowed in their snapshot stripe).
    pub flush_dropped: u64,
    pub compactions: u64,
    /// Compactions done by moving files down without rewriting them.
    pub trivial_moves: u64,
    pub trivial_move_bytes: u64,
    /// Input SST bytes read by compactions (`compaction_read_bytes`).
    pub compaction_read_bytes: u64,
    /// Output SST bytes written by compactions (`compaction_write_bytes`).
    pub compaction_write_bytes: u64,
    pub compaction_input_entries: u64,
    pub compaction_dropped_versions: u64,
    pub compaction_dropped_tombstones: u64,
}

impl LsmStats {
    /// `(flush_bytes + compaction_write_bytes) / user_bytes_written` (0 before any
    /// write). Trivial moves write nothing.
    pub fn write_amplification(&self) -> f64 {
        if self.user_bytes_written == 0 {
            return 0.0;
        }
        (self.flush_bytes + self.compaction_write_bytes) as f64 / self.user_bytes_written as f64
    }
}
