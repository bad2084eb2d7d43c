//! EXPLAIN in PostgreSQL's text format: plan nodes with their actual rows, loops,
//! times (from the virtual clock) and buffer counts.

use super::bitmap_scan::{BitmapFigures, IndexFigures};
use super::engine::PgEngine;
use crate::buffer_pool::BufferStats;
use crate::exec::plan_node::scan_conditions;
use crate::exec::schemas::{bare, schema_of, PUBLIC};
use crate::exec::{type_width, PlanNode};
use crate::sql::ast::ExplainOptions;
use crate::sql::plan::cost::Cost;
use crate::sql::plan::parallel::Gather;
use crate::sql::plan::{AccessPath, ScanDirection, ScanPlan};

/// What a finished scan measured, besides its rows.
pub(super) struct ScanFigures {
    pub buffers: BufferStats,
    /// An Index Only Scan's heap fetches.
    pub heap_fetches: Option<u64>,
    /// A Bitmap Heap Scan's two phases.
    pub bitmap: Option<BitmapFigures>,
}

impl PgEngine {
    /// The EXPLAIN node of a finished scan (with its Bitmap Index Scan
    /// under it for a bitmap scan).
    pub(super) fn scan_node(
        &self,
        table: usize,
        plan: &ScanPlan,
        (rows, removed, first_us): (u64, u64, Option<f64>),
        start_us: f64,
        figures: ScanFigures,
    ) -> PlanNode {
        let t = self.catalog.table(table);
        let gather = plan.cost.and_then(|c| c.gather);
        // A parallel scan prints per process: each ran it once.
        let loops = gather.map_or(1, |g| g.processes());
        let total_rows = rows;
        let (rows, removed) = (per_loop(rows, loops), per_loop(removed, loops));
        let index_name =
            |index: usize| bare(&self.catalog.index(t.indexes[index]).name).to_string();
        let title = match &plan.access {
            AccessPath::Seq if gather.is_some() => {
                format!("Parallel Seq Scan on {}", bare(&t.name))
            }
            AccessPath::Seq => format!("Seq Scan on {}", bare(&t.name)),
            AccessPath::Index {
                index,
                direction,
                only,
                ..
            } => {
                let kind = match (*only, gather.is_some()) {
                    (true, false) => "Index Only Scan",
                    (false, false) => "Index Scan",
                    (true, true) => "Parallel Index Only Scan",
                    (false, true) => "Parallel Index Scan",
                };
                let back = if *direction == ScanDirection::Backward {
                    " Backward"
                } else {
                    ""
                };
                format!(
                    "{kind}{back} using {} on {}",
                    index_name(*index),
                    bare(&t.name)
                )
            }
            AccessPath::Bitmap { .. } => format!("Bitmap Heap Scan on {}", bare(&t.name)),
        };
        let (cond_exprs, bitmap) = match &plan.access {
            AccessPath::Index { cond_exprs, .. } => (cond_exprs.clone(), false),
            // Every index's conditions, rechecked on the heap's rows.
            AccessPath::Bitmap {
                index,
                cond_exprs,
                and,
                or,
                ..
            } => {
                let mut arms_conds = Vec::new();
                let arms = std::iter::once((*index, cond_exprs))
                    .chain(and.iter().map(|a| (a.index, &a.cond_exprs)));
                for (index, conds) in arms {
                    let mut all: Vec<_> = conds.to_vec();
                    all.extend(self.predicate_rechecked(t.indexes[index], conds));
                    arms_conds.push(all);
                }
                // A BitmapOr rechecks the OR of its arms' conditions.
                let all = if *or {
                    let arm = |c: Vec<_>| crate::sql::plan::and_all(&c);
                    let ors = arms_conds.into_iter().filter_map(arm);
                    ors.reduce(|l, r| crate::sql::ast::Expr::Binary {
                        op: crate::sql::ast::BinOp::Or,
                        left: Box::new(l),
                        right: Box::new(r),
                    })
                    .into_iter()
                    .collect()
                } else {
                    arms_conds.concat()
                };
                (all, true)
            }
            AccessPath::Seq => (Vec::new(), false),
        };
        let cond_exprs = cond_exprs.as_slice();
        // The same lines twice: as printed, and with columns qualified (VERBOSE).
        let lines = |rel: Option<&str>| {
            let mut d = if bitmap {
                let recheck = scan_conditions(cond_exprs, &[], &t.columns, rel, 0);
                let mut d: Vec<String> = recheck
                    .into_iter()
                    .map(|l| l.replacen("Index Cond:", "Recheck Cond:", 1))
                    .collect();
                d.extend(scan_conditions(&[], &plan.filter, &t.columns, rel, removed));
                d
            } else {
                scan_conditions(cond_exprs, &plan.filter, &t.columns, rel, removed)
            };
            if let Some(n) = figures.heap_fetches {
                d.push(format!("Heap Fetches: {n}"));
            }
            // PostgreSQL leaves the line out when no page was read.
            if let Some(b) = figures.bitmap.as_ref().filter(|b| b.pages > 0) {
                d.push(format!("Heap Blocks: exact={}", b.pages));
            }
            d
        };
        let details = lines(None);
        let verbose_details = lines(Some(bare(&t.name)));
        let schema = Some(schema_of(&t.name))
            .filter(|s| *s != PUBLIC)
            .map(String::from);
        let (est_cost, est_rows, width) = self.scan_estimate(table, plan);
        let children = match &plan.access {
            AccessPath::Bitmap { .. } => {
                vec![self.bitmap_tree(table, plan, figures.bitmap.as_ref(), start_us)]
            }
            _ => Vec::new(),
        };
        let node = PlanNode {
            title,
            schema,
            details,
            rows,
            loops,
            first_us: first_us.unwrap_or(self.io.clock.now_us()) - start_us,
            last_us: self.io.clock.now_us() - start_us,
            buffers: figures.buffers,
            est_cost,
            est_rows,
            width,
            costed: plan.cost.is_some(),
            children,
            verbose_details,
            ..PlanNode::default()
        };
        match gather {
            Some(g) => gather_node(node, g, total_rows),
            None => node,
        }
    }

