//! `cost_mergejoin` (`initial_cost_mergejoin` then `final_cost_mergejoin`):
//! both sides arrive sorted on the join key, from an index read in order
//! or through a Sort, and one pass over each pairs them up.
//!
//! What makes it win: the pass stops as soon as either side runs out. If
//! one side's keys end at 217 and the other's run to 6 020, only the part
//! of the second below 217 is read ([`Fractions`], from
//! `mergejoinscansel`), so a presorted side pays only that share of its
//! scan. What it pays extra: a Sort for each side not already in order,
//! and, when the outer side repeats a key, reading the inner side's matching
//! rows again (`rescanratio`), unless a Materialize keeps them.

use super::{sort, Cost, CostParams, DISABLE_COST};
use crate::sql::plan::statistics::clamp_rows;

/// The share of a side the merge reads before its first pair (`start`)
/// and before it stops (`end`), both between 0 and 1.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Fractions {
    pub start: f64,
    pub end: f64,
}

impl Fractions {
    pub const ALL: Fractions = Fractions {
        start: 0.0,
        end: 1.0,
    };
}

/// One side as the merge reads it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Input {
    /// The path that produces its rows.
    pub cost: Cost,
    pub width: f64,
    /// True when a Sort must put the path's rows in key order.
    pub sort: bool,
    pub scan: Fractions,
}

pub struct MergeJoin {
    pub outer: Input,
    pub inner: Input,
    /// The join's rows.
    pub rows: f64,
    /// The row pairs the merge key matches (`approx_tuple_count`).
    pub matched: f64,
    /// The join's equalities: the first is the merge key, the others are
    /// checked on each matched pair.
    pub clauses: f64,
    /// The inner side's key is unique: after its one match the merge moves
    /// to the next outer row and never goes back (`skip_mark_restore`).
    pub unique_inner: bool,
}

/// The estimate, and the nodes it puts under the join for EXPLAIN.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MergeCost {
    pub cost: Cost,
    pub outer_sort: Option<Cost>,
    pub inner_sort: Option<Cost>,
    /// A Materialize over the inner side, which hands repeated rows back
    /// from memory.
    pub materialize: Option<Cost>,
}

/// A side's rows in key order: its path's cost, or the Sort's over it.
fn source(input: &Input, p: &CostParams) -> Cost {
    if input.sort {
        sort::cost(&input.cost, input.width, None, p)
    } else {
        input.cost
    }
}

/// The rows a side skips before its first pair and reads before the end,
/// and the fractions readjusted to those whole rows.
fn rows_read(rows: f64, f: Fractions) -> (f64, f64, Fractions) {
    let skip = (rows * f.start).round_ties_even();
    let read = clamp_rows(rows * f.end);
    let f = Fractions {
        start: skip / rows,
        end: read / rows,
    };
    (skip, read, f)
}

pub fn cost(j: &MergeJoin, p: &CostParams) -> MergeCost {
    let outer_path_rows = j.outer.cost.rows.max(1.0);
    let inner_path_rows = j.inner.cost.rows.max(1.0);
    let (outer_skip, outer_rows, of) = rows_read(outer_path_rows, j.outer.scan);
    let (inner_skip, inner_rows, inf) = rows_read(inner_path_rows, j.inner.scan);
    let (o, i) = (source(&j.outer, p), source(&j.inner, p));
    // Only the shares read are paid for: the outer side's now, the inner
    // side's once it is known how often it is read again.
    let mut startup = o.startup + (o.total - o.startup) * of.start;
    let mut run = (o.total - o.startup) * (of.end - of.start);
    startup += i.startup + (i.total - i.startup) * inf.start;
    let inner_run = (i.total - i.startup) * (inf.end - inf.start);
    if !p.enable_mergejoin {
        startup += DISABLE_COST;
    }
    // An outer key repeated m times meets the inner rows of that key m
    // times: the rows read again are about the pairs less the inner rows.
    let skip_mark_restore = j.unique_inner && j.clauses <= 1.0;
    let rescanned = if skip_mark_restore {
        0.0
    } else {
        (j.matched - inner_path_rows).max(0.0)
    };
    let rescan_ratio = 1.0 + rescanned / inner_rows;
    let bare = inner_run * rescan_ratio;
    let materialized = inner_run + p.cpu_operator_cost * inner_rows * rescan_ratio;
    // A Materialize hands rows back for one comparison each. The inner
    // paths here (a Sort, an index scan) can go back on their own, so it
    // is only for speed, or when a Sort would spill to disk.
    let materialize = !skip_mark_restore
        && p.enable_material
        && (materialized < bare
            || (j.inner.sort && sort::bytes(inner_path_rows, j.inner.width) > p.work_mem * 1024.0));
    run += if materialize { materialized } else { bare };
    // One comparison of the merge key per row read, the inner ones again
    // when read again; each matched pair is a row out and checks the other
    // equalities.
    let compare = p.cpu_operator_cost;
    startup += compare * (outer_skip + inner_skip * rescan_ratio);
    run += compare * ((outer_rows - outer_skip) + (inner_rows - inner_skip) * rescan_ratio);
    let other_quals = (j.clauses - 1.0).max(0.0) * p.cpu_operator_cost;
    run += (p.cpu_tuple_cost + other_quals) * j.matched;
    MergeCost {
        cost: Cost {
            startup,
            total: startup + run,
            rows: j.rows,
        },
        outer_sort: j.outer.sort.then_some(o),
        inner_sort: j.inner.sort.then_some(i),
        materialize: materialize.then(|| material(&i, p)),
    }
}

