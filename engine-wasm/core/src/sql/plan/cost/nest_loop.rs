//! `cost_nestloop` (`initial_cost_nestloop` + `final_cost_nestloop`) for a
//! nested loop whose inner side is an index scan on the join column, run
//! once per outer row with that row's value (a parameterized path), maybe
//! under a Memoize that keeps each value's rows.
//!
//! The outer side is read once; the inner side is paid once in full and
//! then once per further outer row at its rescan cost (an index scan's is
//! the same; a Memoize's is less, by the share of lookups its cache
//! answers). When the inner side is unique on the key, a matching outer row
//! stops at its first inner row.

use super::hash_join::Semi;
use super::{Cost, CostParams, DISABLE_COST};

/// The join as `cost_nestloop` sees it.
pub struct NestLoop {
    pub outer: Cost,
    /// The inner side's first run.
    pub inner: Cost,
    /// Each later run (`cost_rescan`): startup and total.
    pub rescan: (f64, f64),
    /// The inner side is the index scan itself (`has_indexed_join_quals`):
    /// an outer row without a partner then costs about one row's share.
    pub indexed: bool,
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
        run += (o.rows - 1.0) * j.rescan.0;
    }
    let inner_run = i.total - i.startup;
    let rescan_run = j.rescan.1 - j.rescan.0;
    let processed = match j.semi {
        Some(s) => {
            let mut matched = (o.rows * s.outer_match_frac).round_ties_even();
            let mut unmatched = o.rows - matched;
            let scan_frac = 2.0 / (s.match_count + 1.0);
            let mut processed = matched * i.rows * scan_frac;
            if j.indexed {
                run += inner_run * scan_frac;
                if matched > 1.0 {
                    run += (matched - 1.0) * rescan_run * scan_frac;
                }
                run += unmatched * rescan_run / i.rows;
            } else {
                // An unmatched outer row reads, and checks, the whole inner
                // side.
                processed += unmatched * i.rows;
                run += inner_run;
                if unmatched >= 1.0 {
                    unmatched -= 1.0;
                } else {
                    matched -= 1.0;
                }
                if matched > 0.0 {
                    run += matched * rescan_run * scan_frac;
                }
                if unmatched > 0.0 {
                    run += unmatched * rescan_run;
                }
            }
            processed
        }
        None => {
            run += inner_run;
            if o.rows > 1.0 {
                run += (o.rows - 1.0) * rescan_run;
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
