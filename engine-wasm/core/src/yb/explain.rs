//! EXPLAIN nodes of yb scans, in YugabyteDB's format: PostgreSQL's plan lines,
//! then with DIST the storage requests and rows, with DEBUG the RocksDB metrics.

use super::engine::YbEngine;
use super::stats::RelStats;
use crate::exec::plan_node::{qual_line, scan_conditions};
use crate::exec::schemas::{bare, schema_of, PUBLIC};
use crate::exec::{type_width, PlanNode};
use crate::sql::plan::{AccessPath, ScanDirection, ScanPlan};

/// `Storage Table …` or `Storage Index …` lines of one relation's counters.
fn dist_lines(kind: &str, s: &RelStats, out: &mut Vec<(String, f64)>) {
    if s.read_requests > 0 {
        out.push((
            format!("Storage {kind} Read Requests"),
            s.read_requests as f64,
        ));
        out.push((
            format!("Storage {kind} Rows Scanned"),
            s.rows_scanned as f64,
        ));
    }
}

impl YbEngine {
    pub(super) fn scan_node(
        &self,
        table: usize,
        plan: &ScanPlan,
        st: &super::scan::Collected,
        split: &super::pushdown::StorageSplit,
        start_us: f64,
    ) -> PlanNode {
        let t = self.catalog.table(table);
        let info = self.catalog.planner_info(table);
        let title = match &plan.access {
            AccessPath::Seq => format!("Seq Scan on {}", bare(&t.name)),
            AccessPath::Index {
                index,
                direction,
                only,
                ..
            } => {
                let name = &info.indexes[*index].name;
                let primary = t.key.is_some() && *index == 0;
                // A primary key scan reads the table itself: YugabyteDB calls it
                // an Index Scan even when it covers every column.
                let kind = if *only && !primary {
                    "Index Only Scan"
                } else {
                    "Index Scan"
                };
                let back = if *direction == ScanDirection::Backward {
                    " Backward"
                } else {
                    ""
                };
                format!("{kind}{back} using {} on {}", bare(name), bare(&t.name))
            }
            // The yb planner chooses by rules and never makes one.
            AccessPath::Bitmap { .. } => format!("Bitmap Heap Scan on {}", bare(&t.name)),
        };
        let cond_exprs = match &plan.access {
            AccessPath::Index { cond_exprs, .. } | AccessPath::Bitmap { cond_exprs, .. } => {
                cond_exprs.as_slice()
            }
            AccessPath::Seq => &[],
        };
        // The same lines twice: as printed, and with columns qualified (VERBOSE).
        // YugabyteDB prints the conditions in the order they run: the index
        // bound, DocDB's filters on the index then the table, then PostgreSQL's.
        let only = title.starts_with("Index Only Scan");
        let index_label = if only {
            "Storage Filter"
        } else {
            "Storage Index Filter"
        };
        let lines = |rel: Option<&str>| {
            let mut d = scan_conditions(cond_exprs, &[], &t.columns, rel, 0);
            d.extend(qual_line(index_label, &split.index, &t.columns, rel));
            d.extend(qual_line("Storage Filter", &split.table, &t.columns, rel));
            d.extend(scan_conditions(
                &[],
                &split.local,
                &t.columns,
                rel,
                st.removed,
            ));
            if only {
                d.push("Heap Fetches: 0".to_string());
            }
            if st.partial {
                d.push("Partial Aggregate: true".to_string());
            }
            d
        };
        let details = lines(None);
        let verbose_details = lines(Some(bare(&t.name)));
        let mut dist = Vec::new();
        dist_lines("Table", &st.table, &mut dist);
        dist_lines("Index", &st.index, &mut dist);
        let mut both = st.table.clone();
        both.add(&st.index);
        let debug = both
            .metrics()
            .into_iter()
            .filter(|(k, _)| {
                !k.starts_with("storage_")
                    && !k.starts_with("rpc_")
                    && *k != "io_read_bytes"
                    && *k != "rocksdb_insert"
            })
            .map(|(k, v)| (k.to_string(), v))
            .collect();
        let width = t.columns.iter().map(|c| type_width(c.ty)).sum();
        let now = self.clock.now_us();
        let schema = Some(schema_of(&t.name))
            .filter(|s| *s != PUBLIC)
            .map(String::from);
        PlanNode {
            title,
            schema,
            details,
            // A pushed-down aggregate hands up one partial row a request.
            rows: if st.partial {
                st.partial_rows
            } else {
                st.rows.len() as u64
            },
            loops: 1,
            first_us: st.first_us.unwrap_or(now) - start_us,
            last_us: now - start_us,
            est_cost: plan
                .cost
                .map_or((0.0, 100.0), |c| (c.scan.startup, c.scan.total)),
            est_rows: plan.cost.map_or(1000.0, |c| c.scan.rows),
            width: plan.cost.map_or(width, |c| c.width.round() as u32),
            costed: plan.cost.is_some(),
            dist,
            debug,
            verbose_details,
            ..PlanNode::default()
        }
    }
}
