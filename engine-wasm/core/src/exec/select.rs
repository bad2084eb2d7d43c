//! SELECT on any profile, and the row sources INSERT reads from (VALUES,
//! `generate_series`, another query). Written once as [`Executor`], a trait every
//! [`QueryEngine`] gets for free.

use super::engine::QueryEngine;
use super::plan_node::PlanNode;
use super::row::Row;
use crate::scenario::Outcome;
use crate::sql::ast::{ColumnDef, Expr, FromItem, Order, OrderItem, Select, SelectItem};
use crate::sql::error::{ErrorKind, SqlError};
use crate::sql::eval::{bind, compare, eval, Bound, Scope};
use crate::sql::parse::unsupported;
use crate::sql::plan::plan_scan;
use crate::sql::rewrite::{inline_cte, unqualify};
use crate::value::{SqlType, Value};
use std::cmp::Ordering;

/// Receives INSERT's source rows one at a time.
pub type RowSink<'a, E> = dyn FnMut(&mut E, &[Value]) -> Result<(), SqlError> + 'a;

/// A query's output: column names and rows.
#[derive(Debug, Default)]
pub struct QueryResult {
    pub columns: Vec<String>,
    pub rows: Vec<Vec<Value>>,
}

fn limit_error(msg: String) -> SqlError {
    SqlError::new(ErrorKind::Limit, msg)
}

/// The executor, over any profile's scans.
pub trait Executor: QueryEngine {
    fn eval_const(&mut self, e: &Expr) -> Result<Value, SqlError> {
        let b = bind(e, &Scope::default())?;
        eval(&b, &[], &mut self.env())
    }

    /// Each column's DEFAULT, evaluated once for a statement and coerced to
    /// the column's type (None where the column has none).
    fn column_defaults(&mut self, columns: &[ColumnDef]) -> Result<Vec<Option<Value>>, SqlError> {
        columns
            .iter()
            .map(|c| {
                c.default
                    .as_ref()
                    .map(|e| crate::sql::eval::coerce(self.eval_const(e)?, c.ty))
                    .transpose()
            })
            .collect()
    }

    fn eval_limit(&mut self, e: Option<&Expr>) -> Result<Option<u64>, SqlError> {
        let Some(e) = e else { return Ok(None) };
        match self.eval_const(e)? {
            Value::Int(n) if n >= 0 => Ok(Some(n as u64)),
            // LIMIT takes a bigint: PostgreSQL rounds 1.5 to 2.
            Value::Float(f) if f.is_finite() && f.round() >= 0.0 => Ok(Some(f.round() as u64)),
            Value::Float(f) if f.is_finite() => Err(SqlError::new(
                ErrorKind::Execution,
                "LIMIT must not be negative",
            )),
            Value::Null => Ok(None),
            Value::Int(_) => Err(SqlError::new(
                ErrorKind::Execution,
                "LIMIT must not be negative",
            )),
            other => Err(SqlError::new(
                ErrorKind::Semantic,
                format!(
                    "argument of LIMIT must be an integer, not {}",
                    other.pg_text()
                ),
            )),
        }
    }

    fn select(&mut self, q: &Select) -> Result<Outcome, SqlError> {
        let (_, result) = self.run_select(q, true)?;
        Ok(Outcome::rows(result.columns, &result.rows))
    }

