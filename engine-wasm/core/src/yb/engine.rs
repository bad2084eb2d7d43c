//! The YugabyteDB profile: tables and indexes as DocDB documents in tablets, one
//! LSM tree each, on tablet servers that each have a block cache.

use super::catalog::YbCatalog;
use super::doc_key::HybridTime;
use super::stats::RelStats;
use super::tablet::Tablet;
use crate::clock::{Clock, CostModel};
use crate::exec::Executor;
use crate::lsm::{
    BlockCache, BloomKey, CompactionOptions, CompactionStyle, LsmOptions, TableOptions,
};
use crate::metrics::{Metrics, RelationMetrics};
use crate::profile::{Outcome, ScenarioEngine, SettingChange};
use crate::rng::Rng;
use crate::settings::{SettingError, Settings};
use crate::sql::ast::Statement;
use crate::sql::error::{ErrorKind, SqlError};
use crate::trace::{RelName, Trace, TraceBudget};

pub struct YbEngine {
    pub(super) settings: Settings,
    pub(super) clock: Clock,
    pub(super) cost: CostModel,
    pub(super) rng: Rng,
    pub(super) trace: Trace,
    /// Rows every scan has offered so far (see `PgEngine::rows_examined`).
    pub(super) rows_examined: u64,
    pub(super) catalog: YbCatalog,
    pub(super) tablets: Vec<Tablet>,
    /// One block cache per tablet server.
    pub(super) caches: Vec<BlockCache>,
    /// Each cache's bytes as last recorded in the trace.
    pub(super) cache_seen: Vec<u64>,
    /// Relation names by metrics id.
    pub(super) names: Vec<RelName>,
    /// Counters of the statement being run, by relation id.
    pub(super) stats: Vec<RelStats>,
    pub(super) metrics: Metrics,
    /// The plan node of the rows the last DML statement read (for EXPLAIN).
    pub(super) dml_source: Option<crate::exec::PlanNode>,
    /// The transaction block the session is in, if any.
    pub(super) transaction: crate::exec::utility::Transaction,
    /// The records the running transaction wrote, cleaned up if it aborts.
    pub(super) provisional: super::provisional::Provisional,
    pub(super) statement_start_us: i64,
    pub(super) last_ht: HybridTime,
    /// Tablets the statement wrote to: (tablet, operations, bytes).
    pub(super) written: Vec<(usize, u64, u64)>,
    /// While UPDATE/DELETE look for their rows: each row's document key (the
    /// scan's row locator indexes it).
    pub(super) scan_keys: Option<Vec<Vec<u8>>>,
    /// The executor offered the next scan its aggregates (pushdown).
    pub(super) aggregate_offered: bool,
    /// The join hints of the statement running (pg_hint_plan's, which
    /// YugabyteDB bundles): its join planner follows them.
    pub(crate) join_hints: Vec<crate::sql::hints::Hint>,
    /// This statement's counters per tablet (seeks, nexts, prevs, inserts), for
    /// the per-replica view.
    pub(super) per_tablet: Vec<[u64; 4]>,
    /// Buffers reused by every row written (a load writes millions).
    pub(super) write_bufs: WriteBuffers,
    pub(super) write_settings: WriteSettings,
}

/// The settings every written row needs, read once per change rather than
/// looked up by name per row.
#[derive(Debug, Clone, Copy)]
pub(super) struct WriteSettings {
    /// Replicas every write lands on (`replication_factor`).
    pub replicas: u64,
    /// Rows as one packed value (`yb_enable_packed_row`).
    pub packed_rows: bool,
}

impl WriteSettings {
    fn of(settings: &Settings) -> Self {
        WriteSettings {
            replicas: settings.replication_factor().max(1) as u64,
            packed_rows: settings.yb_enable_packed_row(),
        }
    }
}

/// Scratch space of the write path, kept between rows so writes do not allocate.
#[derive(Default)]
pub(super) struct WriteBuffers {
    pub probe: crate::lsm::ReadOptions,
    /// The RocksDB entry being written: key and value.
    pub entry: BufferPair,
    /// A row's document key and packed value.
    pub row: BufferPair,
    /// An index entry's document key and value.
    pub index: BufferPair,
}

/// Two buffers used together: a key and its value.
pub(super) type BufferPair = (Vec<u8>, Vec<u8>);

fn setting_error(e: impl std::fmt::Display) -> SqlError {
    SqlError::new(ErrorKind::Setting, e.to_string())
}

