//! The PostgreSQL profile: runs parsed statements on heaps and B+trees through the
//! shared buffer pool, and answers with rows, EXPLAIN text and counters.

use super::catalog::Catalog;
use super::index_entry::Prepared;
use super::io::Io;
use crate::buffer_pool::{BufferPool, BufferStats, RelId, ReplacementPolicy};
use crate::clock::{Clock, CostModel};
use crate::exec::Executor;
use crate::metrics::{Metrics, RelationMetrics};
use crate::profile::{Outcome, ScenarioEngine, SettingChange};
use crate::rng::Rng;
use crate::settings::{SettingError, Settings};
use crate::sql::ast::{Statement, TxnCommand};
use crate::sql::error::{ErrorKind, SqlError};
use crate::trace::{Trace, TraceBudget};

pub struct PgEngine {
    pub(super) settings: Settings,
    pub(super) io: Io,
    pub(super) catalog: Catalog,
    pub(super) rng: Rng,
    /// Counters of the statement being run.
    pub(super) metrics: Metrics,
    /// Buffer counters of the statement being run, by relation id.
    pub(super) rel_stats: Vec<BufferStats>,
    pub(super) wal: super::wal::Wal,
    /// Reused key buffer for index inserts (saves an allocation per entry).
    pub(super) key_buf: Vec<u8>,
    /// One reused key buffer per index of the table being inserted into.
    pub(super) key_bufs: Vec<(Vec<u8>, Prepared)>,
    /// Start of the statement being run (`now()`).
    pub(super) statement_start_us: i64,
    /// The plan node of the rows the last DML statement read (for EXPLAIN).
    pub(super) dml_source: Option<crate::exec::PlanNode>,
    /// The transaction block the session is in, if any.
    pub(super) transaction: crate::exec::utility::Transaction,
    /// Transaction ids: the next one, and the running transaction's.
    pub(super) xact: super::xact::Xact,
    /// Rechecks of DEFERRABLE unique constraints, and SET CONSTRAINTS.
    pub(super) deferred_unique: super::deferred_unique::DeferredUnique,
    /// Rows every scan has offered so far: what bounds a query that reruns
    /// its scans once per outer row (a LATERAL item, a correlated subquery).
    pub(super) rows_examined: u64,
    /// Notices the statement's storage work raised (a B-tree page that
    /// PostgreSQL would have deduplicated), added to its outcome.
    pub(super) storage_notices: Vec<String>,
    /// The statement's join hints (`NestLoop(a b)`, `Leading((a b))`), as
    /// pg_hint_plan applies them to the planner's choice.
    pub(crate) join_hints: Vec<crate::sql::hints::Hint>,
    /// The statement's own SELECT, while its table may still be read in
    /// parallel under a Gather (`QueryEngine::take_gather`).
    pub(super) gather_candidate: Option<crate::sql::ast::Select>,
    /// While a nested loop reruns its inner scan: the visibility-map page
    /// that scan keeps pinned between loops (relation, page), once read.
    pub(super) rescan_vm: Option<Option<(u32, crate::storage::PageNo)>>,
}

fn setting_error(e: impl std::fmt::Display) -> SqlError {
    SqlError::new(ErrorKind::Setting, e.to_string())
}

/// The buffer pool the settings ask for.
fn make_pool(settings: &Settings) -> Result<BufferPool, SqlError> {
    let page_size = settings.get_bytes("page_size")? as u32;
    let bytes = settings.get_bytes("shared_buffers")?;
    let policy = match settings.get_enum("buffer_replacement")? {
        "lru" => ReplacementPolicy::Lru,
        _ => ReplacementPolicy::ClockSweep,
    };
    let frames = BufferPool::frames_for(bytes, page_size);
    BufferPool::new(frames, page_size, policy)
        .map_err(|e| SqlError::new(ErrorKind::Setting, e.to_string()))
}

