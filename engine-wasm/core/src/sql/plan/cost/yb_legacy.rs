//! YugabyteDB's heuristic scan costs: what its planner uses by default in
//! the releases the articles ran (2.13 to 2.21: `yb_enable_optimizer_statistics`
//! and `yb_enable_base_scans_cost_model` off). From `yb_scan.c`:
//! `ybcCostEstimate` charges every row a scan reads ten times
//! `cpu_tuple_cost` (the RPC and DocDB work) plus its conditions, 10 % more
//! for a backward scan and 10 % more for an index that must then fetch each
//! row from the table; `ybcIndexEvalClauseSelectivity` guesses the rows an
//! index reads from which of its key columns have a condition, not from
//! statistics.

use super::{Cost, CostParams};

/// Rows assumed for a table ANALYZE has not counted (`YBC_DEFAULT_NUM_ROWS`).
pub const DEFAULT_NUM_ROWS: f64 = 1000.0;
/// One row of a unique key (`YBC_SINGLE_ROW_SELECTIVITY`).
const SINGLE_ROW: f64 = 1.0 / DEFAULT_NUM_ROWS;
/// Every key column bound, the index not unique (`YBC_SINGLE_KEY_SELECTIVITY`).
const SINGLE_KEY: f64 = 10.0 / DEFAULT_NUM_ROWS;
/// The hash columns bound, not every key column (`YBC_HASH_SCAN_SELECTIVITY`).
const HASH_SCAN: f64 = 100.0 / DEFAULT_NUM_ROWS;
/// A partial index's predicate is taken to keep this share (`YBC_PARTIAL_IDX_PRED_SELECTIVITY`).
const PARTIAL_INDEX: f64 = 0.8;
/// `YB_DEFAULT_PER_TUPLE_COST`: a row read through DocDB costs ten of PostgreSQL's.
const PER_TUPLE_FACTOR: f64 = 10.0;
/// `YBC_BACKWARDS_SCAN_COST_FACTOR`.
const BACKWARD: f64 = 1.1;
/// `YBC_UNCOVERED_INDEX_COST_FACTOR`: the index, then the table.
const UNCOVERED: f64 = 1.1;

/// Which of an index's key columns (by key position) a scan binds, and the
/// index's shape.
pub struct KeyUse {
    /// Key positions with a condition.
    pub bound: Vec<usize>,
    /// Its first `hash_columns` key columns are hashed together.
    pub hash_columns: usize,
    pub key_columns: usize,
    pub unique: bool,
}

/// The share of the table an index scan reads (`ybcIndexEvalClauseSelectivity`):
/// all of it unless every hash column has a condition; one row of a unique
/// key or a few of another when every key column has one; else a hash
/// bucket's worth.
pub fn index_selectivity(k: &KeyUse, tuples: f64) -> f64 {
    let has = |c: usize| k.bound.contains(&c);
    if k.bound.is_empty() || !(0..k.hash_columns).all(has) {
        return 1.0;
    }
    if (0..k.key_columns).all(has) {
        if k.unique {
            return if tuples == 0.0 {
                SINGLE_ROW
            } else {
                1.0 / tuples
            };
        }
        return SINGLE_KEY;
    }
    HASH_SCAN
}

/// How a scan reads: the share of rows, and what makes each dearer.
pub struct Read {
    pub selectivity: f64,
    pub backward: bool,
    /// A secondary index whose rows are then fetched from the table.
    pub uncovered: bool,
    /// A partial index (its predicate scales the cost, not the rows).
    pub partial: bool,
}

/// `ybcCostEstimate`: no startup cost; every row read costs its share.
/// `quals` is the cost per row of the WHERE's conditions.
pub fn scan(r: &Read, tuples: f64, quals: f64, p: &CostParams) -> Cost {
    let mut factor = PER_TUPLE_FACTOR;
    if r.backward {
        factor *= BACKWARD;
    }
    if r.uncovered {
        factor *= UNCOVERED;
    }
    let costed = if r.partial {
        r.selectivity * PARTIAL_INDEX
    } else {
        r.selectivity
    };
    Cost {
        startup: 0.0,
        total: (p.cpu_tuple_cost * factor + quals) * tuples * costed,
        rows: tuples * r.selectivity,
    }
}

