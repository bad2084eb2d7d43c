//! What the pg profile hands its planner about a table
//! ([`crate::sql::plan::PlannerStats`]): the heap's and each index's size
//! now, `pg_class`'s figures, ANALYZE's column statistics, and the cost
//! settings of the session, as PostgreSQL's `get_relation_info` gathers
//! them.

use super::catalog::{Index, Table};
use super::engine::PgEngine;
use crate::sql::ast::{ColumnDef, Expr};
use crate::sql::plan::cost::CostParams;
use crate::sql::plan::statistics::ColumnStats;
use crate::sql::plan::statistics::{IndexStats, RelationStats};
use crate::sql::plan::PlannerStats;
use crate::sql::plan::TableInfo;

impl PgEngine {
    /// The table's statistics, by the planner's numbers: its columns, the
    /// system columns (none), then `expressions`, its indexed expressions.
    pub(super) fn planner_stats(&self, table: usize, expressions: &[Expr]) -> PlannerStats {
        let t = self.catalog.table(table);
        // `has_unique_index`: a unique, full index on the column alone.
        let unique = |c: usize| {
            t.indexes.iter().any(|&i| {
                let ix = self.catalog.index(i);
                ix.unique && ix.predicate.is_none() && ix.key.len() == 1 && ix.key[0].0 == c
            })
        };
        let mut relation = relation_stats(t, self.io.pool.page_size(), &unique);
        relation
            .columns
            .extend((0..TableInfo::SYSTEM_COLUMNS).map(|_| None));
        relation
            .unique
            .extend((0..TableInfo::SYSTEM_COLUMNS).map(|_| false));
        for e in expressions {
            let (stats, unique) = self.expression_stats(t, e);
            relation.columns.push(stats);
            relation.unique.push(unique);
        }
        let tuples = relation.estimate().tuples;
        let indexes = t
            .indexes
            .iter()
            .map(|&i| index_stats(self.catalog.index(i), tuples))
            .collect();
        PlannerStats {
            relation,
            indexes,
            params: self.cost_params(),
        }
    }

    /// What ANALYZE learnt of an indexed expression (from the first index
    /// on it), and whether a unique, full index has it as its only key.
    fn expression_stats(&self, t: &Table, e: &Expr) -> (Option<ColumnStats>, bool) {
        let mut stats = None;
        let mut unique = false;
        for &i in &t.indexes {
            let ix = self.catalog.index(i);
            let Some(k) = ix.expressions.iter().position(|x| &x.expr == e) else {
                continue;
            };
            if stats.is_none() {
                stats = ix.expression_stats.get(k).cloned();
            }
            unique |= ix.unique && ix.predicate.is_none() && ix.key.len() == 1;
        }
        (stats, unique)
    }

