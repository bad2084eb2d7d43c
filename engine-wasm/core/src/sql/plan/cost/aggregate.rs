//! `cost_agg`: the three ways PostgreSQL's Agg node groups rows.
//!
//! - **Plain** (no GROUP BY): every row folds into one state; one row out.
//! - **Sorted** (GroupAggregate): the rows arrive in group order, so a group
//!   is finished the moment the key changes; rows flow out as they come,
//!   and the price is the order (an index read in order, or a Sort below).
//! - **Hashed** (HashAggregate): a hash table holds every group's state
//!   until the input ends, so nothing comes out before the last row is read;
//!   past `work_mem × hash_mem_multiplier` it spills batches to disk.
//!
//! Which is cheaper depends on whether the input is already in order and
//! how many groups there are: that is the choice `grouping.rs` makes.

use super::{hash_join::memory_limit, Cost, CostParams, DISABLE_COST};

/// How the Agg node groups.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Strategy {
    Plain,
    Sorted,
    Hashed,
}

/// What an Agg node's cost depends on.
#[derive(Debug, Clone, Copy)]
pub struct Agg {
    pub strategy: Strategy,
    /// The input path's cost and rows.
    pub input: Cost,
    /// Bytes of each input row (`width=` of the node below).
    pub input_width: f64,
    /// Per input row: each aggregate's transition function, its arguments
    /// and FILTER (`get_agg_clause_costs`' transCost).
    pub trans_per_row: f64,
    /// Per group: each aggregate's final function (`avg`'s division).
    pub final_per_group: f64,
    /// Transition states (one per distinct aggregate).
    pub states: f64,
    /// Bytes of by-reference transition states per group (`transitionSpace`).
    pub state_bytes: f64,
    pub group_columns: f64,
    /// `estimate_num_groups` of the keys.
    pub groups: f64,
    /// Per output row: the HAVING condition.
    pub having_per_group: f64,
}

/// `cost_agg`.
pub fn cost(a: &Agg, p: &CostParams) -> Cost {
    let rows = a.input.rows;
    let compare = p.cpu_operator_cost * a.group_columns * rows;
    let (mut startup, mut total, out) = match a.strategy {
        Strategy::Plain => {
            let s = a.input.total + a.trans_per_row * rows + a.final_per_group;
            (s, s + p.cpu_tuple_cost, 1.0)
        }
        Strategy::Sorted => {
            // Rows come out as groups end: no startup beyond the input's.
            let t = a.input.total
                + a.trans_per_row * rows
                + compare
                + a.final_per_group * a.groups
                + p.cpu_tuple_cost * a.groups;
            (a.input.startup, t, a.groups)
        }
        Strategy::Hashed => {
            let mut s = a.input.total + a.trans_per_row * rows + compare;
            if !p.enable_hashagg {
                s += DISABLE_COST;
            }
            let t = s + a.final_per_group * a.groups + p.cpu_tuple_cost * a.groups;
            (s, t, a.groups)
        }
    };
    if a.strategy == Strategy::Hashed {
        let (written, read, cpu) = spill(a, p);
        startup += written * p.random_page_cost + cpu;
        total += written * p.random_page_cost + read * p.seq_page_cost + cpu;
    }
    total += a.having_per_group * out;
    Cost {
        startup,
        total,
        rows: out,
    }
}

/// `cost_group`: a Group node (GROUP BY without aggregates) over rows in
/// group order compares each row's keys with the last and passes group rows on.
pub fn group(input: &Cost, group_columns: f64, groups: f64, having: f64, p: &CostParams) -> Cost {
    Cost {
        startup: input.startup,
        total: input.total + p.cpu_operator_cost * input.rows * group_columns + having * groups,
        rows: groups,
    }
}

/// A hash table entry's bytes (`hash_agg_entry_size`): the entry, the key
/// row as a minimal tuple, the per-group states, each in its own chunk.
fn entry_bytes(a: &Agg) -> f64 {
    const CHUNK_HEADER: f64 = 16.0;
    const ENTRY: f64 = 24.0;
    const MINIMAL_TUPLE_HEADER: f64 = 16.0;
    const PER_GROUP_STATE: f64 = 16.0;
    let tuple = CHUNK_HEADER + MINIMAL_TUPLE_HEADER + a.input_width;
    let states = if a.states > 0.0 {
        CHUNK_HEADER + PER_GROUP_STATE * a.states
    } else {
        0.0
    };
    let space = if a.state_bytes > 0.0 {
        CHUNK_HEADER + a.state_bytes
    } else {
        0.0
    };
    ENTRY + tuple + states + space
}

