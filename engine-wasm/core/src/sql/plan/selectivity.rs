//! How many of a table's rows a WHERE clause keeps, as a fraction: the
//! estimates of PostgreSQL 15's `clausesel.c` and `selfuncs.c`, from the
//! statistics ANALYZE gathered (or its defaults when there are none).
//!
//! - `col = const`: the value's frequency if it is a most common value;
//!   else the rows left over, shared evenly among the other distinct values
//!   (`var_eq_const`). A unique column gives one row.
//! - `col < const` (and `<=`, `>`, `>=`): the most common values that pass,
//!   plus the share of the histogram below the constant, interpolated
//!   inside its bin (`scalarineqsel`, `ineq_histogram_selectivity`).
//! - `col IN (…)`: the sum of each value's equality (`scalararraysel`).
//! - Two bounds on one column (`a < x AND x < b`, BETWEEN) are one range:
//!   `P(x > a) + P(x < b) - 1`, not their product (`clauselist_selectivity`).
//! - Without statistics, PostgreSQL's defaults: 0.005 for `=`, 1/3 for an
//!   inequality, 0.005 for a range.

use super::statistics::{clamp_rows, ColumnStats, RelationStats};
use super::TableInfo;
use crate::sql::ast::{BinOp, Expr};
use crate::sql::eval::compare;
use crate::value::Value;
use std::cmp::Ordering;

pub const DEFAULT_EQ_SEL: f64 = 0.005;
pub const DEFAULT_INEQ_SEL: f64 = 1.0 / 3.0;
pub const DEFAULT_RANGE_INEQ_SEL: f64 = 0.005;
/// IS NULL without statistics, and LIKE without a pattern estimate.
pub const DEFAULT_UNK_SEL: f64 = 0.005;
pub const DEFAULT_MATCH_SEL: f64 = 0.005;
const DEFAULT_NUM_DISTINCT: f64 = 200.0;

/// Estimates over one table's rows.
pub struct Estimator<'a> {
    pub table: &'a TableInfo,
    pub stats: &'a RelationStats,
    /// The table's estimated rows (`rel->tuples`).
    pub tuples: f64,
}

fn clamp(p: f64) -> f64 {
    p.clamp(0.0, 1.0)
}

/// What a pair of bounds limits: a column with statistics, or an
/// expression without.
#[derive(Debug, PartialEq)]
enum Bounded {
    Column(usize),
    Expr(Expr),
}

