//! How many row pairs an equality join `a.x = b.y` keeps: PostgreSQL 15's
//! `eqjoinsel` (selfuncs.c).
//!
//! - **Inner join** (`eqjoinsel_inner`): when both columns have most common
//!   values, the pairs of equal MCVs are counted exactly (their frequencies
//!   multiplied), and the rest is spread over the other distinct values;
//!   without MCVs, every value is assumed to find its partner and the
//!   selectivity is `1 / max(distinct a, distinct b)`.
//! - **Semi join** (`eqjoinsel_semi`): the share of the outer side's rows
//!   that have at least one partner, for a true semi join (`EXISTS`, `IN
//!   (subquery)`), which IndexLab does not plan by cost yet. An inner join
//!   whose inner side is unique does not get it: PostgreSQL's `eqjoinsel`
//!   answers such a join with the inner selectivity (see `join.rs`).

use super::selectivity::Estimator;
use super::statistics::ColumnStats;
use crate::sql::eval::compare;
use std::cmp::Ordering;

/// One side of the equality: its column and what the planner knows of it.
pub struct JoinColumn<'a> {
    pub est: &'a Estimator<'a>,
    pub col: usize,
    /// The rows its relation yields after its own conditions (`rel->rows`).
    pub rows: f64,
}

impl JoinColumn<'_> {
    fn stats(&self) -> Option<&ColumnStats> {
        self.est.column_stats(self.col)
    }

    fn null_frac(&self) -> f64 {
        self.stats().map_or(0.0, |s| f64::from(s.null_frac))
    }

    fn most_common(&self) -> &[(crate::value::Value, f32)] {
        self.stats().map_or(&[], |s| s.most_common.as_slice())
    }
}

fn clamp(p: f64) -> f64 {
    p.clamp(0.0, 1.0)
}

/// The MCV pairs that match: which of each list found a partner, and the
/// sum of the matched pairs' frequency products.
struct Matches {
    in1: Vec<bool>,
    in2: Vec<bool>,
    product: f64,
    count: f64,
}

fn match_mcvs(a: &[(crate::value::Value, f32)], b: &[(crate::value::Value, f32)]) -> Matches {
    let mut m = Matches {
        in1: vec![false; a.len()],
        in2: vec![false; b.len()],
        product: 0.0,
        count: 0.0,
    };
    for (i, (va, fa)) in a.iter().enumerate() {
        for (j, (vb, fb)) in b.iter().enumerate() {
            if m.in2[j] || compare(va, vb) != Some(Ordering::Equal) {
                continue;
            }
            m.in1[i] = true;
            m.in2[j] = true;
            m.product += f64::from(*fa) * f64::from(*fb);
            m.count += 1.0;
            break;
        }
    }
    m
}

fn share(list: &[(crate::value::Value, f32)], pick: &[bool], matched: bool) -> f64 {
    list.iter()
        .zip(pick)
        .filter(|(_, p)| **p == matched)
        .map(|((_, f), _)| f64::from(*f))
        .sum()
}

/// `eqjoinsel_inner`.
pub fn inner(a: &JoinColumn, b: &JoinColumn) -> f64 {
    let (nd1, _) = a.est.distinct_or_default(a.col);
    let (nd2, _) = b.est.distinct_or_default(b.col);
    let (nf1, nf2) = (a.null_frac(), b.null_frac());
    let (mcv1, mcv2) = (a.most_common(), b.most_common());
    if mcv1.is_empty() || mcv2.is_empty() {
        return (1.0 - nf1) * (1.0 - nf2) / nd1.max(nd2);
    }
    let m = match_mcvs(mcv1, mcv2);
    let matchprodfreq = clamp(m.product);
    let (matchfreq1, matchfreq2) = (
        clamp(share(mcv1, &m.in1, true)),
        clamp(share(mcv2, &m.in2, true)),
    );
    let (unmatch1, unmatch2) = (
        clamp(share(mcv1, &m.in1, false)),
        clamp(share(mcv2, &m.in2, false)),
    );
    let other1 = clamp(1.0 - nf1 - matchfreq1 - unmatch1);
    let other2 = clamp(1.0 - nf2 - matchfreq2 - unmatch2);
    let (n1, n2) = (mcv1.len() as f64, mcv2.len() as f64);
    let mut total1 = matchprodfreq;
    if nd2 > n2 {
        total1 += unmatch1 * other2 / (nd2 - n2);
    }
    if nd2 > m.count {
        total1 += other1 * (other2 + unmatch2) / (nd2 - m.count);
    }
    let mut total2 = matchprodfreq;
    if nd1 > n1 {
        total2 += unmatch2 * other1 / (nd1 - n1);
    }
    if nd1 > m.count {
        total2 += other2 * (other1 + unmatch1) / (nd1 - m.count);
    }
    total1.min(total2)
}

