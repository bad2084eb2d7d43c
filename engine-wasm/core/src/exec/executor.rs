//! The executor every profile gets: SELECT (one table, a join, or a query over
//! a CTE), and the row sources INSERT reads from (VALUES, `generate_series`,
//! another query). Written once as [`Executor`], a trait every
//! [`QueryEngine`] gets for free, over the single-table [`SelectExec`](super::select::SelectExec) and the
//! [`JoinExec`] built on it.

use super::engine::QueryEngine;
use super::join::JoinExec;
use super::join_chain::JoinChainExec;
use super::plan_node::PlanNode;
use super::row::Row;
use super::select::{limit_error, projection, QueryResult};
use crate::profile::Outcome;
use crate::sql::ast::{ColumnDef, Expr, FromItem, JoinKind, Select, SelectItem};
use crate::sql::error::unsupported;
use crate::sql::error::{ErrorKind, SqlError};
use crate::sql::eval::{bind, Scope};
use crate::sql::plan::plan_scan;
use crate::sql::rewrite::inline_cte;
use crate::value::{SqlType, Value};

/// A query of one table (`q.from[0]`): its scan, sort and limit; with
/// `read`, the scan an upper node planned (and where its LIMIT stops it).
pub(super) fn one_table<E: Executor>(
    engine: &mut E,
    q: &Select,
    execute: bool,
    read: Option<&super::engine::PlannedRead>,
) -> Result<(PlanNode, QueryResult), SqlError> {
    let Some(FromItem::Table { name, alias }) = q.from.first() else {
        return Err(unsupported("this FROM item here"));
    };
    let (mut node, result) = engine.select_table(name, q, execute, read)?;
    if let Some(alias) = alias {
        // `Seq Scan on t x`: the scan under any sort or limit.
        let mut scan = &mut node;
        while scan.children.len() == 1 && !scan.title.contains(" on ") {
            scan = &mut scan.children[0];
        }
        super::join::alias_title(scan, name, alias);
    }
    Ok((node, result))
}

/// The plan node of a row source that is not a table (what EXPLAIN shows
/// under an INSERT): `Values Scan`, `Function Scan on generate_series`, or
/// `Result` for one row of constants.
pub fn source_node(q: &Select, rows: u64) -> PlanNode {
    let title = match (&q.values, q.from.first()) {
        (Some(v), _) if v.len() > 1 => "Values Scan on \"*VALUES*\"".to_string(),
        (_, Some(FromItem::Series { alias, .. })) => match alias {
            Some(a) if a != "generate_series" => format!("Function Scan on generate_series {a}"),
            _ => "Function Scan on generate_series".to_string(),
        },
        _ => "Result".to_string(),
    };
    PlanNode {
        title,
        rows,
        loops: 1,
        est_rows: rows as f64,
        ..PlanNode::default()
    }
}

/// Whether an expression gives another value at each evaluation.
pub fn is_volatile(e: &Expr) -> bool {
    use crate::sql::functions::ScalarFunc;
    let mut volatile = false;
    e.visit(&mut |x| {
        volatile |= matches!(
            x,
            Expr::Call(
                crate::sql::ast::Func::ClockTimestamp
                    | crate::sql::ast::Func::Random
                    | crate::sql::ast::Func::GenRandomUuid
            ) | Expr::Function {
                func: ScalarFunc::NextVal | ScalarFunc::SetVal,
                ..
            }
        )
    });
    volatile
}

/// Receives INSERT's source rows one at a time.
pub type RowSink<'a, E> = dyn FnMut(&mut E, &[Value]) -> Result<(), SqlError> + 'a;

/// The executor, over any profile's scans.
pub trait Executor: JoinExec {
    /// Each column's DEFAULT, evaluated once for a statement and coerced to
    /// the column's type (None where the column has none). A volatile one
    /// (`clock_timestamp()`, `random()`) is left to [`Executor::row_defaults`].
    fn column_defaults(&mut self, columns: &[ColumnDef]) -> Result<Vec<Option<Value>>, SqlError> {
        columns
            .iter()
            .map(|c| {
                c.default
                    .as_ref()
                    .filter(|e| !is_volatile(e))
                    .map(|e| crate::sql::eval::coerce(self.eval_const(e)?, c.ty))
                    .transpose()
            })
            .collect()
    }