impl Estimator<'_> {
    /// `clauselist_selectivity`: the AND of `clauses`.
    pub fn clauses(&self, clauses: &[Expr]) -> f64 {
        let clauses = split_between(clauses);
        if clauses.len() == 1 {
            return self.clause(&clauses[0]);
        }
        // Bounds on one column or expression: the lower's and the upper's
        // (`addRangeClause`).
        let mut ranges: Vec<(Bounded, Option<f64>, Option<f64>)> = Vec::new();
        let mut s = 1.0;
        for c in &clauses {
            let Some((what, is_gt)) = self.range_bound(c) else {
                s *= self.clause(c);
                continue;
            };
            let sel = self.clause(c);
            let at = match ranges.iter().position(|r| r.0 == what) {
                Some(at) => at,
                None => {
                    ranges.push((what, None, None));
                    ranges.len() - 1
                }
            };
            let bound = if is_gt {
                &mut ranges[at].1
            } else {
                &mut ranges[at].2
            };
            *bound = Some(bound.map_or(sel, |b: f64| b.min(sel)));
        }
        for (what, lower, upper) in ranges {
            s *= match (lower, upper) {
                (Some(lo), Some(hi)) => match what {
                    Bounded::Column(col) => self.range(col, lo, hi),
                    // No statistics: both bounds are guesses.
                    Bounded::Expr(_) => DEFAULT_RANGE_INEQ_SEL,
                },
                (Some(one), None) | (None, Some(one)) => one,
                (None, None) => 1.0,
            };
        }
        clamp(s)
    }

    /// `x > a AND x < b`: both bounds of one range.
    fn range(&self, col: usize, lo: f64, hi: f64) -> f64 {
        if lo == DEFAULT_INEQ_SEL || hi == DEFAULT_INEQ_SEL {
            return DEFAULT_RANGE_INEQ_SEL;
        }
        // Each bound excluded the NULLs: add them back once.
        let s = hi + lo - 1.0 + self.null_frac(col).unwrap_or(DEFAULT_UNK_SEL);
        if s <= 0.0 {
            return if s < -0.01 {
                DEFAULT_RANGE_INEQ_SEL
            } else {
                1.0e-10
            };
        }
        s
    }

    /// The column (or expression) and side of `x < const`-like clauses,
    /// which [`Self::clauses`] pairs into ranges.
    fn range_bound(&self, e: &Expr) -> Option<(Bounded, bool)> {
        let Expr::Binary { op, left, right } = e else {
            return None;
        };
        let (what, op) = match self.var_op_const(*op, left, right) {
            Some((col, op, _)) => (Bounded::Column(col), op),
            // An expression PostgreSQL has no statistics for (`count(*)`,
            // `a + 1`) against a constant: a range too.
            None if super::is_constant(right) && !super::is_constant(left) => {
                (Bounded::Expr((**left).clone()), *op)
            }
            None if super::is_constant(left) && !super::is_constant(right) => {
                (Bounded::Expr((**right).clone()), super::flip(*op))
            }
            None => return None,
        };
        match op {
            BinOp::Lt | BinOp::LtEq => Some((what, false)),
            BinOp::Gt | BinOp::GtEq => Some((what, true)),
            _ => None,
        }
    }

    /// `clause_selectivity` of one clause.
    pub fn clause(&self, e: &Expr) -> f64 {
        match e {
            Expr::Binary {
                op: BinOp::And,
                left,
                right,
            } => self.clauses(&[(**left).clone(), (**right).clone()]),
            Expr::Binary {
                op: BinOp::Or,
                left,
                right,
            } => {
                let (a, b) = (self.clause(left), self.clause(right));
                a + b - a * b
            }
            Expr::Unary { not: true, expr } => 1.0 - self.clause(expr),
            Expr::Binary { op, left, right } if op.is_comparison() => {
                self.comparison(*op, left, right)
            }
            Expr::Between { negated: false, .. } => self.clauses(std::slice::from_ref(e)),
            // `x NOT BETWEEN a AND b` is `x < a OR x > b` to PostgreSQL.
            Expr::Between {
                expr,
                low,
                high,
                negated: true,
            } => {
                let below = self.comparison(BinOp::Lt, expr, low);
                let above = self.comparison(BinOp::Gt, expr, high);
                below + above - below * above
            }
            Expr::InList {
                expr,
                list,
                negated,
            } => self.in_list(expr, list, *negated),
            Expr::IsNull { expr, negated } => {
                let null = self
                    .column(expr)
                    .and_then(|c| self.null_frac(c))
                    .unwrap_or(DEFAULT_UNK_SEL);
                if *negated {
                    1.0 - null
                } else {
                    null
                }
            }
            Expr::Like { negated, .. } => {
                if *negated {
                    1.0 - DEFAULT_MATCH_SEL
                } else {
                    DEFAULT_MATCH_SEL
                }
            }
            // A boolean column on its own: `col = true`.
            Expr::Column { .. } => match self.column(e) {
                Some(c) if self.column_stats(c).is_some() => {
                    self.eq_const(c, Some(&Value::Bool(true)), false)
                }
                _ => 0.5,
            },
            Expr::Literal(Value::Bool(b)) => f64::from(u8::from(*b)),
            Expr::Literal(Value::Null) => 0.0,
            // A boolean function (`function_selectivity`'s default).
            Expr::Function { .. } => 1.0 / 3.0,
            _ => 0.5,
        }
    }

    fn comparison(&self, op: BinOp, left: &Expr, right: &Expr) -> f64 {
        let Some((col, op, value)) = self.var_op_const(op, left, right) else {
            // Two columns, or an expression PostgreSQL has no statistics for.
            return match op {
                BinOp::Eq | BinOp::IsNotDistinctFrom => DEFAULT_EQ_SEL,
                BinOp::NotEq | BinOp::IsDistinctFrom => 1.0 - DEFAULT_EQ_SEL,
                _ => DEFAULT_INEQ_SEL,
            };
        };
        match op {
            BinOp::Eq => self.eq_const(col, value.as_ref(), false),
            BinOp::NotEq => self.eq_const(col, value.as_ref(), true),
            BinOp::Lt | BinOp::LtEq | BinOp::Gt | BinOp::GtEq => {
                self.inequality(col, op, value.as_ref())
            }
            _ => 0.5,
        }
    }

    /// `col op constant` (either way round, flipped so the column is on
    /// the left), with the constant's value when the planner can see it.
    fn var_op_const(
        &self,
        op: BinOp,
        left: &Expr,
        right: &Expr,
    ) -> Option<(usize, BinOp, Option<Value>)> {
        let (col, op, other) = match (self.column(left), self.column(right)) {
            (Some(c), None) => (c, op, right),
            (None, Some(c)) => (c, super::flip(op), left),
            _ => return None,
        };
        if !super::is_constant(other) {
            return None;
        }
        let value = self.constant(col, other).map(Some);
        Some((col, op, value.unwrap_or(None)))
    }

    /// A constant's value in the column's type, or None when it is not a
    /// literal (`now()`, a parameter): estimated then as an unknown value.
    fn constant(&self, col: usize, e: &Expr) -> Option<Value> {
        let Some(&(_, ty)) = self.table.columns.get(col) else {
            // An indexed expression: its literal as written.
            return literal(e);
        };
        match e {
            Expr::Literal(Value::Text(_)) => {
                crate::sql::eval::quoted_as(e, ty).map_or_else(|| literal(e), |v| v.ok())
            }
            Expr::Literal(v) => Some(v.clone()),
            Expr::Cast { expr, .. } => self.constant(col, expr),
            _ => None,
        }
    }

    /// `col = value` (or `<>` when `negate`); `None` for an unknown value.
    pub fn eq_const(&self, col: usize, value: Option<&Value>, negate: bool) -> f64 {
        let null_frac = self.null_frac(col).unwrap_or(0.0);
        if value.is_some_and(Value::is_null) {
            return 0.0;
        }
        let stats = self.column_stats(col);
        let s = if self.stats.unique.get(col) == Some(&true) && self.tuples >= 1.0 {
            1.0 / self.tuples
        } else if let Some(st) = stats {
            let matched = value.and_then(|v| {
                st.most_common
                    .iter()
                    .find(|(m, _)| compare(m, v) == Some(Ordering::Equal))
            });
            match (matched, value) {
                (Some((_, f)), _) => f64::from(*f),
                (None, Some(_)) => self.other_value_share(col, st, true),
                // `var_eq_non_const`: 1/ndistinct of the non-NULL rows.
                (None, None) => {
                    let mut s = (1.0 - null_frac) / self.distinct(col);
                    if let Some((_, least)) = st.most_common.first() {
                        s = s.min(f64::from(*least));
                    }
                    s
                }
            }
        } else {
            1.0 / self.distinct(col)
        };
        let s = clamp(s);
        if negate {
            clamp(1.0 - s - null_frac)
        } else {
            s
        }
    }

    /// The share of one value that is not a most common one: the rows the
    /// list leaves, spread over the other distinct values (capped by the
    /// least common value's share when `cap`).
    fn other_value_share(&self, col: usize, st: &ColumnStats, cap: bool) -> f64 {
        let common: f64 = st.most_common.iter().map(|(_, f)| f64::from(*f)).sum();
        let mut s = clamp(1.0 - common - f64::from(st.null_frac));
        let other = self.distinct(col) - st.most_common.len() as f64;
        if other > 1.0 {
            s /= other;
        }
        if let (true, Some((_, least))) = (cap, st.most_common.last()) {
            s = s.min(f64::from(*least));
        }
        s
    }

    fn distinct(&self, col: usize) -> f64 {
        self.distinct_or_default(col).0
    }

    /// `get_variable_numdistinct`: the estimate, and whether it is only
    /// PostgreSQL's default (200) for want of anything better.
    pub fn distinct_or_default(&self, col: usize) -> (f64, bool) {
        let stats = self.column_stats(col);
        let null_frac = stats.map_or(0.0, |s| f64::from(s.null_frac));
        let mut d = match (stats, self.table.columns.get(col).map(|c| c.1)) {
            (Some(s), _) => f64::from(s.n_distinct),
            (None, Some(crate::value::SqlType::Bool)) => 2.0,
            _ => 0.0,
        };
        if self.stats.unique.get(col) == Some(&true) {
            d = -(1.0 - null_frac);
        }
        if d > 0.0 {
            return (clamp_rows(d), false);
        }
        if self.tuples <= 0.0 {
            return (DEFAULT_NUM_DISTINCT, true);
        }
        if d < 0.0 {
            return (clamp_rows(-d * self.tuples), false);
        }
        if self.tuples < DEFAULT_NUM_DISTINCT {
            return (clamp_rows(self.tuples), false);
        }
        (DEFAULT_NUM_DISTINCT, true)
    }

    /// `scalarineqsel`: `col op value`.
    pub fn inequality(&self, col: usize, op: BinOp, value: Option<&Value>) -> f64 {
        let (Some(st), Some(value)) = (self.column_stats(col), value) else {
            return DEFAULT_INEQ_SEL;
        };
        if value.is_null() {
            return 0.0;
        }
        let passes = |v: &Value| {
            let o = compare(v, value);
            match op {
                BinOp::Lt => o == Some(Ordering::Less),
                BinOp::LtEq => matches!(o, Some(Ordering::Less | Ordering::Equal)),
                BinOp::Gt => o == Some(Ordering::Greater),
                _ => matches!(o, Some(Ordering::Greater | Ordering::Equal)),
            }
        };
        let (mut mcv, mut common) = (0.0, 0.0);
        for (v, f) in &st.most_common {
            common += f64::from(*f);
            if passes(v) {
                mcv += f64::from(*f);
            }
        }
        let is_gt = matches!(op, BinOp::Gt | BinOp::GtEq);
        let is_eq = matches!(op, BinOp::LtEq | BinOp::GtEq);
        let hist = self.histogram_share(col, st, &passes, value, is_gt, is_eq);
        let mut s = 1.0 - f64::from(st.null_frac) - common;
        s *= hist.unwrap_or(0.5);
        clamp(s + mcv)
    }

    /// `ineq_histogram_selectivity`: the share of the histogram's
    /// population that passes, None without a histogram.
    fn histogram_share(
        &self,
        col: usize,
        st: &ColumnStats,
        passes: &dyn Fn(&Value) -> bool,
        value: &Value,
        is_gt: bool,
        is_eq: bool,
    ) -> Option<f64> {
        let h = &st.histogram;
        if h.len() < 2 {
            return None;
        }
        // The first bound for which the operator fails (or, for `>`,
        // succeeds): the right end of the constant's bin.
        let (mut lo, mut hi) = (0, h.len());
        while lo < hi {
            let probe = (lo + hi) / 2;
            if passes(&h[probe]) != is_gt {
                lo = probe + 1;
            } else {
                hi = probe;
            }
        }
        let n = (h.len() - 1) as f64;
        let frac = if lo == 0 {
            0.0
        } else if lo >= h.len() {
            1.0
        } else {
            let i = lo;
            let eq = if i == 1 || is_gt == is_eq {
                let other = self.distinct(col) - st.most_common.len() as f64;
                if other > 1.0 {
                    1.0 / other
                } else {
                    0.0
                }
            } else {
                0.0
            };
            let bin = bin_fraction(value, &h[i - 1], &h[i]);
            let mut frac = ((i - 1) as f64 + bin) / n;
            if i == 1 {
                frac += eq * (1.0 - bin);
            }
            if is_gt == is_eq {
                frac -= eq;
            }
            frac
        };
        let s = if is_gt { 1.0 - frac } else { frac };
        // The bounds are a sample, maybe old: no estimate near 0 or 1.
        let cutoff = 0.01 / n;
        Some(s.clamp(cutoff, 1.0 - cutoff))
    }

    /// `scalararraysel` for `col IN (…)` (`= ANY`) or `NOT IN` (`<> ALL`).
    fn in_list(&self, expr: &Expr, list: &[Expr], negated: bool) -> f64 {
        let Some(col) = self.column(expr) else {
            return if negated {
                1.0 - DEFAULT_EQ_SEL
            } else {
                DEFAULT_EQ_SEL
            };
        };
        let values: Vec<Option<Value>> = list.iter().map(|e| self.constant(col, e)).collect();
        let (mut independent, mut disjoint) = if negated { (1.0, 1.0) } else { (0.0, 0.0) };
        for v in &values {
            let s = self.eq_const(col, v.as_ref(), negated);
            if negated {
                independent *= s;
                disjoint += s - 1.0;
            } else {
                independent = independent + s - independent * s;
                disjoint += s;
            }
        }
        if (0.0..=1.0).contains(&disjoint) {
            disjoint
        } else {
            independent
        }
    }

    /// The table column or indexed expression `e` is, by the planner's
    /// number: ANALYZE keeps statistics for both (an expression index's in
    /// its own `pg_statistic` rows).
    fn column(&self, e: &Expr) -> Option<usize> {
        super::column_index(self.table, e)
    }

    pub fn column_stats(&self, col: usize) -> Option<&ColumnStats> {
        self.stats.columns.get(col).and_then(Option::as_ref)
    }

    pub fn null_frac(&self, col: usize) -> Option<f64> {
        self.column_stats(col).map(|s| f64::from(s.null_frac))
    }
}