/// `eqjoinsel_semi`: the share of `outer`'s rows with a partner in `inner`
/// (whose relation yields `inner_rel_rows` rows).
pub fn semi(outer: &JoinColumn, inner: &JoinColumn, inner_rel_rows: f64) -> f64 {
    let (mut nd1, default1) = outer.est.distinct_or_default(outer.col);
    let (mut nd2, mut default2) = inner.est.distinct_or_default(inner.col);
    // There cannot be more distinct values than rows the inner side yields.
    for rows in [inner.rows, inner_rel_rows] {
        if nd2 >= rows {
            nd2 = rows;
            default2 = false;
        }
    }
    let nf1 = outer.null_frac();
    let (mcv1, mcv2) = (outer.most_common(), inner.most_common());
    if mcv1.is_empty() || mcv2.is_empty() {
        return if !default1 && !default2 {
            if nd1 <= nd2 || nd2 < 0.0 {
                1.0 - nf1
            } else {
                (nd2 / nd1) * (1.0 - nf1)
            }
        } else {
            0.5 * (1.0 - nf1)
        };
    }
    // Only as many of the inner MCVs as it can have distinct values.
    let keep = (mcv2.len() as f64).min(nd2.floor().max(0.0)) as usize;
    let m = match_mcvs(mcv1, &mcv2[..keep]);
    let matchfreq1 = clamp(share(mcv1, &m.in1, true));
    let uncertain_frac = if !default1 && !default2 {
        nd1 -= m.count;
        nd2 -= m.count;
        if nd1 <= nd2 || nd2 < 0.0 {
            1.0
        } else {
            nd2 / nd1
        }
    } else {
        0.5
    };
    let uncertain = clamp(1.0 - matchfreq1 - nf1);
    matchfreq1 + uncertain_frac * uncertain
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sql::plan::statistics::RelationStats;
    use crate::sql::plan::TableInfo;
    use crate::value::{SqlType, Value};

    fn table() -> TableInfo {
        TableInfo {
            name: "t".into(),
            columns: vec![("x".into(), SqlType::Int4)],
            indexes: vec![],
            system: vec![],
            expressions: vec![],
            stats: None,
            reltuples: None,
        }
    }

    fn rel(stats: Option<ColumnStats>, unique: bool) -> RelationStats {
        RelationStats {
            blocks_now: 10,
            relpages: 10,
            reltuples: 1000.0,
            relallvisible: 0,
            usable_page_bytes: 8168,
            column_widths: vec![4],
            columns: vec![stats],
            unique: vec![unique],
        }
    }

    fn distinct(n: f32) -> ColumnStats {
        ColumnStats {
            null_frac: 0.0,
            avg_width: 4,
            n_distinct: n,
            most_common: vec![],
            histogram: vec![],
            correlation: None,
        }
    }

    #[test]
    fn without_mcvs_the_larger_distinct_count_divides() {
        let t = table();
        let (r1, r2) = (rel(None, true), rel(Some(distinct(100.0)), false));
        let e1 = Estimator {
            table: &t,
            stats: &r1,
            tuples: 1000.0,
        };
        let e2 = Estimator {
            table: &t,
            stats: &r2,
            tuples: 1000.0,
        };
        let a = JoinColumn {
            est: &e1,
            col: 0,
            rows: 1000.0,
        };
        let b = JoinColumn {
            est: &e2,
            col: 0,
            rows: 1000.0,
        };
        // A unique column: 1 000 distinct values, against 100.
        assert!((inner(&a, &b) - 0.001).abs() < 1e-12);
        // Every one of b's 100 values finds a partner among a's 1 000.
        assert_eq!(semi(&b, &a, 1000.0), 1.0);
        assert!((semi(&a, &b, 1000.0) - 0.1).abs() < 1e-12);
    }

    #[test]
    fn matching_mcvs_count_exactly() {
        let t = table();
        let mcv = |v: &[(i64, f32)]| ColumnStats {
            most_common: v.iter().map(|(x, f)| (Value::Int(*x), *f)).collect(),
            ..distinct(2.0)
        };
        let (r1, r2) = (
            rel(Some(mcv(&[(1, 0.5), (2, 0.5)])), false),
            rel(Some(mcv(&[(1, 0.9), (3, 0.1)])), false),
        );
        let e1 = Estimator {
            table: &t,
            stats: &r1,
            tuples: 1000.0,
        };
        let e2 = Estimator {
            table: &t,
            stats: &r2,
            tuples: 1000.0,
        };
        let a = JoinColumn {
            est: &e1,
            col: 0,
            rows: 1000.0,
        };
        let b = JoinColumn {
            est: &e2,
            col: 0,
            rows: 1000.0,
        };
        // Only value 1 pairs up: 0.5 × 0.9.
        assert!((inner(&a, &b) - 0.45).abs() < 1e-6);
    }
}