pub fn cost_model(settings: &Settings) -> Result<CostModel, SqlError> {
    let us =
        |name: &str| -> Result<f64, SqlError> { Ok(settings.get_nanos(name)? as f64 / 1000.0) };
    Ok(CostModel {
        cache_hit_us: us("cost_cache_hit")?,
        device_read_us: us("cost_device_read")?,
        device_write_us: us("cost_device_write")?,
        cpu_row_us: us("cost_cpu_row")?,
        cpu_compare_us: us("cost_cpu_comparison")?,
        cpu_operator_us: us("cost_cpu_operator")?,
        request_overhead_us: us("cost_request_overhead")?,
        request_op_us: us("cost_request_op")?,
    })
}

impl PgEngine {
    pub fn new(settings: Settings) -> Result<Self, SqlError> {
        let pool = make_pool(&settings)?;
        let seed = settings.get_int("seed").map_err(setting_error)?;
        Ok(PgEngine {
            io: Io {
                pool,
                clock: Clock::default(),
                cost: cost_model(&settings)?,
                trace: Trace::new(TraceBudget::from_settings(&settings)),
                names: Vec::new(),
            },
            settings,
            catalog: Catalog::default(),
            rng: Rng::new(seed as u64),
            metrics: Metrics::default(),
            rel_stats: Vec::new(),
            key_buf: Vec::with_capacity(64),
            key_bufs: Vec::new(),
            wal: super::wal::Wal::default(),
            statement_start_us: 0,
            dml_source: None,
            transaction: crate::exec::utility::Transaction::default(),
            deferred_unique: Default::default(),
            rows_examined: 0,
            storage_notices: Vec::new(),
            join_hints: Vec::new(),
            gather_candidate: None,
            rescan_vm: None,
            xact: super::xact::Xact::default(),
        })
    }

    pub fn clock(&self) -> &Clock {
        &self.io.clock
    }

    pub fn buffer_pool(&self) -> &BufferPool {
        &self.io.pool
    }

    pub fn trace(&self) -> &Trace {
        &self.io.trace
    }

    pub fn trace_mut(&mut self) -> &mut Trace {
        &mut self.io.trace
    }

    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// Adds a relation's buffer counters to the statement's metrics.
    /// Adds a relation's buffer counters to the statement's (cheap: called per row;
    /// turned into named metrics once, at the end of the statement).
    pub(super) fn count(&mut self, rel: RelId, s: &BufferStats) {
        let i = rel as usize;
        if self.rel_stats.len() <= i {
            self.rel_stats.resize(i + 1, BufferStats::default());
        }
        self.rel_stats[i].add(s);
    }

    /// Runs one statement; outside a transaction block its statistics are
    /// then sent ([`super::pgstat`]).
    pub fn execute(&mut self, stmt: &Statement) -> Result<Outcome, SqlError> {
        if let Some(e) = self.transaction.ignored(stmt) {
            return Err(e);
        }
        // ROLLBACK, or COMMIT of a block where a statement failed.
        let rolls_back = matches!(stmt, Statement::Transaction(TxnCommand::Rollback))
            || (matches!(stmt, Statement::Transaction(TxnCommand::Commit))
                && self.transaction.failed);
        // Asked before it runs: a DROP's relations are gone after it.
        let changes_catalog = self.changes_catalog(stmt);
        let locks = self.locks_exclusively(stmt);
        let result = self.run_statement(stmt);
        let raised = std::mem::take(&mut self.storage_notices);
        let result = result.map(|mut out| {
            out.notices.extend(raised);
            out
        });
        // The statement's AFTER triggers: rechecks of DEFERRABLE unique
        // constraints, all of them when the transaction commits.
        let commits = self.transaction.start_us.is_none() && !rolls_back;
        let result = match result {
            Ok(out) if commits || !self.deferred_unique_idle() => {
                let fired = self.fire_rechecks(commits);
                self.deferred_unique.take_fired();
                fired.map(|()| out)
            }
            other => other,
        };
        if self.transaction.start_us.is_none() {
            self.deferred_unique.end_transaction();
        }
        if result.is_err() && locks {
            // The lock was logged for standbys, which took an id.
            self.xact.assign();
        }
        if result.is_ok() && changes_catalog {
            self.xact.assign();
            self.xact.command_id();
        }
        self.xact.statement_done();
        if self.transaction.start_us.is_some() {
            self.transaction.failed |= result.is_err();
        } else {
            let committed = result.is_ok() && !rolls_back;
            if let (false, Some(xid)) = (committed, self.xact.current()) {
                self.abort_rows(xid);
            }
            self.send_statistics(committed);
            self.xact.end(committed);
        }
        result
    }