    /// The planner's `cost=`, `rows=` and `width=` for the scan, or, where
    /// the profile did not cost it, IndexLab's rough figures.
    fn scan_estimate(&self, table: usize, plan: &ScanPlan) -> ((f64, f64), f64, u32) {
        if let Some(c) = &plan.cost {
            return ((c.scan.startup, c.scan.total), c.scan.rows, c.width as u32);
        }
        let t = self.catalog.table(table);
        let live = t.heap.live_rows() as f64;
        let pages = t.heap.page_count() as f64;
        let width = t.columns.iter().map(|c| type_width(c.ty)).sum();
        ((0.0, pages + live * 0.01), live, width)
    }

    /// A partial index's predicate conjuncts its conditions do not already
    /// state: PostgreSQL rechecks them with the conditions
    /// (`create_bitmap_subplan`), so `Recheck Cond` shows them.
    fn predicate_rechecked(
        &self,
        index: usize,
        conds: &[crate::sql::ast::Expr],
    ) -> Vec<crate::sql::ast::Expr> {
        let Some(p) = &self.catalog.index(index).predicate else {
            return Vec::new();
        };
        let mut parts = Vec::new();
        crate::sql::plan::conjuncts(&p.expr, &mut parts);
        parts.retain(|e| !conds.contains(e));
        parts
    }

