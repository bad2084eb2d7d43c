//! Joins of three or more tables, and outer joins (LEFT, RIGHT, FULL): a
//! left-deep chain in the order the query writes its FROM items. Step k joins
//! the rows of items 0..k (the outer side) with item k (the inner side) in one
//! of three ways, as PostgreSQL's executor would:
//!
//! - **Nested Loop with an index lookup**: the inner side has an index whose
//!   first column the join condition equates with an outer expression; the
//!   index is searched once per outer row (loops = outer rows).
//! - **Hash Join**: an equality between the two sides, no such index: the
//!   inner side is read once into a hash table on its join key, and each outer
//!   row probes it. PostgreSQL puts each new entry at the head of its bucket,
//!   so an outer row meets its matches newest first.
//! - **Nested Loop over a Materialize**: no equality at all: the inner side is
//!   read once, kept, and re-read for every outer row.
//!
//! An outer join keeps its preserved side's unmatched rows with NULLs for the
//! other side. Where a condition may be checked depends on the join: an ON
//! condition of a LEFT JOIN decides which inner rows match, never which outer
//! rows survive, while a WHERE condition is checked on the joined rows, after
//! the NULLs are in. PostgreSQL's planner reorders joins by cost; this chain
//! keeps the written order (the plan-choice issue is the planner's), but the
//! rows are the same.

pub mod conditions;
mod projection;

use super::aggregate::accumulate::GroupKey;
use super::executor::Executor;
use super::join::JoinExec;
use super::nested_loop::{index_cond_shown, merge_loop, Side};
use super::plan_node::PlanNode;
use super::row::Row;
use super::select::QueryResult;
use crate::sql::ast::{Expr, JoinKind, Select};
use crate::sql::deparse::deparse;
use crate::sql::error::{unsupported, ErrorKind, SqlError};
use crate::sql::eval::{bind, Bound as BoundExpr, Scope};
use crate::sql::plan::{plan_scan, AccessPath, KeyCond, ScanDirection, ScanPlan};
use crate::value::Value;
use conditions::{Placed, Step};
use std::collections::HashMap;
use std::ops::Bound;

/// How a step finds the inner rows that match an outer row.
pub enum Access {
    /// An index on the inner join column, searched once per outer row.
    Lookup {
        index: usize,
        outer_key: BoundExpr,
        shown: Expr,
        /// The other equalities, checked as a Join Filter.
        rest: Vec<Expr>,
    },
    /// The inner side read once into a hash table on its join keys.
    Hash {
        outer_keys: Vec<BoundExpr>,
        inner_keys: Vec<BoundExpr>,
        conds: Vec<Expr>,
    },
    /// The inner side read once and kept, re-read for each outer row.
    Materialize,
    /// A LATERAL side, run again for each outer row with its values.
    Lateral,
}

/// The rows joined so far and the plan node that produced them.
pub struct Joined {
    rows: Vec<Row>,
    node: PlanNode,
}

/// The executor of join chains.
pub trait JoinChainExec: JoinExec {
    fn select_join_chain(
        &mut self,
        q: &Select,
        execute: bool,
    ) -> Result<(PlanNode, QueryResult), SqlError> {
        let placed = conditions::place(self, q, execute)?;
        let Placed {
            sides,
            steps,
            first_filter,
            scope,
            query,
            ..
        } = &placed;
        let start = self.now_us();
        let items = conditions::needed_columns(&placed);
        let (rows, node) = self.scan_side(&sides[0], &items[0], first_filter, execute)?;
        let mut joined = Joined { rows, node };
        for (k, step) in steps.iter().enumerate() {
            let width = sides[..=k].iter().map(|s| self.width_of(s)).sum();
            joined = self.join_step(joined, step, &items[k + 1], scope, width, (execute, start))?;
        }
        let Joined { mut rows, node } = joined;
        let node = self.finish_rows(node, &mut rows, query, scope, start)?;
        let (columns, exprs) = projection::project(&query.items, scope, &placed)?;
        let rows = rows
            .iter()
            .map(|r| exprs.iter().map(|e| self.eval_bound(e, r)).collect())
            .collect::<Result<Vec<_>, SqlError>>()?;
        Ok((node, QueryResult { columns, rows }))
    }

    fn width_of(&self, side: &Side) -> usize {
        side.columns(self).len()
    }

