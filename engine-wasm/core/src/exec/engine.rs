//! What the shared executor needs from a profile.

use super::plan_node::PlanNode;
use super::row::Row;
use crate::clock::CostModel;
use crate::settings::Settings;
use crate::sql::ast::ExplainOptions;
use crate::sql::error::SqlError;
use crate::sql::eval::{EvalEnv, Scope};
use crate::sql::plan::{ScanPlan, TableInfo};

/// Rows a scan produced (each with the profile's locator of it: a heap TID on
/// pg, a row number on yb) and its EXPLAIN node.
pub struct ScanOutput {
    pub rows: Vec<(u64, Row)>,
    pub node: PlanNode,
}

/// Where a scan of rows in group order stops under a LIMIT of `groups`: a
/// GroupAggregate reads the row that begins group `groups + 1` (to know the
/// last group ended); a Unique hands each value up at its first row, so it
/// stops at the first row of group `groups`.
#[derive(Debug, Clone)]
pub struct GroupStop {
    /// The group key's columns, by position in the table.
    pub key: Vec<usize>,
    pub groups: u64,
    /// Whether the next group's first row is read (GroupAggregate).
    pub reads_next: bool,
}

/// A read of one table an upper node planned itself: the scan it chose (a
/// GroupAggregate under a LIMIT may prefer an index that starts sooner to
/// the cheapest read) and where a LIMIT stops it.
#[derive(Debug, Clone)]
pub struct PlannedRead {
    pub plan: crate::sql::plan::ScanPlan,
    pub stop: Option<GroupStop>,
}