fn literal(e: &Expr) -> Option<Value> {
    match e {
        Expr::Literal(v) => Some(v.clone()),
        _ => None,
    }
}

/// BETWEEN as PostgreSQL's parser leaves it: `x >= a AND x <= b` (so a
/// scan's condition list holds the two apart, and EXPLAIN prints them so).
pub fn split_between(clauses: &[Expr]) -> Vec<Expr> {
    let mut out = Vec::new();
    for c in clauses {
        match c {
            Expr::Between {
                expr,
                low,
                high,
                negated: false,
            } => {
                out.push(Expr::Binary {
                    op: BinOp::GtEq,
                    left: expr.clone(),
                    right: low.clone(),
                });
                out.push(Expr::Binary {
                    op: BinOp::LtEq,
                    left: expr.clone(),
                    right: high.clone(),
                });
            }
            other => out.push(other.clone()),
        }
    }
    out
}

/// Where `value` lies between two histogram bounds, 0 to 1
/// (`convert_to_scalar`): numbers and times by their value, text by its
/// characters read as digits of a number; other types take the middle.
fn bin_fraction(value: &Value, low: &Value, high: &Value) -> f64 {
    let scaled = match (value, low, high) {
        (Value::Text(v), Value::Text(l), Value::Text(h)) => Some(strings_to_scalars(v, l, h)),
        _ => match (scalar(value), scalar(low), scalar(high)) {
            (Some(v), Some(l), Some(h)) => Some((v, l, h)),
            _ => None,
        },
    };
    let Some((v, l, h)) = scaled else {
        return 0.5;
    };
    if h <= l {
        0.5
    } else if v <= l {
        0.0
    } else if v >= h {
        1.0
    } else {
        let f = (v - l) / (h - l);
        if f.is_nan() {
            0.5
        } else {
            f
        }
    }
}

