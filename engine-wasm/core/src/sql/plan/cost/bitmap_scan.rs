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

/// The Bitmap Heap Scan over it, checking `quals` (every condition, the
/// index's rechecked too) on each row fetched.
pub fn cost(
    ix: &IndexCost,
    heap: &SizeEstimate,
    quals: &[Expr],
    rows: f64,
    p: &CostParams,
) -> Cost {
    let tuples = clamp_rows(ix.selectivity * heap.tuples);
    // Building the bitmap: a little per row on top of the index scan (the
    // index path's rows, which are the table's estimate after every
    // condition, as `cost_bitmap_tree_node` reads them).
    let mut startup = ix.total + 0.1 * p.cpu_operator_cost * rows;
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
