//! PostgreSQL 15's cost model (`costsize.c`), as pure functions of the
//! statistics and the settings: one file per kind of path. A cost is in
//! units of one sequential page read (`seq_page_cost`); a node has a
//! startup cost (before its first row) and a total cost (all its rows).

pub mod aggregate;
pub mod bitmap_scan;
pub mod hash_join;
pub mod index_scan;
pub mod memoize;
pub mod merge_join;
pub mod nest_loop;
pub mod seq_scan;
pub mod sort;
pub mod yb_legacy;

use crate::sql::ast::Expr;

/// The settings the costs read (`SET random_page_cost = 1.1` and so on).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CostParams {
    pub seq_page_cost: f64,
    pub random_page_cost: f64,
    pub cpu_tuple_cost: f64,
    pub cpu_index_tuple_cost: f64,
    pub cpu_operator_cost: f64,
    /// In pages.
    pub effective_cache_size: f64,
    /// In kB.
    pub work_mem: f64,
    pub enable_seqscan: bool,
    pub enable_indexscan: bool,
    pub enable_indexonlyscan: bool,
    pub enable_bitmapscan: bool,
    pub enable_sort: bool,
    pub enable_hashjoin: bool,
    pub enable_mergejoin: bool,
    pub enable_material: bool,
    pub enable_nestloop: bool,
    pub enable_memoize: bool,
    pub enable_hashagg: bool,
    /// Starting the workers of a parallel plan, once.
    pub parallel_setup_cost: f64,
    /// Handing one row from a worker to the Gather.
    pub parallel_tuple_cost: f64,
    pub max_parallel_workers_per_gather: u32,
    /// In pages: a smaller table is never scanned in parallel.
    pub min_parallel_table_scan_size: f64,
    /// In pages: an index scan reading fewer of its index's is not either.
    pub min_parallel_index_scan_size: f64,
    /// Whether the leader scans too, besides collecting the workers' rows.
    pub parallel_leader_participation: bool,
}

impl Default for CostParams {
    fn default() -> Self {
        CostParams {
            seq_page_cost: 1.0,
            random_page_cost: 4.0,
            cpu_tuple_cost: 0.01,
            cpu_index_tuple_cost: 0.005,
            cpu_operator_cost: 0.0025,
            effective_cache_size: 524_288.0,
            work_mem: 4096.0,
            enable_seqscan: true,
            enable_indexscan: true,
            enable_indexonlyscan: true,
            enable_bitmapscan: true,
            enable_sort: true,
            enable_hashjoin: true,
            enable_mergejoin: true,
            enable_material: true,
            enable_nestloop: true,
            enable_memoize: true,
            enable_hashagg: true,
            parallel_setup_cost: 1000.0,
            parallel_tuple_cost: 0.1,
            max_parallel_workers_per_gather: 2,
            min_parallel_table_scan_size: 1024.0,
            min_parallel_index_scan_size: 64.0,
            parallel_leader_participation: true,
        }
    }
}

/// What a disabled plan kind adds to its startup cost (`disable_cost`): it
/// is still chosen when nothing else can run the query.
pub const DISABLE_COST: f64 = 1.0e10;

/// A path's estimate, as EXPLAIN prints it: `cost=startup..total rows=`.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Cost {
    pub startup: f64,
    pub total: f64,
    pub rows: f64,
}

impl Cost {
    /// The cost of the first `fraction` of its rows (`compare_fractional_
    /// path_costs`): a LIMIT needs only that much.
    pub fn fractional(&self, fraction: f64) -> f64 {
        if fraction <= 0.0 || fraction >= 1.0 {
            self.total
        } else {
            self.startup + fraction * (self.total - self.startup)
        }
    }
}

/// `cost_qual_eval`: the cost per row of checking `quals`, in operator
/// calls. Constants are folded before costing, so `1 + 2` is free, but a
/// stable function (`now()`) is called again for every row; an IN list is
/// assumed to stop halfway through.
pub fn qual_cost(quals: &[Expr], p: &CostParams) -> f64 {
    quals
        .iter()
        .map(|q| operators(q) * p.cpu_operator_cost)
        .sum()
}

/// What the index scan pays once for its conditions' other sides
/// (`index_other_operands_eval_cost`): `now()` in `value < now()`.
pub fn other_operands_cost(quals: &[Expr], p: &CostParams) -> f64 {
    let mut calls = 0.0;
    for q in quals {
        q.visit(&mut |x| {
            if matches!(x, Expr::Call(_)) {
                calls += 1.0;
            }
        });
    }
    calls * p.cpu_operator_cost
}

/// A constant the planner folds before costing: no column, no stable call.
fn folded(e: &Expr) -> bool {
    let mut call = false;
    e.visit(&mut |x| call |= matches!(x, Expr::Call(_)));
    !call && super::is_constant(e)
}

fn operators(e: &Expr) -> f64 {
    if folded(e) {
        return 0.0;
    }
    match e {
        // An aggregate's result is read like a column (`cost_qual_eval`).
        Expr::Column { .. } | Expr::Literal(_) | Expr::Param(_) | Expr::Aggregate { .. } => 0.0,
        Expr::Call(_) => 1.0,
        Expr::Binary { op, left, right } => {
            let own = match op {
                crate::sql::ast::BinOp::And | crate::sql::ast::BinOp::Or => 0.0,
                _ => 1.0,
            };
            own + operators(left) + operators(right)
        }
        Expr::Unary { expr, .. } | Expr::IsNull { expr, .. } => operators(expr),
        Expr::Between { expr, .. } => 2.0 + 2.0 * operators(expr),
        Expr::InList { expr, list, .. } => operators(expr) + 0.5 * list.len() as f64,
        Expr::Like { expr, .. } => 1.0 + operators(expr),
        Expr::Cast { expr, .. } => 1.0 + operators(expr),
        Expr::Function { args, .. } => 1.0 + args.iter().map(operators).sum::<f64>(),
        _ => 1.0,
    }
}
