//! Parallel query for the one table a plain SELECT reads. PostgreSQL splits
//! a big table's Seq Scan among worker processes: each takes pages in turn
//! from a shared counter, checks their rows, and hands the ones that pass to
//! a Gather node in the leader, which scans pages too while it waits
//! (`create_plain_partial_paths`, `cost_seqscan` with `parallel_workers`,
//! `cost_gather`, `compute_parallel_worker`). Starting workers costs
//! `parallel_setup_cost` and every row handed over `parallel_tuple_cost`,
//! so the plan wins when many rows are checked and few come out.
//!
//! IndexLab costs it as PostgreSQL does and runs the scan once; EXPLAIN
//! prints what the leader and its workers did together, as PostgreSQL sums
//! their counters: the Buffers of every process, and rows per process.

use super::cost::{Cost, CostParams};
use crate::sql::ast::{AggFunc, Expr, FromItem, Func, Select, SelectItem};
use crate::sql::functions::ScalarFunc;

/// A Gather over the scan: how many workers it plans and its estimate.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Gather {
    pub workers: u32,
    /// Whether the leader scans too (`parallel_leader_participation`).
    pub leader: bool,
    pub cost: Cost,
}

impl Gather {
    /// The processes that run the scan below: each worker, and the leader
    /// unless it only collects. EXPLAIN's `loops=`.
    pub fn processes(&self) -> u64 {
        u64::from(self.workers) + u64::from(self.leader)
    }
}

/// `compute_parallel_worker` for a heap of `pages`: none below
/// `min_parallel_table_scan_size`, one more each time the table is three
/// times bigger, at most `max_parallel_workers_per_gather`.
pub fn workers(pages: f64, p: &CostParams) -> u32 {
    if pages < p.min_parallel_table_scan_size {
        return 0;
    }
    let mut workers = 1;
    let mut threshold = p.min_parallel_table_scan_size.max(1.0);
    while pages >= threshold * 3.0 {
        workers += 1;
        threshold *= 3.0;
        if threshold > f64::from(i32::MAX / 3) {
            break;
        }
    }
    workers.min(p.max_parallel_workers_per_gather)
}

/// `compute_parallel_worker` for an index scan reading `index_pages` of
/// the index and (not index-only) `heap_pages` of the table at random:
/// each must reach its minimum (`min_parallel_index_scan_size`, 512 kB),
/// and the fewer workers of the two counts wins.
pub fn index_workers(heap_pages: Option<f64>, index_pages: f64, p: &CostParams) -> u32 {
    if heap_pages.is_some_and(|h| h.trunc() < p.min_parallel_table_scan_size)
        || index_pages.trunc() < p.min_parallel_index_scan_size
    {
        return 0;
    }
    let by = |pages: f64, min: f64| {
        let mut workers = 1;
        let mut threshold = min.max(1.0);
        while pages.trunc() >= threshold * 3.0 {
            workers += 1;
            threshold *= 3.0;
            if threshold > f64::from(i32::MAX / 3) {
                break;
            }
        }
        workers
    };
    let index = by(index_pages, p.min_parallel_index_scan_size);
    let workers = match heap_pages {
        Some(h) => by(h, p.min_parallel_table_scan_size).min(index),
        None => index,
    };
    workers.min(p.max_parallel_workers_per_gather)
}

/// `get_parallel_divisor`: the share of the rows one process handles. The
/// leader also scans, less the more workers it has to serve (30 % of its
/// time per worker).
pub fn divisor(workers: u32, p: &CostParams) -> f64 {
    let mut d = f64::from(workers);
    if p.parallel_leader_participation {
        let leader = 1.0 - 0.3 * f64::from(workers);
        if leader > 0.0 {
            d += leader;
        }
    }
    d
}

/// `cost_gather`: the partial scan's cost, the workers' start, and each of
/// the `rows` it hands over.
pub fn gather(partial: &Cost, rows: f64, p: &CostParams) -> Cost {
    Cost {
        startup: partial.startup + p.parallel_setup_cost,
        total: partial.total + p.parallel_setup_cost + p.parallel_tuple_cost * rows,
        rows,
    }
}

