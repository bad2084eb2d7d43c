//! `cost_index` with `btcostestimate`: descend the B-tree, read the leaf
//! pages the condition covers, then fetch each row from the heap.
//!
//! The heap fetches dominate. Rows stored in the index's order (a column's
//! correlation near ±1) sit together, so their pages are read almost in
//! sequence; scattered rows cost a random read each, up to the table's
//! pages, fewer when pages stay cached (Mackert and Lohman's estimate). The
//! cost is interpolated between the two by the correlation squared. An
//! index-only scan fetches only the pages the visibility map does not show
//! all-visible.

use super::{other_operands_cost, qual_cost, Cost, CostParams, DISABLE_COST};
use crate::sql::ast::Expr;
use crate::sql::plan::statistics::{clamp_rows, IndexStats, SizeEstimate};

/// What the B-tree itself costs (`amcostestimate`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct IndexCost {
    pub startup: f64,
    pub total: f64,
    /// The share of the table's rows its conditions find.
    pub selectivity: f64,
    /// The index pages one descent reads (`numIndexPages`).
    pub pages: f64,
}

/// The index's part of a scan.
pub struct IndexScan<'a> {
    pub index: &'a IndexStats,
    /// The conditions the B-tree checks (`Index Cond`).
    pub quals: &'a [Expr],
    /// Their selectivity (with a partial index's predicate): the share of
    /// the table's rows fetched from the heap.
    pub selectivity: f64,
    /// The share the conditions that bound the scan find: the entries read
    /// (`numIndexTuples`). Conditions checked on each entry narrow the heap
    /// fetches, not the entries.
    pub bound_selectivity: f64,
    /// Descents: the values of an IN list (`num_sa_scans`), else 1.
    pub descents: f64,
    /// An equality on every key column of a unique index: one row.
    pub unique_match: bool,
    /// How many times the scan runs: once per outer row on the inner side
    /// of a nested loop (`loop_count`), else 1.
    pub loops: f64,
}

/// `btcostestimate` over `genericcostestimate`.
pub fn btree_cost(
    scan: &IndexScan,
    heap: &SizeEstimate,
    table_pages: f64,
    p: &CostParams,
) -> IndexCost {
    let ix = scan.index;
    let descents = scan.descents.max(1.0);
    // Index tuples visited per descent.
    let mut tuples = if scan.unique_match {
        1.0
    } else {
        (scan.bound_selectivity * heap.tuples / descents).round_ties_even()
    };
    tuples = tuples.min(ix.tuples).max(1.0);
    let pages = f64::from(ix.pages);
    let index_pages = if ix.pages > 1 && ix.tuples > 1.0 {
        (tuples * pages / ix.tuples).ceil()
    } else {
        1.0
    };
    // Repeated descents share cached pages; the cost is then the pages all
    // the scans fetch, shared out over the loops.
    let scans = descents * scan.loops.max(1.0);
    let mut total = if scans > 1.0 {
        let fetched = pages_fetched(index_pages * scans, pages, pages, table_pages, p);
        fetched * p.random_page_cost / scan.loops.max(1.0)
    } else {
        index_pages * p.random_page_cost
    };
    let qual_ops = p.cpu_operator_cost * operator_count(scan.quals);
    total += tuples * descents * (p.cpu_index_tuple_cost + qual_ops);
    // The conditions' other sides (`now()`), evaluated once.
    let args = other_operands_cost(scan.quals, p);
    total += args;
    // Comparisons to find the first leaf, and a cost per page descended.
    let mut startup = args;
    if ix.tuples > 1.0 {
        let compare = ix.tuples.log2().ceil() * p.cpu_operator_cost;
        startup += compare;
        total += descents * compare;
    }
    let descend = f64::from(ix.tree_height + 1) * 50.0 * p.cpu_operator_cost;
    startup += descend;
    total += descents * descend;
    IndexCost {
        startup,
        total,
        selectivity: scan.selectivity,
        pages: index_pages,
    }
}

/// The index conditions as PostgreSQL counts them: BETWEEN is two.
fn operator_count(quals: &[Expr]) -> f64 {
    quals
        .iter()
        .map(|q| {
            if matches!(q, Expr::Between { .. }) {
                2.0
            } else {
                1.0
            }
        })
        .sum()
}