/// A storage profile as the executor sees it: a catalog, a virtual clock, and
/// scans that run a [`ScanPlan`] and report what they did.
pub trait QueryEngine: Sized {
    /// What expressions evaluate with: `now()`, the virtual clock, the seeded RNG.
    fn env(&mut self) -> EvalEnv<'_>;
    /// Virtual time, in µs.
    fn now_us(&self) -> f64;
    fn advance_us(&mut self, us: f64);
    fn cost(&self) -> &CostModel;
    fn settings(&self) -> &Settings;
    fn table_id(&self, name: &str) -> Result<usize, SqlError>;
    /// What the planner needs to know about table `table`.
    fn planner_info(&self, table: usize) -> TableInfo;
    /// YugabyteDB's aggregate pushdown: the next scan may compute the
    /// query's aggregates in DocDB, each read request answering with one
    /// partial row (`Partial Aggregate: true`), if it reads with no
    /// condition left to PostgreSQL's side. A profile without it ignores
    /// the offer.
    fn offer_aggregate_pushdown(&mut self, offered: bool) {
        let _ = offered;
    }
    /// The same with the statistics a cost-based choice of its scan reads
    /// (pg); a profile that chooses by rules (yb) gives none.
    fn scan_info(&self, table: usize) -> TableInfo {
        self.planner_info(table)
    }
    /// The system columns (`ctid`, `xmin`, `xmax`) of the row version at heap
    /// TID `tid` of `table`, for RETURNING: only pg's rows have them.
    fn system_values(
        &self,
        _table: usize,
        _tid: u64,
    ) -> Result<[crate::value::Value; 3], SqlError> {
        Err(crate::sql::error::unsupported(
            "the system columns ctid, xmin and xmax on YugabyteDB (its rows live in DocDB, \
             not at heap addresses, and carry no PostgreSQL transaction ids)",
        ))
    }
    /// Gives the running transaction an id if it has none (`txid_current()`).
    fn assign_transaction_id(&mut self) -> Result<(), SqlError> {
        Err(crate::sql::error::unsupported(
            "txid_current() on YugabyteDB (its transactions are DocDB's, without \
             PostgreSQL's 32-bit ids)",
        ))
    }
    /// The rows of `table` its conditions `filter` keep, in heap order,
    /// looked at without reading a page through the buffer pool, advancing
    /// the clock or counting anything; None on a profile without it. An
    /// executor node that pulls rows one at a time in PostgreSQL (a Merge
    /// Join, stopping when a side runs out) works out from them how many
    /// rows its scans hand up, then runs those scans for real.
    fn peek_rows(
        &mut self,
        _table: usize,
        _filter: &[crate::sql::ast::Expr],
    ) -> Result<Option<Vec<Row>>, SqlError> {
        Ok(None)
    }
    /// Runs `plan` on `table`, stopping after `limit` accepted rows when given.
    fn run_scan(
        &mut self,
        table: usize,
        plan: &ScanPlan,
        limit: Option<u64>,
    ) -> Result<ScanOutput, SqlError>;
    /// Runs `plan`, whose rows come in group order, until `stop` says so. A
    /// profile without the early stop reads every row.
    fn run_scan_until_group(
        &mut self,
        table: usize,
        plan: &ScanPlan,
        stop: &GroupStop,
    ) -> Result<ScanOutput, SqlError> {
        let _ = stop;
        self.run_scan(table, plan, None)
    }
    /// Outer rows per batch of a nested loop join: 1 runs one inner scan per
    /// outer row; more makes YugabyteDB's Batched Nested Loop (`= ANY` of a
    /// batch of keys). Only the yb profile batches.
    fn join_batch_size(&self) -> usize {
        1
    }
    /// A row's length as a minimal tuple (what a Memoize or a hash table
    /// holds): a 16-byte header, then the data as the heap lays it out.
    fn minimal_tuple_len(
        &self,
        row: &[crate::value::Value],
        types: &[crate::value::SqlType],
    ) -> u64 {
        let _ = types;
        16 + 8 * row.len() as u64
    }
    /// A nested loop is about to rerun its inner scan once per outer row
    /// (`true`), or is done (`false`): pins a scan keeps across rescans stay.
    fn rescanning(&mut self, _on: bool) {}
    /// The statement's join hints, on a profile that follows them.
    fn join_hints(&self) -> &[crate::sql::hints::Hint] {
        &[]
    }
    /// Whether `q` is the statement's own top-level query, which a profile
    /// with parallel query may read under a Gather (asked once: a second
    /// call, or any other query, is refused).
    fn take_gather(&mut self, _q: &crate::sql::ast::Select) -> bool {
        false
    }
    /// Records a detail event in the trace (if the profile keeps one).
    fn trace_detail(&mut self, _event: impl FnOnce() -> crate::trace::Event) {}
    /// Notices for EXPLAIN options this profile accepts but ignores.
    fn explain_notices(&self, options: &ExplainOptions) -> Vec<String>;
    /// Whether this is the YugabyteDB profile (EXPLAIN's SETTINGS refuses
    /// its `yb_*` settings, whose EXPLAIN flags IndexLab does not know).
    fn is_yugabyte(&self) -> bool {
        false
    }
    /// Fires the AFTER triggers a statement queued (on pg, the rechecks of
    /// DEFERRABLE unique constraints not deferred): each constraint's name
    /// and how many rows it checked, for EXPLAIN ANALYZE's `Trigger` lines.
    fn fire_after_triggers(&mut self) -> Result<Vec<(String, u64)>, SqlError> {
        Ok(Vec::new())
    }
    /// Lines this profile adds to EXPLAIN's summary (after Execution Time).
    fn summary_lines(&self, _options: &ExplainOptions) -> Vec<String> {
        Vec::new()
    }

    /// A call that reads the catalog (`pg_relation_size('t')`, `'t'::regclass`)
    /// for relation `name` (and a fork name, the second argument).
    fn catalog_call(
        &self,
        func: crate::sql::functions::ScalarFunc,
        _name: &str,
        _fork: Option<&str>,
    ) -> Result<crate::value::Value, SqlError> {
        Err(crate::sql::error::unsupported(format!(
            "{}() on YugabyteDB (its tables are DocDB's SST files, not PostgreSQL's pages)",
            func.name()
        )))
    }

