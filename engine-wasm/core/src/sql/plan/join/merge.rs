//! The Merge Join paths of a two-table join: each side read in join-key
//! order, by an index in that order or by its cheapest read under a Sort,
//! and the two merged in one pass (`sort_inner_and_outer`,
//! `match_unsorted_outer`, costed by [`merge_join::cost`]).
//!
//! PostgreSQL pairs the inputs this way: both cheapest reads, each sorted
//! if it is not already in order; and each read already in order on the
//! outer side with the inner side's cheapest read (sorted if need be) or
//! with any inner read already in order.
//!
//! IndexLab merges on one equality, ascending; with more than one equality
//! between the tables the join is left to the other methods.

use super::{JoinColumn, JoinSide, Planned};
use crate::sql::ast::{Expr, Order, OrderItem, Select};
use crate::sql::error::SqlError;
use crate::sql::plan::cost::merge_join::{self, Input, MergeCost, MergeJoin};
use crate::sql::plan::merge_selectivity::scan_fractions;
use crate::sql::plan::{plan_scans, why, AccessPath, ScanPlan};

/// A costed Merge Join: each side's read (a Sort over it when its
/// `PlanCost::sort` is set) and the join's estimate.
#[derive(Debug, Clone, PartialEq)]
pub struct MergePlan {
    pub outer: ScanPlan,
    pub inner: ScanPlan,
    pub cost: MergeCost,
    /// The rows of each side the merge expects to read before it stops.
    pub outer_read: f64,
    pub inner_read: f64,
    /// The index that gives each side in key order (None: sorted).
    pub outer_index: Option<String>,
    pub inner_index: Option<String>,
    /// The inner key is unique: each outer row has one partner at most.
    pub unique_inner: bool,
    /// The key column of each side (outer, inner), by position in its table.
    pub keys: (usize, usize),
}

impl MergePlan {
    /// Why it won, naming the tables (outer, inner), with the costs it beat.
    pub fn why(&self, outer: &str, inner: &str, cost: String) -> String {
        why::merge_join(
            &told(outer, &self.outer_index, &self.outer, self.outer_read),
            &told(inner, &self.inner_index, &self.inner, self.inner_read),
            cost,
        )
    }
}

fn told<'a>(
    name: &'a str,
    index: &'a Option<String>,
    read: &ScanPlan,
    rows_read: f64,
) -> why::MergeSide<'a> {
    why::MergeSide {
        name,
        index: index.as_deref(),
        rows: read.cost.map_or(0.0, |c| c.scan.rows),
        read: rows_read,
    }
}

/// What the join tells each Merge Join path.
pub(super) struct Pairing<'a> {
    pub keys: (&'a JoinColumn<'a>, &'a JoinColumn<'a>),
    pub rows: f64,
    pub matched: f64,
    pub clauses: usize,
    pub unique_inner: bool,
}

/// Every Merge Join PostgreSQL would cost with `outer` as the outer side.
pub(super) fn paths(
    outer: &Planned,
    inner: &Planned,
    pairing: &Pairing,
) -> Result<Vec<MergePlan>, SqlError> {
    if pairing.clauses != 1 {
        return Ok(Vec::new());
    }
    let (outer_reads, inner_reads) = (&outer.reads, &inner.reads);
    let (Some(oc), Some(ic)) = (cheapest(outer_reads), cheapest(inner_reads)) else {
        return Ok(Vec::new());
    };
    let mut pairs = vec![(oc, ic)];
    for (o, read) in outer_reads.iter().enumerate() {
        if !presorted(read) {
            continue;
        }
        pairs.push((o, ic));
        let sorted_inner = inner_reads.iter().enumerate().filter(|(_, r)| presorted(r));
        pairs.extend(sorted_inner.map(|(i, _)| (o, i)));
    }
    pairs.sort_unstable();
    pairs.dedup();
    let (fo, fi) = scan_fractions(pairing.keys.0, pairing.keys.1);
    let p = &outer.stats.params;
    let input = |read: &ScanPlan, scan| {
        let c = read.cost.expect("a costed table plans a cost");
        Input {
            cost: c.scan,
            width: c.width,
            sort: c.sort.is_some(),
            scan,
        }
    };
    let mut out = Vec::new();
    for (o, i) in pairs {
        let (outer_read, inner_read) = (&outer_reads[o], &inner_reads[i]);
        let join = MergeJoin {
            outer: input(outer_read, fo),
            inner: input(inner_read, fi),
            rows: pairing.rows,
            matched: pairing.matched,
            clauses: pairing.clauses as f64,
            unique_inner: pairing.unique_inner,
        };
        out.push(MergePlan {
            outer: outer_read.clone(),
            inner: inner_read.clone(),
            cost: merge_join::cost(&join, p),
            outer_read: (join.outer.cost.rows * fo.end).round(),
            inner_read: (join.inner.cost.rows * fi.end).round(),
            outer_index: index_name(outer, outer_read),
            inner_index: index_name(inner, inner_read),
            unique_inner: pairing.unique_inner,
            keys: (outer.side.key, inner.side.key),
        });
    }
    Ok(out)
}

/// A side's reads the planner keeps when it wants the join key's order:
/// those already in it, and its cheapest read under a Sort.
pub(super) fn in_key_order(side: &JoinSide) -> Result<Vec<ScanPlan>, SqlError> {
    let key = Expr::Column {
        table: None,
        name: side.table.columns[side.key].0.clone(),
    };
    let ordered = Select {
        order_by: vec![OrderItem {
            expr: key,
            order: Order::Asc,
            nulls_first: None,
        }],
        ..side.query.clone()
    };
    plan_scans(side.table, &ordered, false)
}

/// The index a read in key order goes through; None under a Sort.
fn index_name(side: &Planned, read: &ScanPlan) -> Option<String> {
    match &read.access {
        AccessPath::Index { index, .. } if presorted(read) => {
            Some(side.side.table.indexes[*index].name.clone())
        }
        _ => None,
    }
}

/// A read in key order by itself (no Sort).
fn presorted(read: &ScanPlan) -> bool {
    read.ordered && read.cost.is_some_and(|c| c.sort.is_none())
}

/// The cheapest read in total, before any Sort (`cheapest_total_path`).
pub(super) fn cheapest(reads: &[ScanPlan]) -> Option<usize> {
    let total = |r: &ScanPlan| r.cost.map_or(f64::INFINITY, |c| c.scan.total);
    (0..reads.len()).min_by(|&a, &b| total(&reads[a]).total_cmp(&total(&reads[b])))
}