    /// A side's rows that pass `filter` (its own conditions, unqualified),
    /// and the node that read them: the table's scan, or a Subquery Scan
    /// over a subquery's rows.
    fn scan_side(
        &mut self,
        side: &Side,
        items: &[crate::sql::ast::SelectItem],
        filter: &[Expr],
        execute: bool,
    ) -> Result<(Vec<Row>, PlanNode), SqlError> {
        if let Some(d) = &side.derived {
            let scope = Scope {
                columns: (d.columns.iter())
                    .map(|(c, ty)| (side.name.clone(), c.clone(), *ty))
                    .collect(),
            };
            let bound = filter
                .iter()
                .map(|e| bind(e, &scope))
                .collect::<Result<Vec<_>, _>>()?;
            let mut rows = Vec::new();
            for r in &d.rows {
                if self.passes(&bound, r)? {
                    rows.push(r.clone());
                }
            }
            let removed = (d.rows.len() - rows.len()) as u64;
            if d.node.title.starts_with("Function Scan") {
                // A function's rows are its own scan's, filtered there.
                let mut node = d.node.clone();
                node.details = super::plan_node::scan_conditions(&[], filter, &[], None, removed);
                node.rows = rows.len() as u64;
                return Ok((rows, node));
            }
            let node = PlanNode {
                title: format!("Subquery Scan on {}", side.name),
                details: super::plan_node::scan_conditions(&[], filter, &[], None, removed),
                rows: rows.len() as u64,
                loops: 1,
                first_us: d.node.first_us,
                last_us: d.node.last_us,
                buffers: d.node.buffers,
                est_cost: d.node.est_cost,
                est_rows: d.node.est_rows,
                width: d.node.width,
                children: vec![d.node.clone()],
                ..PlanNode::default()
            };
            return Ok((rows, node));
        }
        let plan = plan_scan(
            &self.planner_info(side.table),
            &Select {
                items: items.to_vec(),
                filter: super::join::and_all(filter.to_vec()),
                ..Select::empty()
            },
        )?;
        let out = self.run_scan(side.table, &plan, (!execute).then_some(0))?;
        let mut node = out.node;
        let name = self.planner_info(side.table).name;
        super::join::alias_title(&mut node, &name, &side.name);
        Ok((out.rows.into_iter().map(|(_, r)| r).collect(), node))
    }

