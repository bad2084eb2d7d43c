//! `cost_hashjoin` (with `initial_cost_hashjoin` and `ExecChooseHashTableSize`):
//! read the inner side once into a hash table, then read the outer side and
//! look each row's key up.
//!
//! The inner side is paid for before the first row comes out (startup); each
//! of its rows costs a hash and an insert. Each outer row costs a hash, plus
//! comparisons with the rows in its bucket: the inner rows times the share a
//! bucket holds (`estimate_hash_bucket_stats`), worse when one value is very
//! common. If the table would outgrow `work_mem × hash_mem_multiplier`, both
//! sides are split into batches written to disk and read back.

use super::{Cost, CostParams, DISABLE_COST};
use crate::sql::plan::statistics::clamp_rows;

/// PostgreSQL's block size, and what a hash table entry costs besides the
/// row (`HJTUPLE_OVERHEAD + SizeofMinimalTupleHeader`, both MAXALIGNed).
const BLOCK: f64 = 8192.0;
const ENTRY_OVERHEAD: f64 = 16.0 + 16.0;
const POINTER: f64 = 8.0;
/// `hash_mem_multiplier`'s default in PostgreSQL 15.
const HASH_MEM_MULTIPLIER: f64 = 2.0;

fn maxalign(n: f64) -> f64 {
    (n / 8.0).ceil() * 8.0
}

/// The memory a hash table may use, in bytes (`get_hash_memory_limit`).
pub fn memory_limit(p: &CostParams) -> f64 {
    p.work_mem * 1024.0 * HASH_MEM_MULTIPLIER
}

/// `ExecChooseHashTableSize`: the buckets and batches for `rows` inner rows
/// of `width` bytes.
pub fn table_size(rows: f64, width: f64, p: &CostParams) -> (f64, f64) {
    let rows = if rows <= 0.0 { 1000.0 } else { rows };
    let entry = ENTRY_OVERHEAD + maxalign(width);
    let inner_bytes = rows * entry;
    let mut table_bytes = memory_limit(p);
    // 2 % of the memory goes to the skew table of the outer side's most
    // common values (the planner always allows for one).
    let skew_bytes = table_bytes * 2.0 / 100.0;
    let skew_entries = (skew_bytes / (entry + 8.0 * POINTER + 4.0 + 16.0)).floor();
    if skew_entries > 0.0 {
        table_bytes -= skew_bytes;
    }
    let max_pointers = prev_power_of_two((table_bytes / POINTER).floor());
    let buckets = (rows.ceil()).min(max_pointers);
    let mut buckets = next_power_of_two(buckets.max(1024.0));
    if inner_bytes + buckets * POINTER <= table_bytes {
        return (buckets, 1.0);
    }
    let bucket_size = entry + POINTER;
    buckets =
        next_power_of_two(prev_power_of_two((table_bytes / bucket_size).floor()).min(max_pointers));
    let batches = (inner_bytes / (table_bytes - buckets * POINTER))
        .ceil()
        .min(max_pointers);
    (buckets, next_power_of_two(batches.max(2.0)))
}

fn prev_power_of_two(n: f64) -> f64 {
    if n < 1.0 {
        return 1.0;
    }
    2f64.powi(n.log2().floor() as i32)
}

fn next_power_of_two(n: f64) -> f64 {
    2f64.powi(n.max(1.0).log2().ceil() as i32)
}

/// One side of the join as the cost sees it.
#[derive(Debug, Clone, Copy)]
pub struct Input {
    pub cost: Cost,
    pub width: f64,
}

/// What the inner key's statistics say about bucket sizes
/// (`estimate_hash_bucket_stats`).
#[derive(Debug, Clone, Copy)]
pub struct KeyStats {
    /// Distinct values of the inner key, and whether that is only the default.
    pub distinct: f64,
    pub default: bool,
    pub null_frac: f64,
    /// The most common value's frequency (0 without an MCV list).
    pub mcv_freq: f64,
    /// The inner relation's rows after and before its own conditions.
    pub rel_rows: f64,
    pub rel_tuples: f64,
}

