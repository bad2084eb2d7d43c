//! `create_memoize_path` and `cost_memoize_rescan`: a Memoize between a
//! nested loop and its inner index scan keeps the rows each key value found,
//! so an outer row whose value came before is answered from memory.
//!
//! Its worth is the share of lookups that hit: with `calls` outer rows and
//! `distinct` values among them, all but the first of each value hit (when
//! the cache holds them all). Every lookup costs a hash probe; every value
//! costs storing its rows. When the statistics cannot tell how many values
//! there are, PostgreSQL assumes each call is new, so Memoize never wins.

use super::{Cost, CostParams};

/// `sizeof(MemoizeEntry) + sizeof(MemoizeKey)`, and `sizeof(MemoizeTuple)`.
const ENTRY_BYTES: f64 = 24.0 + 24.0;
const TUPLE_BYTES: f64 = 16.0;

/// The inner scan under the Memoize, and how it is called.
pub struct Memoize {
    pub inner: Cost,
    pub width: f64,
    /// Outer rows: one call each.
    pub calls: f64,
    /// Distinct key values among them (`estimate_num_groups`), or None when
    /// only a default was known.
    pub distinct: Option<f64>,
    /// Bytes of the key (`get_expr_width`).
    pub key_width: f64,
}

fn maxalign(n: f64) -> f64 {
    (n / 8.0).ceil() * 8.0
}

/// The Memoize path's own cost: its first call.
pub fn path_cost(m: &Memoize, p: &CostParams) -> Cost {
    Cost {
        startup: m.inner.startup + p.cpu_tuple_cost,
        total: m.inner.total + p.cpu_tuple_cost,
        rows: m.inner.rows,
    }
}

/// The cost of each later call: (startup, total).
pub fn rescan_cost(m: &Memoize, p: &CostParams) -> (f64, f64) {
    let tuples = m.inner.rows;
    let memory = super::hash_join::memory_limit(p);
    // relation_byte_size + ExecEstimateCacheEntryOverheadBytes + the key.
    let entry =
        tuples * (maxalign(m.width) + 24.0) + ENTRY_BYTES + TUPLE_BYTES * tuples + m.key_width;
    let entries = (memory / entry).floor();
    let distinct = m.distinct.unwrap_or(m.calls);
    let evict_ratio = 1.0 - entries.min(distinct) / distinct;
    let hit_ratio = ((m.calls - distinct) / m.calls) * (entries / distinct.max(entries));
    let mut total = m.inner.total * (1.0 - hit_ratio) + p.cpu_operator_cost;
    total += p.cpu_tuple_cost * evict_ratio;
    total += p.cpu_operator_cost / 10.0 * evict_ratio * tuples;
    total += p.cpu_tuple_cost + p.cpu_operator_cost * tuples;
    let startup = m.inner.startup * (1.0 - hit_ratio) + p.cpu_tuple_cost;
    (startup, total)
}

/// `estimate_num_groups` for one column: its distinct values in a relation
/// of `tuples` rows of which a condition keeps `rows` (the values a random
/// subset holds), at most `calls`.
pub fn distinct_among(distinct: f64, tuples: f64, rows: f64, calls: f64) -> f64 {
    let mut d = distinct.min(tuples);
    if d > 0.0 && rows < tuples {
        d *= 1.0 - ((tuples - rows) / tuples).powf(tuples / d);
    }
    let d = crate::sql::plan::statistics::clamp_rows(d).ceil();
    d.min(calls).max(1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scan() -> Cost {
        Cost {
            startup: 0.28,
            total: 8.30,
            rows: 1.0,
        }
    }

    #[test]
    fn repeated_values_make_rescans_cheap() {
        let p = CostParams::default();
        let few = Memoize {
            inner: scan(),
            width: 8.0,
            calls: 1000.0,
            distinct: Some(10.0),
            key_width: 4.0,
        };
        let (_, cheap) = rescan_cost(&few, &p);
        let unknown = Memoize {
            distinct: None,
            ..few
        };
        let (_, dear) = rescan_cost(&unknown, &p);
        // 99 % hits against none: the cached lookups cost a fraction.
        assert!(cheap < 0.2, "{cheap}");
        assert!(dear > scan().total, "{dear}");
    }

    #[test]
    fn a_filtered_relation_holds_fewer_values() {
        assert_eq!(distinct_among(100.0, 10_000.0, 10_000.0, 1e9), 100.0);
        assert!(distinct_among(1000.0, 10_000.0, 100.0, 1e9) < 100.0);
        assert_eq!(distinct_among(1000.0, 10_000.0, 10_000.0, 50.0), 50.0);
    }
}