    /// The volatile DEFAULTs of the columns an INSERT leaves out, bound once.
    fn volatile_defaults(
        &mut self,
        columns: &[ColumnDef],
        targets: &[usize],
    ) -> Result<Vec<(usize, crate::sql::eval::Bound, SqlType)>, SqlError> {
        let mut out = Vec::new();
        for (i, c) in columns.iter().enumerate() {
            if let Some(e) = c.default.as_ref().filter(|e| is_volatile(e)) {
                if !targets.contains(&i) {
                    out.push((i, bind(e, &Scope::default())?, c.ty));
                }
            }
        }
        Ok(out)
    }

    /// The defaults for one row: PostgreSQL evaluates a DEFAULT for each row,
    /// so `clock_timestamp()` ticks and `random()` draws again row by row.
    fn row_defaults(
        &mut self,
        fixed: &[Option<Value>],
        volatile: &[(usize, crate::sql::eval::Bound, SqlType)],
    ) -> Result<Vec<Option<Value>>, SqlError> {
        let mut out = fixed.to_vec();
        for (i, e, ty) in volatile {
            let v = self.eval_bound(e, &[])?;
            out[*i] = Some(crate::sql::eval::coerce(v, *ty)?);
        }
        Ok(out)
    }

    fn select(&mut self, q: &Select) -> Result<Outcome, SqlError> {
        let (_, result) = self.run_select(q, true)?;
        Ok(Outcome::rows(result.columns, &result.rows))
    }

    /// A query with recursive WITH queries: they run to their fixpoint
    /// first. Out of line: [`Self::run_select`] is on the stack once per
    /// level of a deep set operation, and must not hold a query copy.
    #[inline(never)]
    fn run_recursive(
        &mut self,
        q: &Select,
        execute: bool,
    ) -> Result<(PlanNode, QueryResult), SqlError> {
        if !execute {
            return Err(unsupported(
                "EXPLAIN of WITH RECURSIVE (IndexLab runs the recursion before the query, and \
                 does not draw PostgreSQL's Recursive Union)",
            ));
        }
        let q = super::recursive::materialized(self, q)?;
        self.run_select(&q, execute)
    }

