//! The choice of a two-table join on the yb profile, as YugabyteDB's default
//! planner makes it (2.13 to 2.21, no statistics). It is PostgreSQL's join
//! search, both orders and each method, over YugabyteDB's heuristic scan
//! costs ([`crate::sql::plan::cost::yb_legacy`]):
//!
//! - each side is read as [`crate::sql::plan::yb_choose`] chooses; a table
//!   is taken to hold the rows ANALYZE counted, else 1 000, and its rows
//!   after the WHERE stay that many unless an index condition on constants
//!   guesses fewer;
//! - the join's rows are both sides' rows times `eqjoinsel` without
//!   statistics: one over the larger count of distinct values, a unique
//!   column's being its table's rows and any other's PostgreSQL's default
//!   200;
//! - a Nested Loop's inner index scan on the join column is costed by the
//!   heuristic with that column bound (one row of a unique key, ten in a
//!   thousand of another), plus the page `cost_index` charges, shared among
//!   the loops, and each row fetched; the loop itself and the Hash Join
//!   are PostgreSQL's `cost_nestloop` and `cost_hashjoin`.
//!
//! So two tables joined on a primary key are a Nested Loop over it (the
//! first-written table outer on a tie), as YugabyteDB's regression tests
//! show, and a join on a secondary index's column is a Hash Join: ten rows
//! guessed a lookup make a thousand lookups dearer than hashing a side.
//!
//! With `yb_bnl_batch_size` above 1 a Nested Loop over an index runs as a
//! Batched Nested Loop: YugabyteDB's default (legacy) costs price it as
//! the plain loop, without the batch's join filter, so the choice stands.
//! Merge Joins are not weighed here: without an order from either side's
//! read, both need a Sort, which a thousand assumed rows never repay.

use super::{semi_factors, Allowed, JoinChoice, JoinSide, Method};
use crate::sql::ast::Expr;
use crate::sql::error::SqlError;
use crate::sql::plan::cost::hash_join::{self, KeyStats, Semi};
use crate::sql::plan::cost::nest_loop::{self, NestLoop};
use crate::sql::plan::cost::yb_legacy::{self, KeyUse, Read, DEFAULT_NUM_ROWS};
use crate::sql::plan::cost::{qual_cost, sort, Cost, CostParams};
use crate::sql::plan::join_selectivity::{inner as eqjoinsel, JoinColumn};
use crate::sql::plan::selectivity::Estimator;
use crate::sql::plan::statistics::{clamp_rows, RelationStats};
use crate::sql::plan::yb_choose::{primary_key, tuples, YbRead};
use crate::sql::plan::{conjuncts, plan_yb_read, referenced_columns};
use crate::sql::rewrite::column_refs;

/// One side planned alone, with what the join's costs read of it.
struct Side<'a> {
    side: &'a JoinSide<'a>,
    read: YbRead,
    /// No column statistics; which columns a unique index makes unique.
    stats: RelationStats,
    /// The bytes of the columns the query needs of it.
    width: f64,
    /// Its own conditions.
    parts: Vec<Expr>,
    /// The rows it is taken to hold: ANALYZE's count, else 1 000.
    tuples: f64,
}

impl Side<'_> {
    fn estimator(&self) -> Estimator<'_> {
        Estimator {
            table: self.side.table,
            stats: &self.stats,
            tuples: self.tuples,
        }
    }

    fn unique_key(&self) -> bool {
        self.stats.unique.get(self.side.key) == Some(&true)
    }
}

fn planned<'a>(side: &'a JoinSide<'a>) -> Result<Option<Side<'a>>, SqlError> {
    let Some(read) = plan_yb_read(side.table, side.query)? else {
        return Ok(None);
    };
    let table = side.table;
    let n = table.columns.len();
    let unique = (0..n)
        .map(|col| {
            table.indexes.iter().any(|ix| {
                ix.unique && ix.predicate.is_empty() && ix.key.len() == 1 && ix.key[0].0 == col
            })
        })
        .collect();
    let stats = RelationStats {
        blocks_now: 0,
        relpages: 0,
        reltuples: -1.0,
        relallvisible: 0,
        usable_page_bytes: 0,
        column_widths: Vec::new(),
        columns: (0..n).map(|_| None).collect(),
        unique,
    };
    let width = referenced_columns(table, side.query)?
        .iter()
        .filter_map(|&c| table.columns.get(c))
        .map(|(_, ty)| f64::from(crate::exec::type_width(*ty)))
        .sum();
    let mut parts = Vec::new();
    if let Some(f) = &side.query.filter {
        conjuncts(f, &mut parts);
    }
    Ok(Some(Side {
        side,
        read,
        stats,
        width,
        parts,
        tuples: tuples(table),
    }))
}

