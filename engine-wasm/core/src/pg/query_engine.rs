//! The PostgreSQL profile as the shared executor sees it.

use super::engine::PgEngine;
use super::explain::options_notices;
use crate::clock::CostModel;
use crate::exec::catalog_calls::{size_of, RelationPages};
use crate::exec::{QueryEngine, ScanOutput};
use crate::settings::Settings;
use crate::sql::ast::ExplainOptions;
use crate::sql::error::SqlError;
use crate::sql::eval::EvalEnv;
use crate::sql::plan::{ScanPlan, TableInfo};

impl QueryEngine for PgEngine {
    fn trace_detail(&mut self, event: impl FnOnce() -> crate::trace::Event) {
        self.io.trace.detail(event);
    }
    fn rescanning(&mut self, on: bool) {
        self.rescan_vm = on.then_some(None);
    }
    fn minimal_tuple_len(
        &self,
        row: &[crate::value::Value],
        types: &[crate::value::SqlType],
    ) -> u64 {
        // A heap tuple's 24-byte header, less the 8 a minimal tuple omits.
        u64::from(super::tuple::heap_tuple_len_for_page(row, types, 8192)).saturating_sub(8)
    }
    fn join_hints(&self) -> &[crate::sql::hints::Hint] {
        &self.join_hints
    }
    fn take_gather(&mut self, q: &crate::sql::ast::Select) -> bool {
        self.gather_candidate.take_if(|top| top == q).is_some()
    }
    fn env(&mut self) -> EvalEnv<'_> {
        EvalEnv {
            statement_start_us: self.statement_start_us,
            clock_us: self.io.clock.timestamp(),
            rng: &mut self.rng,
            sequences: Some(&mut self.catalog.sequences),
        }
    }

    fn now_us(&self) -> f64 {
        self.io.clock.now_us()
    }

    fn advance_us(&mut self, us: f64) {
        self.io.clock.advance_us(us);
    }

    fn cost(&self) -> &CostModel {
        &self.io.cost
    }

    fn settings(&self) -> &Settings {
        &self.settings
    }

    fn table_id(&self, name: &str) -> Result<usize, SqlError> {
        self.catalog.table_id(name)
    }

    fn planner_info(&self, table: usize) -> TableInfo {
        self.catalog.planner_info(table)
    }

    fn scan_info(&self, table: usize) -> TableInfo {
        let info = self.catalog.planner_info(table);
        TableInfo {
            stats: Some(self.planner_stats(table, &info.expressions)),
            ..info
        }
    }

    fn is_varchar(&self, table: usize, column: &str) -> bool {
        let columns = &self.catalog.table(table).columns;
        columns
            .iter()
            .any(|c| c.name == column && c.max_chars.is_some())
    }

    fn run_scan(
        &mut self,
        table: usize,
        plan: &ScanPlan,
        limit: Option<u64>,
    ) -> Result<ScanOutput, SqlError> {
        self.scan(table, plan, limit)
    }

    fn peek_rows(
        &mut self,
        table: usize,
        filter: &[crate::sql::ast::Expr],
    ) -> Result<Option<Vec<crate::exec::Row>>, SqlError> {
        self.peek(table, filter).map(Some)
    }

    fn run_scan_until_group(
        &mut self,
        table: usize,
        plan: &ScanPlan,
        stop: &crate::exec::engine::GroupStop,
    ) -> Result<ScanOutput, SqlError> {
        self.scan_until_group(table, plan, stop)
    }

    /// Sizes from the relation's own pages: the heap's or the B-tree's, the
    /// visibility map's, and the free space map's as PostgreSQL sizes it.
    fn assign_transaction_id(&mut self) -> Result<(), SqlError> {
        self.xact.assign();
        Ok(())
    }

    fn system_values(&self, table: usize, tid: u64) -> Result<[crate::value::Value; 3], SqlError> {
        Ok(PgEngine::system_values(self, table, tid))
    }

    fn catalog_call(
        &self,
        func: crate::sql::functions::ScalarFunc,
        name: &str,
        fork: Option<&str>,
    ) -> Result<crate::value::Value, SqlError> {
        if func == crate::sql::functions::ScalarFunc::TxidStatus {
            return super::xact::txid_status(&self.xact, name);
        }
        if func == crate::sql::functions::ScalarFunc::TxidCurrent {
            let xid = self.xact.current().unwrap_or_default();
            return Ok(crate::value::Value::Int(i64::from(xid)));
        }
        if func == crate::sql::functions::ScalarFunc::Version {
            return Ok(crate::value::Value::text(
                crate::exec::catalog_calls::version("PostgreSQL 15"),
            ));
        }
        let page_size = u64::from(self.io.pool.page_size());
        let pages = match self.catalog.table_id(name) {
            Ok(id) => {
                let t = self.catalog.table(id);
                let heap_pages = t.heap.page_count();
                RelationPages {
                    main: u64::from(heap_pages),
                    fsm: u64::from(t.fsm_blocks),
                    vm: u64::from(t.heap.visibility_map().fork_pages()),
                    // No value is ever toasted here: the TOAST table stays
                    // empty, its index a lone metapage.
                    toast: u64::from(needs_toast_table(&t.columns, self.io.pool.page_size())),
                    indexes: t
                        .indexes
                        .iter()
                        .map(|&i| index_pages(self.catalog.index(i)))
                        .sum(),
                }
            }
            // A sequence is one page (its one row).
            Err(_) if self.catalog.is_sequence(name) => RelationPages {
                main: 1,
                ..RelationPages::default()
            },
            Err(not_a_table) => {
                let index = self
                    .catalog
                    .index_named(name)
                    .map(|i| self.catalog.index(i));
                match index {
                    Some(ix) => RelationPages {
                        main: index_pages(ix),
                        ..RelationPages::default()
                    },
                    None => return Err(not_a_table),
                }
            }
        };
        size_of(func, name, fork, pages, page_size)
    }

    fn execute_dml(
        &mut self,
        stmt: &crate::sql::ast::Statement,
    ) -> Result<crate::profile::Outcome, SqlError> {
        use crate::sql::ast::Statement;
        match stmt {
            Statement::Insert {
                table,
                columns,
                source,
                on_conflict: Some(oc),
                returning,
            } => {
                let stmt = crate::exec::on_conflict::ConflictInsert {
                    table,
                    columns: columns.as_deref(),
                    source,
                    on_conflict: oc,
                    returning,
                };
                self.insert_on_conflict(&stmt, true).map(|(out, _)| out)
            }
            Statement::Insert {
                table,
                columns,
                source,
                on_conflict: None,
                returning,
            } => self.insert(table, columns.as_deref(), source, returning),
            Statement::Update {
                table,
                alias,
                assignments,
                from,
                filter,
                returning,
            } => self.update(
                table,
                (alias.as_deref(), from),
                assignments,
                filter.as_ref(),
                returning,
            ),
            Statement::Delete {
                table,
                alias,
                using,
                filter,
                returning,
            } => self.delete(table, (alias.as_deref(), using), filter.as_ref(), returning),
            _ => Err(crate::sql::error::unsupported("EXPLAIN of this statement")),
        }
    }

    fn insert_on_conflict(
        &mut self,
        stmt: &crate::exec::on_conflict::ConflictInsert,
        execute: bool,
    ) -> Result<
        (
            crate::profile::Outcome,
            crate::exec::on_conflict::ConflictReport,
        ),
        SqlError,
    > {
        crate::exec::on_conflict::run(self, stmt, execute)
    }

    fn dml_source(&mut self) -> &mut Option<crate::exec::PlanNode> {
        &mut self.dml_source
    }

    fn statement_buffers(&self) -> crate::buffer_pool::BufferStats {
        let mut total = crate::buffer_pool::BufferStats::default();
        for s in &self.rel_stats {
            total.add(s);
        }
        total
    }

    fn statement_wal(&self) -> (u64, u64, u64) {
        let w = &self.wal.stats;
        (w.records, w.fpi, w.bytes)
    }

    fn inspect(
        &self,
        func: crate::sql::inspect::InspectFunc,
        relation: &str,
        block: Option<i64>,
        raw_page: bool,
    ) -> Result<crate::exec::catalog_relation::CatalogRelation, SqlError> {
        self.inspect_rows(func, relation, block, raw_page)
    }

    fn catalog_relation(
        &self,
        name: &str,
    ) -> Result<Option<crate::exec::catalog_relation::CatalogRelation>, SqlError> {
        Ok(match name {
            "pg_class" => Some(super::pg_class::pg_class(&self.catalog)),
            "pg_stat_user_tables" => Some(super::pg_stat_views::pg_stat_user_tables(&self.catalog)),
            "pg_stat_user_indexes" => {
                Some(super::pg_stat_views::pg_stat_user_indexes(&self.catalog))
            }
            "pg_stats" => Some(super::pg_stats::pg_stats(&self.catalog)),
            "pg_indexes" => Some(crate::exec::pg_indexes::pg_indexes(&self.described())?),
            _ => None,
        })
    }

    fn rows_examined(&self) -> u64 {
        self.rows_examined
    }

    fn analyzed(&mut self, table: usize, rows: &[crate::exec::row::Row]) {
        self.analyze_update_stats(table, rows.len() as u64);
        let target = self.settings.show("default_statistics_target").ok();
        let target = target.and_then(|t| t.parse().ok()).unwrap_or(100);
        let t = self.catalog.table(table);
        let column_stats = super::analyze_columns::analyze(t, rows, target);
        let expression_stats: Vec<(usize, Vec<_>)> = t
            .indexes
            .iter()
            .map(|&i| {
                let ix = self.catalog.index(i);
                let stats =
                    super::analyze_columns::analyze_expressions(t, rows, target, &ix.expressions);
                (i, stats)
            })
            .collect();
        self.catalog.table_mut(table).column_stats = column_stats;
        for (i, stats) in expression_stats {
            self.catalog.index_mut(i).expression_stats = stats;
        }
    }

    fn fire_after_triggers(&mut self) -> Result<Vec<(String, u64)>, SqlError> {
        let fired = self.fire_rechecks(false);
        let calls = self.deferred_unique.take_fired();
        fired?;
        Ok(calls
            .into_iter()
            .map(|(index, n)| (self.catalog.index(index).name.clone(), n))
            .collect())
    }

    fn explain_notices(&self, options: &ExplainOptions) -> Vec<String> {
        options_notices(options)
    }
}

fn index_pages(ix: &super::catalog::Index) -> u64 {
    u64::from(ix.pages())
}

/// Whether PostgreSQL gives the table a TOAST table (`needs_toast_table`):
/// when its widest possible row is over TOAST_TUPLE_THRESHOLD, a quarter
/// page (2032 bytes of 8 kB), as any unbounded `text` column makes it.
fn needs_toast_table(columns: &[crate::sql::ast::ColumnDef], page_size: u32) -> bool {
    use crate::value::SqlType;
    let threshold = u64::from((page_size - 40) / 4) & !7;
    let mut widest = 24u64;
    for c in columns {
        widest += match (c.ty, c.max_chars) {
            (SqlType::Text, None) => return true,
            // At most 4 bytes a character in UTF-8, and a 4-byte length word.
            (SqlType::Text, Some(n)) => u64::from(n) * 4 + 4,
            (ty, _) => u64::from(crate::exec::type_width(ty)),
        };
    }
    widest > threshold
}
