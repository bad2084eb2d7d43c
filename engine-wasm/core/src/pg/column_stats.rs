//! What ANALYZE learns about one column (`compute_scalar_stats` in
//! PostgreSQL's `commands/analyze.c`), from the rows it sampled, in the
//! order it read them:
//!
//! - **null_frac**: the share of sampled rows where it is NULL;
//! - **avg_width**: the average stored size of its non-NULL values;
//! - **n_distinct**: how many different values the table holds, estimated
//!   (Haas and Stokes' Duj1 when some values were seen once); negative when
//!   it is a share of the rows (more than 10 % of them), -1 meaning unique;
//! - **most common values** and their frequencies, kept only when clearly
//!   more common than the rest (all of them when the sample is the table);
//! - **histogram bounds**: the other values, cut into equal-population bins;
//! - **correlation** between the values' order and the rows' physical order:
//!   1 when the table is stored sorted by the column, near 0 when scattered,
//!   which is what makes an index range scan cheap or expensive.

use crate::sql::eval::compare;
use crate::value::Value;
use std::cmp::Ordering;

pub use crate::sql::plan::statistics::ColumnStats;

/// The sampled values of a column and what ANALYZE knows around them.
pub struct Sample<'a> {
    /// The column's value in each sampled row, in the order read.
    pub values: &'a [Value],
    /// The table's estimated live rows.
    pub total_rows: f64,
    /// `default_statistics_target`: most common values and histogram bins kept.
    pub target: usize,
    /// A value's stored size: its type's length, or a varlena's whole size.
    pub width: &'a dyn Fn(&Value) -> usize,
    /// Whether the type has a fixed length (`avg_width` is then that length).
    pub fixed_width: Option<i32>,
}

/// `compute_scalar_stats`.
pub fn compute(s: &Sample) -> ColumnStats {
    let sample_rows = s.values.len();
    // Non-NULL values with their position in the sample (`tupno`).
    let mut values: Vec<(&Value, usize)> = Vec::new();
    let mut total_width = 0usize;
    for v in s.values.iter().filter(|v| !v.is_null()) {
        total_width += (s.width)(v);
        values.push((v, values.len()));
    }
    let nonnull = values.len();
    let null_frac = (sample_rows - nonnull) as f64 / sample_rows.max(1) as f64;
    let avg_width = match s.fixed_width {
        Some(w) => w,
        None if nonnull == 0 => 0,
        None => (total_width as f64 / nonnull as f64) as i32,
    };
    if nonnull == 0 {
        return ColumnStats {
            null_frac: if sample_rows > 0 { 1.0 } else { 0.0 },
            avg_width,
            n_distinct: 0.0,
            most_common: Vec::new(),
            histogram: Vec::new(),
            correlation: None,
        };
    }
    // Sorted by value; equal values by their place in the sample.
    values.sort_by(|a, b| order(a.0, b.0).then(a.1.cmp(&b.1)));
    let groups = duplicate_groups(&values);
    let ndistinct = groups.len();
    let nmultiple = groups.iter().filter(|g| g.count > 1).count();
    let n_distinct = estimate_distinct(ndistinct, nmultiple, nonnull, null_frac, s.total_rows);
    let track = most_common_candidates(&groups, s.target);
    let keep = if track.len() == ndistinct && n_distinct > 0.0 && track.len() <= s.target {
        track.len()
    } else {
        let counts: Vec<usize> = track.iter().map(|g| g.count).collect();
        mcv_worth_keeping(&counts, n_distinct, null_frac, sample_rows, s.total_rows)
    };
    let most_common: Vec<(Value, f32)> = track[..keep]
        .iter()
        .map(|g| {
            let freq = g.count as f64 / sample_rows as f64;
            (values[g.first].0.clone(), freq as f32)
        })
        .collect();
    let histogram = histogram_bounds(&values, &track[..keep], ndistinct, s.target);
    ColumnStats {
        null_frac: null_frac as f32,
        avg_width,
        n_distinct: n_distinct as f32,
        most_common,
        histogram,
        correlation: (nonnull > 1).then(|| correlation(&values) as f32),
    }
}

/// The sort order ANALYZE uses (the type's `<`); NULLs are never sorted.
fn order(a: &Value, b: &Value) -> Ordering {
    compare(a, b).unwrap_or(Ordering::Equal)
}

/// A run of equal values in the sorted sample.
#[derive(Debug, Clone, Copy)]
struct Group {
    /// Index of its first value in the sorted list.
    first: usize,
    count: usize,
}

fn duplicate_groups(values: &[(&Value, usize)]) -> Vec<Group> {
    let mut groups: Vec<Group> = Vec::new();
    for (i, (v, _)) in values.iter().enumerate() {
        match groups.last_mut() {
            Some(g) if order(values[g.first].0, v) == Ordering::Equal => g.count += 1,
            _ => groups.push(Group { first: i, count: 1 }),
        }
    }
    groups
}

/// n_distinct: -1 × the non-NULL share when no value repeats; the values
/// seen when every one repeats; else Haas and Stokes' estimate. Past 10 %
/// of the rows it becomes a (negative) share of them.
fn estimate_distinct(
    ndistinct: usize,
    nmultiple: usize,
    nonnull: usize,
    null_frac: f64,
    total_rows: f64,
) -> f64 {
    let estimate = if nmultiple == 0 {
        -(1.0 - null_frac)
    } else if nmultiple == ndistinct {
        ndistinct as f64
    } else {
        let f1 = (ndistinct - nmultiple) as f64;
        let d = f1 + nmultiple as f64;
        let n = nonnull as f64;
        let big_n = total_rows * (1.0 - null_frac);
        let mut e = if big_n > 0.0 {
            (n * d) / ((n - f1) + f1 * n / big_n)
        } else {
            0.0
        };
        if e < d {
            e = d;
        }
        if e > big_n {
            e = big_n;
        }
        (e + 0.5).floor()
    };
    if estimate > 0.1 * total_rows {
        -(estimate / total_rows)
    } else {
        estimate
    }
}