/// The share of the inner rows one bucket holds.
pub fn bucket_fraction(k: &KeyStats, buckets: f64) -> f64 {
    if k.default {
        return k.mcv_freq.max(0.1);
    }
    let avg_freq = (1.0 - k.null_frac) / k.distinct;
    let mut distinct = k.distinct;
    if k.rel_tuples > 0.0 {
        distinct = clamp_rows(distinct * k.rel_rows / k.rel_tuples);
    }
    let mut frac = if distinct > buckets {
        1.0 / buckets
    } else {
        1.0 / distinct
    };
    if avg_freq > 0.0 && k.mcv_freq > avg_freq {
        frac *= k.mcv_freq / avg_freq;
    }
    frac.clamp(1.0e-6, 1.0)
}

/// When the inner side is unique on the key (or the join stops at the first
/// match): the share of outer rows that match, and matches per matching row
/// (`compute_semi_anti_join_factors`).
#[derive(Debug, Clone, Copy)]
pub struct Semi {
    pub outer_match_frac: f64,
    pub match_count: f64,
}

/// The join as `cost_hashjoin` sees it.
pub struct HashJoin<'a> {
    pub outer: Input,
    pub inner: Input,
    pub key: &'a KeyStats,
    /// Equalities hashed on.
    pub clauses: f64,
    /// Rows the hash clauses pass (`approx_tuple_count`).
    pub matched: f64,
    /// The join's rows, and the cost per row of its other conditions.
    pub rows: f64,
    pub semi: Option<Semi>,
    pub enable: bool,
}

/// `initial_cost_hashjoin` + `final_cost_hashjoin`.
pub fn cost(j: &HashJoin, p: &CostParams) -> Cost {
    let (o, i) = (&j.outer.cost, &j.inner.cost);
    let mut startup = o.startup + i.total;
    let mut run = o.total - o.startup;
    startup += (p.cpu_operator_cost * j.clauses + p.cpu_tuple_cost) * i.rows;
    run += p.cpu_operator_cost * j.clauses * o.rows;
    let (buckets, batches) = table_size(i.rows, j.inner.width, p);
    if batches > 1.0 {
        let pages = |rows: f64, width: f64| (rows * (maxalign(width) + 24.0) / BLOCK).ceil();
        let (outer_pages, inner_pages) =
            (pages(o.rows, j.outer.width), pages(i.rows, j.inner.width));
        startup += p.seq_page_cost * inner_pages;
        run += p.seq_page_cost * (inner_pages + 2.0 * outer_pages);
    }
    if !j.enable {
        startup += DISABLE_COST;
    }
    let bucket = bucket_fraction(j.key, buckets);
    // The bucket holding the commonest value must fit in memory.
    let biggest = clamp_rows(i.rows * j.key.mcv_freq) * (maxalign(j.inner.width) + 24.0);
    if biggest > memory_limit(p) {
        startup += DISABLE_COST;
    }
    let per_compare = p.cpu_operator_cost * j.clauses;
    let passed = match j.semi {
        Some(s) => {
            let matched_rows = (o.rows * s.outer_match_frac).round_ties_even();
            let scan_frac = 2.0 / (s.match_count + 1.0);
            run += per_compare * matched_rows * clamp_rows(i.rows * bucket * scan_frac) * 0.5;
            run += per_compare
                * (o.rows - matched_rows)
                * clamp_rows(i.rows / (buckets * batches))
                * 0.05;
            matched_rows
        }
        None => {
            run += per_compare * o.rows * clamp_rows(i.rows * bucket) * 0.5;
            j.matched
        }
    };
    run += p.cpu_tuple_cost * passed;
    Cost {
        startup,
        total: startup + run,
        rows: j.rows,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_small_inner_side_fits_one_batch_of_1024_buckets() {
        let p = CostParams::default();
        assert_eq!(table_size(100.0, 8.0, &p), (1024.0, 1.0));
        assert_eq!(table_size(5000.0, 8.0, &p), (8192.0, 1.0));
    }

    #[test]
    fn a_large_one_spills_into_batches() {
        let p = CostParams {
            work_mem: 64.0,
            ..CostParams::default()
        };
        let (_, batches) = table_size(100_000.0, 100.0, &p);
        assert!(batches >= 64.0, "{batches}");
    }
}
