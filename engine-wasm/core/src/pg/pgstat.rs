//! The cumulative statistics PostgreSQL keeps per table and index, which
//! `pg_stat_user_tables` and `pg_stat_user_indexes` show: how often each was
//! scanned and how many rows were read, inserted, updated (HOT or not) and
//! deleted, and its estimate of live and dead rows (`pgstat_relation.c`).
//!
//! Where PostgreSQL 15 counts, and so where IndexLab does:
//! - a **sequential scan** (`initscan`): one scan, and every tuple it returns
//!   (`heap_getnext`). An index build reads the table this way too, with a
//!   snapshot that returns dead tuples as well, so CREATE INDEX counts one
//!   scan of every tuple with storage — and TRUNCATE, which rebuilds each
//!   index over the empty file, one scan per index. ANALYZE and VACUUM
//!   read the table with other scan types, which are not counted;
//! - an **index scan**: one scan per descent of the B-tree (`_bt_first`),
//!   so `x IN (1, 2, 3)` counts three; every entry it returns is a tuple
//!   read, and every heap tuple it then finds visible a tuple fetched (an
//!   index-only scan that the visibility map spares the heap fetches none);
//! - a **write**: inserted, updated (and HOT-updated), deleted rows. When the
//!   transaction commits, live rows grow by the inserted less the deleted,
//!   and dead rows by the updated and the deleted;
//! - **VACUUM** sets the live rows to what it counted and the dead to none
//!   left (one session: nothing is still visible to someone else); **ANALYZE**
//!   sets both to what it counted, dead line pointers included; **TRUNCATE**
//!   sets both to zero.
//!
//! When they become visible: a backend sends its counters to the shared
//! statistics when it goes idle, at most once a second (`pgstat_report_stat`),
//! so a script run at full speed may read counts a statement or two old, and
//! experiments wait (`\! sleep 1`, `pg_stat_force_next_flush()`) before
//! reading them. IndexLab shows them as they are once sent: each statement's
//! counts at its end (in a transaction block, at COMMIT), as an interactive
//! session sees them.

/// The counters of one table.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct TableCounters {
    pub seq_scan: i64,
    pub seq_tup_read: i64,
    pub n_tup_ins: i64,
    pub n_tup_upd: i64,
    pub n_tup_del: i64,
    pub n_tup_hot_upd: i64,
    pub n_live_tup: i64,
    pub n_dead_tup: i64,
    pub n_mod_since_analyze: i64,
    pub n_ins_since_vacuum: i64,
    pub vacuum_count: i64,
    pub analyze_count: i64,
    /// When VACUUM and ANALYZE last ran (µs since 2000-01-01, the statement's
    /// `now()`).
    pub last_vacuum: Option<i64>,
    pub last_analyze: Option<i64>,
}

/// The counters of one index.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct IndexCounters {
    pub idx_scan: i64,
    pub idx_tup_read: i64,
    pub idx_tup_fetch: i64,
}

/// What a table's statements counted since the counters were last sent.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PendingTable {
    pub seq_scan: i64,
    pub seq_tup_read: i64,
    pub inserted: i64,
    pub updated: i64,
    pub hot_updated: i64,
    pub deleted: i64,
    /// TRUNCATE ran: the live and dead rows start again from zero.
    pub truncated: bool,
}

/// A table's shown counters and those not sent yet.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct TableActivity {
    pub shown: TableCounters,
    pub pending: PendingTable,
}

/// An index's shown counters and those not sent yet.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct IndexActivity {
    pub shown: IndexCounters,
    pub pending: IndexCounters,
}

