//! `cost_bitmap_heap_scan`: the index is read first into a bitmap of row
//! addresses, then the heap's pages are read once each, in page order.
//!
//! Reading pages in order costs less than random reads, more so the larger
//! the share of the table they are (the cost per page falls from
//! `random_page_cost` toward `seq_page_cost` with the square root of that
//! share), and no page is read twice. That beats an index scan when the rows
//! are many and scattered, and loses to it when they are few or stored in
//! the index's order.

use super::index_scan::IndexCost;
use super::{qual_cost, Cost, CostParams, DISABLE_COST};
use crate::sql::ast::Expr;
use crate::sql::plan::statistics::{clamp_rows, SizeEstimate};

/// The Bitmap Index Scan node: the index's cost, and the rows it marks.
pub fn index_node(ix: &IndexCost, heap: &SizeEstimate) -> Cost {
    Cost {
        startup: 0.0,
        total: ix.total,
        rows: clamp_rows(ix.selectivity * heap.tuples),
    }
}

/// What a bitmap costs to build and the share of rows it marks
/// (`cost_bitmap_tree_node`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Tree {
    pub cost: f64,
    pub selectivity: f64,
}

/// One Bitmap Index Scan's tree node: the index scan, and a little per row
/// for building the bitmap (the index path's rows, which are the table's
/// estimate after every condition, as `cost_bitmap_tree_node` reads them).
pub fn index_tree(ix: &IndexCost, rows: f64, p: &CostParams) -> Tree {
    Tree {
        cost: ix.total + 0.1 * p.cpu_operator_cost * rows,
        selectivity: ix.selectivity,
    }
}

/// A BitmapAnd of `arms` (`cost_bitmap_and_node`): each arm's cost, 100
/// operators for each AND after the first, and the product of their
/// selectivities (taken as independent).
pub fn and_tree(arms: &[Tree], p: &CostParams) -> Tree {
    let mut out = Tree {
        cost: 0.0,
        selectivity: 1.0,
    };
    for (i, arm) in arms.iter().enumerate() {
        out.cost += arm.cost;
        out.selectivity *= arm.selectivity;
        if i > 0 {
            out.cost += 100.0 * p.cpu_operator_cost;
        }
    }
    out
}

/// A BitmapOr of `arms` (`cost_bitmap_or_node`), each a Bitmap Index
/// Scan: their costs, and their selectivities summed (the arms taken as
/// matching different rows), at most 1.
pub fn or_tree(arms: &[Tree]) -> Tree {
    Tree {
        cost: arms.iter().map(|a| a.cost).sum(),
        selectivity: arms.iter().map(|a| a.selectivity).sum::<f64>().min(1.0),
    }
}

/// The BitmapAnd (or BitmapOr) node: its cost, and the rows its
/// selectivity gives.
pub fn and_node(tree: &Tree, heap: &SizeEstimate) -> Cost {
    Cost {
        startup: tree.cost,
        total: tree.cost,
        rows: clamp_rows(tree.selectivity * heap.tuples),
    }
}

/// The Bitmap Heap Scan over one index, checking `quals` (every condition,
/// the index's rechecked too) on each row fetched.
pub fn cost(
    ix: &IndexCost,
    heap: &SizeEstimate,
    quals: &[Expr],
    rows: f64,
    p: &CostParams,
) -> Cost {
    heap_scan(&index_tree(ix, rows, p), heap, quals, rows, p)
}

/// The Bitmap Heap Scan over a built bitmap (`cost_bitmap_heap_scan`).
pub fn heap_scan(
    tree: &Tree,
    heap: &SizeEstimate,
    quals: &[Expr],
    rows: f64,
    p: &CostParams,
) -> Cost {
    let tuples = clamp_rows(tree.selectivity * heap.tuples);
    let mut startup = tree.cost;
    if !p.enable_bitmapscan {
        startup += DISABLE_COST;
    }
    let pages = heap_pages(tuples, heap.pages);
    let t = heap.pages.max(1.0);
    let per_page = if pages >= 2.0 {
        p.random_page_cost - (p.random_page_cost - p.seq_page_cost) * (pages / t).sqrt()
    } else {
        p.random_page_cost
    };
    let run = pages * per_page + (p.cpu_tuple_cost + qual_cost(quals, p)) * tuples;
    Cost {
        startup,
        total: startup + run,
        rows,
    }
}

/// `compute_bitmap_pages`: the distinct pages `tuples` rows fall on.
pub fn heap_pages(tuples: f64, pages: f64) -> f64 {
    let t = pages.max(1.0);
    let fetched = 2.0 * t * tuples / (2.0 * t + tuples);
    if fetched >= t {
        t
    } else {
        fetched.ceil()
    }
}