    /// Plans `q` and, when `execute`, runs it. Returns the plan tree with actuals.
    fn run_select(
        &mut self,
        q: &Select,
        execute: bool,
    ) -> Result<(PlanNode, QueryResult), SqlError> {
        if q.with
            .iter()
            .any(|(_, c)| super::recursive::is_recursive(c))
        {
            return self.run_recursive(q, execute);
        }
        if q.set_operation.is_some() {
            return super::set_operation::run(self, q, execute);
        }
        if super::column_size::any_pending(q) {
            let told = super::column_size::annotate_all(self, q)?;
            return self.run_select(&told, execute);
        }
        let star = q.items.iter().any(|i| matches!(i, SelectItem::Wildcard));
        if star
            && q.order_by
                .iter()
                .any(|o| matches!(o.expr, Expr::Literal(Value::Int(_))))
        {
            let expanded = super::types::star_expanded(self, q).map_err(|e| {
                if e.message.starts_with("ORDER BY position") {
                    e
                } else {
                    unsupported("ORDER BY a position with SELECT * of this FROM list")
                }
            })?;
            return self.run_select(&expanded, execute);
        }
        if let Some(t) = super::subquery::foreign_qualifier(q) {
            return Err(SqlError::new(
                ErrorKind::Semantic,
                format!("missing FROM-clause entry for table \"{t}\""),
            ));
        }
        if super::subquery::any(q) {
            if let Some(joined) = super::subplan::as_lateral(self, q)? {
                return self.run_select(&joined, execute);
            }
            let resolved = super::subquery::resolve(self, q)?;
            return self.run_select(&resolved, execute);
        }
        let catalog = match super::catalog_relation::reads_only(q) {
            Some(name) => self.catalog_relation(name)?,
            None => match super::inspect::reads_only(q) {
                Some((func, args)) => Some(super::inspect::rows(self, func, args)?),
                None => None,
            },
        };
        if let Some(rel) = catalog.as_ref().filter(|_| !q.groups()) {
            // Before the catalog calls are answered: each row answers its own.
            return super::catalog_relation::run(self, rel, q, execute);
        }
        if catalog.is_none() && super::catalog_calls::any(q) {
            if super::catalog_calls::takes_transaction_id(q) {
                self.assign_transaction_id()?;
            }
            let seconds = super::catalog_calls::sleeps(q)?;
            if execute && seconds > 0.0 {
                self.advance_us(seconds * 1e6);
            }
            let resolved = super::catalog_calls::resolve(self, q)?;
            if !super::catalog_calls::any(&resolved) {
                return self.run_select(&resolved, execute);
            }
        }
        if q.filter.as_ref().is_some_and(Expr::has_aggregate) {
            return Err(SqlError::new(
                ErrorKind::Semantic,
                "aggregate functions are not allowed in WHERE",
            ));
        }
        if let Some(fewer) = crate::sql::plan::order_keys::without_constant_keys(q) {
            return self.run_select(&fewer, execute);
        }
        if q.groups() {
            return super::aggregate::run_grouped(self, q, execute);
        }
        if q.offset.is_some() {
            return self.run_with_offset(q, execute);
        }
        if !q.joins.is_empty() || q.from.len() > 1 {
            // Two tables in an inner join: the nested loop the articles study
            // (with YugabyteDB's batched form); anything else: the chain.
            let two = q.from.len() + q.joins.len() == 2;
            let derived = q
                .from
                .iter()
                .chain(q.joins.iter().map(|j| &j.item))
                .any(|i| {
                    inline_cte(i, &q.with).is_ok_and(|(i, _)| {
                        matches!(i, FromItem::Subquery { .. } | FromItem::Series { .. })
                    })
                });
            let plain = q
                .joins
                .iter()
                .all(|j| j.kind == JoinKind::Inner && !j.natural);
            if two && !derived && plain {
                return self.select_join(q, execute);
            }
            return self.select_join_chain(q, execute);
        }
        if let (false, Some(item)) = (q.with.is_empty(), q.from.first()) {
            // A query over a simple CTE runs on the CTE's table (PostgreSQL inlines it).
            let (item, extra) = inline_cte(item, &q.with)?;
            let mut inlined = q.clone();
            inlined.with.clear();
            inlined.from = vec![item];
            inlined.filter = match (inlined.filter.take(), extra) {
                (Some(a), Some(b)) => Some(Expr::Binary {
                    op: crate::sql::ast::BinOp::And,
                    left: Box::new(a),
                    right: Box::new(b),
                }),
                (a, b) => a.or(b),
            };
            return self.run_select(&inlined, execute);
        }
        if super::derived::applies(q) {
            return super::derived::run(self, q, execute);
        }
        match q.from.first() {
            Some(FromItem::Table { .. }) => one_table(self, q, execute, None),
            _ => {
                if !q.order_by.is_empty() {
                    return Err(unsupported("ORDER BY on a query without a table"));
                }
                let limit = self.eval_limit(q.limit.as_ref())?;
                let mut result = QueryResult::default();
                let mut node = source_node(q, 0);
                self.produce_named(q, &mut result.columns, &mut |_, row| {
                    result.rows.push(row.to_vec());
                    Ok(())
                })?;
                if let Some(l) = limit {
                    result.rows.truncate(l as usize);
                }
                node.rows = result.rows.len() as u64;
                Ok((node, result))
            }
        }
    }

    /// `… OFFSET k [LIMIT n]`: the query with `LIMIT k + n`, its first k rows
    /// dropped, under one Limit node (PostgreSQL's nodeLimit skips them the same way).
    fn run_with_offset(
        &mut self,
        q: &Select,
        execute: bool,
    ) -> Result<(PlanNode, QueryResult), SqlError> {
        let offset = self.eval_offset(q.offset.as_ref())?.unwrap_or(0);
        let limit = self.eval_limit(q.limit.as_ref())?;
        let inner = Select {
            offset: None,
            limit: limit.map(|l| {
                Expr::Literal(Value::Int(
                    l.saturating_add(offset).min(i64::MAX as u64) as i64
                ))
            }),
            ..q.clone()
        };
        let (node, mut result) = self.run_select(&inner, execute)?;
        let skip = (offset as usize).min(result.rows.len());
        result.rows.drain(..skip);
        let rows = result.rows.len() as u64;
        let node = if node.title == "Limit" && limit.is_some() {
            PlanNode { rows, ..node }
        } else {
            super::select::wrap_limit(node, rows, limit.unwrap_or(u64::MAX))
        };
        Ok((node, result))
    }

