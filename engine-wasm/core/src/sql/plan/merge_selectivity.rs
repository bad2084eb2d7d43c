//! How much of each side a merge join reads: PostgreSQL 15's
//! `mergejoinscansel` (selfuncs.c) for an ascending merge.
//!
//! The merge stops when either side runs out, so the side whose keys go
//! further is read only up to the other's largest key; and the side whose
//! keys start lower skips its rows below the other's smallest key before
//! the first pair. Both ends come from the statistics (the histogram's first
//! and last bounds and the most common values, `get_variable_range`), and
//! each share is `scalarineqsel` of the column against the other's end.

use super::cost::merge_join::Fractions;
use super::join_selectivity::JoinColumn;
use super::selectivity::DEFAULT_INEQ_SEL;
use crate::sql::ast::BinOp;
use crate::sql::eval::compare;
use crate::value::Value;
use std::cmp::Ordering;

/// The shares of `left` and `right` read, in that order; every row of
/// both when the statistics cannot tell.
pub fn scan_fractions(left: &JoinColumn, right: &JoinColumn) -> (Fractions, Fractions) {
    let all = (Fractions::ALL, Fractions::ALL);
    let (Some((lmin, lmax)), Some((rmin, rmax))) = (range(left), range(right)) else {
        return all;
    };
    let share = |side: &JoinColumn, op: BinOp, value: &Value| {
        let s = side.est.inequality(side.col, op, Some(value));
        // Only an estimate the statistics made is believed.
        (s != DEFAULT_INEQ_SEL).then_some(s)
    };
    let (mut l, mut r) = all;
    l.end = share(left, BinOp::LtEq, &rmax).unwrap_or(1.0);
    r.end = share(right, BinOp::LtEq, &lmax).unwrap_or(1.0);
    // Only one side can stop early: the one that would stop sooner.
    match l.end.total_cmp(&r.end) {
        Ordering::Greater => l.end = 1.0,
        Ordering::Less => r.end = 1.0,
        Ordering::Equal => (l.end, r.end) = (1.0, 1.0),
    }
    l.start = share(left, BinOp::Lt, &rmin).unwrap_or(0.0);
    r.start = share(right, BinOp::Lt, &lmin).unwrap_or(0.0);
    // Only one side skips rows first: the one whose keys start lower.
    match l.start.total_cmp(&r.start) {
        Ordering::Less => l.start = 0.0,
        Ordering::Greater => r.start = 0.0,
        Ordering::Equal => (l.start, r.start) = (0.0, 0.0),
    }
    for f in [&mut l, &mut r] {
        if f.start >= f.end {
            *f = Fractions::ALL;
        }
    }
    (l, r)
}

/// `get_variable_range`: the smallest and largest value the statistics
/// saw, from the histogram's ends and the most common values (those alone
/// only when they cover every row).
fn range(side: &JoinColumn) -> Option<(Value, Value)> {
    let st = side.est.column_stats(side.col)?;
    let mut ends: Vec<&Value> = Vec::new();
    if let (Some(first), Some(last)) = (st.histogram.first(), st.histogram.last()) {
        ends.extend([first, last]);
    }
    let common: f64 = st.most_common.iter().map(|(_, f)| f64::from(*f)).sum();
    if !ends.is_empty() || common + f64::from(st.null_frac) > 0.99999 {
        ends.extend(st.most_common.iter().map(|(v, _)| v));
    }
    let less = |a: &&Value, b: &&Value| compare(a, b).unwrap_or(Ordering::Equal);
    let min = ends.iter().copied().min_by(less)?;
    let max = ends.iter().copied().max_by(less)?;
    Some((min.clone(), max.clone()))
}