impl YbEngine {
    pub fn new(settings: Settings) -> Result<Self, SqlError> {
        let servers = settings.get_int("tablet_servers").map_err(setting_error)? as usize;
        let cache = settings
            .get_bytes("block_cache_size")
            .map_err(setting_error)?;
        let seed = settings.get_int("seed").map_err(setting_error)?;
        Ok(YbEngine {
            clock: Clock::default(),
            cost: crate::pg::cost_model(&settings)?,
            rng: Rng::new(seed as u64),
            trace: Trace::new(TraceBudget::from_settings(&settings)),
            catalog: YbCatalog::default(),
            tablets: Vec::new(),
            caches: (0..servers.max(1))
                .map(|_| BlockCache::new(cache))
                .collect(),
            cache_seen: vec![0; servers.max(1)],
            names: Vec::new(),
            stats: Vec::new(),
            metrics: Metrics::default(),
            statement_start_us: 0,
            dml_source: None,
            transaction: crate::exec::utility::Transaction::default(),
            provisional: Default::default(),
            last_ht: HybridTime {
                micros: 0,
                logical: 0,
            },
            written: Vec::new(),
            per_tablet: Vec::new(),
            scan_keys: None,
            aggregate_offered: false,
            join_hints: Vec::new(),
            rows_examined: 0,
            write_bufs: WriteBuffers::default(),
            write_settings: WriteSettings::of(&settings),
            settings,
        })
    }

    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    pub fn trace(&self) -> &Trace {
        &self.trace
    }

    pub fn trace_mut(&mut self) -> &mut Trace {
        &mut self.trace
    }

    pub fn clock(&self) -> &Clock {
        &self.clock
    }

    pub fn tablets(&self) -> &[Tablet] {
        &self.tablets
    }

    /// The LSM options the settings ask for (one tree per tablet).
    pub(super) fn lsm_options(&self, owner: u32) -> Result<LsmOptions, SqlError> {
        let s = &self.settings;
        let bytes = |n: &str| s.get_bytes(n);
        let int = |n: &str| s.get_int(n);
        let style = match s.get_enum("compaction_style")? {
            "leveled" => CompactionStyle::Leveled,
            _ => CompactionStyle::Universal,
        };
        Ok(LsmOptions {
            owner,
            write_buffer_size: bytes("write_buffer_size")?,
            table: TableOptions {
                block_size: bytes("block_size")? as u32,
                index_block_size: bytes("index_block_size")? as u32,
                filter_block_size: bytes("filter_block_size")? as u32,
                bloom_bits_per_key: int("bloom_bits_per_key")? as u32,
                // DocDB's filter hashes the document key, not the hybrid time.
                bloom_key: BloomKey::new(super::doc_key::doc_key_of),
                tombstone_value: Some(super::packing::is_tombstone),
                ..TableOptions::default()
            },
            compaction: CompactionOptions {
                style,
                level0_file_num_compaction_trigger: int("level0_file_num_compaction_trigger")?
                    as u32,
                max_bytes_for_level_base: bytes("max_bytes_for_level_base")?,
                max_bytes_for_level_multiplier: s.get_float("max_bytes_for_level_multiplier")?,
                target_file_size_base: bytes("target_file_size_base")?,
                universal_size_ratio: int("universal_compaction_size_ratio")? as u32,
                universal_min_merge_width: int("universal_compaction_min_merge_width")? as u32,
                universal_max_size_amplification_percent: int(
                    "universal_compaction_max_size_amplification_percent",
                )? as u32,
                ..CompactionOptions::default()
            },
            auto_flush: true,
            auto_compact: true,
        })
    }

    /// The counters of relation `rel` for this statement.
    pub(super) fn rel_stats(&mut self, rel: usize) -> &mut RelStats {
        rel_entry(&mut self.stats, rel)
    }

    /// A new hybrid time, after every earlier one (the clock, plus a logical
    /// counter for writes in the same microsecond).
    pub(super) fn next_ht(&mut self) -> HybridTime {
        let micros = self.clock.timestamp().max(0) as u64;
        self.last_ht = if micros > self.last_ht.micros {
            HybridTime { micros, logical: 0 }
        } else {
            HybridTime {
                micros: self.last_ht.micros,
                logical: self.last_ht.logical.wrapping_add(1),
            }
        };
        self.last_ht
    }