/// The rest of `cost_index`: the heap's pages and each row's checks.
pub struct HeapFetch<'a> {
    pub heap: &'a SizeEstimate,
    /// Heap pages of every table in the query (`root->total_table_pages`).
    pub table_pages: f64,
    /// The leading column's correlation (×0.75 for a multi-column index).
    pub correlation: f64,
    pub index_only: bool,
    /// Conditions checked on the row, not by the index (`Filter`).
    pub filter: &'a [Expr],
    /// Rows the scan returns (all conditions).
    pub rows: f64,
    /// As in [`IndexScan`].
    pub loops: f64,
}

/// `cost_index`.
pub fn cost(ix: &IndexCost, index_pages: f64, h: &HeapFetch, p: &CostParams) -> Cost {
    partial_cost(ix, index_pages, h, 1.0, p)
}

/// The heap pages the scan reads in random order (`rand_heap_pages`),
/// which decide a parallel scan's workers with the index's pages; an Index
/// Only Scan counts none.
pub fn random_heap_pages(
    ix: &IndexCost,
    index_pages: f64,
    h: &HeapFetch,
    p: &CostParams,
) -> Option<f64> {
    if h.index_only {
        return None;
    }
    let tuples = clamp_rows(ix.selectivity * h.heap.tuples);
    Some(pages_fetched(
        tuples,
        h.heap.pages,
        index_pages,
        h.table_pages,
        p,
    ))
}

/// One process's share of a Parallel Index (Only) Scan, `divisor` of them
/// ([`crate::sql::plan::parallel::divisor`]; 1 for a scan by one process):
/// the index and heap pages cost what they cost (each is read once, by
/// whichever process gets it), the rows' checks and the rows are shared.
pub fn partial_cost(
    ix: &IndexCost,
    index_pages: f64,
    h: &HeapFetch,
    divisor: f64,
    p: &CostParams,
) -> Cost {
    let enabled = if h.index_only {
        p.enable_indexonlyscan && p.enable_indexscan
    } else {
        p.enable_indexscan
    };
    let startup = ix.startup + if enabled { 0.0 } else { DISABLE_COST };
    let mut run = ix.total - ix.startup;
    let tuples = clamp_rows(ix.selectivity * h.heap.tuples);
    let visible = |pages: f64| {
        if h.index_only {
            (pages * (1.0 - h.heap.all_visible_frac)).ceil()
        } else {
            pages
        }
    };
    let fetched = |t: f64| pages_fetched(t, h.heap.pages, index_pages, h.table_pages, p);
    let in_order = (ix.selectivity * h.heap.pages).ceil();
    let (max_io, min_io) = if h.loops > 1.0 {
        // Every loop's fetches are random; the pages all loops touch,
        // shared out over them.
        let max_io = visible(fetched(tuples * h.loops)) * p.random_page_cost / h.loops;
        let min_io = visible(fetched(in_order * h.loops)) * p.random_page_cost / h.loops;
        (max_io, min_io)
    } else {
        let max_io = visible(fetched(tuples)) * p.random_page_cost;
        let in_order = visible(in_order);
        let min_io = if in_order > 0.0 {
            p.random_page_cost + (in_order - 1.0).max(0.0) * p.seq_page_cost
        } else {
            0.0
        };
        (max_io, min_io)
    };
    let c2 = h.correlation * h.correlation;
    run += max_io + c2 * (min_io - max_io);
    run += (p.cpu_tuple_cost + qual_cost(h.filter, p)) * tuples / divisor;
    Cost {
        startup,
        total: startup + run,
        rows: if divisor > 1.0 {
            clamp_rows(h.rows / divisor)
        } else {
            h.rows
        },
    }
}

/// `index_pages_fetched`: the distinct pages `tuples` random fetches touch
/// in a relation of `pages` pages, with `effective_cache_size` of cache
/// shared with the query's other relations (Mackert and Lohman).
pub fn pages_fetched(
    tuples: f64,
    pages: f64,
    index_pages: f64,
    table_pages: f64,
    p: &CostParams,
) -> f64 {
    let t = pages.max(1.0);
    let total = (table_pages + index_pages).max(1.0);
    let b = p.effective_cache_size * t / total;
    let b = if b <= 1.0 { 1.0 } else { b.ceil() };
    if t <= b {
        let fetched = 2.0 * t * tuples / (2.0 * t + tuples);
        if fetched >= t {
            t
        } else {
            fetched.ceil()
        }
    } else {
        let lim = 2.0 * t * b / (2.0 * t - b);
        let fetched = if tuples <= lim {
            2.0 * t * tuples / (2.0 * t + tuples)
        } else {
            b + (tuples - lim) * (t - b) / t
        };
        fetched.ceil()
    }
}
