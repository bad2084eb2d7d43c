//! EXPLAIN in PostgreSQL's text format: plan nodes with their actual rows, loops,
//! times (from the virtual clock) and buffer counts.

use super::engine::PgEngine;
use crate::buffer_pool::BufferStats;
use crate::scenario::Outcome;
use crate::sql::ast::{ExplainOptions, Statement};
use crate::sql::deparse::deparse;
use crate::sql::error::SqlError;
use crate::sql::plan::{AccessPath, ScanDirection, ScanPlan};
use crate::value::SqlType;

/// One node of an executed (or only planned) plan.
#[derive(Debug, Clone, Default)]
pub struct PlanNode {
    pub title: String,
    pub details: Vec<String>,
    pub rows: u64,
    pub loops: u64,
    /// Virtual time of the first and last row, in µs since the statement started.
    pub first_us: f64,
    pub last_us: f64,
    pub buffers: BufferStats,
    /// IndexLab's estimates, shaped like the planner's (not PostgreSQL's numbers).
    pub est_cost: (f64, f64),
    pub est_rows: f64,
    pub width: u32,
    pub children: Vec<PlanNode>,
}

/// PostgreSQL's typical width in bytes of a column type.
pub fn type_width(ty: SqlType) -> u32 {
    match ty {
        SqlType::Int4 => 4,
        SqlType::Bool => 1,
        SqlType::Text => 32,
        _ => 8,
    }
}

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
        let mut details = Vec::new();
        let title = match &plan.access {
            AccessPath::Seq => format!("Seq Scan on {}", t.name),
            AccessPath::Index {
                index,
                direction,
                only,
                cond_exprs,
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
                if !cond_exprs.is_empty() {
                    let conds: Vec<String> = cond_exprs.iter().map(deparse).collect();
                    details.push(format!("Index Cond: {}", wrap_and(&conds)));
                }
                format!("{kind}{back} using {} on {}", ix.name, t.name)
            }
        };
        if !plan.filter.is_empty() {
            let f: Vec<String> = plan.filter.iter().map(deparse).collect();
            details.push(format!("Filter: {}", wrap_and(&f)));
            details.push(format!("Rows Removed by Filter: {removed}"));
        }
        if let Some(n) = heap_fetches {
            details.push(format!("Heap Fetches: {n}"));
        }
        let live = t.heap.live_rows() as f64;
        let pages = t.heap.page_count() as f64;
        let width = t.columns.iter().map(|c| type_width(c.ty)).sum();
        PlanNode {
            title,
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
        }
    }

    pub(super) fn explain(
        &mut self,
        options: &ExplainOptions,
        statement: &Statement,
    ) -> Result<Outcome, SqlError> {
        let Statement::Select(q) = statement else {
            return Err(crate::sql::parse::unsupported(
                "EXPLAIN of anything but a SELECT",
            ));
        };
        let start = self.io.clock.now_us();
        let (node, _rows) = self.run_select(q, options.analyze)?;
        let mut lines = Vec::new();
        format_node(&node, 0, options, &mut lines);
        let summary = options.summary.unwrap_or(options.analyze);
        if summary {
            lines.push("Planning Time: 0.010 ms".to_string());
            if options.analyze {
                let ms = (self.io.clock.now_us() - start) / 1000.0;
                lines.push(format!("Execution Time: {ms:.3} ms"));
            }
        }
        let mut out = Outcome::explain(lines);
        out.notices = options_notices(options);
        Ok(out)
    }
}

/// YugabyteDB-only options are accepted and ignored, with a notice, so one script
/// runs on both profiles.
fn options_notices(o: &ExplainOptions) -> Vec<String> {
    [("DIST", o.dist), ("DEBUG", o.debug)]
        .iter()
        .filter(|(_, on)| *on)
        .map(|(name, _)| format!("EXPLAIN option {name} is YugabyteDB's; PostgreSQL ignores it"))
        .collect()
}

fn wrap_and(parts: &[String]) -> String {
    if parts.len() == 1 {
        parts[0].clone()
    } else {
        format!("({})", parts.join(" AND "))
    }
}

fn buffers_line(b: &BufferStats) -> Option<String> {
    let parts: Vec<String> = [
        ("hit", b.shared_hit),
        ("read", b.shared_read),
        ("dirtied", b.shared_dirtied),
        ("written", b.shared_written),
    ]
    .iter()
    .filter(|(_, v)| *v > 0)
    .map(|(k, v)| format!("{k}={v}"))
    .collect();
    (!parts.is_empty()).then(|| format!("Buffers: shared {}", parts.join(" ")))
}

/// Appends `node` and its children as PostgreSQL indents them.
pub fn format_node(node: &PlanNode, depth: usize, o: &ExplainOptions, out: &mut Vec<String>) {
    let (head, pad) = if depth == 0 {
        (String::new(), "  ".to_string())
    } else {
        let indent = " ".repeat(6 * (depth - 1) + 2);
        (format!("{indent}->  "), " ".repeat(6 * depth + 2))
    };
    let mut line = format!("{head}{}", node.title);
    if o.costs {
        line.push_str(&format!(
            "  (cost={:.2}..{:.2} rows={} width={})",
            node.est_cost.0,
            node.est_cost.1,
            node.est_rows.round().max(1.0) as u64,
            node.width
        ));
    }
    if o.analyze {
        if o.timing {
            line.push_str(&format!(
                " (actual time={:.3}..{:.3} rows={} loops={})",
                node.first_us / 1000.0,
                node.last_us / 1000.0,
                node.rows,
                node.loops
            ));
        } else {
            line.push_str(&format!(
                " (actual rows={} loops={})",
                node.rows, node.loops
            ));
        }
    }
    out.push(line);
    for d in &node.details {
        // Heap Fetches and Rows Removed are actuals: only with ANALYZE.
        let actual = d.starts_with("Heap Fetches") || d.starts_with("Rows Removed");
        if !actual || o.analyze {
            out.push(format!("{pad}{d}"));
        }
    }
    if o.analyze && o.buffers {
        if let Some(b) = buffers_line(&node.buffers) {
            out.push(format!("{pad}{b}"));
        }
    }
    for c in &node.children {
        format_node(c, depth + 1, o, out);
    }
}
