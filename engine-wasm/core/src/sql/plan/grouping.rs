//! How PostgreSQL groups one table's rows: a GroupAggregate over the rows in
//! group order, or a HashAggregate over the cheapest read of them
//! (`add_paths_to_grouping_rel`), then a Sort if the ORDER BY wants another
//! order (`create_ordered_paths`), and the LIMIT's share.
//!
//! A GroupAggregate's output is already in group order and can stream out
//! under a LIMIT; a HashAggregate has to read every row first but needs no
//! order. With an index that gives the order cheaply, or few rows, sorted
//! wins; with many rows and a Seq Scan, hashing does.

use super::cost::aggregate::{self, Agg, Strategy};
use super::cost::memoize::distinct_among;
use super::cost::{sort, Cost, CostParams};
use super::selectivity::Estimator;
use super::statistics::clamp_rows;

/// What the Agg node's cost needs of the aggregates (`get_agg_clause_costs`).
#[derive(Debug, Clone, Copy, Default)]
pub struct AggregateCosts {
    pub trans_per_row: f64,
    pub final_per_group: f64,
    pub states: f64,
    pub state_bytes: f64,
    /// Aggregates whose state is `internal` (`sum(bigint)`, `avg(numeric)`):
    /// computed in parts, each partial state is serialized to cross to the
    /// leader and deserialized there, a function call each way.
    pub serialized: f64,
    /// An aggregate with DISTINCT or ORDER BY in its call: its rows must be
    /// sorted per group, which a hash table cannot do (PostgreSQL 15).
    pub ordered: bool,
}

/// One grouping query's inputs to the choice.
pub struct Grouping {
    /// The cheapest read of the input rows, in any order.
    pub unordered: Cost,
    /// The cheapest read of them in group order (a Sort included if needed).
    pub ordered: Cost,
    pub input_width: f64,
    pub aggregates: AggregateCosts,
    /// GROUP BY without aggregates sorts into a Group node, not an Agg.
    pub has_aggregates: bool,
    pub group_columns: f64,
    pub groups: f64,
    pub having_per_group: f64,
    /// The share of groups the HAVING keeps (`clauselist_selectivity` of
    /// it; 1 without one).
    pub having_selectivity: f64,
    /// Whether the ORDER BY is the group order (or a leading part of it).
    pub order_by_is_group_order: bool,
    pub has_order_by: bool,
    /// Bytes of each group row, for a Sort above.
    pub output_width: f64,
    pub limit: Option<f64>,
}

/// The plan chosen: the Agg's strategy and cost, and the Sort above it when
/// the ORDER BY needs one.
#[derive(Debug, Clone, Copy)]
pub struct GroupingChoice {
    pub strategy: Strategy,
    pub agg: Cost,
    pub sort: Option<Cost>,
    /// Its total once sorted and limited, and the other strategy's (None
    /// when it could not run the query).
    pub finished: f64,
    pub other: Option<f64>,
}

impl GroupingChoice {
    /// The top node's cost before any LIMIT.
    pub fn top(&self) -> Cost {
        self.sort.unwrap_or(self.agg)
    }
}

/// `estimate_num_groups` over columns of one table: each column's distinct
/// values, their product clamped (to a tenth of the table when several
/// columns, as they are probably correlated), thinned by the share of rows
/// the WHERE keeps, at most the input rows.
pub fn num_groups(est: &Estimator, columns: &[usize], tuples: f64, rows: f64) -> f64 {
    let mut product = 1.0;
    let mut most: f64 = 0.0;
    for &c in columns {
        let d = est.distinct_or_default(c).0;
        product *= d;
        most = most.max(d);
    }
    let mut clamp = tuples;
    if columns.len() > 1 {
        clamp *= 0.1;
        if clamp < most {
            clamp = most.min(tuples);
        }
    }
    let d = distinct_among(product.min(clamp), tuples, rows, f64::INFINITY);
    clamp_rows(d).ceil().min(rows).max(1.0)
}

/// The cheapest way to group, as the planner picks it.
pub fn choose(g: &Grouping, p: &CostParams) -> GroupingChoice {
    let agg = |strategy, input: Cost| {
        after_having(
            g,
            aggregate::cost(
                &Agg {
                    strategy,
                    input,
                    input_width: g.input_width,
                    trans_per_row: g.aggregates.trans_per_row,
                    final_per_group: g.aggregates.final_per_group,
                    states: g.aggregates.states,
                    state_bytes: g.aggregates.state_bytes,
                    group_columns: g.group_columns,
                    groups: g.groups,
                    having_per_group: g.having_per_group,
                },
                p,
            ),
        )
    };
    let sorted = if g.has_aggregates {
        agg(Strategy::Sorted, g.ordered)
    } else {
        let group = aggregate::group(&g.ordered, g.group_columns, g.groups, g.having_per_group, p);
        after_having(g, group)
    };
    // `add_path`: the sorted path's order keeps it; the hashed one stays only
    // when it is more than 1 % cheaper (or starts sooner under a LIMIT).
    let mut kept = vec![GroupingChoice {
        strategy: Strategy::Sorted,
        agg: sorted,
        sort: None,
        finished: 0.0,
        other: None,
    }];
    if !g.aggregates.ordered {
        let hashed = agg(Strategy::Hashed, g.unordered);
        if survives(&hashed, &sorted, g.limit.is_some()) {
            kept.push(GroupingChoice {
                strategy: Strategy::Hashed,
                agg: hashed,
                sort: None,
                finished: 0.0,
                other: None,
            });
        }
    }
    let limited = |c: &GroupingChoice| limited(c, g);
    let (_, mut best) = finish(&kept, g, p);
    // What the other strategy would have cost, finished the same way.
    best.other = match best.strategy {
        Strategy::Hashed => Some(sorted),
        _ if g.aggregates.ordered => None,
        _ => Some(agg(Strategy::Hashed, g.unordered)),
    }
    .map(|agg_cost| {
        let mut c = GroupingChoice {
            strategy: Strategy::Plain,
            agg: agg_cost,
            sort: None,
            finished: 0.0,
            other: None,
        };
        let in_order = best.strategy == Strategy::Hashed && g.order_by_is_group_order;
        if g.has_order_by && !in_order {
            c.sort = Some(sort::cost(&agg_cost, g.output_width, g.limit, p));
        }
        limited(&c)
    });
    best
}