    /// What builds a Bitmap Heap Scan's bitmap: its Bitmap Index Scan, or
    /// a BitmapAnd over one per index.
    fn bitmap_tree(
        &self,
        table: usize,
        plan: &ScanPlan,
        figures: Option<&BitmapFigures>,
        start_us: f64,
    ) -> PlanNode {
        let AccessPath::Bitmap {
            index,
            cond_exprs,
            and,
            or,
            ..
        } = &plan.access
        else {
            unreachable!("a bitmap scan's plan")
        };
        // Without execution (EXPLAIN alone, or LIMIT 0) each index was read
        // with nothing found.
        let ran = |i: usize| match figures {
            Some(f) => f.indexes.get(i).copied().flatten(),
            None => Some(IndexFigures {
                done_us: start_us,
                ..IndexFigures::default()
            }),
        };
        let est = plan.cost.and_then(|c| c.bitmap_index).unwrap_or_default();
        let first = self.bitmap_index_node(table, *index, cond_exprs, est, ran(0), start_us);
        if and.is_empty() {
            return first;
        }
        let mut children = vec![first];
        for (i, arm) in and.iter().enumerate() {
            let est = arm.cost.unwrap_or_default();
            let node = self.bitmap_index_node(
                table,
                arm.index,
                &arm.cond_exprs,
                est,
                ran(i + 1),
                start_us,
            );
            children.push(node);
        }
        let mut buffers = BufferStats::default();
        for c in &children {
            buffers.add(&c.buffers);
        }
        let est = plan.cost.and_then(|c| c.bitmap_and).unwrap_or_default();
        let at = figures.map_or(0.0, |f| f.index_done_us - start_us);
        PlanNode {
            title: if *or { "BitmapOr" } else { "BitmapAnd" }.to_string(),
            // PostgreSQL counts no rows for a BitmapAnd or BitmapOr (a bitmap
            // is not rows).
            rows: 0,
            loops: 1,
            first_us: at,
            last_us: at,
            buffers,
            est_cost: (est.startup, est.total),
            est_rows: est.rows,
            costed: plan.cost.is_some(),
            width: 0,
            children,
            ..PlanNode::default()
        }
    }

    /// A Bitmap Index Scan: the index's pages and the entries it marked,
    /// or never executed (`ran` None) when a BitmapAnd stopped before it.
    fn bitmap_index_node(
        &self,
        table: usize,
        index: usize,
        cond_exprs: &[crate::sql::ast::Expr],
        est: Cost,
        ran: Option<IndexFigures>,
        start_us: f64,
    ) -> PlanNode {
        let t = self.catalog.table(table);
        let ix = self.catalog.index(t.indexes[index]);
        let lines = |rel: Option<&str>| scan_conditions(cond_exprs, &[], &t.columns, rel, 0);
        let b = ran.unwrap_or_default();
        let at = (b.done_us - start_us).max(0.0);
        PlanNode {
            title: format!("Bitmap Index Scan on {}", bare(&ix.name)),
            details: lines(None),
            verbose_details: lines(Some(bare(&t.name))),
            rows: b.entries,
            loops: u64::from(ran.is_some()),
            never_executed: ran.is_none(),
            first_us: at,
            last_us: at,
            buffers: b.buffers,
            est_cost: (est.startup, est.total),
            est_rows: est.rows,
            costed: est != Cost::default(),
            width: 0,
            ..PlanNode::default()
        }
    }
}

/// YugabyteDB-only options are accepted and ignored, with a notice, so one script
/// runs on both profiles.
pub(super) fn options_notices(o: &ExplainOptions) -> Vec<String> {
    [("DIST", o.dist), ("DEBUG", o.debug)]
        .iter()
        .filter(|(_, on)| *on)
        .map(|(name, _)| format!("EXPLAIN option {name} is YugabyteDB's: PostgreSQL refuses it; the pg profile ignores it"))
        .collect()
}

/// A per-process figure as EXPLAIN prints it: the total over `loops`,
/// rounded to the nearest whole number, ties to even (`%.0f`).
fn per_loop(total: u64, loops: u64) -> u64 {
    if loops <= 1 {
        return total;
    }
    (total as f64 / loops as f64).round_ties_even() as u64
}

/// The Gather that collects a parallel scan's rows: it plans `workers`,
/// launches them all (IndexLab never runs out of background workers), and
/// its Buffers are every process's.
fn gather_node(scan: PlanNode, g: Gather, rows: u64) -> PlanNode {
    PlanNode {
        title: "Gather".into(),
        details: vec![
            format!("Workers Planned: {}", g.workers),
            format!("Workers Launched: {}", g.workers),
        ],
        rows,
        loops: 1,
        first_us: scan.first_us,
        last_us: scan.last_us,
        buffers: scan.buffers,
        est_cost: (g.cost.startup, g.cost.total),
        est_rows: g.cost.rows,
        width: scan.width,
        costed: true,
        children: vec![scan],
        ..PlanNode::default()
    }
}