/// `convert_string_to_scalar` (C collation): the three strings, less their
/// common prefix, as fractions in a base spanning the characters they use
/// (widened to whole runs of letters and digits, or to printable ASCII when
/// under ten characters).
fn strings_to_scalars(value: &str, low: &str, high: &str) -> (f64, f64, f64) {
    let (value, low, high) = (value.as_bytes(), low.as_bytes(), high.as_bytes());
    let first = high.first().copied().unwrap_or(0);
    let (mut lo, mut hi) = (first, first);
    for &c in low.iter().chain(high) {
        lo = lo.min(c);
        hi = hi.max(c);
    }
    for (a, z) in [(b'A', b'Z'), (b'a', b'z'), (b'0', b'9')] {
        if lo <= z && hi >= a {
            lo = lo.min(a);
            hi = hi.max(z);
        }
    }
    if hi - lo < 9 {
        (lo, hi) = (b' ', 127);
    }
    let common = low
        .iter()
        .zip(high)
        .zip(value)
        .take_while(|((l, h), v)| l == h && l == v)
        .count();
    let one = |s: &[u8]| {
        let base = f64::from(hi - lo) + 1.0;
        let (mut num, mut denom) = (0.0, base);
        for &c in s.iter().take(12) {
            let c = if c < lo {
                f64::from(lo) - 1.0
            } else if c > hi {
                f64::from(hi) + 1.0
            } else {
                f64::from(c)
            };
            num += (c - f64::from(lo)) / denom;
            denom *= base;
        }
        num
    };
    (
        one(&value[common..]),
        one(&low[common..]),
        one(&high[common..]),
    )
}

fn scalar(v: &Value) -> Option<f64> {
    Some(match v {
        Value::Int(i) => *i as f64,
        Value::Float(f) => *f,
        Value::Real(f) => f64::from(*f),
        Value::Numeric(n) => n.to_f64(),
        Value::Date(d) => f64::from(*d),
        Value::Timestamp(t) | Value::LocalTimestamp(t) => *t as f64,
        _ => return None,
    })
}