/// What PostgreSQL's `cost_index` adds around that estimate for an index
/// path on a YugabyteDB table, which has no pages: the Mackert–Lohman guess
/// of the table pages fetched comes to one, at `random_page_cost`, shared
/// among `loops` repeated scans of a nested loop's inner side; and each row
/// fetched costs `cpu_tuple_cost` plus the conditions the index does not
/// check (`qpquals`, per row). So a primary-key lookup costs 0.1 + 4 + 0.01.
pub fn index_extras(r: &Read, tuples: f64, qpquals: f64, loops: f64, p: &CostParams) -> f64 {
    let costed = if r.partial {
        r.selectivity * PARTIAL_INDEX
    } else {
        r.selectivity
    };
    let fetched = super::super::statistics::clamp_rows(costed * tuples);
    p.random_page_cost / loops.max(1.0) + (p.cpu_tuple_cost + qpquals) * fetched
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(bound: &[usize], hash_columns: usize, key_columns: usize, unique: bool) -> KeyUse {
        KeyUse {
            bound: bound.to_vec(),
            hash_columns,
            key_columns,
            unique,
        }
    }

    #[test]
    fn the_selectivity_follows_the_bound_key_columns() {
        // A hash key with no equality: a full scan.
        assert_eq!(index_selectivity(&key(&[], 1, 1, true), 1000.0), 1.0);
        assert_eq!(index_selectivity(&key(&[1], 1, 2, false), 1000.0), 1.0);
        // A whole unique key: one row.
        assert_eq!(
            index_selectivity(&key(&[0], 1, 1, true), 5000.0),
            1.0 / 5000.0
        );
        // A whole key of a non-unique index: ten rows in a thousand.
        assert_eq!(index_selectivity(&key(&[0], 1, 1, false), 1000.0), 0.01);
        // The hash columns, or a range key's first column: a hundred in a thousand.
        assert_eq!(index_selectivity(&key(&[0], 1, 2, false), 1000.0), 0.1);
        assert_eq!(index_selectivity(&key(&[0], 0, 2, false), 1000.0), 0.1);
    }

    #[test]
    fn cost_index_adds_one_page_and_each_row_fetched() {
        let p = CostParams::default();
        // `Index Scan using t_pkey (cost=0.00..4.11 rows=1)` for `id = 999`.
        let lookup = Read {
            selectivity: index_selectivity(&key(&[0], 1, 1, true), 1000.0),
            backward: false,
            uncovered: false,
            partial: false,
        };
        let heuristic = scan(&lookup, 1000.0, 0.0, &p).total;
        let once = heuristic + index_extras(&lookup, 1000.0, 0.0, 1.0, &p);
        assert!((once - 4.11).abs() < 1e-9, "{once}");
        // Inside a nested loop of 1 000 outer rows the page is shared:
        // `(cost=0.00..0.11 rows=1)`.
        let per_loop = heuristic + index_extras(&lookup, 1000.0, 0.0, 1000.0, &p);
        assert!((per_loop - 0.114).abs() < 1e-9, "{per_loop}");
    }

    #[test]
    fn an_uncovered_or_backward_read_costs_a_tenth_more() {
        let p = CostParams::default();
        let read = |backward, uncovered| Read {
            selectivity: 0.1,
            backward,
            uncovered,
            partial: false,
        };
        let covered = scan(&read(false, false), 1000.0, 0.0, &p);
        assert!((covered.total - 10.0).abs() < 1e-9);
        assert_eq!(covered.rows, 100.0);
        assert!((scan(&read(false, true), 1000.0, 0.0, &p).total - 11.0).abs() < 1e-9);
        assert!((scan(&read(true, true), 1000.0, 0.0, &p).total - 12.1).abs() < 1e-9);
        // A full scan with one condition: (0.1 + 0.0025) a row.
        let seq = Read {
            selectivity: 1.0,
            backward: false,
            uncovered: false,
            partial: false,
        };
        assert!((scan(&seq, 1000.0, 0.0025, &p).total - 102.5).abs() < 1e-9);
    }
}
