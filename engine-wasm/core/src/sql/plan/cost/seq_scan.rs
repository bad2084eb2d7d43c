//! `cost_seqscan`: every page read in order, every row checked.

use super::{qual_cost, Cost, CostParams, DISABLE_COST};
use crate::sql::ast::Expr;
use crate::sql::plan::statistics::SizeEstimate;

/// Reading `size.pages` pages sequentially and checking `quals` on each of
/// its `size.tuples` rows, `rows` of which pass.
pub fn cost(size: &SizeEstimate, quals: &[Expr], rows: f64, p: &CostParams) -> Cost {
    let startup = if p.enable_seqscan { 0.0 } else { DISABLE_COST };
    let disk = p.seq_page_cost * size.pages;
    let cpu = (p.cpu_tuple_cost + qual_cost(quals, p)) * size.tuples;
    Cost {
        startup,
        total: startup + disk + cpu,
        rows,
    }
}

/// One process's share of a Parallel Seq Scan of `workers` (with the
/// leader: `divisor` of them, [`crate::sql::plan::parallel::divisor`]):
/// every page is still read, once, by whichever process takes it, but the
/// rows' checks and the select list's `target` (per row out) are shared,
/// and so are the rows out.
pub fn partial(
    size: &SizeEstimate,
    quals: &[Expr],
    (rows, target): (f64, f64),
    divisor: f64,
    p: &CostParams,
) -> Cost {
    let startup = if p.enable_seqscan { 0.0 } else { DISABLE_COST };
    let disk = p.seq_page_cost * size.pages;
    let cpu = (p.cpu_tuple_cost + qual_cost(quals, p)) * size.tuples + target * rows;
    Cost {
        startup,
        total: startup + disk + cpu / divisor,
        rows: crate::sql::plan::statistics::clamp_rows(rows / divisor),
    }
}
