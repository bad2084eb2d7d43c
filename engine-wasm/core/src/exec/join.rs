//! Nested Loop joins of two tables on any profile: the outer side is
//! scanned once; for each outer row the inner side is searched through an index on
//! the join column (`Index Cond: (id = a.id)`, loops = outer rows), or scanned in
//! full when no index fits. Hash and merge joins are not simulated.

use super::batched_join::{any_array_shown, BatchedJoin, Lookup};
use super::join_choice::{self, SideQuery};
use super::nested_loop::{index_cond_shown, merge_loop, Loops, Side};
use super::plan_node::set_cost;
use super::plan_node::PlanNode;
use super::row::Row;
use super::select::{QueryResult, SelectExec};
use crate::sql::ast::{BinOp, Expr, FromItem, Select, SelectItem};
use crate::sql::error::unsupported;
use crate::sql::error::{ErrorKind, SqlError};
use crate::sql::eval::{bind, Bound as BoundExpr, Scope};
use crate::sql::plan::cost::Cost;
use crate::sql::plan::join::{JoinChoice, Method};
use crate::sql::plan::{conjuncts, plan_scan, AccessPath, KeyCond, ScanDirection, ScanPlan};
use crate::sql::rewrite::{column_refs, inline_cte, unqualify};
use crate::trace::Event;
use std::ops::Bound;

/// Which side of a join an expression's columns come from.
#[derive(PartialEq)]
pub enum Belongs {
    Outer,
    Inner,
    Both,
}

pub(super) fn and_all(parts: Vec<Expr>) -> Option<Expr> {
    parts.into_iter().reduce(|a, b| Expr::Binary {
        op: BinOp::And,
        left: Box::new(a),
        right: Box::new(b),
    })
}

/// A join condition an inner index can look up: (its place among the join
/// conditions, the index, the outer expression, the condition, the inner column).
type KeyMatch = (usize, usize, Expr, Expr, usize);

/// The join half of the executor.
pub trait JoinExec: SelectExec {
    fn side(&self, item: &FromItem) -> Result<Side, SqlError> {
        match item {
            FromItem::Table { name, alias } => Ok(Side {
                table: self.table_id(name)?,
                name: alias
                    .clone()
                    .unwrap_or_else(|| crate::exec::schemas::bare(name).to_string()),
                derived: None,
                lateral: None,
            }),
            FromItem::Series { .. } => Err(unsupported("joining generate_series()")),
            FromItem::Subquery { .. } => Err(unsupported("joining a subquery in FROM")),
            FromItem::Inspect { func, .. } => {
                Err(unsupported(format!("joining {}()", func.name())))
            }
        }
    }

    fn has_column(&self, side: &Side, col: &str) -> bool {
        self.planner_info(side.table)
            .columns
            .iter()
            .any(|(c, _)| c == col)
    }

    fn belongs(&self, e: &Expr, outer: &Side, inner: &Side) -> Result<Belongs, SqlError> {
        let mut refs = Vec::new();
        column_refs(e, &mut refs);
        let (mut o, mut i) = (false, false);
        for (q, c) in refs {
            match q.as_deref() {
                Some(n) if n == outer.name => o = true,
                Some(n) if n == inner.name => i = true,
                Some(n) => {
                    return Err(SqlError::new(
                        ErrorKind::Semantic,
                        format!("missing FROM-clause entry for table \"{n}\""),
                    ))
                }
                None if self.has_column(outer, &c) => o = true,
                None => i = true,
            }
        }
        Ok(match (o, i) {
            (true, true) => Belongs::Both,
            (false, true) => Belongs::Inner,
            _ => Belongs::Outer,
        })
    }