    /// Runs a row source (VALUES, `generate_series`, a constant SELECT, or a query)
    /// and hands each output row to `sink`, one at a time, so `clock_timestamp()`
    /// advances between rows as the sink's work costs time.
    /// A VALUES list with its subqueries answered, each once before any row
    /// is made (PostgreSQL makes an uncorrelated one an InitPlan), seeing
    /// the WITH queries around the list (`WITH w AS (…) INSERT … VALUES
    /// ((SELECT … FROM w))`).
    fn values_with_subqueries_answered(
        &mut self,
        q: &Select,
        rows: &[Vec<Expr>],
    ) -> Result<Vec<Vec<Expr>>, SqlError> {
        let mut out = Vec::with_capacity(rows.len());
        for r in rows {
            let mut row = Vec::with_capacity(r.len());
            for e in r {
                let seen = e.map(&mut |x| match x {
                    Expr::ScalarSubquery(sub) => Some(Expr::ScalarSubquery(Box::new(
                        crate::sql::rewrite::seeing_with(sub, &q.with),
                    ))),
                    _ => None,
                });
                row.push(super::subquery::resolve_expr(self, &seen)?);
            }
            out.push(row);
        }
        Ok(out)
    }

    fn produce(&mut self, q: &Select, sink: &mut RowSink<Self>) -> Result<(), SqlError> {
        let mut columns = Vec::new();
        self.produce_named(q, &mut columns, sink)
    }

