//! The yb profile as the shared executor sees it.

use super::engine::YbEngine;
use crate::clock::CostModel;
use crate::exec::{QueryEngine, ScanOutput};
use crate::settings::Settings;
use crate::sql::ast::ExplainOptions;
use crate::sql::error::SqlError;
use crate::sql::eval::EvalEnv;
use crate::sql::plan::{ScanPlan, TableInfo};

impl QueryEngine for YbEngine {
    fn rows_examined(&self) -> u64 {
        self.rows_examined
    }

    /// ANALYZE's count: the one figure YugabyteDB's default planner reads.
    fn analyzed(&mut self, table: usize, rows: &[crate::exec::row::Row]) {
        self.catalog.table_mut(table).reltuples = Some(rows.len() as f64);
    }

    fn env(&mut self) -> EvalEnv<'_> {
        EvalEnv {
            statement_start_us: self.statement_start_us,
            clock_us: self.clock.timestamp(),
            rng: &mut self.rng,
            sequences: Some(&mut self.catalog.sequences),
        }
    }

    fn now_us(&self) -> f64 {
        self.clock.now_us()
    }

    fn advance_us(&mut self, us: f64) {
        self.clock.advance_us(us);
    }

    fn cost(&self) -> &CostModel {
        &self.cost
    }

    fn trace_detail(&mut self, event: impl FnOnce() -> crate::trace::Event) {
        self.trace.detail(event);
    }

    fn settings(&self) -> &Settings {
        &self.settings
    }

    fn table_id(&self, name: &str) -> Result<usize, SqlError> {
        self.catalog.table_id(name)
    }

    fn join_hints(&self) -> &[crate::sql::hints::Hint] {
        &self.join_hints
    }

    fn offer_aggregate_pushdown(&mut self, offered: bool) {
        self.aggregate_offered = offered;
    }

    fn planner_info(&self, table: usize) -> TableInfo {
        self.catalog.planner_info(table)
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
        if plan.system_columns {
            return Err(crate::sql::error::unsupported(
                "the system columns ctid, xmin and xmax on YugabyteDB (its rows live in DocDB, \
                 not at heap addresses, and carry no PostgreSQL transaction ids)",
            )
            .near("ctid"));
        }
        self.scan(table, plan, limit)
    }

    fn run_scan_until_group(
        &mut self,
        table: usize,
        plan: &ScanPlan,
        stop: &crate::exec::engine::GroupStop,
    ) -> Result<ScanOutput, SqlError> {
        if plan.system_columns {
            // Refused as any other read of them.
            return self.run_scan(table, plan, None);
        }
        self.scan_until(table, plan, None, Some(stop))
    }

    fn catalog_relation(
        &self,
        name: &str,
    ) -> Result<Option<crate::exec::catalog_relation::CatalogRelation>, SqlError> {
        match name {
            "pg_class" => Err(crate::sql::error::unsupported(
                "pg_class on YugabyteDB (its tables are DocDB's tablets: relpages and \
                 reltuples are what ANALYZE estimates there, which IndexLab does not model)",
            )
            .near("pg_class")),
            "pg_indexes" => Ok(Some(crate::exec::pg_indexes::pg_indexes(
                &self.described(),
            )?)),
            _ => Ok(None),
        }
    }

    fn join_batch_size(&self) -> usize {
        self.settings.yb_bnl_batch_size().max(1) as usize
    }

    /// BUFFERS counts PostgreSQL's shared buffers: YugabyteDB has none to show.
    /// `'t'::regclass` names a relation the catalog has; PostgreSQL's size
    /// functions have no pages to count on DocDB.
    fn catalog_call(
        &self,
        func: crate::sql::functions::ScalarFunc,
        name: &str,
        _fork: Option<&str>,
    ) -> Result<crate::value::Value, SqlError> {
        use crate::sql::functions::ScalarFunc;
        if func == ScalarFunc::Version {
            return Ok(crate::value::Value::text(
                crate::exec::catalog_calls::version(
                    "PostgreSQL 11.2-YB (YugabyteDB's query layer)",
                ),
            ));
        }
        let is_index = self.catalog.index_named(name).is_some();
        if func == ScalarFunc::Regclass && (is_index || self.catalog.table_id(name).is_ok()) {
            return Ok(crate::value::Value::text(name));
        }
        self.catalog.table_id(name)?;
        Err(crate::sql::error::unsupported(format!(
            "{}() on YugabyteDB (its tables are DocDB's SST files, not PostgreSQL's pages)",
            func.name()
        )))
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

    fn is_yugabyte(&self) -> bool {
        true
    }

    fn explain_notices(&self, options: &ExplainOptions) -> Vec<String> {
        if options.buffers {
            vec![
                "EXPLAIN option BUFFERS shows PostgreSQL's shared buffers; YugabyteDB has none"
                    .into(),
            ]
        } else {
            Vec::new()
        }
    }
}