    /// Whether ROLLBACK can undo the open transaction (it changed rows only).
    pub fn rollback_undoes_all(&self) -> bool {
        !self.transaction.wrote_catalog
    }

    /// A statement was rejected before it ran: a transaction block fails.
    pub fn statement_failed(&mut self) {
        if self.transaction.start_us.is_some() {
            self.transaction.failed = true;
        }
    }

    /// Transaction `xid` aborted: what it wrote is dead and what it deleted
    /// lives again, in every table ([`super::heap::Heap::abort`]). The space
    /// and index entries stay until pruning or VACUUM, as in PostgreSQL.
    fn abort_rows(&mut self, xid: super::heap::TransactionId) {
        for t in self.catalog.tables.iter_mut().flatten() {
            t.heap.abort(xid);
        }
    }

    /// Whether `stmt` takes an ACCESS EXCLUSIVE lock on an existing relation
    /// before it can fail: PostgreSQL logs such a lock for hot standbys
    /// (`LogAccessExclusiveLockPrepare`), which gives the transaction an id
    /// even when the statement then fails (`CLUSTER t USING no_such_index`).
    fn locks_exclusively(&self, stmt: &Statement) -> bool {
        let table = |n: &String| self.catalog.table_id(n).is_ok();
        match stmt {
            Statement::Cluster { table: Some(t), .. } => table(t),
            Statement::Vacuum(v) if v.full => v.tables.iter().any(table),
            Statement::Truncate { tables, .. } => tables.iter().any(table),
            Statement::AlterTable { table: t, .. } => table(t),
            _ => false,
        }
    }

    /// Whether `stmt` wrote PostgreSQL's catalog, which takes a transaction
    /// id: DDL, and ANALYZE of a table with rows (its statistics go into
    /// `pg_statistic`; VACUUM updates `pg_class` in place and takes none).
    fn changes_catalog(&self, stmt: &Statement) -> bool {
        let analyzes_rows = |tables: &[String]| {
            let ids = self.tables_named(tables).unwrap_or_default();
            ids.iter()
                .any(|&t| self.catalog.table(t).heap.live_rows() > 0)
        };
        let table_exists = |n: &String| self.catalog.table_id(n).is_ok();
        let index_exists = |n: &String| self.catalog.index_named(n).is_some();
        match stmt {
            // `IF EXISTS` of nothing, `IF NOT EXISTS` of something: no change.
            Statement::DropTable { names, .. } => names.iter().any(table_exists),
            Statement::DropIndex { names, .. } => names.iter().any(index_exists),
            Statement::DropStatistics { names, .. } => {
                names.iter().any(|n| self.catalog.statistics.exists(n))
            }
            Statement::CreateStatistics(s) => !self.catalog.statistics.exists(&s.name),
            Statement::CreateSequence(s) => !self.catalog.name_taken(&s.name),
            Statement::DropSequence { names, .. } => {
                names.iter().any(|n| self.catalog.sequences.exists(n))
            }
            Statement::CreateExtension { name, .. } => {
                !self.catalog.extensions.iter().any(|e| e == name)
            }
            Statement::CreateSchema { name, .. } => !self.catalog.schemas.exists(name),
            Statement::DropSchema { names, .. } => {
                names.iter().any(|n| self.catalog.schemas.exists(n))
            }
            Statement::CreateTable(_)
            | Statement::CreateIndex(_)
            | Statement::AlterTable { .. }
            | Statement::Truncate { .. }
            | Statement::CreateTableAs { .. }
            | Statement::Cluster { .. }
            | Statement::Reindex { .. } => true,
            // VACUUM FULL gives its tables new files in pg_class.
            Statement::Vacuum(v) if v.full => true,
            Statement::Analyze { tables, .. } => analyzes_rows(tables),
            Statement::Vacuum(v) => v.analyze && analyzes_rows(&v.tables),
            _ => false,
        }
    }