    /// The columns of `side` the query uses above its scan (select list,
    /// the join's own conditions, USING, ORDER BY), as the select list of
    /// that side's scan: what it hands up, and so its `width=`. (The scan
    /// adds its own conditions' columns when it asks whether an index
    /// covers the query.)
    fn needed_columns(
        &self,
        q: &Select,
        using: &[String],
        outer: &Side,
        inner: &Side,
        side: &Side,
    ) -> Vec<SelectItem> {
        if q.items.iter().any(|i| matches!(i, SelectItem::Wildcard)) {
            return vec![SelectItem::Wildcard];
        }
        let mut refs = Vec::new();
        for item in &q.items {
            if let SelectItem::Expr { expr, .. } = item {
                column_refs(expr, &mut refs);
            }
        }
        // A condition on one side alone stays in that side's scan: the
        // join needs only the columns its own conditions compare.
        let mut parts = Vec::new();
        for e in q
            .filter
            .iter()
            .chain(q.joins.iter().filter_map(|j| j.on.as_ref()))
        {
            conjuncts(e, &mut parts);
        }
        for e in &parts {
            if self
                .belongs(e, outer, inner)
                .is_ok_and(|b| b == Belongs::Both)
            {
                column_refs(e, &mut refs);
            }
        }
        for e in q.order_by.iter().map(|o| &o.expr) {
            column_refs(e, &mut refs);
        }
        refs.extend(using.iter().map(|c| (None, c.clone())));
        let mut names: Vec<String> = refs
            .into_iter()
            .filter(|(t, c)| match t.as_deref() {
                Some(t) => t == side.name,
                // Unqualified: the outer side's if it has the column (as
                // `belongs` decides), and a USING column is both sides'.
                None if side.name == outer.name => self.has_column(outer, c),
                None => {
                    self.has_column(inner, c) && (!self.has_column(outer, c) || using.contains(c))
                }
            })
            .map(|(_, c)| c)
            .collect();
        names.sort();
        names.dedup();
        names
            .into_iter()
            .map(|name| SelectItem::Expr {
                expr: Expr::Column { table: None, name },
                alias: None,
            })
            .collect()
    }

    /// The combined row's columns: outer's then inner's.
    fn join_scope(&self, outer: &Side, inner: &Side) -> Scope {
        let mut columns = Vec::new();
        for s in [outer, inner] {
            for (c, ty) in self.planner_info(s.table).columns {
                columns.push((s.name.clone(), c, ty));
            }
        }
        Scope { columns }
    }

    /// Finds `inner.col = <outer expr>` with an index on `inner.col` first.
    fn lookup_key(
        &self,
        conds: &[Expr],
        outer: &Side,
        inner: &Side,
    ) -> Result<Option<KeyMatch>, SqlError> {
        let info = self.planner_info(inner.table);
        for (n, c) in conds.iter().enumerate() {
            let Expr::Binary {
                op: BinOp::Eq,
                left,
                right,
            } = c
            else {
                continue;
            };
            for (a, b) in [(left, right), (right, left)] {
                let (Expr::Column { name, .. }, true) =
                    (a.as_ref(), self.belongs(a, outer, inner)? == Belongs::Inner)
                else {
                    continue;
                };
                if self.belongs(b, outer, inner)? != Belongs::Outer {
                    continue;
                }
                let col = info.columns.iter().position(|(c, _)| c == name);
                // A partial index may lack the rows a join looks up.
                let index = info.indexes.iter().position(|i| {
                    Some(i.key[0].0) == col && i.predicate.is_empty() && i.hash_columns < 2
                });
                if let (Some(index), Some(col)) = (index, col) {
                    return Ok(Some((n, index, b.as_ref().clone(), c.clone(), col)));
                }
            }
        }
        Ok(None)
    }