/// `cost_material` of rows that fit in `work_mem`: two operator calls per
/// row to store and hand it back.
fn material(input: &Cost, p: &CostParams) -> Cost {
    Cost {
        startup: input.startup,
        total: input.total + 2.0 * p.cpu_operator_cost * input.rows,
        rows: input.rows,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// PostgreSQL 15, `select count(*) from t1 join t2 on t2.a = t1.id
    /// where t2.b < 12` (t1: 6 020 rows, ids 1…6 020; t2: 218 rows, a in
    /// 0…217): `Merge Join (cost=9.11..17.43 rows=119)` over `Index Only
    /// Scan using t1_pkey (cost=0.28..166.58 rows=6020)` and `Sort
    /// (cost=8.83..9.12 rows=119)` of `Seq Scan on t2 (cost=0.00..4.72)`.
    #[test]
    fn a_presorted_outer_side_is_paid_only_up_to_the_inner_sides_last_key() {
        let p = CostParams::default();
        let j = MergeJoin {
            outer: Input {
                cost: Cost {
                    startup: 0.28,
                    total: 166.58,
                    rows: 6020.0,
                },
                width: 4.0,
                sort: false,
                // t1.id <= 217: 3.6 of the 100 bins of its histogram
                // (181 and 241 bound the fourth).
                scan: Fractions {
                    start: 0.0,
                    end: 0.036,
                },
            },
            inner: Input {
                cost: Cost {
                    startup: 0.0,
                    total: 4.725,
                    rows: 119.0,
                },
                width: 4.0,
                sort: true,
                // t2.a < 1: the keys below t1's first.
                scan: Fractions {
                    start: 1.0 / 218.0,
                    end: 1.0,
                },
            },
            rows: 119.0,
            matched: 119.0,
            clauses: 1.0,
            unique_inner: false,
        };
        let c = cost(&j, &p);
        let sort = c.inner_sort.expect("the inner side is sorted");
        assert!((sort.startup - 8.83).abs() < 0.01, "{sort:?}");
        assert!((sort.total - 9.12).abs() < 0.01, "{sort:?}");
        assert!((c.cost.startup - 9.11).abs() < 0.01, "{:?}", c.cost);
        assert!((c.cost.total - 17.43).abs() < 0.02, "{:?}", c.cost);
        assert_eq!(c.materialize, None);
    }

    #[test]
    fn repeated_outer_keys_read_the_inner_side_again_or_materialize_it() {
        let p = CostParams::default();
        let side = |rows: f64| Input {
            cost: Cost {
                startup: 0.29,
                total: 0.29 + rows * 0.02,
                rows,
            },
            width: 4.0,
            sort: false,
            scan: Fractions::ALL,
        };
        let join = |matched: f64, unique_inner: bool| MergeJoin {
            outer: side(1000.0),
            inner: side(100.0),
            rows: matched,
            matched,
            clauses: 1.0,
            unique_inner,
        };
        let once = cost(&join(100.0, false), &p);
        let tenfold = cost(&join(1000.0, false), &p);
        // Every inner row met ten times: cheaper to keep them in memory.
        assert!(tenfold.materialize.is_some());
        assert!(once.materialize.is_none());
        assert!(tenfold.cost.total > once.cost.total);
        // A unique inner key never goes back.
        assert!(cost(&join(1000.0, true), &p).materialize.is_none());
    }
}