/// The pages a HashAggregate that outgrows memory writes and reads back, and
/// the CPU of doing so (`hash_agg_set_limits`, the spill part of `cost_agg`).
fn spill(a: &Agg, p: &CostParams) -> (f64, f64, f64) {
    const BUFFER: f64 = 8192.0;
    let entry = entry_bytes(a);
    let hash_mem = memory_limit(p);
    let (mem_limit, partitions) = if a.groups * entry <= hash_mem {
        (hash_mem, 0.0)
    } else {
        let limit = (hash_mem * 0.25 - BUFFER) / BUFFER;
        let wanted = 1.5 * a.groups * entry;
        let n = (1.0 + wanted / hash_mem)
            .min(limit)
            .clamp(4.0, 1024.0)
            .floor();
        let partitions = 2f64.powf(n.log2().ceil());
        let partition_mem = BUFFER + BUFFER * partitions;
        let mem = if hash_mem > 4.0 * partition_mem {
            hash_mem - partition_mem
        } else {
            hash_mem * 0.75
        };
        (mem, partitions)
    };
    let groups_limit = if mem_limit > entry {
        (mem_limit / entry).floor()
    } else {
        1.0
    };
    let batches = (a.groups * entry / mem_limit)
        .max(a.groups / groups_limit)
        .ceil()
        .max(1.0);
    let partitions = partitions.max(2.0);
    let depth = (batches.ln() / partitions.ln()).ceil();
    if depth <= 0.0 {
        return (0.0, 0.0, 0.0);
    }
    let pages = a.input.rows * (align8(a.input_width) + 24.0) / BUFFER * depth;
    // HashAgg's I/O is rated worse than a sort's: both counts doubled.
    (
        pages * 2.0,
        pages * 2.0,
        depth * a.input.rows * 2.0 * p.cpu_tuple_cost,
    )
}

fn align8(x: f64) -> f64 {
    (x / 8.0).ceil() * 8.0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn agg(strategy: Strategy, groups: f64) -> Agg {
        Agg {
            strategy,
            input: Cost {
                startup: 0.0,
                total: 145.0,
                rows: 10_000.0,
            },
            input_width: 4.0,
            trans_per_row: 0.0025,
            final_per_group: 0.0,
            states: 1.0,
            state_bytes: 0.0,
            group_columns: 1.0,
            groups,
            having_per_group: 0.0,
        }
    }

    #[test]
    fn count_star_over_ten_thousand_rows() {
        // `select count(*) from t` on 10 000 rows in 45 pages: PostgreSQL
        // prints cost=170.00..170.01.
        let c = cost(&agg(Strategy::Plain, 1.0), &CostParams::default());
        assert!((c.startup - 170.0).abs() < 1e-9, "{c:?}");
        assert!((c.total - 170.01).abs() < 1e-9, "{c:?}");
    }

    #[test]
    fn a_hash_aggregate_starts_after_its_input_a_sorted_one_with_it() {
        let p = CostParams::default();
        let hashed = cost(&agg(Strategy::Hashed, 100.0), &p);
        let sorted = cost(&agg(Strategy::Sorted, 100.0), &p);
        assert!(hashed.startup >= 145.0);
        assert_eq!(sorted.startup, 0.0);
        // The same work once the input is in order: equal totals.
        assert!((hashed.total - sorted.total).abs() < 1e-9);
    }

    #[test]
    fn too_many_groups_for_memory_spill_to_disk() {
        let p = CostParams::default();
        let mut big = agg(Strategy::Hashed, 1e6);
        big.input.rows = 1e6;
        let (written, read, _) = spill(&big, &p);
        assert!(written > 0.0 && read == written);
        assert_eq!(spill(&agg(Strategy::Hashed, 100.0), &p), (0.0, 0.0, 0.0));
    }
}