/// The cheapest Nested Loop or Hash Join of `first` and `second` on
/// `first.key = second.key` (and `clauses - 1` other equalities) that the
/// hints allow, or None when a side has statistics (the pg profile
/// chooses) or the hints allow neither method.
pub fn choose(
    first: &JoinSide,
    second: &JoinSide,
    clauses: usize,
    allowed: Allowed,
    by_key: bool,
    limit: Option<f64>,
) -> Result<Option<JoinChoice>, SqlError> {
    let (Some(a), Some(b)) = (planned(first)?, planned(second)?) else {
        return Ok(None);
    };
    let p = CostParams::default();
    let (ea, eb) = (a.estimator(), b.estimator());
    let column = |s: &Side, est| JoinColumn {
        est,
        col: s.side.key,
        rows: s.read.rel_rows,
    };
    let (ja, jb) = (column(&a, &ea), column(&b, &eb));
    let selectivity = eqjoinsel(&ja, &jb);
    let rows = clamp_rows(a.read.rel_rows * b.read.rel_rows * selectivity);
    let fraction = limit.map(|l| l / rows).filter(|f| *f < 1.0);
    let compared = |c: &Cost| fraction.map_or(c.total, |f| c.fractional(f));
    // Said in the why when neither table was counted by ANALYZE.
    let uncounted = |s: &Side| s.side.table.reltuples.is_none_or(|n| n <= 0.0);
    let assumed = (uncounted(&a) && uncounted(&b)).then_some(DEFAULT_NUM_ROWS);
    let mut all: Vec<(JoinChoice, f64)> = Vec::new();
    for (swapped, (outer, inner), ji) in [(false, (&a, &b), &jb), (true, (&b, &a), &ja)] {
        if allowed.swapped.is_some_and(|s| s != swapped) {
            continue;
        }
        let semi = inner
            .unique_key()
            .then(|| semi_factors(inner.read.rel_rows, selectivity));
        let choice = |method, cost, lookup: Option<(usize, Cost)>| JoinChoice {
            swapped,
            method,
            cost,
            inner: lookup.map(|(_, c)| c),
            lookup: lookup.map(|(i, _)| i),
            memoize: None,
            merge: None,
            sort: None,
            in_order: false,
            reads: Box::new((outer.read.plan.clone(), inner.read.plan.clone())),
            outer_rows: outer.read.cost.rows,
            inner_rows: inner.read.cost.rows,
            runner_up: None,
            fraction,
            assumed_rows: assumed,
        };
        let mut paths = Vec::new();
        if let Some((index, scan)) = cheapest_lookup(outer, inner, &p) {
            let nl = NestLoop {
                outer: outer.read.cost,
                inner: scan,
                rescan: (scan.startup, scan.total),
                indexed: true,
                rows,
                semi,
            };
            let cost = nest_loop::cost(&nl, &p);
            paths.push(choice(Method::NestLoop, cost, Some((index, scan))));
        }
        let hash = hash_cost((outer, inner), ji, (rows, selectivity), clauses, semi, &p);
        paths.push(choice(Method::Hash, hash, None));
        for mut c in paths.into_iter().filter(|c| allowed.permits(c.method)) {
            if by_key {
                c.sort = Some(sort::cost(&c.cost, outer.width + inner.width, limit, &p));
            }
            let compared = compared(&c.finished());
            all.push((c, compared));
        }
    }
    // The cheapest; the earlier on a tie (`add_path` keeps the path it has
    // unless another is cheaper).
    let Some(best) = (0..all.len()).reduce(|best, i| if all[i].1 < all[best].1 { i } else { best })
    else {
        return Ok(None);
    };
    let method = all[best].0.method;
    let runner_up = all
        .iter()
        .filter(|(c, _)| c.method != method)
        .map(|(c, cost)| (c.method, false, *cost))
        .min_by(|x, y| x.2.total_cmp(&y.2));
    let mut chosen = all.swap_remove(best).0;
    chosen.runner_up = runner_up;
    Ok(Some(chosen))
}