/// `cost_gather_merge`: like a Gather, but the leader merges the
/// processes' sorted streams through a heap of one row per process (the
/// workers and itself), and waits for every stream, which PostgreSQL
/// charges as 5 % more per row handed over.
pub fn gather_merge(sorted: &Cost, rows: f64, workers: u32, p: &CostParams) -> Cost {
    let n = f64::from(workers) + 1.0;
    let log_n = n.log2();
    let comparison = 2.0 * p.cpu_operator_cost;
    let startup = comparison * n * log_n + p.parallel_setup_cost;
    let run = rows * comparison * log_n
        + p.cpu_operator_cost * rows
        + p.parallel_tuple_cost * rows * 1.05;
    Cost {
        startup: startup + sorted.startup,
        total: startup + run + sorted.total,
        rows,
    }
}

/// Whether PostgreSQL would consider a parallel plan for `q` as IndexLab
/// models it: a plain read of one table (no join, GROUP BY, ORDER BY,
/// LIMIT, set operation, CTE or subquery), or its aggregates, with or
/// without GROUP BY (then ORDER BY and LIMIT may follow the grouping), when
/// each can be computed in parts and combined (not with DISTINCT or
/// ORDER BY in the call, nor string_agg, which has no combine function in
/// PostgreSQL 15), calling nothing a worker may not run (`random()` and the
/// sequence functions are parallel restricted or unsafe,
/// `max_parallel_hazard`).
pub fn gatherable(q: &Select) -> bool {
    let plain = q.with.is_empty()
        && q.set_operation.is_none()
        && q.values.is_none()
        && q.joins.is_empty()
        && matches!(q.from.as_slice(), [FromItem::Table { .. }])
        && !q.distinct
        && (!q.group_by.is_empty()
            || (q.order_by.is_empty() && q.limit.is_none() && q.offset.is_none()));
    if !plain {
        return false;
    }
    let mut exprs: Vec<&Expr> = q.filter.iter().chain(&q.having).collect();
    exprs.extend(&q.group_by);
    for item in &q.items {
        if let SelectItem::Expr { expr, .. } = item {
            exprs.push(expr);
        }
    }
    exprs.iter().all(|e| parallel_safe(e))
}

/// No subquery, parallel-unsafe function or aggregate that cannot be
/// split in `e`.
fn parallel_safe(e: &Expr) -> bool {
    let mut safe = true;
    e.visit(&mut |x| {
        if let Expr::Aggregate {
            func,
            distinct,
            order_by,
            ..
        } = x
        {
            safe &= *func != AggFunc::StringAgg && !distinct && order_by.is_empty();
        }
        safe &= !matches!(
            x,
            Expr::ScalarSubquery(_)
                | Expr::Exists { .. }
                | Expr::InSubquery { .. }
                | Expr::Call(Func::Random)
                | Expr::Function {
                    func: ScalarFunc::NextVal
                        | ScalarFunc::CurrVal
                        | ScalarFunc::SetVal
                        | ScalarFunc::LastVal
                        | ScalarFunc::TxidCurrent
                        | ScalarFunc::PgStatForceNextFlush,
                    ..
                }
        );
    });
    safe
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn workers_grow_with_each_tripling_of_the_table() {
        let p = CostParams::default();
        assert_eq!(workers(1023.0, &p), 0);
        assert_eq!(workers(1024.0, &p), 1);
        assert_eq!(workers(3071.0, &p), 1);
        assert_eq!(workers(3072.0, &p), 2);
        // max_parallel_workers_per_gather caps them.
        assert_eq!(workers(1.0e6, &p), 2);
        let four = CostParams {
            max_parallel_workers_per_gather: 4,
            ..p
        };
        assert_eq!(workers(9216.0, &four), 3);
    }

    #[test]
    fn the_leader_counts_for_less_the_more_workers_it_serves() {
        let p = CostParams::default();
        assert!((divisor(2, &p) - 2.4).abs() < 1e-12);
        assert!((divisor(1, &p) - 1.7).abs() < 1e-12);
        assert_eq!(divisor(4, &p), 4.0);
    }
}
