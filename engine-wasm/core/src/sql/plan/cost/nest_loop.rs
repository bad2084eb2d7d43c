//! `cost_nestloop` (`initial_cost_nestloop` + `final_cost_nestloop`) for a
//! nested loop whose inner side is an index scan on the join column, run
//! once per outer row with that row's value (a parameterized path).
//!
//! The outer side is read once; the inner scan is paid once per outer row,
//! at its cost averaged over all the loops (its pages stay cached between
//! loops, which `index_pages_fetched` with the loop count accounts for).
//! When the inner side is unique on the key, a matching outer row stops at
//! its first inner row, and an unmatched one costs about one row's share.

use super::hash_join::Semi;
use super::{Cost, CostParams, DISABLE_COST};

/// The join as `cost_nestloop` sees it.
pub struct NestLoop {
    pub outer: Cost,
    /// One execution of the inner scan, averaged over the loops.
    pub inner: Cost,
    pub rows: f64,
    pub semi: Option<Semi>,
}

pub fn cost(j: &NestLoop, p: &CostParams) -> Cost {
    let (o, i) = (&j.outer, &j.inner);
    let mut startup = o.startup + i.startup;
    if !p.enable_nestloop {
        startup += DISABLE_COST;
    }
    let mut run = o.total - o.startup;
    if o.rows > 1.0 {
        run += (o.rows - 1.0) * i.startup;
    }
    let inner_run = i.total - i.startup;
    let processed = match j.semi {
        Some(s) => {
            let matched = (o.rows * s.outer_match_frac).round_ties_even();
            let scan_frac = 2.0 / (s.match_count + 1.0);
            run += inner_run * scan_frac;
            if matched > 1.0 {
                run += (matched - 1.0) * inner_run * scan_frac;
            }
            run += (o.rows - matched) * inner_run / i.rows;
            matched * i.rows * scan_frac
        }
        None => {
            run += inner_run;
            if o.rows > 1.0 {
                run += (o.rows - 1.0) * inner_run;
            }
            o.rows * i.rows
        }
    };
    run += p.cpu_tuple_cost * processed;
    Cost {
        startup,
        total: startup + run,
        rows: j.rows,
    }
}