    fn produce_named(
        &mut self,
        q: &Select,
        columns: &mut Vec<String>,
        sink: &mut RowSink<Self>,
    ) -> Result<(), SqlError> {
        if super::column_size::any_pending(q) {
            let told = super::column_size::annotate_all(self, q)?;
            return self.produce_named(&told, columns, sink);
        }
        let max_rows = self.settings().max_rows() as u64;
        if q.set_operation.is_some() {
            let (node, result) = self.run_select(q, true)?;
            *columns = result.columns;
            for r in result.rows {
                sink(self, &r)?;
            }
            *self.dml_source() = Some(node);
            return Ok(());
        }
        if let Some(rows) = &q.values {
            if rows.len() as u64 > max_rows {
                return Err(limit_error(format!(
                    "VALUES has {} rows, over max_rows={max_rows}",
                    rows.len()
                )));
            }
            let width = rows.first().map_or(0, Vec::len);
            *columns = (1..=width).map(|i| format!("column{i}")).collect();
            let answered;
            let rows = if rows.iter().flatten().any(super::subquery::in_expr) {
                answered = self.values_with_subqueries_answered(q, rows)?;
                &answered
            } else {
                rows
            };
            for r in rows {
                let v = r
                    .iter()
                    .map(|e| self.eval_const(e))
                    .collect::<Result<Vec<_>, _>>()?;
                sink(self, &v)?;
            }
            *self.dml_source() = Some(source_node(q, rows.len() as u64));
            return Ok(());
        }
        match q.from.as_slice() {
            [] => {
                let (cols, exprs) = projection(&q.items, &Scope::default())?;
                *columns = cols;
                // `SELECT 1 WHERE false`: the one row, if the condition holds.
                if let Some(f) = &q.filter {
                    let f = bind(f, &Scope::default())?;
                    if self.eval_bound(&f, &[])? != Value::Bool(true) {
                        return Ok(());
                    }
                }
                let v = exprs
                    .iter()
                    .map(|e| self.eval_bound(e, &[]))
                    .collect::<Result<Vec<_>, _>>()?;
                sink(self, &v)?;
                *self.dml_source() = Some(source_node(q, 1));
                Ok(())
            }
            [FromItem::Series {
                start,
                stop,
                step,
                alias,
                column,
            }] => {
                let (a, b) = (self.eval_const(start)?, self.eval_const(stop)?);
                let s = step.as_ref().map(|e| self.eval_const(e)).transpose()?;
                let (a_text, b_text) = (a.pg_text(), b.pg_text());
                let series = super::series::Series::new(a, b, s)?;
                let (a, b) = (a_text, b_text);
                let n = series.len(max_rows);
                if n > max_rows as u128 {
                    let n = if matches!(
                        series,
                        super::series::Series::Int { .. } | super::series::Series::Numeric { .. }
                    ) {
                        n.to_string()
                    } else {
                        "more".to_string()
                    };
                    return Err(limit_error(format!(
                        "generate_series({a}, {b}) would make {n} rows, over max_rows={max_rows}"
                    ))
                    .with_hint(
                        "raise it with SET max_rows, or --set max_rows=N (at most 10000000)",
                    ));
                }
                let name = alias.clone().unwrap_or_else(|| "generate_series".into());
                let column = column.clone().unwrap_or_else(|| name.clone());
                let ty = super::types::series_type(start, stop, step.as_ref());
                let scope = Scope {
                    columns: vec![(name, column, ty)],
                };
                let (cols, exprs) = projection(&q.items, &scope)?;
                *columns = cols;
                let filter = q.filter.as_ref().map(|f| bind(f, &scope)).transpose()?;
                let mut produced = 0u64;
                let mut out = Vec::with_capacity(exprs.len());
                for x in series.iter() {
                    let row = [x];
                    if let Some(f) = &filter {
                        if self.eval_bound(f, &row)? != Value::Bool(true) {
                            continue;
                        }
                    }
                    // One output buffer for the whole series: a million-row
                    // INSERT … SELECT allocates nothing per row here.
                    out.clear();
                    for e in &exprs {
                        let v = self.eval_bound(e, &row)?;
                        out.push(v);
                    }
                    sink(self, &out)?;
                    produced += 1;
                }
                *self.dml_source() = Some(source_node(q, produced));
                Ok(())
            }
            _ => {
                let (node, result) = self.run_select(q, true)?;
                *columns = result.columns;
                for r in result.rows {
                    sink(self, &r)?;
                }
                *self.dml_source() = Some(node);
                Ok(())
            }
        }
    }

    /// The rows an UPDATE or DELETE changes, found with the planner's access path.
    fn scan_for_change(
        &mut self,
        table: usize,
        filter: Option<&Expr>,
    ) -> Result<Vec<(u64, Row)>, SqlError> {
        // UPDATE and DELETE need whole rows (the new version is built from the
        // old one), so the scan is never index-only, as in PostgreSQL.
        let (filter, correlated) = super::subplan::split_where(self, table, filter);
        let filter = filter
            .map(|f| super::subquery::resolve_expr(self, &f))
            .transpose()?;
        let q = Select {
            items: vec![SelectItem::Wildcard],
            filter,
            ..Select::empty()
        };
        let info = self.scan_info(table);
        let plan = plan_scan(&info, &q)?;
        let mut out = self.run_scan(table, &plan, None)?;
        if plan.system_columns {
            // The new versions are built from the table's own columns.
            for (_, row) in &mut out.rows {
                row.truncate(info.columns.len());
            }
        }
        if !correlated.is_empty() {
            let (max_rows, before) = (self.settings().max_rows() as u64, self.rows_examined());
            let mut kept = Vec::new();
            for (loc, row) in out.rows {
                if super::subplan::row_passes(self, table, &row, &correlated)? {
                    kept.push((loc, row));
                }
                if self.rows_examined() - before > max_rows {
                    return Err(limit_error(format!(
                        "the correlated subquery runs again for each row and reads more than \
                         max_rows={max_rows} rows; an index on the column it looks up (or a \
                         larger max_rows) lets it finish"
                    )));
                }
            }
            out.rows = kept;
            out.node.rows = out.rows.len() as u64;
        }
        *self.dml_source() = Some(out.node);
        Ok(out.rows)
    }
}

impl<E: QueryEngine> Executor for E {}