    /// The rows of a storage-inspection function (`heap_page_items(
    /// get_raw_page('t', 0))`, `bt_metap('t_pkey')`) for `relation` and,
    /// where it takes one, `block`.
    fn inspect(
        &self,
        func: crate::sql::inspect::InspectFunc,
        _relation: &str,
        _block: Option<i64>,
        _raw_page: bool,
    ) -> Result<super::catalog_relation::CatalogRelation, SqlError> {
        Err(crate::sql::error::unsupported(format!(
            "{}() on YugabyteDB (a PostgreSQL extension reading PostgreSQL's pages; \
             YugabyteDB keeps tables in DocDB)",
            func.name()
        )))
    }

    /// The system catalog `name` (`pg_class`) as rows, if this profile
    /// answers queries of it ([`super::catalog_relation`]).
    fn catalog_relation(
        &self,
        _name: &str,
    ) -> Result<Option<super::catalog_relation::CatalogRelation>, SqlError> {
        Ok(None)
    }

    /// Runs an INSERT, UPDATE or DELETE (for EXPLAIN ANALYZE of one).
    fn execute_dml(
        &mut self,
        stmt: &crate::sql::ast::Statement,
    ) -> Result<crate::profile::Outcome, SqlError>;

    /// Runs `INSERT … ON CONFLICT` when `execute`, or only chooses its
    /// arbiters (EXPLAIN without ANALYZE): [`super::on_conflict::run`] over
    /// the profile's writes.
    fn insert_on_conflict(
        &mut self,
        _stmt: &super::on_conflict::ConflictInsert,
        _execute: bool,
    ) -> Result<(crate::profile::Outcome, super::on_conflict::ConflictReport), SqlError> {
        Err(crate::sql::error::unsupported("INSERT … ON CONFLICT here"))
    }

    /// Where the executor leaves the plan node of the rows a DML statement
    /// read (its scan, or its VALUES or generate_series), for EXPLAIN.
    fn dml_source(&mut self) -> &mut Option<PlanNode>;

    /// ANALYZE read `rows` (the live rows of `table`, in the order it read
    /// them): the profile records what PostgreSQL writes in pg_class and
    /// pg_statistic then (pg).
    fn analyzed(&mut self, _table: usize, _rows: &[super::row::Row]) {}

    /// Rows the profile's scans have offered since it started: bounds the
    /// work of a query that reruns its scans per outer row.
    fn rows_examined(&self) -> u64;

    /// The statement's buffer counters so far (the pg profile's pool).
    fn statement_buffers(&self) -> crate::buffer_pool::BufferStats {
        crate::buffer_pool::BufferStats::default()
    }

    /// The statement's WAL so far: records, full-page images, bytes.
    fn statement_wal(&self) -> (u64, u64, u64) {
        (0, 0, 0)
    }

    /// The columns of the rows a scan of `plan` gives: the table's, then its
    /// system columns when the query names one (pg's `ctid`).
    fn scan_scope(&self, table: usize, plan: &ScanPlan) -> Scope {
        let mut scope = self.table_scope(table);
        if plan.system_columns {
            let t = self.planner_info(table);
            scope
                .columns
                .extend(t.system.into_iter().map(|(c, ty)| (t.name.clone(), c, ty)));
        }
        scope
    }

    /// Whether column `column` of `table` was declared `varchar(n)`: its
    /// type is text to the executor, but PostgreSQL names it `character
    /// varying` in its messages (a set operation's type mismatch).
    fn is_varchar(&self, _table: usize, _column: &str) -> bool {
        false
    }

    /// The table's columns as expressions name them.
    fn table_scope(&self, table: usize) -> Scope {
        let t = self.planner_info(table);
        Scope {
            columns: t
                .columns
                .into_iter()
                .map(|(c, ty)| (t.name.clone(), c, ty))
                .collect(),
        }
    }
}