/// Whether a path without order survives beside a sorted one (`add_path`
/// with `compare_path_costs_fuzzily`): only if fuzzily cheaper in total, or
/// cheaper to start when a LIMIT makes the start count.
fn survives(unsorted: &Cost, sorted: &Cost, startup_counts: bool) -> bool {
    const FUZZ: f64 = 1.01;
    if sorted.total > unsorted.total * FUZZ {
        return true;
    }
    if unsorted.total > sorted.total * FUZZ {
        return startup_counts && sorted.startup > unsorted.startup * FUZZ;
    }
    sorted.startup > unsorted.startup * FUZZ
}

/// An Agg's rows once its HAVING has dropped the groups it rejects
/// (`cost_agg` scales its output by the quals' selectivity).
pub fn after_having(g: &Grouping, agg: Cost) -> Cost {
    Cost {
        rows: clamp_rows(agg.rows * g.having_selectivity),
        ..agg
    }
}

/// `create_ordered_paths`, then the LIMIT, over the paths `add_path` kept:
/// under an ORDER BY, a path already in its order stays as it is and the
/// cheapest in total gets a Sort (the others drop out); the cheapest once
/// finished wins. Its place among `kept`, with its Sort and finished cost.
pub fn finish(kept: &[GroupingChoice], g: &Grouping, p: &CostParams) -> (usize, GroupingChoice) {
    let cheapest = kept
        .iter()
        .map(|c| c.agg.total)
        .fold(f64::INFINITY, f64::min);
    let mut finished: Vec<(usize, GroupingChoice)> = Vec::new();
    for (i, c) in kept.iter().enumerate() {
        let mut c = *c;
        let in_order = c.strategy == Strategy::Sorted && g.order_by_is_group_order;
        if g.has_order_by && !in_order {
            if c.agg.total != cheapest {
                continue;
            }
            c.sort = Some(sort::cost(&c.agg, g.output_width, g.limit, p));
        }
        c.finished = limited(&c, g);
        finished.push((i, c));
    }
    // The final `add_path`: every finished path gives the rows as wanted;
    // within 1 % in total the one that starts sooner stays.
    let weighed: Vec<(Cost, bool)> = finished
        .iter()
        .map(|(_, c)| (limited_cost(c, g), true))
        .collect();
    let survived = super::add_path::survivors(&weighed, g.limit.is_some());
    survived
        .into_iter()
        .map(|n| finished[n])
        .reduce(|best, c| {
            if c.1.finished < best.1.finished {
                c
            } else {
                best
            }
        })
        .expect("the cheapest path is always finished")
}

/// A path's total once the LIMIT takes its share.
fn limited(c: &GroupingChoice, g: &Grouping) -> f64 {
    limited_cost(c, g).total
}

/// A path's estimate once the LIMIT takes its share.
pub fn limited_cost(c: &GroupingChoice, g: &Grouping) -> Cost {
    g.limit.map_or(c.top(), |l| sort::limit(&c.top(), l))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grouping(unordered: f64, ordered: f64, rows: f64, groups: f64) -> Grouping {
        Grouping {
            unordered: Cost {
                startup: 0.0,
                total: unordered,
                rows,
            },
            ordered: Cost {
                startup: 0.3,
                total: ordered,
                rows,
            },
            input_width: 4.0,
            aggregates: AggregateCosts {
                trans_per_row: 0.0025,
                states: 1.0,
                ..AggregateCosts::default()
            },
            has_aggregates: true,
            group_columns: 1.0,
            groups,
            having_per_group: 0.0,
            having_selectivity: 1.0,
            order_by_is_group_order: false,
            has_order_by: false,
            output_width: 12.0,
            limit: None,
        }
    }

    #[test]
    fn an_input_already_in_order_groups_as_it_streams() {
        // An index read in order costs about the Seq Scan: no hash table.
        let c = choose(
            &grouping(145.0, 146.0, 10_000.0, 100.0),
            &CostParams::default(),
        );
        assert_eq!(c.strategy, Strategy::Sorted);
    }

    #[test]
    fn a_costly_order_makes_hashing_cheaper() {
        let c = choose(
            &grouping(145.0, 900.0, 10_000.0, 100.0),
            &CostParams::default(),
        );
        assert_eq!(c.strategy, Strategy::Hashed);
        assert!(c.sort.is_none());
    }

    #[test]
    fn an_order_by_of_the_group_key_needs_no_sort_above_a_group_aggregate() {
        let mut g = grouping(145.0, 146.0, 10_000.0, 100.0);
        g.has_order_by = true;
        g.order_by_is_group_order = true;
        let c = choose(&g, &CostParams::default());
        assert_eq!(c.strategy, Strategy::Sorted);
        assert!(c.sort.is_none());
        g.order_by_is_group_order = false;
        assert!(choose(&g, &CostParams::default()).sort.is_some());
    }

    #[test]
    fn ordered_aggregates_cannot_hash() {
        let mut g = grouping(145.0, 900.0, 10_000.0, 100.0);
        g.aggregates.ordered = true;
        assert_eq!(
            choose(&g, &CostParams::default()).strategy,
            Strategy::Sorted
        );
    }
}
