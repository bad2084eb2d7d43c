//! SELECT of one table on any profile, and what every query's execution shares:
//! constant and LIMIT evaluation, filters, ORDER BY's sort, LIMIT's node, the
//! projection. Written once as [`SelectExec`], a trait every [`QueryEngine`]
//! gets for free; the join executor and the top-level `Executor` build on it.

use super::engine::QueryEngine;
use super::plan_node::PlanNode;
use super::row::Row;
use crate::sql::ast::{Expr, Order, OrderItem, Select, SelectItem};
use crate::sql::error::{ErrorKind, SqlError};
use crate::sql::eval::{accepts, bind, compare, eval, Bound, Scope};
use crate::sql::plan::{plan_scan, plan_top_scan};
use crate::sql::rewrite::unqualify;
use crate::value::Value;
use std::cmp::Ordering;

/// A query's output: column names and rows.
#[derive(Debug, Default)]
pub struct QueryResult {
    pub columns: Vec<String>,
    pub rows: Vec<Vec<Value>>,
}

pub(super) fn limit_error(msg: String) -> SqlError {
    SqlError::new(ErrorKind::Limit, msg)
}

/// SELECT of one table, and what every query's execution shares.
pub trait SelectExec: QueryEngine {
    fn eval_const(&mut self, e: &Expr) -> Result<Value, SqlError> {
        let b = bind(e, &Scope::default())?;
        eval(&b, &[], &mut self.env())
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
            // numeric_int8 rounds half away from zero.
            Value::Numeric(n) => match n.to_i64_rounded() {
                Ok(i) if i >= 0 => Ok(Some(i as u64)),
                Ok(_) => Err(SqlError::new(
                    ErrorKind::Execution,
                    "LIMIT must not be negative",
                )),
                Err(_) => Err(SqlError::new(ErrorKind::Execution, "bigint out of range")),
            },
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

    /// Sorts (when the scan did not give ORDER BY's order) and applies LIMIT.
    fn finish_rows(
        &mut self,
        mut node: PlanNode,
        rows: &mut Vec<Row>,
        q: &Select,
        scope: &Scope,
        start: f64,
    ) -> Result<PlanNode, SqlError> {
        let limit = self.limit_of(q)?;
        if !q.order_by.is_empty() {
            node = self.sort(node, rows, &q.order_by, scope, start, limit)?;
        }
        if let Some(l) = limit {
            rows.truncate(l as usize);
            node = wrap_limit(node, rows.len() as u64, l);
        }
        Ok(node)
    }

    /// OFFSET's value: NULL is no offset, a negative one an error.
    fn eval_offset(&mut self, e: Option<&Expr>) -> Result<Option<u64>, SqlError> {
        self.eval_limit(e).map_err(|mut err| {
            err.message = err.message.replace("LIMIT", "OFFSET");
            err
        })
    }

    fn limit_of(&mut self, q: &Select) -> Result<Option<u64>, SqlError> {
        self.eval_limit(q.limit.as_ref())
    }

    fn select_table(
        &mut self,
        name: &str,
        q: &Select,
        execute: bool,
        read: Option<&super::engine::PlannedRead>,
    ) -> Result<(PlanNode, QueryResult), SqlError> {
        let id = self.table_id(name)?;
        let top = read.is_none() && self.take_gather(q);
        // One table: qualifiers (`demo.id`, `d.id`) can only mean it.
        let q = &unqualify_select(q);
        let info = self.scan_info(id);
        let plan = match read {
            Some(r) => r.plan.clone(),
            None if top => plan_top_scan(&info, q)?,
            None => plan_scan(&info, q)?,
        };
        let limit = self.eval_limit(q.limit.as_ref())?;
        let need_sort = !plan.ordered;
        let scan_limit = if need_sort { None } else { limit };
        let start = self.now_us();
        let scope = self.scan_scope(id, &plan);
        // A GroupAggregate's LIMIT stops a scan already in group order.
        let stop = read
            .and_then(|r| r.stop.as_ref())
            .filter(|_| !need_sort && limit.is_none());
        let (mut node, mut rows): (PlanNode, Vec<Row>) = if execute {
            let out = match stop {
                Some(stop) => self.run_scan_until_group(id, &plan, stop)?,
                None => self.run_scan(id, &plan, scan_limit)?,
            };
            (out.node, out.rows.into_iter().map(|(_, r)| r).collect())
        } else {
            (self.run_scan(id, &plan, Some(0))?.node, Vec::new())
        };
        node.why = plan.why.clone();
        if need_sort {
            node = self.sort(node, &mut rows, &q.order_by, &scope, start, limit)?;
            if let Some(sort) = plan.cost.and_then(|c| c.sort) {
                node.est_cost = (sort.startup, sort.total);
                node.costed = true;
            }
        }
        if let Some(l) = limit {
            rows.truncate(l as usize);
            node = wrap_limit(node, rows.len() as u64, l);
            if let Some(c) = plan.cost {
                let input = c.sort.unwrap_or(c.scan);
                let limited =
                    crate::sql::plan::cost::sort::limit(&input, c.limit.unwrap_or(l as f64));
                node.est_cost = (limited.startup, limited.total);
                node.est_rows = limited.rows;
                node.costed = true;
            }
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
        bound: Option<u64>,
    ) -> Result<PlanNode, SqlError> {
        let keys = order
            .iter()
            .map(|o| Ok((bind(&o.expr, scope)?, o.order, o.nulls_come_first())))
            .collect::<Result<Vec<_>, SqlError>>()?;
        let n = rows.len().max(2) as f64;
        // Each row's sort keys, computed once (a key may be an expression:
        // `ORDER BY a * 2`), travel with the row through a stable sort.
        let mut keyed = Vec::with_capacity(rows.len());
        for (arrived, row) in rows.iter_mut().enumerate() {
            let values = keys
                .iter()
                .map(|(k, ..)| self.eval_bound(k, row))
                .collect::<Result<Vec<_>, _>>()?;
            super::aggregate::accumulate::check_sortable(values.iter())?;
            keyed.push((values, arrived, std::mem::take(row)));
        }
        keyed.sort_by(|(a, ..), (b, ..)| {
            for (i, (_, ord, nulls_first)) in keys.iter().enumerate() {
                let c = sql_order(&a[i], &b[i], *ord, *nulls_first);
                if c != Ordering::Equal {
                    return c;
                }
            }
            Ordering::Equal
        });
        // Below a LIMIT of k, once more than 2k rows have come PostgreSQL
        // keeps only the best k in a heap (`tuplesort_set_bound`): a top-N
        // heapsort, holding k rows, not all of them.
        let top_n = bound.filter(|&k| rows.len() as u64 > 2 * k);
        let heap = top_n.map(|k| {
            // Each row's place in the output, by arrival: the heap's ranks.
            let mut ranks = vec![0; keyed.len()];
            for (place, (_, arrived, _)) in keyed.iter().enumerate() {
                ranks[*arrived] = place;
            }
            super::plan_phase::top_n_heap(&ranks, k)
        });
        for (slot, (.., row)) in rows.iter_mut().zip(keyed) {
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
        let held = top_n.unwrap_or(rows.len() as u64);
        let kb = (held * u64::from(child.width + 24)).div_ceil(1024).max(25);
        let method = if top_n.is_some() {
            "top-N heapsort"
        } else {
            "quicksort"
        };
        let detail = format!("Sort Method: {method}  Memory: {kb}kB");
        if !rows.is_empty() {
            let out = bound.map_or(rows.len() as u64, |k| k.min(rows.len() as u64));
            let phase = super::plan_phase::Phase::of("Sort", "sort", "");
            let taken = (rows.len() as u64, out);
            super::plan_phase::record_with_heap(self, phase, taken, detail.clone(), heap);
        }
        Ok(PlanNode {
            title: "Sort".into(),
            details: vec![format!("Sort Key: {}", key_text.join(", ")), detail],
            // Under a LIMIT the Sort hands up only the rows the Limit asks for.
            rows: bound.map_or(rows.len() as u64, |k| k.min(rows.len() as u64)),
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

    fn eval_bound(&mut self, e: &Bound, row: &[Value]) -> Result<Value, SqlError> {
        eval(e, row, &mut self.env())
    }

    fn passes(&mut self, filter: &[Bound], row: &[Value]) -> Result<bool, SqlError> {
        for f in filter {
            if !accepts(f, row, &mut self.env())? {
                return Ok(false);
            }
        }
        Ok(true)
    }
}

impl<E: QueryEngine> SelectExec for E {}

/// `q` with its columns unqualified (one table: `t.id` can only mean `id`).
pub(super) fn unqualify_select(q: &Select) -> Select {
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
pub(super) fn sql_order(a: &Value, b: &Value, order: Order, nulls_first: bool) -> Ordering {
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

/// OFFSET and LIMIT on rows already in their final order, under one `Limit`
/// node as PostgreSQL prints them (none when the query has neither).
pub(super) fn apply_offset_limit<E: SelectExec>(
    engine: &mut E,
    node: PlanNode,
    rows: &mut Vec<Vec<Value>>,
    q: &Select,
) -> Result<PlanNode, SqlError> {
    let offset = engine.eval_offset(q.offset.as_ref())?;
    let limit = engine.eval_limit(q.limit.as_ref())?;
    if offset.is_none() && limit.is_none() {
        return Ok(node);
    }
    let skip = (offset.unwrap_or(0) as usize).min(rows.len());
    rows.drain(..skip);
    if let Some(l) = limit {
        rows.truncate(l as usize);
    }
    Ok(wrap_limit(
        node,
        rows.len() as u64,
        limit.unwrap_or(u64::MAX),
    ))
}

pub(super) fn wrap_limit(child: PlanNode, rows: u64, limit: u64) -> PlanNode {
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
pub(super) fn projection(
    items: &[SelectItem],
    scope: &Scope,
) -> Result<(Vec<String>, Vec<Bound>), SqlError> {
    let mut names = Vec::new();
    let mut exprs = Vec::new();
    for item in items {
        match item {
            SelectItem::Wildcard => {
                for (i, (_, c, _)) in scope.columns.iter().enumerate() {
                    if crate::sql::eval::is_system_column(c) {
                        continue; // `*` is the table's own columns
                    }
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
/// A type's internal name, as a cast's output column is named after it.
fn type_column_name(ty: crate::value::SqlType) -> &'static str {
    use crate::value::SqlType::*;
    match ty {
        Int2 => "int2",
        Int4 => "int4",
        Int8 => "int8",
        Timestamptz => "timestamptz",
        Text => "text",
        Float8 => "float8",
        Float4 => "float4",
        Bool => "bool",
        Uuid => "uuid",
        Tid => "tid",
        Numeric(_) => "numeric",
        other => other.pg_name(),
    }
}

pub(super) fn output_name(e: &Expr) -> String {
    match e {
        Expr::Column { name, .. } => name.clone(),
        Expr::Call(f) => f.name().to_string(),
        // A date/time constant was a cast of a quoted literal (`DATE '…'`,
        // `'1 day'::interval`): FigureColname names it after the type.
        Expr::Literal(Value::Date(_)) => "date".to_string(),
        Expr::Literal(Value::LocalTimestamp(_)) => "timestamp".to_string(),
        Expr::Literal(Value::Timestamp(_)) => "timestamptz".to_string(),
        Expr::Literal(Value::Interval(_)) => "interval".to_string(),
        // FigureColname: a cast takes its operand's name when that is a
        // column's or a function's, else its type's (`1.5::float8` is `float8`).
        Expr::Cast { expr, ty } => match **expr {
            Expr::Column { .. }
            | Expr::Call(_)
            | Expr::Function { .. }
            | Expr::Aggregate { .. } => output_name(expr),
            _ => type_column_name(*ty).to_string(),
        },
        // A subscript is named after what it subscripts (FigureColname).
        Expr::Function {
            func: crate::sql::functions::ScalarFunc::PointSubscript,
            args,
        } => output_name(&args[0]),
        Expr::Function { func, .. } => func.name().to_ascii_lowercase(),
        Expr::Aggregate { func, .. } => func.name().to_string(),
        Expr::Case { .. } => "case".to_string(),
        _ => "?column?".to_string(),
    }
}