impl TableActivity {
    /// Sends the pending counts (`pgstat_relation_flush_cb`, after
    /// `AtEOXact_PgStat_Relations` folded the transaction's writes in).
    /// Attempted writes count either way; an aborted transaction's inserted
    /// and updated rows are dead, and it changed nothing else.
    pub fn flush(&mut self, committed: bool) {
        let p = std::mem::take(&mut self.pending);
        let s = &mut self.shown;
        s.seq_scan += p.seq_scan;
        s.seq_tup_read += p.seq_tup_read;
        s.n_tup_ins += p.inserted;
        s.n_tup_upd += p.updated;
        s.n_tup_hot_upd += p.hot_updated;
        s.n_tup_del += p.deleted;
        if !committed {
            s.n_dead_tup += p.inserted + p.updated;
            return;
        }
        if p.truncated {
            s.n_live_tup = 0;
            s.n_dead_tup = 0;
            s.n_ins_since_vacuum = 0;
        }
        s.n_live_tup += p.inserted - p.deleted;
        s.n_dead_tup += p.updated + p.deleted;
        s.n_mod_since_analyze += p.inserted + p.updated + p.deleted;
        s.n_ins_since_vacuum += p.inserted;
    }

    /// `pgstat_report_vacuum`: written at once, not at the flush.
    pub fn vacuumed(&mut self, live: i64, now_us: i64) {
        let s = &mut self.shown;
        s.n_live_tup = live.max(0);
        s.n_dead_tup = 0;
        s.n_ins_since_vacuum = 0;
        s.vacuum_count += 1;
        s.last_vacuum = Some(now_us);
    }

    /// `pgstat_report_analyze`: written at once, not at the flush.
    pub fn analyzed(&mut self, live: i64, dead: i64, now_us: i64) {
        let s = &mut self.shown;
        s.n_live_tup = live.max(0);
        s.n_dead_tup = dead.max(0);
        s.n_mod_since_analyze = 0;
        s.analyze_count += 1;
        s.last_analyze = Some(now_us);
    }
}

impl IndexActivity {
    pub fn flush(&mut self) {
        let p = std::mem::take(&mut self.pending);
        self.shown.idx_scan += p.idx_scan;
        self.shown.idx_tup_read += p.idx_tup_read;
        self.shown.idx_tup_fetch += p.idx_tup_fetch;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_committed_update_leaves_a_dead_row_and_the_live_count_unchanged() {
        let mut a = TableActivity::default();
        a.pending.inserted = 10;
        a.flush(true);
        a.pending.updated = 3;
        a.pending.hot_updated = 2;
        a.pending.deleted = 1;
        a.flush(true);
        assert_eq!(a.shown.n_live_tup, 9);
        assert_eq!(a.shown.n_dead_tup, 4);
        assert_eq!(a.shown.n_tup_hot_upd, 2);
        assert_eq!(a.shown.n_mod_since_analyze, 14);
    }

    #[test]
    fn an_aborted_insert_leaves_dead_rows_and_no_live_ones() {
        let mut a = TableActivity::default();
        a.pending.inserted = 3;
        a.flush(false);
        assert_eq!(
            (a.shown.n_tup_ins, a.shown.n_live_tup, a.shown.n_dead_tup),
            (3, 0, 3)
        );
        assert_eq!(a.shown.n_mod_since_analyze, 0);
    }

    #[test]
    fn truncate_restarts_live_and_dead_but_not_the_totals() {
        let mut a = TableActivity::default();
        a.pending.inserted = 10;
        a.pending.deleted = 5;
        a.flush(true);
        a.pending.truncated = true;
        a.flush(true);
        assert_eq!((a.shown.n_live_tup, a.shown.n_dead_tup), (0, 0));
        assert_eq!(a.shown.n_tup_ins, 10);
        assert_eq!(a.shown.n_mod_since_analyze, 15);
    }

    #[test]
    fn vacuum_and_analyze_overwrite_the_estimates() {
        let mut a = TableActivity::default();
        a.pending.inserted = 10;
        a.pending.deleted = 4;
        a.flush(true);
        a.vacuumed(6, 1);
        assert_eq!((a.shown.n_live_tup, a.shown.n_dead_tup), (6, 0));
        a.analyzed(6, 2, 2);
        assert_eq!(a.shown.n_dead_tup, 2);
        assert_eq!(a.shown.n_mod_since_analyze, 0);
        assert_eq!((a.shown.vacuum_count, a.shown.analyze_count), (1, 1));
    }
}