    fn select_join(
        &mut self,
        q: &Select,
        execute: bool,
    ) -> Result<(PlanNode, QueryResult), SqlError> {
        let (outer_item, inner_item, on, using) = match (q.from.as_slice(), q.joins.as_slice()) {
            ([a], [j]) => (a, &j.item, j.on.clone(), j.using.clone()),
            ([a, b], []) => (a, b, None, Vec::new()),
            _ => return Err(unsupported("joins of more than two tables")),
        };
        let (outer_item, f1) = inline_cte(outer_item, &q.with)?;
        let (inner_item, f2) = inline_cte(inner_item, &q.with)?;
        let (first, second) = (self.side(&outer_item)?, self.side(&inner_item)?);
        let (outer, inner) = (first.clone(), second.clone());
        let mut parts = Vec::new();
        for e in [q.filter.clone(), on, f1, f2].into_iter().flatten() {
            conjuncts(&e, &mut parts);
        }
        for c in &using {
            parts.push(Expr::Binary {
                op: BinOp::Eq,
                left: Box::new(Expr::Column {
                    table: Some(outer.name.clone()),
                    name: c.clone(),
                }),
                right: Box::new(Expr::Column {
                    table: Some(inner.name.clone()),
                    name: c.clone(),
                }),
            });
        }
        let (mut outer_f, mut inner_f, mut both) = (Vec::new(), Vec::new(), Vec::new());
        for p in parts {
            match self.belongs(&p, &outer, &inner)? {
                Belongs::Outer => outer_f.push(unqualify(&p)),
                Belongs::Inner => inner_f.push(unqualify(&p)),
                Belongs::Both => both.push(p),
            }
        }
        let outer_items = self.needed_columns(q, &using, &outer, &inner, &outer);
        let inner_items = self.needed_columns(q, &using, &outer, &inner, &inner);
        let start = self.now_us();
        // On pg the planner picks the outer table and the method by cost.
        let (a, b) = (
            SideQuery {
                side: &first,
                filter: &outer_f,
                items: &outer_items,
            },
            SideQuery {
                side: &second,
                filter: &inner_f,
                items: &inner_items,
            },
        );
        let planned_limit = crate::sql::plan::choose::constant_limit(q);
        let choice = join_choice::plan(self, &a, &b, &both, &q.order_by, planned_limit)?;
        // Without an ORDER BY the join's rows are handed out as they come,
        // so a LIMIT stops a Hash Join's probing or a Nested Loop's loops.
        let limit = if q.order_by.is_empty() {
            self.limit_of(q)?
        } else {
            None
        };
        let swapped = choice.as_ref().is_some_and(|c| c.swapped);
        let (a, b) = if swapped { (b, a) } else { (a, b) };
        if let Some(c) = choice.as_ref().filter(|c| c.method == Method::Merge) {
            let (mut node, joined) = super::merge_join::run(self, (&a, &b), &both, c, execute)?;
            if let Some(w) = join_choice::output_width(self, q, &using, &first, &second) {
                node.width = w;
            }
            // Chosen for an ORDER BY on its key, it hands its rows over in
            // that order: no Sort above it.
            let unsorted;
            let q = if c.in_order {
                unsorted = Select {
                    order_by: Vec::new(),
                    ..q.clone()
                };
                &unsorted
            } else {
                q
            };
            let out =
                self.join_result(q, node, joined, &using, (&first, &second), swapped, start)?;
            return Ok(with_top_costs(out, choice.as_ref(), q));
        }
        if let Some(c) = choice.as_ref().filter(|c| c.method == Method::Hash) {
            let up = join_choice::passed_up(self, q, &both, b.side, (&first, &second));
            let run = (execute, limit);
            let (mut node, joined) = join_choice::run_hash(self, (&a, &b), &both, c, &up, run)?;
            if let Some(w) = join_choice::output_width(self, q, &using, &first, &second) {
                node.width = w;
            }
            let out =
                self.join_result(q, node, joined, &using, (&first, &second), swapped, start)?;
            return Ok(with_top_costs(out, choice.as_ref(), q));
        }
        let (outer, inner) = (a.side.clone(), b.side.clone());
        let (outer_f, inner_f) = (a.filter.to_vec(), b.filter.to_vec());
        let (outer_items, inner_items) = (a.items.to_vec(), b.items.to_vec());
        let mut key = self.lookup_key(&both, &outer, &inner)?;
        // The planner's cheapest index on the same column, where it chose.
        if let (Some(k), Some(ix)) = (&mut key, choice.as_ref().and_then(|c| c.lookup)) {
            if self.planner_info(inner.table).indexes[ix].key[0].0 == k.4 {
                k.1 = ix;
            }
        }
        if let Some((n, ..)) = &key {
            both.remove(*n);
        }
        let scope = self.join_scope(&outer, &inner);
        let join_filter = both
            .iter()
            .map(|e| bind(e, &scope))
            .collect::<Result<Vec<_>, _>>()?;
        let outer_q = Select {
            items: outer_items,
            filter: and_all(outer_f),
            ..Select::empty()
        };
        // The planner's read of the outer side, where it chose by cost.
        let outer_plan = match &choice {
            Some(c) => c.reads.0.clone(),
            None => plan_scan(&self.scan_info(outer.table), &outer_q)?,
        };
        let batch = self.join_batch_size();
        let outer_read = super::nested_loop::outer_read(
            self,
            outer.table,
            &outer_plan,
            (execute, limit, batch),
        )?;
        let outer_scope = self.join_scope(&outer, &outer);
        let key_expr = match &key {
            Some((_, _, e, ..)) => Some(bind(
                &unqualify(e),
                &Scope {
                    columns: outer_scope.columns[..self.planner_info(outer.table).columns.len()]
                        .to_vec(),
                },
            )?),
            None => None,
        };
        let max_rows = self.settings().max_rows() as u64;
        let mut acc = Loops::default();
        let inner_info = self.scan_info(inner.table);
        // The lookup reads only the index when it holds every column the
        // query needs of the inner table.
        let lookup_only = key.as_ref().is_some_and(|(_, index, ..)| {
            let index = &inner_info.indexes[*index];
            let covered = |e: &Expr| {
                let mut refs = Vec::new();
                column_refs(e, &mut refs);
                refs.iter().all(|(_, name)| {
                    inner_info
                        .column_position(name)
                        .is_some_and(|c| index.covers(c))
                })
            };
            inner_f.iter().all(covered)
                && inner_items.iter().all(|i| match i {
                    SelectItem::Expr { expr, .. } => covered(expr),
                    SelectItem::Wildcard => false,
                })
        });
        let mut memo = choice
            .as_ref()
            .and_then(|c| c.memoize)
            .map(|_| super::memoize::MemoCache::default());
        let outer_info = self.scan_info(outer.table);
        let key_type = key.as_ref().and_then(|(_, _, e, ..)| match e {
            Expr::Column { name, .. } => outer_info
                .columns
                .iter()
                .find(|(c, _)| c == name)
                .map(|c| c.1),
            _ => None,
        });
        let inner_scan = plan_scan(
            &inner_info,
            &Select {
                items: inner_items.clone(),
                filter: and_all(inner_f.clone()),
                ..Select::empty()
            },
        )?;
        match (&key, &key_expr) {
            (Some((_, index, _, cond, col)), Some(k)) if batch > 1 => {
                let lookup = Lookup {
                    index: *index,
                    outer_key: k.clone(),
                    inner_col: *col,
                    shown: any_array_shown(cond, &inner.name, batch),
                };
                let rows: Vec<&Row> = outer_read.rows.iter().collect();
                self.batched_loops(
                    &rows,
                    batch,
                    &lookup,
                    &inner,
                    &inner_f,
                    &join_filter,
                    limit,
                    &mut acc,
                )?;
            }
            _ => {
                self.rescanning(true);
                for orow in &outer_read.rows {
                    if limit.is_some_and(|l| acc.joined.len() as u64 >= l) {
                        break;
                    }
                    acc.outer_taken += 1;
                    let memo_key = match (&memo, &key_expr) {
                        (Some(_), Some(k)) => Some(self.eval_bound(k, orow)?),
                        _ => None,
                    };
                    if let (Some(cache), Some(v)) = (memo.as_mut(), &memo_key) {
                        if let Some(rows) = cache.hit(v) {
                            for irow in rows {
                                let combined: Row =
                                    orow.iter().chain(irow.iter()).cloned().collect();
                                if self.passes(&join_filter, &combined)? {
                                    acc.joined.push(combined);
                                }
                            }
                            continue;
                        }
                    }
                    let plan = match (&key, &key_expr) {
                        (Some((_, index, _, shown, _)), Some(k)) => {
                            let v = self.eval_bound(k, orow)?;
                            let (key, at_us) = (v.pg_text(), self.now_us());
                            // The network view draws a yb join's loops; pg's
                            // inner scans show them already.
                            if self.is_yugabyte() {
                                self.trace_detail(|| Event::JoinLoop {
                                    number: acc.loops as u32 + 1,
                                    keys: 1,
                                    first_key: key.clone(),
                                    last_key: key,
                                    at_us,
                                });
                            }
                            let shown = index_cond_shown(shown, &inner.name);
                            lookup_plan(*index, v, shown, &inner_f, lookup_only)
                        }
                        _ => inner_scan.clone(),
                    };
                    let out = self.run_scan(inner.table, &plan, None)?;
                    acc.loops += 1;
                    acc.add_inner_rows(out.rows.len() as u64, max_rows)?;
                    for (_, irow) in &out.rows {
                        let combined: Row = orow.iter().chain(irow.iter()).cloned().collect();
                        if self.passes(&join_filter, &combined)? {
                            acc.joined.push(combined);
                        }
                    }
                    if let (Some(cache), Some(v)) = (memo.as_mut(), &memo_key) {
                        let types: Vec<_> = inner_info.columns.iter().map(|c| c.1).collect();
                        let key_type = key_type.map_or_else(Vec::new, |t| vec![t]);
                        let key_bytes = self.minimal_tuple_len(std::slice::from_ref(v), &key_type);
                        let rows: Vec<Row> = out.rows.iter().map(|(_, r)| r.clone()).collect();
                        let row_bytes =
                            rows.iter().map(|r| self.minimal_tuple_len(r, &types)).sum();
                        cache.store(v, rows, key_bytes, row_bytes);
                    }
                    merge_loop(&mut acc.inner_node, out.node);
                }
                self.rescanning(false);
            }
        }
        let reached = limit.is_some_and(|l| acc.joined.len() as u64 >= l);
        if let Some(l) = limit {
            // The Limit above stops pulling once it has its rows: the last
            // outer row's other partners are never handed up.
            acc.joined.truncate(l as usize);
        }
        let taken = (reached, acc.outer_taken);
        let outer_out =
            super::nested_loop::outer_ran(self, outer.table, &outer_plan, outer_read, taken)?;
        let mut outer_node = outer_out.node;
        alias_title(
            &mut outer_node,
            &self.planner_info(outer.table).name,
            &outer.name,
        );
        if acc.inner_node.is_none() && batch == 1 {
            // No outer row, or EXPLAIN without ANALYZE: the inner scan as
            // planned, run for no row.
            let plan = match &key {
                Some((_, index, _, shown, _)) => {
                    let shown = index_cond_shown(shown, &inner.name);
                    lookup_plan(
                        *index,
                        crate::value::Value::Null,
                        shown,
                        &inner_f,
                        lookup_only,
                    )
                }
                None => inner_scan.clone(),
            };
            acc.inner_node = Some(self.run_scan(inner.table, &plan, Some(0))?.node);
        }
        let batched = batch > 1 && key.is_some();
        if batched {
            // The key condition moved from the index to the join filter.
            if let Some((_, _, _, cond, _)) = &key {
                both.insert(0, cond.clone());
            }
        }
        let Loops {
            joined,
            inner_node,
            inner_rows: inner_rows_total,
            loops,
            ..
        } = acc;
        let mut inner_node = inner_node.unwrap_or_default();
        alias_title(
            &mut inner_node,
            &self.planner_info(inner.table).name,
            &inner.name,
        );
        inner_node.loops = loops;
        inner_node.rows = super::plan_node::rows_per_loop(inner_rows_total, loops);
        if let Some(c) = choice.as_ref().and_then(|c| c.inner) {
            // `cost_index` with the loop count: the scans' own cost model.
            set_cost(&mut inner_node, &c);
            if let Some(w) = inner_scan.cost.map(|c| c.width) {
                inner_node.width = w as u32;
            }
        }
        let join_width = choice
            .as_ref()
            .and_then(|_| join_choice::output_width(self, q, &using, &first, &second));
        let calls = outer_out.rows.len() as u64;
        let memo_est = choice.as_ref().and_then(|c| c.memoize);
        if let (Some(cache), Some(est), Some((_, _, e, ..))) = (&memo, memo_est, &key) {
            let cache_key = match e {
                Expr::Column { table: None, name } => format!("{}.{name}", outer.name),
                other => crate::sql::deparse::deparse(other),
            };
            inner_node = cache.node(inner_node, cache_key, calls.max(u64::from(!execute)), est);
        }
        let node = PlanNode {
            title: if batched {
                "YB Batched Nested Loop Join".into()
            } else {
                "Nested Loop".into()
            },
            details: both
                .iter()
                .map(|e| format!("Join Filter: {}", crate::sql::deparse::deparse(e)))
                .collect(),
            rows: joined.len() as u64,
            loops: 1,
            first_us: outer_node.first_us,
            last_us: self.now_us() - start,
            buffers: {
                let mut b = outer_node.buffers;
                b.add(&inner_node.buffers);
                b
            },
            est_cost: choice
                .as_ref()
                .map_or((0.0, outer_node.est_cost.1 + inner_node.est_cost.1), |c| {
                    (c.cost.startup, c.cost.total)
                }),
            est_rows: choice.as_ref().map_or(outer_node.est_rows, |c| c.cost.rows),
            costed: choice.is_some(),
            why: choice.as_ref().map(|c| c.why(&outer.name, &inner.name)),
            width: join_width.unwrap_or(outer_node.width + inner_node.width),
            children: vec![outer_node, inner_node],
            ..PlanNode::default()
        };
        let out = self.join_result(q, node, joined, &using, (&first, &second), swapped, start)?;
        Ok(with_top_costs(out, choice.as_ref(), q))
    }

