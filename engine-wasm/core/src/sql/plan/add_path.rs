//! `add_path`'s rule for keeping a path (`pathnode.c`): a path survives
//! unless another gives rows in an order at least as useful and costs
//! fuzzily no more. Costs within 1 % of each other count as the same
//! (`compare_path_costs_fuzzily`), and then the one that returns its first
//! row sooner, or the one in a useful order, wins. So PostgreSQL may keep a
//! plan a little dearer in total: it starts sooner, or its order is free.

use super::cost::Cost;

/// PostgreSQL's fuzz: costs within 1 % of each other are the same.
const FUZZ: f64 = 1.01;

/// `add_path` over finished paths, each with whether its rows come out in
/// the order wanted (group order, the ORDER BY): the places of those no other path dominates. One
/// dominates another when its order is at least as useful and it costs
/// fuzzily no more (`compare_path_costs_fuzzily`: within 1 % counts as the
/// same, and then the sooner start, or the order, decides).
pub fn survivors(paths: &[(Cost, bool)], startup_counts: bool) -> Vec<usize> {
    let dominates = |(a, a_sorted): (Cost, bool), (b, b_sorted): (Cost, bool), earlier: bool| {
        if b_sorted && !a_sorted {
            return false;
        }
        match compare_fuzzily(&a, &b, FUZZ, startup_counts) {
            Costs::Better1 => true,
            Costs::Equal if a_sorted != b_sorted => true,
            Costs::Equal => a.total < b.total || (a.total == b.total && earlier),
            Costs::Better2 | Costs::Different => false,
        }
    };
    (0..paths.len())
        .filter(|&i| !(0..paths.len()).any(|j| j != i && dominates(paths[j], paths[i], j < i)))
        .collect()
}

/// How two paths' costs compare, with PostgreSQL's 1 % of fuzz
/// (`compare_path_costs_fuzzily`).
#[derive(Debug, PartialEq)]
pub enum Costs {
    /// The first path is fuzzily cheaper.
    Better1,
    /// The second is.
    Better2,
    Equal,
    Different,
}

pub fn compare_fuzzily(a: &Cost, b: &Cost, fuzz: f64, startup_counts: bool) -> Costs {
    if a.total > b.total * fuzz {
        if startup_counts && b.startup > a.startup * fuzz {
            return Costs::Different;
        }
        return Costs::Better2;
    }
    if b.total > a.total * fuzz {
        if startup_counts && a.startup > b.startup * fuzz {
            return Costs::Different;
        }
        return Costs::Better1;
    }
    if a.startup > b.startup * fuzz {
        Costs::Better2
    } else if b.startup > a.startup * fuzz {
        Costs::Better1
    } else {
        Costs::Equal
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cost(startup: f64, total: f64) -> (Cost, bool) {
        (
            Cost {
                startup,
                total,
                rows: 1.0,
            },
            true,
        )
    }

    #[test]
    fn within_one_percent_the_sooner_start_wins() {
        // A Limit over a Sort (10.63, starts at 10.38) against a Limit over
        // an index read in order (10.68, starts at 0.14): PostgreSQL 15
        // keeps the index.
        let paths = [cost(10.38, 10.63), cost(0.14, 10.68)];
        assert_eq!(survivors(&paths, true), [1]);
    }

    #[test]
    fn more_than_one_percent_dearer_loses_unless_its_start_counts() {
        let paths = [cost(10.0, 20.0), cost(0.1, 25.0)];
        assert_eq!(survivors(&paths, false), [0]);
        assert_eq!(survivors(&paths, true), [0, 1]);
    }

    #[test]
    fn an_order_kept_for_free_beats_an_equal_cost_without_it() {
        let sorted = cost(5.0, 12.0);
        let unsorted = (sorted.0, false);
        assert_eq!(survivors(&[unsorted, sorted], false), [1]);
    }
}