    /// Joins the rows so far (`outer`, `width` columns) with `step`'s side.
    fn join_step(
        &mut self,
        outer: Joined,
        step: &Step,
        items: &[crate::sql::ast::SelectItem],
        scope: &Scope,
        width: usize,
        (execute, start): (bool, f64),
    ) -> Result<Joined, SqlError> {
        let access = self.access(step, scope, width)?;
        let bind_all = |es: &[Expr]| -> Result<Vec<BoundExpr>, SqlError> {
            es.iter().map(|e| bind(e, scope)).collect()
        };
        let mut filter_exprs = step.join_filter.clone();
        if let Access::Lookup { rest, .. } = &access {
            filter_exprs.splice(0..0, rest.iter().cloned());
        }
        if let Access::Lateral = &access {
            let equalities = step.equalities.iter().map(|e| e.0.clone());
            filter_exprs.splice(0..0, equalities);
        }
        let join_filter = bind_all(&filter_exprs)?;
        let post_filter = bind_all(&step.post_filter)?;
        let inner_width = self.width_of(&step.side);
        let max_rows = self.settings().max_rows() as u64;
        let mut out = Vec::new();
        let mut removed = (0u64, 0u64);
        let (title, inner_node, details);
        let mut emit = |me: &mut Self, o: &Row, i: &Row, out: &mut Vec<Row>| {
            let row: Row = o.iter().chain(i.iter()).cloned().collect();
            if !me.passes(&join_filter, &row)? {
                removed.0 += 1;
                return Ok::<bool, SqlError>(false);
            }
            if !me.passes(&post_filter, &row)? {
                removed.1 += 1;
                return Ok(true);
            }
            out.push(row);
            if out.len() as u64 > max_rows {
                return Err(too_many(max_rows));
            }
            Ok(true)
        };
        let nulls = |n: usize| -> Row { vec![Value::Null; n].into_iter().collect() };
        match &access {
            Access::Lookup {
                index,
                outer_key,
                shown,
                ..
            } => {
                let mut total: Option<PlanNode> = None;
                let mut read = 0u64;
                for o in &outer.rows {
                    let key = self.eval_bound(outer_key, o)?;
                    let plan = lookup_plan(*index, key, step, shown);
                    let scan = self.run_scan(step.side.table, &plan, None)?;
                    read += scan.rows.len() as u64;
                    if read > max_rows {
                        return Err(too_many(max_rows));
                    }
                    let mut any = false;
                    for (_, i) in &scan.rows {
                        any |= emit(self, o, i, &mut out)?;
                    }
                    if !any && step.kind == JoinKind::Left {
                        emit_unmatched(self, o, &nulls(inner_width), &post_filter, &mut out)?;
                    }
                    merge_loop(&mut total, scan.node);
                }
                let mut inner = match total {
                    Some(n) => n,
                    None => {
                        let plan = lookup_plan(*index, Value::Null, step, shown);
                        self.run_scan(step.side.table, &plan, Some(0))?.node
                    }
                };
                inner.loops = outer.rows.len() as u64;
                inner.rows = read.checked_div(inner.loops).unwrap_or(0);
                title = format!("Nested Loop{}", join_word(step.kind));
                details = Vec::new();
                inner_node = inner;
            }
            Access::Hash {
                outer_keys,
                inner_keys,
                conds,
            } => {
                let (inner_rows, scan_node) =
                    self.scan_side(&step.side, items, &step.scan_filter, execute)?;
                let mut matched_inner = vec![false; inner_rows.len()];
                let mut table: HashMap<GroupKey, Vec<usize>> = HashMap::new();
                for (n, i) in inner_rows.iter().enumerate() {
                    if let Some(key) = self.join_key(inner_keys, i)? {
                        table.entry(key).or_default().push(n);
                    }
                }
                for o in &outer.rows {
                    let mut any = false;
                    if let Some(key) = self.join_key(outer_keys, o)? {
                        // Newest entry first, as a bucket chain holds them.
                        for &n in table.get(&key).into_iter().flatten().rev() {
                            if emit(self, o, &inner_rows[n], &mut out)? {
                                any = true;
                                matched_inner[n] = true;
                            }
                        }
                    }
                    if !any && matches!(step.kind, JoinKind::Left | JoinKind::Full) {
                        emit_unmatched(self, o, &nulls(inner_width), &post_filter, &mut out)?;
                    }
                }
                if matches!(step.kind, JoinKind::Right | JoinKind::Full) {
                    for (n, i) in inner_rows.iter().enumerate() {
                        if !matched_inner[n] {
                            emit_unmatched(self, &nulls(width), i, &post_filter, &mut out)?;
                        }
                    }
                }
                title = format!("Hash{} Join", step.kind.plan_word());
                let shown: Vec<String> = conds.iter().map(deparse).collect();
                details = vec![format!("Hash Cond: {}", wrap_and(&shown))];
                inner_node = PlanNode {
                    title: "Hash".into(),
                    rows: scan_node.rows,
                    loops: 1,
                    first_us: scan_node.last_us,
                    last_us: scan_node.last_us,
                    buffers: scan_node.buffers,
                    est_cost: (scan_node.est_cost.1, scan_node.est_cost.1),
                    est_rows: scan_node.est_rows,
                    width: scan_node.width,
                    children: vec![scan_node],
                    ..PlanNode::default()
                };
            }
            Access::Lateral => {
                if matches!(step.kind, JoinKind::Right | JoinKind::Full) {
                    return Err(SqlError::new(
                        ErrorKind::Semantic,
                        format!(
                            "invalid reference to FROM-clause entry for table \"{}\"",
                            scope.columns.first().map_or("", |c| c.0.as_str())
                        ),
                    )
                    .with_detail(
                        "The combining JOIN type must be INNER or LEFT for a LATERAL reference.",
                    ));
                }
                let outer_scope = Scope {
                    columns: scope.columns[..width].to_vec(),
                };
                let mut total: Option<PlanNode> = None;
                let mut read = 0u64;
                let examined_before = self.rows_examined();
                // Plain EXPLAIN has no outer rows: the plan of one run with NULLs.
                let nulls_row = nulls(width);
                let runs: Vec<&Row> = match (execute, outer.rows.is_empty()) {
                    (false, true) => vec![&nulls_row],
                    _ => outer.rows.iter().collect(),
                };
                for o in runs {
                    let (rows, node) = self.lateral_rows(step, &outer_scope, o, execute)?;
                    read += rows.len() as u64;
                    // Each run reads its own tables again: bounded too.
                    let examined = self.rows_examined() - examined_before;
                    if read > max_rows || examined > max_rows {
                        return Err(SqlError::new(
                            ErrorKind::Limit,
                            format!(
                                "\"{}\" runs again for each of {} outer rows and reads more than \
                                 max_rows={max_rows} rows; an index on the column it looks up \
                                 (or a larger max_rows) lets it finish",
                                step.side.name,
                                outer.rows.len()
                            ),
                        ));
                    }
                    let mut any = false;
                    for i in &rows {
                        any |= emit(self, o, i, &mut out)?;
                    }
                    if execute && !any && step.kind == JoinKind::Left {
                        emit_unmatched(self, o, &nulls(inner_width), &post_filter, &mut out)?;
                    }
                    merge_loop(&mut total, node);
                }
                let mut inner = total.unwrap_or_default();
                inner.loops = outer.rows.len() as u64;
                inner.rows = read.checked_div(inner.loops).unwrap_or(0);
                title = format!("Nested Loop{}", join_word(step.kind));
                details = Vec::new();
                inner_node = inner;
            }
            Access::Materialize => {
                if matches!(step.kind, JoinKind::Right | JoinKind::Full) {
                    return Err(full_needs_equality(step.kind));
                }
                let (inner_rows, scan_node) =
                    self.scan_side(&step.side, items, &step.scan_filter, execute)?;
                let pairs = outer.rows.len() as u64 * inner_rows.len() as u64;
                if pairs > max_rows.saturating_mul(10) {
                    return Err(too_many(max_rows));
                }
                for o in &outer.rows {
                    let mut any = false;
                    for i in &inner_rows {
                        any |= emit(self, o, i, &mut out)?;
                    }
                    if !any && step.kind == JoinKind::Left {
                        emit_unmatched(self, o, &nulls(inner_width), &post_filter, &mut out)?;
                    }
                }
                title = format!("Nested Loop{}", join_word(step.kind));
                details = Vec::new();
                inner_node = PlanNode {
                    title: "Materialize".into(),
                    rows: scan_node.rows,
                    loops: outer.rows.len().max(1) as u64,
                    first_us: scan_node.first_us,
                    last_us: scan_node.last_us,
                    buffers: scan_node.buffers,
                    est_cost: scan_node.est_cost,
                    est_rows: scan_node.est_rows,
                    width: scan_node.width,
                    children: vec![scan_node],
                    ..PlanNode::default()
                };
            }
        }
        let mut details = details;
        if !filter_exprs.is_empty() {
            let shown: Vec<String> = filter_exprs.iter().map(deparse).collect();
            details.push(format!("Join Filter: {}", wrap_and(&shown)));
            details.push(format!("Rows Removed by Join Filter: {}", removed.0));
        }
        if !step.post_filter.is_empty() {
            let shown: Vec<String> = step.post_filter.iter().map(deparse).collect();
            details.push(format!("Filter: {}", wrap_and(&shown)));
            details.push(format!("Rows Removed by Filter: {}", removed.1));
        }
        let mut buffers = outer.node.buffers;
        buffers.add(&inner_node.buffers);
        let est_rows = match step.kind {
            JoinKind::Inner | JoinKind::Left => outer.node.est_rows,
            _ => outer.node.est_rows.max(inner_node.est_rows),
        };
        let node = PlanNode {
            title,
            details,
            rows: out.len() as u64,
            loops: 1,
            first_us: outer.node.first_us,
            // Times in EXPLAIN are since the query started, as its scans' are.
            last_us: self.now_us() - start,
            buffers,
            est_cost: (0.0, outer.node.est_cost.1 + inner_node.est_cost.1),
            est_rows,
            width: outer.node.width + inner_node.width,
            children: vec![outer.node, inner_node],
            ..PlanNode::default()
        };
        Ok(Joined { rows: out, node })
    }