/// The values seen more than once, most frequent first (equal counts in
/// value order), at most `target` of them: ANALYZE's `track` list.
fn most_common_candidates(groups: &[Group], target: usize) -> Vec<Group> {
    let mut track: Vec<Group> = Vec::new();
    for g in groups.iter().filter(|g| g.count > 1) {
        if track.len() < target || track.last().is_some_and(|l| g.count > l.count) {
            if track.len() == target {
                track.pop();
            }
            let at = track.iter().position(|t| g.count > t.count);
            track.insert(at.unwrap_or(track.len()), *g);
        }
    }
    track
}

/// `analyze_mcv_list`: drops the least common values while they are not
/// significantly more common than a value outside the list would be.
fn mcv_worth_keeping(
    counts: &[usize],
    n_distinct: f64,
    null_frac: f64,
    sample_rows: usize,
    total_rows: f64,
) -> usize {
    let mut num = counts.len();
    if sample_rows as f64 == total_rows || total_rows <= 1.0 {
        return num;
    }
    let ndistinct_table = if n_distinct < 0.0 {
        -n_distinct * total_rows
    } else {
        n_distinct
    };
    let mut sumcount: f64 = counts.iter().take(num.saturating_sub(1)).sum::<usize>() as f64;
    let (big_n, n) = (total_rows, sample_rows as f64);
    while num > 0 {
        let mut selec = (1.0 - sumcount / n - null_frac).clamp(0.0, 1.0);
        let other = ndistinct_table - (num - 1) as f64;
        if other > 1.0 {
            selec /= other;
        }
        let k = big_n * counts[num - 1] as f64 / n;
        let variance = n * k * (big_n - k) * (big_n - n) / (big_n * big_n * (big_n - 1.0));
        if counts[num - 1] as f64 > selec * n + 2.0 * variance.sqrt() + 0.5 {
            break;
        }
        num -= 1;
        if num == 0 {
            break;
        }
        sumcount -= counts[num - 1] as f64;
    }
    num
}

/// The first and last of the values left out of the most common list, and
/// evenly spaced ones between: at most `target + 1` bounds, none unless two
/// distinct values are left.
fn histogram_bounds(
    values: &[(&Value, usize)],
    most_common: &[Group],
    ndistinct: usize,
    target: usize,
) -> Vec<Value> {
    let mut num_hist = ndistinct - most_common.len();
    if num_hist > target {
        num_hist = target + 1;
    }
    if num_hist < 2 {
        return Vec::new();
    }
    let in_list = |i: usize| {
        most_common
            .iter()
            .any(|g| i >= g.first && i < g.first + g.count)
    };
    let rest: Vec<&Value> = (0..values.len())
        .filter(|&i| !in_list(i))
        .map(|i| values[i].0)
        .collect();
    let nvals = rest.len();
    let (delta, deltafrac) = ((nvals - 1) / (num_hist - 1), (nvals - 1) % (num_hist - 1));
    let (mut pos, mut posfrac) = (0, 0);
    let mut out = Vec::with_capacity(num_hist);
    for _ in 0..num_hist {
        out.push(rest[pos].clone());
        pos += delta;
        posfrac += deltafrac;
        if posfrac >= num_hist - 1 {
            pos += 1;
            posfrac -= num_hist - 1;
        }
    }
    out
}

/// The correlation of each value's rank with its place in the sample (both
/// 0…n-1, so the sums reduce to closed forms).
fn correlation(values: &[(&Value, usize)]) -> f64 {
    let n = values.len() as f64;
    let xysum: f64 = values
        .iter()
        .enumerate()
        .map(|(i, (_, tupno))| i as f64 * *tupno as f64)
        .sum();
    let xsum = (n - 1.0) * n / 2.0;
    let x2sum = (n - 1.0) * n * (2.0 * n - 1.0) / 6.0;
    (n * xysum - xsum * xsum) / (n * x2sum - xsum * xsum)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stats(values: &[Value], total: f64) -> ColumnStats {
        compute(&Sample {
            values,
            total_rows: total,
            target: 100,
            width: &|_| 4,
            fixed_width: Some(4),
        })
    }

    #[test]
    fn a_unique_column_in_order_is_distinct_and_correlated() {
        let v: Vec<Value> = (1..=50).map(Value::Int).collect();
        let s = stats(&v, 50.0);
        assert_eq!(s.n_distinct, -1.0);
        assert!(s.most_common.is_empty());
        assert_eq!(s.histogram.len(), 50);
        assert_eq!(s.correlation, Some(1.0));
    }

    #[test]
    fn reversed_order_correlates_minus_one() {
        let v: Vec<Value> = (1..=20).rev().map(Value::Int).collect();
        assert_eq!(stats(&v, 20.0).correlation, Some(-1.0));
    }

    #[test]
    fn a_few_repeated_values_are_all_most_common() {
        let v: Vec<Value> = (0..30).map(|i| Value::Int(i % 3)).collect();
        let s = stats(&v, 30.0);
        assert_eq!(s.n_distinct, 3.0);
        assert_eq!(s.most_common.len(), 3);
        assert!(s.histogram.is_empty());
    }

    #[test]
    fn nulls_count_in_null_frac_only() {
        let v = vec![Value::Null, Value::Int(1), Value::Null, Value::Int(2)];
        let s = stats(&v, 4.0);
        assert_eq!(s.null_frac, 0.5);
        assert_eq!(s.n_distinct, -0.5);
    }
}