    /// Plans `q` and, when `execute`, runs it. Returns the plan tree with actuals.
    fn run_select(
        &mut self,
        q: &Select,
        execute: bool,
    ) -> Result<(PlanNode, QueryResult), SqlError> {
        if !q.joins.is_empty() || q.from.len() > 1 {
            return super::join::JoinExec::select_join(self, q, execute);
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
        match q.from.first() {
            Some(FromItem::Table { name, .. }) => {
                let name = name.clone();
                self.select_table(&name, q, execute)
            }
            _ => {
                if !q.order_by.is_empty() {
                    return Err(unsupported("ORDER BY on a query without a table"));
                }
                let limit = self.eval_limit(q.limit.as_ref())?;
                let mut result = QueryResult::default();
                let mut node = PlanNode {
                    title: "Result".into(),
                    loops: 1,
                    ..PlanNode::default()
                };
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

    /// Sorts (when the scan did not give ORDER BY's order) and applies LIMIT.
    fn finish_rows(
        &mut self,
        mut node: PlanNode,
        rows: &mut Vec<Row>,
        q: &Select,
        scope: &Scope,
        start: f64,
    ) -> Result<PlanNode, SqlError> {
        if !q.order_by.is_empty() {
            node = self.sort(node, rows, &q.order_by, scope, start)?;
        }
        if let Some(l) = self.limit_of(q)? {
            rows.truncate(l as usize);
            node = wrap_limit(node, rows.len() as u64, l);
        }
        Ok(node)
    }

    fn limit_of(&mut self, q: &Select) -> Result<Option<u64>, SqlError> {
        self.eval_limit(q.limit.as_ref())
    }

    fn select_table(
        &mut self,
        name: &str,
        q: &Select,
        execute: bool,
    ) -> Result<(PlanNode, QueryResult), SqlError> {
        let id = self.table_id(name)?;
        // One table: qualifiers (`demo.id`, `d.id`) can only mean it.
        let q = &unqualify_select(q);
        let info = self.planner_info(id);
        let plan = plan_scan(&info, q)?;
        let limit = self.eval_limit(q.limit.as_ref())?;
        let need_sort = !plan.ordered;
        let scan_limit = if need_sort { None } else { limit };
        let start = self.now_us();
        let scope = self.table_scope(id);
        let (mut node, mut rows): (PlanNode, Vec<Row>) = if execute {
            let out = self.run_scan(id, &plan, scan_limit)?;
            (out.node, out.rows.into_iter().map(|(_, r)| r).collect())
        } else {
            (self.run_scan(id, &plan, Some(0))?.node, Vec::new())
        };
        if need_sort {
            node = self.sort(node, &mut rows, &q.order_by, &scope, start)?;
        }
        if let Some(l) = limit {
            rows.truncate(l as usize);
            node = wrap_limit(node, rows.len() as u64, l);
        }
        let (columns, exprs) = projection(&q.items, &scope)?;
        let mut result = QueryResult {
            columns,
            rows: Vec::with_capacity(rows.len()),
        };
        for r in &rows {
            let mut env = self.env();
            let out = exprs
                .iter()
                .map(|e| eval(e, r, &mut env))
                .collect::<Result<Vec<_>, _>>()?;
            result.rows.push(out);
        }
        Ok((node, result))
    }

    fn sort(
        &mut self,
        child: PlanNode,
        rows: &mut [Row],
        order: &[OrderItem],
        scope: &Scope,
        start: f64,
    ) -> Result<PlanNode, SqlError> {
        let keys = order
            .iter()
            .map(|o| Ok((bind(&o.expr, scope)?, o.order, o.nulls_come_first())))
            .collect::<Result<Vec<_>, SqlError>>()?;
        let n = rows.len().max(2) as f64;
        // Each row's sort keys, computed once (a key may be an expression:
        // `ORDER BY a * 2`), travel with the row through a stable sort.
        let mut keyed = Vec::with_capacity(rows.len());
        for row in rows.iter_mut() {
            let values = keys
                .iter()
                .map(|(k, ..)| self.eval_bound(k, row))
                .collect::<Result<Vec<_>, _>>()?;
            keyed.push((values, std::mem::take(row)));
        }
        keyed.sort_by(|(a, _), (b, _)| {
            for (i, (_, ord, nulls_first)) in keys.iter().enumerate() {
                let c = sql_order(&a[i], &b[i], *ord, *nulls_first);
                if c != Ordering::Equal {
                    return c;
                }
            }
            Ordering::Equal
        });
        for (slot, (_, row)) in rows.iter_mut().zip(keyed) {
            *slot = row;
        }
        self.advance_us(n * n.log2() * self.cost().cpu_compare_us);
        let key_text: Vec<String> = order
            .iter()
            .map(|o| {
                let d = crate::sql::deparse::deparse(&o.expr);
                if o.order == crate::sql::ast::Order::Desc {
                    format!("{d} DESC")
                } else {
                    d
                }
            })
            .collect();
        let kb = (rows.len() as u64 * u64::from(child.width + 24))
            .div_ceil(1024)
            .max(25);
        Ok(PlanNode {
            title: "Sort".into(),
            details: vec![
                format!("Sort Key: {}", key_text.join(", ")),
                format!("Sort Method: quicksort  Memory: {kb}kB"),
            ],
            rows: rows.len() as u64,
            loops: 1,
            first_us: self.now_us() - start,
            last_us: self.now_us() - start,
            buffers: child.buffers,
            est_cost: (child.est_cost.1, child.est_cost.1 + n * n.log2() * 0.0025),
            est_rows: child.est_rows,
            width: child.width,
            children: vec![child],
            ..PlanNode::default()
        })
    }

    /// Runs a row source (VALUES, `generate_series`, a constant SELECT, or a query)
    /// and hands each output row to `sink`, one at a time, so `clock_timestamp()`
    /// advances between rows as the sink's work costs time.
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
        let max_rows = self.settings().get_int("max_rows").unwrap_or(10_000_000) as u64;
        if let Some(rows) = &q.values {
            if rows.len() as u64 > max_rows {
                return Err(limit_error(format!(
                    "VALUES has {} rows, over max_rows={max_rows}",
                    rows.len()
                )));
            }
            for r in rows {
                let v = r
                    .iter()
                    .map(|e| self.eval_const(e))
                    .collect::<Result<Vec<_>, _>>()?;
                sink(self, &v)?;
            }
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
                sink(self, &v)
            }
            [FromItem::Series {
                start,
                stop,
                step,
                alias,
            }] => {
                let (a, b) = (self.eval_const(start)?, self.eval_const(stop)?);
                let s = match step {
                    Some(e) => self.eval_const(e)?,
                    None => Value::Int(1),
                };
                let (Value::Int(a), Value::Int(b), Value::Int(s)) = (a, b, s) else {
                    return Err(SqlError::new(
                        ErrorKind::Semantic,
                        "generate_series needs integer arguments",
                    ));
                };
                if s == 0 {
                    return Err(SqlError::new(
                        ErrorKind::Execution,
                        "step size cannot equal zero",
                    ));
                }
                let n = if (s > 0 && b >= a) || (s < 0 && b <= a) {
                    ((b as i128 - a as i128) / s as i128 + 1) as u128
                } else {
                    0
                };
                if n > max_rows as u128 {
                    return Err(limit_error(format!(
                        "generate_series({a}, {b}) would make {n} rows, over max_rows={max_rows}"
                    ))
                    .with_hint(
                        "raise it with SET max_rows, or --set max_rows=N (at most 10000000)",
                    ));
                }
                let name = alias.clone().unwrap_or_else(|| "generate_series".into());
                let scope = Scope {
                    columns: vec![(name.clone(), name, SqlType::Int8)],
                };
                let (cols, exprs) = projection(&q.items, &scope)?;
                *columns = cols;
                let filter = q.filter.as_ref().map(|f| bind(f, &scope)).transpose()?;
                let mut x = a;
                let mut out = Vec::with_capacity(exprs.len());
                for _ in 0..n {
                    let row = [Value::Int(x)];
                    x = x.wrapping_add(s);
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
                }
                Ok(())
            }
            _ => {
                let (_, result) = self.run_select(q, true)?;
                *columns = result.columns;
                for r in result.rows {
                    sink(self, &r)?;
                }
                Ok(())
            }
        }
    }

    fn eval_bound(&mut self, e: &Bound, row: &[Value]) -> Result<Value, SqlError> {
        eval(e, row, &mut self.env())
    }

    /// The rows an UPDATE or DELETE changes, found with the planner's access path.
    fn scan_for_change(
        &mut self,
        table: usize,
        filter: Option<&Expr>,
    ) -> Result<Vec<(u64, Row)>, SqlError> {
        // UPDATE and DELETE need whole rows (the new version is built from the
        // old one), so the scan is never index-only, as in PostgreSQL.
        let q = Select {
            items: vec![SelectItem::Wildcard],
            filter: filter.cloned(),
            ..Select::empty()
        };
        let info = self.planner_info(table);
        let plan = plan_scan(&info, &q)?;
        Ok(self.run_scan(table, &plan, None)?.rows)
    }
}

impl<E: QueryEngine> Executor for E {}

fn unqualify_select(q: &Select) -> Select {
    let mut q = q.clone();
    q.filter = q.filter.as_ref().map(unqualify);
    for o in &mut q.order_by {
        o.expr = unqualify(&o.expr);
    }
    for item in &mut q.items {
        if let SelectItem::Expr { expr, .. } = item {
            *expr = unqualify(expr);
        }
    }
    q
}

/// ORDER BY order of two values: by value in `order`, NULLs first or last as
/// the item says (whatever the direction).
fn sql_order(a: &Value, b: &Value, order: Order, nulls_first: bool) -> Ordering {
    let null_side = if nulls_first {
        Ordering::Less
    } else {
        Ordering::Greater
    };
    match (a.is_null(), b.is_null()) {
        (true, true) => Ordering::Equal,
        (true, false) => null_side,
        (false, true) => null_side.reverse(),
        _ => {
            let c = compare(a, b).unwrap_or(Ordering::Equal);
            if order == Order::Desc {
                c.reverse()
            } else {
                c
            }
        }
    }
}

fn wrap_limit(child: PlanNode, rows: u64, limit: u64) -> PlanNode {
    PlanNode {
        title: "Limit".into(),
        details: Vec::new(),
        rows,
        loops: 1,
        first_us: child.first_us,
        last_us: child.last_us,
        buffers: child.buffers,
        est_cost: child.est_cost,
        est_rows: child.est_rows.min(limit as f64),
        width: child.width,
        children: vec![child],
        ..PlanNode::default()
    }
}

/// Output column names and bound expressions of a select list.
fn projection(items: &[SelectItem], scope: &Scope) -> Result<(Vec<String>, Vec<Bound>), SqlError> {
    let mut names = Vec::new();
    let mut exprs = Vec::new();
    for item in items {
        match item {
            SelectItem::Wildcard => {
                for (i, (_, c, _)) in scope.columns.iter().enumerate() {
                    names.push(c.clone());
                    exprs.push(Bound::Col(i));
                }
            }
            SelectItem::Expr { expr, alias } => {
                crate::sql::eval::reject_numeric_output(expr)?;
                names.push(alias.clone().unwrap_or_else(|| output_name(expr)));
                exprs.push(bind(expr, scope)?);
            }
        }
    }
    Ok((names, exprs))
}

/// PostgreSQL's column name for an unnamed select item.
fn output_name(e: &Expr) -> String {
    match e {
        Expr::Column { name, .. } => name.clone(),
        Expr::Call(f) => f.name().to_string(),
        Expr::Cast { expr, .. } => output_name(expr),
        _ => "?column?".to_string(),
    }
}