    /// A LATERAL side's rows for one outer row `o` (over `outer`), its own
    /// conditions checked, and the plan that produced them.
    fn lateral_rows(
        &mut self,
        step: &Step,
        outer: &Scope,
        o: &Row,
        execute: bool,
    ) -> Result<(Vec<Row>, PlanNode), SqlError> {
        let Some(query) = &step.side.lateral else {
            return Ok((Vec::new(), PlanNode::default()));
        };
        let bound = super::correlate::bind_outer(self, query, outer, o)?;
        let (node, result) = self.run_select(&bound, execute)?;
        let side_scope = Scope {
            columns: (step.side.columns(self).into_iter())
                .map(|(c, ty)| (step.side.name.clone(), c, ty))
                .collect(),
        };
        let filter = (step.scan_filter.iter())
            .map(|e| bind(e, &side_scope))
            .collect::<Result<Vec<_>, _>>()?;
        let mut rows = Vec::new();
        for r in result.rows {
            let r = Row::from_vec(r);
            if self.passes(&filter, &r)? {
                rows.push(r);
            }
        }
        Ok((rows, node))
    }

    /// Chooses how `step` reaches its inner rows (see [`Access`]).
    fn access(&self, step: &Step, scope: &Scope, width: usize) -> Result<Access, SqlError> {
        if step.side.lateral.is_some() {
            return Ok(Access::Lateral);
        }
        let inner_scope = Scope {
            columns: scope.columns[width..width + self.width_of(&step.side)].to_vec(),
        };
        let info = step
            .side
            .derived
            .is_none()
            .then(|| self.planner_info(step.side.table));
        let mut hash = (Vec::new(), Vec::new(), Vec::new());
        for (n, (cond, outer_e, inner_e)) in step.equalities.iter().enumerate() {
            // A nested loop cannot preserve its inner side's unmatched rows;
            // a subquery's rows have no index.
            let lookup = matches!(step.kind, JoinKind::Inner | JoinKind::Left);
            if let (true, Some(info), Expr::Column { name, .. }) = (lookup, &info, inner_e) {
                let col = info.columns.iter().position(|(c, _)| c == name);
                let index = info.indexes.iter().position(|i| {
                    Some(i.key[0].0) == col && i.predicate.is_empty() && i.hash_columns < 2
                });
                if let Some(index) = index {
                    return Ok(Access::Lookup {
                        index,
                        outer_key: bind(outer_e, scope)?,
                        shown: index_cond_shown(cond, &step.side.name),
                        rest: (step.equalities.iter().enumerate())
                            .filter(|(m, _)| *m != n)
                            .map(|(_, e)| e.0.clone())
                            .collect(),
                    });
                }
            }
            hash.0.push(bind(outer_e, scope)?);
            hash.1.push(bind(inner_e, &inner_scope)?);
            hash.2.push(cond.clone());
        }
        if hash.0.is_empty() {
            return Ok(Access::Materialize);
        }
        Ok(Access::Hash {
            outer_keys: hash.0,
            inner_keys: hash.1,
            conds: hash.2,
        })
    }