/// The inner index whose lookup of one outer row's key costs least, and
/// that lookup's cost and rows: YugabyteDB's heuristic with the join column
/// bound, plus what `cost_index` adds (its one page shared among the outer
/// side's rows, and each row fetched).
fn cheapest_lookup(outer: &Side, inner: &Side, p: &CostParams) -> Option<(usize, Cost)> {
    let table = inner.side.table;
    let quals = qual_cost(&inner.parts, p);
    let mut best: Option<(usize, Cost)> = None;
    for &index in &inner.side.lookups {
        let info = &table.indexes[index];
        let on_key = |e: &Expr| {
            let mut refs = Vec::new();
            column_refs(e, &mut refs);
            refs.iter().any(|(_, name)| {
                info.key
                    .iter()
                    .any(|(c, _)| table.columns.get(*c).is_some_and(|col| &col.0 == name))
            })
        };
        let mut bound = vec![0];
        for (pos, (col, _)) in info.key.iter().enumerate().skip(1) {
            // An expression's key column (`lower(v)`) binds nothing here.
            let Some((name, _)) = table.columns.get(*col) else {
                continue;
            };
            let named = |e: &Expr| {
                let mut refs = Vec::new();
                column_refs(e, &mut refs);
                refs.iter().any(|(_, n)| n == name)
            };
            if inner.parts.iter().any(named) {
                bound.push(pos);
            }
        }
        let covered = referenced_columns(table, inner.side.query)
            .is_ok_and(|cols| cols.iter().all(|c| info.covers(*c)));
        let read = Read {
            selectivity: yb_legacy::index_selectivity(
                &KeyUse {
                    bound,
                    hash_columns: info.hash_columns,
                    key_columns: info.key.len(),
                    unique: info.unique,
                },
                inner.tuples,
            ),
            backward: false,
            uncovered: !primary_key(table, index) && !covered,
            partial: false,
        };
        let left: Vec<Expr> = inner.parts.iter().filter(|e| !on_key(e)).cloned().collect();
        let mut cost = yb_legacy::scan(&read, inner.tuples, quals, p);
        let loops = outer.read.cost.rows;
        cost.total += yb_legacy::index_extras(&read, inner.tuples, qual_cost(&left, p), loops, p);
        if best.is_none_or(|(_, b)| cost.total < b.total) {
            best = Some((index, cost));
        }
    }
    best
}

/// `cost_hashjoin` with the inner side's key as YugabyteDB's planner knows
/// it: no statistics, so a non-unique key's distinct count is the default.
fn hash_cost(
    (outer, inner): (&Side, &Side),
    key: &JoinColumn,
    (rows, selectivity): (f64, f64),
    clauses: usize,
    semi: Option<Semi>,
    p: &CostParams,
) -> Cost {
    let (distinct, default) = key.est.distinct_or_default(key.col);
    let stats = KeyStats {
        distinct,
        default,
        null_frac: 0.0,
        mcv_freq: 0.0,
        rel_rows: inner.read.rel_rows,
        rel_tuples: inner.tuples,
    };
    let join = hash_join::HashJoin {
        outer: hash_join::Input {
            cost: outer.read.cost,
            width: outer.width,
        },
        inner: hash_join::Input {
            cost: inner.read.cost,
            width: inner.width,
        },
        key: &stats,
        clauses: clauses as f64,
        matched: clamp_rows(selectivity * outer.read.cost.rows * inner.read.cost.rows),
        rows,
        semi,
        enable: p.enable_hashjoin,
    };
    hash_join::cost(&join, p)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_primary_key_lookup_per_row_beats_hashing_a_thousand_rows() {
        let p = CostParams::default();
        // Two unconditioned tables of 1 000 assumed rows joined on a primary
        // key: a Seq Scan of 100 outside, a lookup of 0.1 + 4/1000 + 0.01.
        let outer = Cost {
            startup: 0.0,
            total: 100.0,
            rows: 1000.0,
        };
        let lookup = Cost {
            startup: 0.0,
            total: 0.114,
            rows: 1.0,
        };
        let nl = NestLoop {
            outer,
            inner: lookup,
            rescan: (0.0, 0.114),
            indexed: true,
            rows: 1000.0,
            semi: Some(semi_factors(1000.0, 0.001)),
        };
        let loop_cost = nest_loop::cost(&nl, &p).total;
        let stats = KeyStats {
            distinct: 1000.0,
            default: false,
            null_frac: 0.0,
            mcv_freq: 0.0,
            rel_rows: 1000.0,
            rel_tuples: 1000.0,
        };
        let hash = hash_join::cost(
            &hash_join::HashJoin {
                outer: hash_join::Input {
                    cost: outer,
                    width: 8.0,
                },
                inner: hash_join::Input {
                    cost: outer,
                    width: 8.0,
                },
                key: &stats,
                clauses: 1.0,
                matched: 1000.0,
                rows: 1000.0,
                semi: Some(semi_factors(1000.0, 0.001)),
                enable: true,
            },
            &p,
        )
        .total;
        assert!(loop_cost < hash, "{loop_cost} vs {hash}");
        assert!((loop_cost - 213.9).abs() < 0.1, "{loop_cost}");
    }
}