    pub fn execute(&mut self, stmt: &Statement) -> Result<Outcome, SqlError> {
        if let Some(e) = self.transaction.ignored(stmt) {
            return Err(e);
        }
        let rolls_back = self.rolls_back(stmt);
        self.transaction.will_run(stmt);
        self.statement_start_us = self.transaction.now(self.clock.timestamp());
        let out = match stmt {
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
                |e, t, q| e.insert(t, None, q, &[]),
            ),
            // The script's session runs these (scenario::prepared).
            Statement::Prepare { .. }
            | Statement::Execute { .. }
            | Statement::Deallocate { .. } => Err(crate::sql::error::unsupported(
                "PREPARE and EXECUTE outside a script",
            )),
            Statement::SetConstraints { names, .. } => self.set_constraints(names.as_deref()),
            Statement::CreateStatistics(s) => {
                let name = self.catalog.schemas.for_create(&s.name)?;
                let s = &crate::sql::ast::CreateStatistics { name, ..s.clone() };
                let id = self.catalog.table_id(&s.table)?;
                let columns = self.catalog.table(id).columns.clone();
                let kinds = crate::exec::statistics_objects::POSTGRESQL_11_KINDS;
                self.catalog.statistics.create(s, id, &columns, kinds)
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
            Statement::Transaction(cmd) => {
                let clock = self.clock.timestamp();
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
            Statement::Analyze { tables, .. } => self.analyze(tables),
            // DocDB keeps a table's rows in primary key order, and an LSM
            // never needs rewriting to drop dead rows: compaction does it.
            Statement::Cluster { .. } | Statement::Reindex { .. } => {
                Err(crate::sql::error::unsupported(format!(
                    "{} on YugabyteDB (its tables and indexes are LSM trees, kept in key \
                     order and rewritten by compaction)",
                    stmt.tag()
                )))
            }
            Statement::Set { name, value } => self.change_settings(SettingChange::Set(name, value)),
            Statement::Reset { name } => {
                self.change_settings(SettingChange::Reset(name.as_deref()))
            }
            Statement::Show { name } => {
                let v = self.settings.show(name)?;
                Ok(Outcome::single(name, v))
            }
        };
        self.finish_writes();
        let out = self.end_statement(out, rolls_back);
        self.drain_events();
        out
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

    /// Re-reads what is kept out of the settings: the cost model, and what the
    /// write path would otherwise look up by name for every row.
    fn settings_changed(&mut self) -> Result<(), SqlError> {
        self.cost = crate::pg::cost_model(&self.settings)?;
        self.write_settings = WriteSettings::of(&self.settings);
        Ok(())
    }

    /// Write requests: PgGate flushes the statement's buffered writes in rounds;
    /// each tablet written to gets its operations in requests of at most
    /// `ysql_request_limit`, the tablets of a round in parallel, each leader
    /// replicating to its followers.
    fn finish_writes(&mut self) {
        let limit = self.request_limit() as u64;
        let mut left = std::mem::take(&mut self.written);
        while !left.is_empty() {
            let mut calls = Vec::with_capacity(left.len());
            for (tablet, ops, bytes) in &mut left {
                let n = (*ops).min(limit);
                // The request carries its share of the operations' bytes.
                let size = *bytes * n / (*ops).max(1);
                *ops -= n;
                *bytes -= size;
                let rel = self.tablets[*tablet].rel;
                self.rel_stats(rel).write_requests += 1;
                let call = crate::net::Call {
                    write: true,
                    leader: self.leader(*tablet),
                    tablet: *tablet as u32,
                    ops: n as u32,
                    request_bytes: size,
                    rows: 0,
                    response_bytes: 0,
                    server_us: self.rpc_server_us(n as usize),
                };
                calls.push((rel, call));
            }
            self.send_round(&calls);
            left.retain(|(_, ops, _)| *ops > 0);
        }
    }

    /// Hands over the statement's counters and starts new ones.
    pub fn take_metrics(&mut self) -> (Metrics, RelationMetrics) {
        let mut metrics = std::mem::take(&mut self.metrics);
        let mut relations = RelationMetrics {
            replicas: self.take_replicas(),
            ..RelationMetrics::default()
        };
        let mut add = |rel: usize, name: &'static str, v: f64, names: &[RelName]| {
            let rname = names.get(rel).map_or("?", |n| &**n);
            metrics.add(name, v);
            relations.add(rname, name, v);
        };
        for (rel, s) in std::mem::take(&mut self.stats).iter().enumerate() {
            for (name, v) in s.metrics() {
                add(rel, name, v, &self.names);
            }
        }
        for t in &mut self.tablets {
            let now = *t.lsm.stats();
            for (name, v) in [
                ("flush_bytes", now.flush_bytes - t.reported.flush_bytes),
                (
                    "compaction_read_bytes",
                    now.compaction_read_bytes - t.reported.compaction_read_bytes,
                ),
                (
                    "compaction_write_bytes",
                    now.compaction_write_bytes - t.reported.compaction_write_bytes,
                ),
                (
                    "io_write_bytes",
                    now.flush_bytes + now.compaction_write_bytes
                        - t.reported.flush_bytes
                        - t.reported.compaction_write_bytes,
                ),
            ] {
                if v > 0 {
                    add(t.rel, name, v as f64, &self.names);
                }
            }
            t.reported = now;
        }
        (metrics, relations)
    }

    /// This statement's counters of tablet `tablet` (seeks, nexts, prevs, inserts).
    fn tablet_counts(&mut self, tablet: usize) -> &mut [u64; 4] {
        tablet_entry(&mut self.per_tablet, tablet)
    }

    /// Reads on tablet `tablet` (its leader serves them).
    pub(super) fn count_reads(&mut self, tablet: usize, read: &crate::lsm::ReadStats) {
        add_reads(self.tablet_counts(tablet), read);
    }

    /// Entries written to tablet `tablet` (every replica applies them).
    pub(super) fn count_inserts(&mut self, tablet: usize, n: u64) {
        self.tablet_counts(tablet)[3] += n;
    }

    /// The statement's counters per tablet replica: the leader's reads and
    /// writes, then each follower's writes (Raft applies them there too).
    fn take_replicas(&mut self) -> Vec<crate::metrics::ReplicaMetrics> {
        let net = self.network();
        let mut out = Vec::new();
        for (tablet, c) in std::mem::take(&mut self.per_tablet).into_iter().enumerate() {
            if c == [0; 4] {
                continue;
            }
            let leader = self.tablets[tablet].tserver as u32;
            let relation = self.names[self.tablets[tablet].rel].clone();
            let mut lead = crate::metrics::Metrics::default();
            for (name, v) in [
                ("rocksdb_number_db_seek", c[0]),
                ("rocksdb_number_db_next", c[1]),
                ("rocksdb_number_db_prev", c[2]),
                ("rocksdb_insert", c[3]),
            ] {
                lead.add(name, v as f64);
            }
            let servers = std::iter::once(leader).chain(crate::net::node::followers(
                leader,
                net.replication_factor,
                net.tservers,
            ));
            for (i, tserver) in servers.enumerate() {
                let metrics = if i == 0 {
                    lead.clone()
                } else {
                    let mut m = crate::metrics::Metrics::default();
                    m.add("rocksdb_insert", c[3] as f64);
                    m
                };
                if !metrics.is_empty() {
                    out.push(crate::metrics::ReplicaMetrics {
                        relation: relation.to_string(),
                        tablet: tablet as u32,
                        tserver,
                        leader: i == 0,
                        metrics,
                    });
                }
            }
        }
        out
    }

    /// Write amplification over every tablet so far: SST bytes written by flushes
    /// and compactions over the bytes the user wrote.
    pub fn write_amplification(&self) -> f64 {
        let (mut written, mut user) = (0u64, 0u64);
        for t in &self.tablets {
            let s = t.lsm.stats();
            written += s.flush_bytes + s.compaction_write_bytes;
            user += s.user_bytes_written;
        }
        if user == 0 {
            0.0
        } else {
            written as f64 / user as f64
        }
    }
}

/// The counters of relation `rel` in a statement's `stats`, grown to hold it.
/// (A function of the field, for code that holds other fields of the engine.)
pub(super) fn rel_entry(stats: &mut Vec<RelStats>, rel: usize) -> &mut RelStats {
    if stats.len() <= rel {
        stats.resize(rel + 1, RelStats::default());
    }
    &mut stats[rel]
}

/// Tablet `tablet`'s counters in a statement's `per_tablet`, grown to hold it.
pub(super) fn tablet_entry(per_tablet: &mut Vec<[u64; 4]>, tablet: usize) -> &mut [u64; 4] {
    if per_tablet.len() <= tablet {
        per_tablet.resize(tablet + 1, [0; 4]);
    }
    &mut per_tablet[tablet]
}

/// Adds a read's seeks, nexts and prevs to a tablet's counters.
pub(super) fn add_reads(counts: &mut [u64; 4], read: &crate::lsm::ReadStats) {
    counts[0] += read.number_db_seek;
    counts[1] += read.number_db_next;
    counts[2] += read.number_db_prev;
}

impl YbEngine {
    /// `SET CONSTRAINTS`: YugabyteDB refuses DEFERRABLE unique keys, so
    /// every constraint here is immediate; the names are checked as
    /// PostgreSQL checks them.
    fn set_constraints(&mut self, names: Option<&[String]>) -> Result<Outcome, SqlError> {
        let mut out = Outcome::tag("SET CONSTRAINTS");
        if self.transaction.start_us.is_none() {
            out.notices
                .push("SET CONSTRAINTS can only be used in transaction blocks".into());
        }
        // No constraint can be deferred: the first name is an error.
        if let Some(name) = names.unwrap_or_default().first() {
            let t = &self.catalog;
            let exists = t
                .tables
                .iter()
                .flatten()
                .any(|t| t.key.is_some() && t.pk_name == *name)
                || t.indexes
                    .iter()
                    .flatten()
                    .any(|i| i.constraint && crate::exec::schemas::bare(&i.name) == name);
            let problem = if exists {
                "is not deferrable"
            } else {
                "does not exist"
            };
            return Err(SqlError::new(
                crate::sql::error::ErrorKind::Semantic,
                format!("constraint \"{name}\" {problem}"),
            )
            .near(name));
        }
        Ok(out)
    }
}