    /// A row's hash key, or None when a key is NULL (it equals nothing).
    fn join_key(
        &mut self,
        keys: &[BoundExpr],
        row: &[Value],
    ) -> Result<Option<GroupKey>, SqlError> {
        super::hash_join::join_key(self, keys, row)
    }
}

impl<E: JoinExec> JoinChainExec for E {}

/// An outer row (or an inner one) with NULLs for the other side, if the
/// conditions after the join keep it.
fn emit_unmatched<E: JoinExec>(
    engine: &mut E,
    left: &[Value],
    right: &[Value],
    post_filter: &[BoundExpr],
    out: &mut Vec<Row>,
) -> Result<(), SqlError> {
    let row: Row = left.iter().chain(right.iter()).cloned().collect();
    if engine.passes(post_filter, &row)? {
        out.push(row);
    }
    Ok(())
}

/// The index scan of one lookup: the inner column equal to `key`.
fn lookup_plan(index: usize, key: Value, step: &Step, shown: &Expr) -> ScanPlan {
    ScanPlan {
        access: AccessPath::Index {
            index,
            direction: ScanDirection::Forward,
            only: false,
            cond: Some(KeyCond::Range {
                lower: Bound::Included(Expr::Literal(key.clone())),
                upper: Bound::Included(Expr::Literal(key)),
            }),
            cond_exprs: vec![shown.clone()],
        },
        filter: step.scan_filter.clone(),
        ordered: true,
        system_columns: false,
        cost: None,
        why: None,
    }
}

fn join_word(kind: JoinKind) -> String {
    match kind {
        JoinKind::Inner => String::new(),
        other => format!("{} Join", other.plan_word()),
    }
}

/// `(a)` or `((a) AND (b))`, as EXPLAIN prints a list of conditions.
pub(super) fn wrap_and(parts: &[String]) -> String {
    match parts {
        [one] => one.clone(),
        many => format!("({})", many.join(" AND ")),
    }
}

fn too_many(max_rows: u64) -> SqlError {
    SqlError::new(
        ErrorKind::Limit,
        format!(
            "the join produces or reads more than max_rows={max_rows} rows; \
             a condition joining the tables (or a larger max_rows) lets it finish"
        ),
    )
}

/// PostgreSQL's error for a FULL JOIN it can neither hash nor merge; a RIGHT
/// JOIN it would run as a swapped LEFT JOIN, which this chain does not.
fn full_needs_equality(kind: JoinKind) -> SqlError {
    match kind {
        JoinKind::Full => SqlError::new(
            ErrorKind::Semantic,
            "FULL JOIN is only supported with merge-joinable or hash-joinable join conditions",
        ),
        _ => unsupported("a RIGHT JOIN without an equality between its two sides"),
    }
}