    /// The session's cost settings; a value IndexLab cannot read keeps
    /// PostgreSQL's default.
    fn cost_params(&self) -> CostParams {
        let text = |name: &str| self.settings.show(name).unwrap_or_default();
        let number = |name: &str, default: f64| text(name).trim().parse().unwrap_or(default);
        let on = |name: &str| {
            !matches!(
                text(name).trim().to_ascii_lowercase().as_str(),
                "off" | "false" | "no" | "0" | "of" | "f" | "n"
            )
        };
        let d = CostParams::default();
        CostParams {
            seq_page_cost: number("seq_page_cost", d.seq_page_cost),
            random_page_cost: number("random_page_cost", d.random_page_cost),
            cpu_tuple_cost: number("cpu_tuple_cost", d.cpu_tuple_cost),
            cpu_index_tuple_cost: number("cpu_index_tuple_cost", d.cpu_index_tuple_cost),
            cpu_operator_cost: number("cpu_operator_cost", d.cpu_operator_cost),
            effective_cache_size: size_in(&text("effective_cache_size"), 8192.0)
                .unwrap_or(d.effective_cache_size),
            work_mem: size_in(&text("work_mem"), 1024.0).unwrap_or(d.work_mem),
            enable_seqscan: on("enable_seqscan"),
            enable_indexscan: on("enable_indexscan"),
            enable_indexonlyscan: on("enable_indexonlyscan"),
            enable_bitmapscan: on("enable_bitmapscan"),
            enable_sort: on("enable_sort"),
            enable_hashjoin: on("enable_hashjoin"),
            enable_mergejoin: on("enable_mergejoin"),
            enable_material: on("enable_material"),
            enable_nestloop: on("enable_nestloop"),
            enable_memoize: on("enable_memoize"),
            enable_hashagg: on("enable_hashagg"),
            parallel_setup_cost: number("parallel_setup_cost", d.parallel_setup_cost),
            parallel_tuple_cost: number("parallel_tuple_cost", d.parallel_tuple_cost),
            max_parallel_workers_per_gather: text("max_parallel_workers_per_gather")
                .trim()
                .parse()
                .unwrap_or(d.max_parallel_workers_per_gather),
            min_parallel_table_scan_size: size_in(&text("min_parallel_table_scan_size"), 8192.0)
                .unwrap_or(d.min_parallel_table_scan_size),
            min_parallel_index_scan_size: size_in(&text("min_parallel_index_scan_size"), 8192.0)
                .unwrap_or(d.min_parallel_index_scan_size),
            parallel_leader_participation: on("parallel_leader_participation"),
        }
    }
}

/// A memory setting in units of `unit` bytes: `4GB`, `64MB`, `512kB`, or
/// a bare number already in those units.
fn size_in(text: &str, unit: f64) -> Option<f64> {
    let t = text.trim();
    let split = t
        .find(|c: char| !c.is_ascii_digit() && c != '.')
        .unwrap_or(t.len());
    let n: f64 = t[..split].parse().ok()?;
    let bytes = match t[split..].trim() {
        "" => return Some(n),
        "B" => n,
        "kB" => n * 1024.0,
        "MB" => n * 1024.0 * 1024.0,
        "GB" => n * 1024.0 * 1024.0 * 1024.0,
        "TB" => n * 1024.0f64.powi(4),
        _ => return None,
    };
    Some((bytes / unit).floor())
}

fn relation_stats(t: &Table, page_size: u32, unique: &dyn Fn(usize) -> bool) -> RelationStats {
    let column_stats = |i: usize| t.column_stats.get(i).cloned();
    RelationStats {
        blocks_now: t.heap.page_count(),
        relpages: t.stats.pages,
        reltuples: f64::from(t.stats.tuples),
        relallvisible: t.stats.all_visible,
        usable_page_bytes: page_size - 24,
        column_widths: t
            .columns
            .iter()
            .enumerate()
            .map(|(i, c)| column_stats(i).map_or_else(|| typical_width(c), |s| s.avg_width as u32))
            .collect(),
        columns: (0..t.columns.len()).map(column_stats).collect(),
        unique: (0..t.columns.len()).map(unique).collect(),
    }
}

/// `get_typavgwidth`: a `varchar(n)` is sized from its limit.
fn typical_width(c: &ColumnDef) -> u32 {
    match (c.ty, c.max_chars) {
        (crate::value::SqlType::Text, Some(n)) => {
            let max = n.saturating_mul(4).saturating_add(4);
            match max {
                0..=32 => max,
                33..=999 => 32 + (max - 32) / 2,
                _ => 32 + (1000 - 32) / 2,
            }
        }
        (ty, _) => crate::exec::type_width(ty),
    }
}

fn index_stats(ix: &Index, table_tuples: f64) -> IndexStats {
    let has_root = ix.max_key.is_some();
    IndexStats {
        pages: ix.pages(),
        tuples: table_tuples,
        tree_height: if has_root {
            ix.tree.height().saturating_sub(1)
        } else {
            0
        },
        unique: ix.unique,
    }
}