    /// The join's result in the query's terms: rows back in the written
    /// order of the tables (when the planner made the second one outer),
    /// then ORDER BY, LIMIT and the select list.
    #[allow(clippy::too_many_arguments)]
    fn join_result(
        &mut self,
        q: &Select,
        node: PlanNode,
        mut joined: Vec<Row>,
        using: &[String],
        (first, second): (&Side, &Side),
        swapped: bool,
        start: f64,
    ) -> Result<(PlanNode, QueryResult), SqlError> {
        if swapped {
            let width = self.planner_info(second.table).columns.len();
            for r in &mut joined {
                r.rotate_left(width);
            }
        }
        let scope = self.join_scope(first, second);
        let (columns, exprs) = join_projection(&q.items, &scope, using, first, second)?;
        // A USING column is one column of the join: unqualified, it is the
        // first side's (as in the select list).
        let mut ordered = q.clone();
        for o in &mut ordered.order_by {
            if let Expr::Column { table: None, name } = &o.expr {
                if using.contains(name) {
                    o.expr = Expr::Column {
                        table: Some(first.name.clone()),
                        name: name.clone(),
                    };
                }
            }
        }
        let node = self.finish_rows(node, &mut joined, &ordered, &scope, start)?;
        let rows = joined
            .iter()
            .map(|r| {
                exprs
                    .iter()
                    .map(|e| self.eval_bound(e, r))
                    .collect::<Result<Vec<_>, _>>()
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok((node, QueryResult { columns, rows }))
    }
}

impl<E: SelectExec> JoinExec for E {}

/// Gives the nodes the query puts above a join the planner's estimates:
/// the Sort an ORDER BY on the join key needs, when the join was chosen
/// with it, and a constant LIMIT (without OFFSET) over a costed node
/// (`adjust_limit_rows_costs`).
fn with_top_costs(
    (mut node, result): (PlanNode, QueryResult),
    choice: Option<&JoinChoice>,
    q: &Select,
) -> (PlanNode, QueryResult) {
    if let Some(c) = choice.and_then(|c| c.sort) {
        let sort = match node.title.as_str() {
            "Sort" => Some(&mut node),
            "Limit" => node.children.first_mut().filter(|n| n.title == "Sort"),
            _ => None,
        };
        if let Some(s) = sort {
            set_cost(s, &c);
        }
    }
    let limit = crate::sql::plan::choose::constant_limit(q).filter(|_| q.offset.is_none());
    if let (Some(l), "Limit") = (limit, node.title.as_str()) {
        if let Some(child) = node.children.first().filter(|c| c.costed) {
            let input = Cost {
                startup: child.est_cost.0,
                total: child.est_cost.1,
                rows: child.est_rows,
            };
            set_cost(&mut node, &crate::sql::plan::cost::sort::limit(&input, l));
        }
    }
    (node, result)
}

/// The inner index scan of one loop: the rows whose key is `v`.
fn lookup_plan(
    index: usize,
    v: crate::value::Value,
    shown: Expr,
    filter: &[Expr],
    only: bool,
) -> ScanPlan {
    ScanPlan {
        access: AccessPath::Index {
            index,
            direction: ScanDirection::Forward,
            only,
            cond: Some(KeyCond::Range {
                lower: Bound::Included(Expr::Literal(v.clone())),
                upper: Bound::Included(Expr::Literal(v)),
            }),
            cond_exprs: vec![shown],
        },
        filter: filter.to_vec(),
        ordered: true,
        system_columns: false,
        cost: None,
        why: None,
    }
}

/// `Seq Scan on demo` → `Seq Scan on demo a` when the query names it `a`.
pub(super) fn alias_title(node: &mut PlanNode, table: &str, alias: &str) {
    // EXPLAIN names a relation without its schema.
    let table = crate::exec::schemas::bare(table);
    if alias != table && node.title.ends_with(&format!(" on {table}")) {
        node.title.push(' ');
        node.title.push_str(alias);
    }
}

/// `SELECT *` of a join: USING columns once, then the rest of each side.
fn join_projection(
    items: &[SelectItem],
    scope: &Scope,
    using: &[String],
    outer: &Side,
    inner: &Side,
) -> Result<(Vec<String>, Vec<BoundExpr>), SqlError> {
    let mut names = Vec::new();
    let mut exprs = Vec::new();
    for item in items {
        match item {
            SelectItem::Wildcard => {
                for c in using {
                    names.push(c.clone());
                    exprs.push(BoundExpr::Col(scope.resolve(Some(&outer.name), c)?));
                }
                for (i, (t, c, _)) in scope.columns.iter().enumerate() {
                    let skip = using.contains(c) && (t == &outer.name || t == &inner.name);
                    if !skip {
                        names.push(c.clone());
                        exprs.push(BoundExpr::Col(i));
                    }
                }
            }
            SelectItem::Expr { expr, alias } => {
                crate::sql::eval::reject_numeric_output(expr)?;
                let name = match expr {
                    Expr::Column { name, .. } => name.clone(),
                    _ => "?column?".into(),
                };
                names.push(alias.clone().unwrap_or(name));
                let e = match expr {
                    Expr::Column { table: None, name } if using.contains(name) => Expr::Column {
                        table: Some(outer.name.clone()),
                        name: name.clone(),
                    },
                    other => other.clone(),
                };
                exprs.push(bind(&e, scope)?);
            }
        }
    }
    Ok((names, exprs))
}