    fn run_statement(&mut self, stmt: &Statement) -> Result<Outcome, SqlError> {
        self.transaction.will_run(stmt);
        self.statement_start_us = self.transaction.now(self.io.clock.timestamp());
        self.gather_candidate = match stmt {
            Statement::Select(q) => Some(q),
            Statement::Explain { statement, .. } => match statement.as_ref() {
                Statement::Select(q) => Some(q),
                _ => None,
            },
            _ => None,
        }
        .filter(|q| crate::sql::plan::parallel::gatherable(q))
        .cloned();
        match stmt {
            Statement::CreateTable(t) => self.create_table(t),
            Statement::CreateIndex(i) => self.create_index(i),
            Statement::AlterTable {
                table,
                if_exists,
                actions,
            } => self.alter_table(table, *if_exists, actions),
            Statement::DropTable { names, if_exists } => self.drop_tables(names, *if_exists),
            Statement::DropIndex { names, if_exists } => self.drop_indexes(names, *if_exists),
            Statement::Truncate {
                tables,
                restart_identity,
            } => self.truncate(tables, *restart_identity),
            Statement::CreateTableAs {
                name,
                columns,
                query,
                if_not_exists,
            } => crate::exec::utility::create_table_as(
                self,
                (name, columns, query, *if_not_exists),
                |e, t| e.create_table(t),
                |e, t, q| {
                    let out = e.insert(t, None, q, &[]);
                    // CREATE TABLE AS writes with TABLE_INSERT_SKIP_FSM: no
                    // free space map until something else records a page.
                    if let Ok(id) = e.catalog.table_id(t) {
                        e.catalog.table_mut(id).fsm_blocks = 0;
                    }
                    out
                },
            ),
            // The script's session runs these (scenario::prepared).
            Statement::Prepare { .. }
            | Statement::Execute { .. }
            | Statement::Deallocate { .. } => Err(crate::sql::error::unsupported(
                "PREPARE and EXECUTE outside a script",
            )),
            Statement::CreateStatistics(s) => {
                let name = self.catalog.schemas.for_create(&s.name)?;
                let s = &crate::sql::ast::CreateStatistics { name, ..s.clone() };
                let id = self.catalog.table_id(&s.table)?;
                let t = self.catalog.tables[id]
                    .as_ref()
                    .expect("table_id finds a table");
                let kinds = crate::exec::statistics_objects::POSTGRESQL_15_KINDS;
                self.catalog
                    .statistics
                    .create(s, id, &t.columns.clone(), kinds)
            }
            Statement::DropStatistics { names, if_exists } => {
                self.catalog.statistics.drop(names, *if_exists)
            }
            Statement::CreateSequence(s) => {
                let name = self.catalog.schemas.for_create(&s.name)?;
                let s = &crate::sql::ast::CreateSequence { name, ..s.clone() };
                let taken = self.catalog.name_taken(&s.name);
                self.catalog.sequences.create(s, taken)
            }
            Statement::DropSequence { names, if_exists } => {
                self.catalog.sequences.drop(names, *if_exists)
            }
            Statement::SetConstraints { names, deferred } => {
                self.set_constraints(names.as_deref(), *deferred)
            }
            Statement::Transaction(cmd) => {
                let clock = self.io.clock.timestamp();
                self.transaction.command(*cmd, clock)
            }
            Statement::CreateSchema {
                name,
                if_not_exists,
            } => self.catalog.schemas.create(name, *if_not_exists),
            Statement::DropSchema {
                names,
                if_exists,
                cascade,
            } => {
                let tables: Vec<String> = self
                    .catalog
                    .tables
                    .iter()
                    .flatten()
                    .map(|t| t.name.clone())
                    .collect();
                let sequences: Vec<String> =
                    self.catalog.sequences.names().map(String::from).collect();
                let held = (tables.as_slice(), sequences.as_slice());
                let drop = self
                    .catalog
                    .schemas
                    .drop(names, *if_exists, *cascade, held)?;
                if !drop.tables.is_empty() {
                    self.drop_tables(&drop.tables, false)?;
                }
                if !drop.sequences.is_empty() {
                    self.catalog.sequences.drop(&drop.sequences, false)?;
                }
                let mut out = Outcome::tag("DROP SCHEMA");
                out.notices = drop.notices;
                Ok(out)
            }
            Statement::CreateExtension {
                name,
                if_not_exists,
            } => crate::exec::utility::create_extension(
                &mut self.catalog.extensions,
                name,
                *if_not_exists,
            ),
            Statement::Insert { .. } | Statement::Update { .. } | Statement::Delete { .. } => {
                crate::exec::QueryEngine::execute_dml(self, stmt)
            }
            Statement::Select(q) => self.select(q),
            Statement::Explain { options, statement } => {
                crate::exec::explain::explain(self, options, statement)
            }
            Statement::Vacuum(v) => self.vacuum(v),
            Statement::Cluster { table, index } => self.cluster(table.as_deref(), index.as_deref()),
            Statement::Reindex { target, name, .. } => self.reindex(*target, name),
            Statement::Analyze { tables, .. } => {
                let ids = self.tables_named(tables)?;
                crate::exec::utility::analyze(self, &ids)?;
                Ok(Outcome::tag("ANALYZE"))
            }
            Statement::Set { name, value } => self.change_settings(SettingChange::Set(name, value)),
            Statement::Reset { name } => {
                self.change_settings(SettingChange::Reset(name.as_deref()))
            }
            Statement::Show { name } => {
                let v = self.settings.show(name)?;
                Ok(Outcome::single(name, v))
            }
        }
    }

