//! Typed reads of the settings the engines consult while they run. Each name
//! below is a registry entry of the type its reader returns (the test reads
//! every one), so a read cannot fail and no caller carries a fallback: the
//! default lives in the registry alone.

use super::Settings;

impl Settings {
    /// `max_rows`: most rows one statement, and the whole run, may produce or
    /// change.
    pub fn max_rows(&self) -> i64 {
        self.int("max_rows")
    }

    /// `network`: the round trip between nodes, in nanoseconds.
    pub fn network_nanos(&self) -> u64 {
        self.get_nanos("network").unwrap_or_else(|e| panic!("{e}"))
    }

    /// `tablet_servers`: the number of tablet servers.
    pub fn tablet_servers(&self) -> i64 {
        self.int("tablet_servers")
    }

    /// `replication_factor`: copies of each tablet.
    pub fn replication_factor(&self) -> i64 {
        self.int("replication_factor")
    }

    /// `yb_enable_packed_row`: a row stored as one packed value.
    pub fn yb_enable_packed_row(&self) -> bool {
        self.get_bool("yb_enable_packed_row")
            .unwrap_or_else(|e| panic!("{e}"))
    }

    /// `yb_enable_expression_pushdown`: DocDB evaluates the WHERE conditions
    /// it can (`Storage Filter`).
    pub fn yb_enable_expression_pushdown(&self) -> bool {
        self.get_bool("yb_enable_expression_pushdown")
            .unwrap_or_else(|e| panic!("{e}"))
    }

    /// `yb_fetch_row_limit`: most rows one read request fetches (0: no limit).
    pub fn yb_fetch_row_limit(&self) -> i64 {
        self.int("yb_fetch_row_limit")
    }

    /// `ysql_prefetch_limit`: the tablet servers' row limit per read request.
    pub fn ysql_prefetch_limit(&self) -> i64 {
        self.int("ysql_prefetch_limit")
    }

    /// `ysql_request_limit`: most operations one request carries.
    pub fn ysql_request_limit(&self) -> i64 {
        self.int("ysql_request_limit")
    }

    /// `yb_bnl_batch_size`: outer rows per batch of a batched nested loop.
    pub fn yb_bnl_batch_size(&self) -> i64 {
        self.int("yb_bnl_batch_size")
    }

    /// `yb_scan_cache_bypass_blocks`: data blocks a read request reads through
    /// the block cache before its readahead bypasses it.
    pub fn yb_scan_cache_bypass_blocks(&self) -> i64 {
        self.int("yb_scan_cache_bypass_blocks")
    }

    /// `trace_statement_events`: detail events one statement may record.
    pub fn trace_statement_events(&self) -> i64 {
        self.int("trace_statement_events")
    }

    /// `trace_run_events`: detail events the whole run may record.
    pub fn trace_run_events(&self) -> i64 {
        self.int("trace_run_events")
    }

    /// `trace_query_events`: detail events the run's queries may record.
    pub fn trace_query_events(&self) -> i64 {
        self.int("trace_query_events")
    }

    /// `trace_full_detail_statement`: the statement (from 1) recorded in
    /// full whatever the budgets; 0: none.
    pub fn trace_full_detail_statement(&self) -> i64 {
        self.int("trace_full_detail_statement")
    }

    /// `trace_snapshots`: pictures of the engine between statements.
    pub fn trace_snapshots(&self) -> bool {
        self.get_bool("trace_snapshots")
            .unwrap_or_else(|e| panic!("{e}"))
    }

    /// An integer setting the engine reads by a fixed name: a missing name or
    /// another type is a bug in this file, which the test below catches.
    fn int(&self, name: &str) -> i64 {
        self.get_int(name).unwrap_or_else(|e| panic!("{e}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every typed read names a registry entry of its type (a wrong one panics),
    /// and gives the registry's default on fresh settings.
    #[test]
    fn typed_reads_are_registry_entries_of_their_type() {
        let s = Settings::new();
        let int = |name: &str| s.get_int(name).unwrap();
        assert_eq!(s.max_rows(), int("max_rows"));
        assert_eq!(s.network_nanos(), s.get_nanos("network").unwrap());
        assert_eq!(s.tablet_servers(), int("tablet_servers"));
        assert_eq!(s.replication_factor(), int("replication_factor"));
        assert_eq!(
            s.yb_enable_packed_row(),
            s.get_bool("yb_enable_packed_row").unwrap()
        );
        assert_eq!(s.yb_fetch_row_limit(), int("yb_fetch_row_limit"));
        assert_eq!(s.ysql_prefetch_limit(), int("ysql_prefetch_limit"));
        assert_eq!(s.ysql_request_limit(), int("ysql_request_limit"));
        assert_eq!(s.yb_bnl_batch_size(), int("yb_bnl_batch_size"));
        assert_eq!(
            s.yb_scan_cache_bypass_blocks(),
            int("yb_scan_cache_bypass_blocks")
        );
        assert_eq!(s.trace_statement_events(), int("trace_statement_events"));
        assert_eq!(s.trace_run_events(), int("trace_run_events"));
        assert_eq!(s.trace_query_events(), int("trace_query_events"));
        assert_eq!(
            s.trace_full_detail_statement(),
            int("trace_full_detail_statement")
        );
        assert_eq!(s.trace_snapshots(), s.get_bool("trace_snapshots").unwrap());
    }
}
