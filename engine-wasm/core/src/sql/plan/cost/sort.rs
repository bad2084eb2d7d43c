//! `cost_sort` and the LIMIT above it: an in-memory quicksort costs
//! `n log2 n` comparisons; below a LIMIT of k rows it keeps only the best k
//! in a heap (`top-N heapsort`, `n log2 2k`); past `work_mem` it sorts on
//! disk in runs and merges them.

use super::{Cost, CostParams, DISABLE_COST};

/// Bytes a sorted row takes in memory (`relation_byte_size`): its data and
/// a tuple header, each aligned to 8.
pub fn bytes(rows: f64, width: f64) -> f64 {
    rows * (align8(width) + 24.0)
}

fn align8(x: f64) -> f64 {
    (x / 8.0).ceil() * 8.0
}

/// Sorting `input`'s rows of `width` bytes; `limit` rows wanted at most.
pub fn cost(input: &Cost, width: f64, limit: Option<f64>, p: &CostParams) -> Cost {
    let tuples = input.rows.max(2.0);
    let compare = 2.0 * p.cpu_operator_cost;
    let mut startup = input.total;
    if !p.enable_sort {
        startup += DISABLE_COST;
    }
    let input_bytes = bytes(tuples, width);
    let bound = limit.filter(|l| *l > 0.0 && *l < tuples);
    let output_bytes = bound.map_or(input_bytes, |l| bytes(l, width));
    let memory = p.work_mem * 1024.0;
    if output_bytes > memory {
        // External merge: pages written and read once per merge pass.
        let pages = (input_bytes / 8192.0).ceil();
        let runs = input_bytes / memory;
        let order = (memory / (8192.0 * 32.0 + 8192.0))
            .floor()
            .clamp(6.0, 500.0);
        let passes = if runs > order {
            (runs.ln() / order.ln()).ceil()
        } else {
            1.0
        };
        startup += compare * tuples * tuples.log2();
        startup += 2.0 * pages * passes * (p.seq_page_cost * 0.75 + p.random_page_cost * 0.25);
    } else if let Some(l) = bound.filter(|l| tuples > 2.0 * l || input_bytes > memory) {
        startup += compare * tuples * (2.0 * l).log2();
    } else {
        startup += compare * tuples * tuples.log2();
    }
    Cost {
        startup,
        total: startup + p.cpu_operator_cost * tuples,
        rows: input.rows,
    }
}

/// A LIMIT of `count` rows over `input` (`adjust_limit_rows_costs`).
pub fn limit(input: &Cost, count: f64) -> Cost {
    let rows = count.min(input.rows);
    let total = if input.rows > 0.0 {
        input.startup + (input.total - input.startup) * rows / input.rows
    } else {
        input.total
    };
    Cost {
        startup: input.startup,
        total,
        rows: rows.max(1.0),
    }
}
