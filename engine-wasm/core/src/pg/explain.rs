//! EXPLAIN in PostgreSQL's text format: plan nodes with their actual rows, loops,
//! times (from the virtual clock) and buffer counts.

use super::engine::PgEngine;
use crate::buffer_pool::BufferStats;
use crate::exec::plan_node::scan_conditions;
use crate::exec::schemas::{bare, schema_of, PUBLIC};
use crate::exec::{type_width, PlanNode};
use crate::sql::ast::ExplainOptions;
use crate::sql::plan::{AccessPath, ScanDirection, ScanPlan};

impl PgEngine {
    /// The EXPLAIN node of a finished scan.
    pub(super) fn scan_node(
        &self,
        table: usize,
        plan: &ScanPlan,
        (rows, removed, first_us): (u64, u64, Option<f64>),
        start_us: f64,
        buffers: BufferStats,
        heap_fetches: Option<u64>,
    ) -> PlanNode {
        let t = self.catalog.table(table);
        let title = match &plan.access {
            AccessPath::Seq => format!("Seq Scan on {}", bare(&t.name)),
            AccessPath::Index {
                index,
                direction,
                only,
                ..
            } => {
                let ix = self.catalog.index(t.indexes[*index]);
                let kind = if *only {
                    "Index Only Scan"
                } else {
                    "Index Scan"
                };
                let back = if *direction == ScanDirection::Backward {
                    " Backward"
                } else {
                    ""
                };
                format!("{kind}{back} using {} on {}", bare(&ix.name), bare(&t.name))
            }
        };
        let cond_exprs = match &plan.access {
            AccessPath::Index { cond_exprs, .. } => cond_exprs.as_slice(),
            AccessPath::Seq => &[],
        };
        // The same lines twice: as printed, and with columns qualified (VERBOSE).
        let lines = |rel: Option<&str>| {
            let mut d = scan_conditions(cond_exprs, &plan.filter, &t.columns, rel, removed);
            if let Some(n) = heap_fetches {
                d.push(format!("Heap Fetches: {n}"));
            }
            d
        };
        let details = lines(None);
        let verbose_details = lines(Some(bare(&t.name)));
        let live = t.heap.live_rows() as f64;
        let pages = t.heap.page_count() as f64;
        let width = t.columns.iter().map(|c| type_width(c.ty)).sum();
        let schema = Some(schema_of(&t.name))
            .filter(|s| *s != PUBLIC)
            .map(String::from);
        PlanNode {
            title,
            schema,
            details,
            rows,
            loops: 1,
            first_us: first_us.unwrap_or(self.io.clock.now_us()) - start_us,
            last_us: self.io.clock.now_us() - start_us,
            buffers,
            est_cost: (0.0, pages + live * 0.01),
            est_rows: live,
            width,
            children: Vec::new(),
            verbose_details,
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