    /// SET, RESET or RESET ALL, then what depends on settings is re-read.
    fn change_settings(&mut self, change: SettingChange) -> Result<Outcome, SqlError> {
        let out = crate::profile::change_settings(&mut self.settings, Self::PROFILE, change)?;
        self.settings_changed()?;
        let path = self
            .settings
            .show("search_path")
            .map_err(SettingError::without_hint)?;
        self.catalog.schemas.set_search_path(&path);
        let path = self.catalog.schemas.path().map(String::from).collect();
        self.catalog.sequences.set_path(path);
        Ok(out)
    }

    /// Sets a setting for a hint's duration (no notice: the hint asked for it).
    pub fn set_quietly(&mut self, name: &str, value: &str) -> Result<(), SqlError> {
        self.settings
            .set(name, value)
            .map_err(SettingError::without_hint)?;
        self.settings_changed()
    }

    /// Cost constants apply at once; pool geometry only to a fresh engine.
    fn settings_changed(&mut self) -> Result<(), SqlError> {
        self.io.cost = cost_model(&self.settings)?;
        Ok(())
    }

    /// `\checkpoint`: writes every dirty buffer back.
    pub fn checkpoint(&mut self) -> Outcome {
        let written = self.io.pool.checkpoint();
        self.wal.checkpoint();
        let bytes = written.len() as f64 * self.io.pool.page_size() as f64;
        self.io
            .clock
            .advance_us(written.len() as f64 * self.io.cost.device_write_us);
        self.metrics.add("shared_written", written.len() as f64);
        self.metrics.add("io_write_bytes", bytes);
        self.io.trace.push(crate::trace::Event::Checkpoint {
            pages_written: written.len() as u32,
        });
        Outcome::tag("CHECKPOINT")
    }

    /// Hands over the statement's counters and starts new ones.
    pub fn take_metrics(&mut self) -> (Metrics, RelationMetrics) {
        let mut metrics = std::mem::take(&mut self.metrics);
        let wal = self.wal.take();
        metrics.add("wal_records", wal.records as f64);
        metrics.add("wal_fpi", wal.fpi as f64);
        metrics.add("wal_bytes", wal.bytes as f64);
        let mut relations = RelationMetrics::default();
        for (rel, s) in std::mem::take(&mut self.rel_stats).iter().enumerate() {
            let name = self.io.names.get(rel).map_or("?", |n| &**n);
            for (metric, v) in s.metrics() {
                metrics.add(metric, v as f64);
                relations.add(name, metric, v as f64);
            }
        }
        (metrics, relations)
    }
}
