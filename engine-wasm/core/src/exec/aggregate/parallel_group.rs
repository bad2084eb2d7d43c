//! A GROUP BY computed in parts (pg), as PostgreSQL plans it on a big table
//! (`create_partial_grouping_paths`, `gather_grouping_paths`,
//! `add_paths_to_grouping_rel`): each process of a parallel scan groups its
//! share of the rows into partial groups (a Partial HashAggregate, or a
//! Partial GroupAggregate over its rows sorted), only those partial groups
//! cross to the leader, through a Gather or, sorted by the group key, a
//! Gather Merge, and the leader combines each group's parts (a Finalize
//! HashAggregate, or a Finalize GroupAggregate over rows in group order).
//!
//! The shapes are weighed as `add_path` weighs them: a shape that costs
//! within 1 % of another and gives its rows in group order drops the other.
//! That is why ten groups end in `Finalize GroupAggregate → Gather Merge →
//! Sort → Partial HashAggregate`: sorting ten partial groups costs nothing,
//! and the order is kept for free.
//!
//! IndexLab runs the scan once and groups every row once (the answer is the
//! same); EXPLAIN ANALYZE's per-process figures come from sharing the rows
//! out as the scan does, a chunk of pages to each process in turn.

use super::super::plan_node::{rows_per_loop, PlanNode};
use super::accumulate::GroupKey;
use super::GroupPlan;
use crate::sql::ast::{Order, Select};
use crate::sql::deparse::deparse;
use crate::sql::error::SqlError;
use crate::sql::plan::add_path::survivors;
use crate::sql::plan::cost::aggregate::{self, Agg, Strategy};
use crate::sql::plan::cost::{sort, Cost, CostParams};
use crate::sql::plan::grouping::{after_having, finish, num_groups, Grouping, GroupingChoice};
use crate::sql::plan::selectivity::Estimator;
use crate::sql::plan::why::{self, Considered};
use crate::sql::plan::{parallel, plan_partial_scan, ScanPlan, TableInfo};
use crate::value::Value;
use std::collections::HashSet;

/// One node of the plan above the parallel scan, top down.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Layer {
    /// The leader's Agg: each group's partial states combined, then the
    /// final functions (`avg`'s division).
    Finalize(Strategy),
    /// A Sort: in the leader above a Gather, or in each process.
    Sort(Cost),
    Gather(Cost),
    GatherMerge(Cost),
    /// Each process's Agg over its share of the rows, no final function.
    Partial(Strategy, Cost),
}

/// The chosen parallel grouping.
#[derive(Debug, Clone)]
pub struct ParallelGroup {
    /// The partial scan, with its Gather's estimate.
    pub read: ScanPlan,
    /// Top down, the Finalize first.
    pub layers: Vec<Layer>,
    /// The Finalize's strategy and cost, its Sort for the ORDER BY, and its
    /// finished total.
    pub choice: GroupingChoice,
    /// `width=` of a partial group row: the keys and each partial state.
    pub partial_width: f64,
    pub table_pages: f64,
}

/// What the parallel shapes are costed from.
pub struct Inputs<'a> {
    pub info: &'a TableInfo,
    /// The rows to group, read without order.
    pub input: &'a Select,
    pub grouping: &'a Grouping,
    pub est: &'a Estimator<'a>,
    pub keys: &'a [usize],
    pub partial_width: f64,
    /// The WHERE fixes every group key: any rows are in group order, so a
    /// partial GroupAggregate needs no Sort and a Gather keeps the order.
    pub keys_fixed: bool,
}

/// A shape being weighed: its layers and the Finalize's cost.
struct Shape {
    layers: Vec<Layer>,
    agg: Cost,
    strategy: Strategy,
}

/// The cheapest parallel grouping of `i`, or None when the table is too
/// small for a worker.
pub fn plan(i: &Inputs, p: &CostParams) -> Result<Option<ParallelGroup>, SqlError> {
    let Some(read) = plan_partial_scan(i.info, i.input)? else {
        return Ok(None);
    };
    let c = read.cost.expect("a partial scan is costed");
    let workers = c.gather.expect("a partial scan has its Gather").workers;
    let g = i.grouping;
    let size = i.info.stats.as_ref().map(|s| s.relation.estimate());
    let tuples = size.as_ref().map_or(c.scan.rows, |s| s.tuples);
    // `estimate_num_groups` thins the distinct values by the rows the WHERE
    // keeps in the whole table, then caps them at one process's rows.
    let kept = c.gather.map_or(c.scan.rows, |g| g.cost.rows);
    let partial_groups = num_groups(i.est, i.keys, tuples, kept).min(c.scan.rows);
    let sent = partial_groups * f64::from(workers);

    // Each process's partial paths (`add_partial_path`): hashing its rows,
    // or grouping them sorted.
    let hashed = partial(g, Strategy::Hashed, c.scan, partial_groups, p);
    let (sorted, sorted_layers) = if i.keys_fixed {
        let sorted = partial(g, Strategy::Sorted, c.scan, partial_groups, p);
        (sorted, vec![Layer::Partial(Strategy::Sorted, sorted)])
    } else {
        let below = sort::cost(&c.scan, g.input_width, None, p);
        let sorted = partial(g, Strategy::Sorted, below, partial_groups, p);
        (
            sorted,
            vec![Layer::Partial(Strategy::Sorted, sorted), Layer::Sort(below)],
        )
    };
    let mut partials = vec![
        (
            vec![Layer::Partial(Strategy::Hashed, hashed)],
            hashed,
            i.keys_fixed,
        ),
        (sorted_layers, sorted, true),
    ];
    keep(&mut partials, false);
    let cheapest = cheapest_of(&partials);

    // Gathered (`gather_grouping_paths`): the cheapest under a Gather, each
    // sorted one under a Gather Merge, the cheapest sorted under one too.
    let (layers, cost, in_order) = &partials[cheapest];
    let gather = parallel::gather(cost, sent, p);
    let mut gathered = vec![gathered_by(layers, gather, false, i.keys_fixed)];
    for (layers, cost, in_order) in &partials {
        if *in_order && !i.keys_fixed {
            let merge = parallel::gather_merge(cost, sent, workers, p);
            gathered.push(gathered_by(layers, merge, true, true));
        }
    }
    if !in_order {
        let sorted = sort::cost(cost, i.partial_width, None, p);
        let merge = parallel::gather_merge(&sorted, sent, workers, p);
        let mut below = vec![Layer::Sort(sorted)];
        below.extend(layers.iter().copied());
        gathered.push(gathered_by(&below, merge, true, true));
    }
    keep(&mut gathered, g.limit.is_some());
    let cheapest = cheapest_of(&gathered);

    // The leader's Finalize over each (`add_paths_to_grouping_rel`).
    let mut shapes = Vec::new();
    for (n, (layers, cost, in_order)) in gathered.iter().enumerate() {
        if *in_order {
            shapes.push(finalize(g, Strategy::Sorted, layers, *cost, p));
        } else if n == cheapest {
            let sorted = sort::cost(cost, i.partial_width, None, p);
            let mut below = vec![Layer::Sort(sorted)];
            below.extend(layers.iter().copied());
            shapes.push(finalize(g, Strategy::Sorted, &below, sorted, p));
        }
    }
    let (layers, cost, _) = &gathered[cheapest];
    shapes.push(finalize(g, Strategy::Hashed, layers, *cost, p));
    let weighed: Vec<(Cost, bool)> = shapes
        .iter()
        .map(|s| (s.agg, s.strategy == Strategy::Sorted))
        .collect();
    let survived = survivors(&weighed, g.limit.is_some());
    let kept: Vec<Shape> = shapes
        .into_iter()
        .enumerate()
        .filter(|(n, _)| survived.contains(n))
        .map(|(_, shape)| shape)
        .collect();
    let choices: Vec<GroupingChoice> = kept
        .iter()
        .map(|s| GroupingChoice {
            strategy: s.strategy,
            agg: s.agg,
            sort: None,
            finished: 0.0,
            other: None,
        })
        .collect();
    let (best, choice) = finish(&choices, g, p);
    Ok(Some(ParallelGroup {
        read,
        layers: kept[best].layers.clone(),
        choice,
        partial_width: i.partial_width,
        table_pages: size.map_or(1.0, |s| s.pages),
    }))
}

/// A path under way: its layers top down, its cost, whether its rows come
/// in group order.
type Partial = (Vec<Layer>, Cost, bool);

/// Drops the paths another dominates (`add_path`).
fn keep(paths: &mut Vec<Partial>, startup_counts: bool) {
    let weighed: Vec<(Cost, bool)> = paths.iter().map(|(_, c, o)| (*c, *o)).collect();
    let survived = survivors(&weighed, startup_counts);
    let all = std::mem::take(paths);
    paths.extend(
        all.into_iter()
            .enumerate()
            .filter(|(n, _)| survived.contains(n))
            .map(|(_, path)| path),
    );
}

/// The place of the cheapest in total (the first of equals).
fn cheapest_of(paths: &[Partial]) -> usize {
    let mut best = 0;
    for (n, (_, c, _)) in paths.iter().enumerate() {
        if c.total < paths[best].1.total {
            best = n;
        }
    }
    best
}

/// `below` under a Gather (or a Gather Merge), whose rows come in group
/// order when `in_order`.
fn gathered_by(below: &[Layer], cost: Cost, merge: bool, in_order: bool) -> Partial {
    let node = if merge {
        Layer::GatherMerge(cost)
    } else {
        Layer::Gather(cost)
    };
    let mut layers = vec![node];
    layers.extend(below.iter().copied());
    (layers, cost, in_order)
}

/// One process's Agg (a Group node without aggregates, when sorted):
/// transition functions over its rows, and a serialize function per
/// `internal` state instead of the final functions.
fn partial(g: &Grouping, strategy: Strategy, input: Cost, groups: f64, p: &CostParams) -> Cost {
    let a = &g.aggregates;
    if strategy == Strategy::Sorted && !g.has_aggregates {
        return aggregate::group(&input, g.group_columns, groups, 0.0, p);
    }
    aggregate::cost(
        &Agg {
            strategy,
            input,
            input_width: g.input_width,
            trans_per_row: a.trans_per_row,
            final_per_group: p.cpu_operator_cost * a.serialized,
            states: a.states,
            state_bytes: a.state_bytes,
            group_columns: g.group_columns,
            groups,
            having_per_group: 0.0,
        },
        p,
    )
}

/// The leader's Agg over `below` (whose cost is `input`): a combine (and a
/// deserialize per `internal` state) for each partial group, the final
/// functions and the HAVING for each group.
fn finalize(
    g: &Grouping,
    strategy: Strategy,
    below: &[Layer],
    input: Cost,
    p: &CostParams,
) -> Shape {
    let a = &g.aggregates;
    let agg = after_having(
        g,
        if strategy == Strategy::Sorted && !g.has_aggregates {
            aggregate::group(&input, g.group_columns, g.groups, g.having_per_group, p)
        } else {
            aggregate::cost(
                &Agg {
                    strategy,
                    input,
                    input_width: g.output_width,
                    trans_per_row: p.cpu_operator_cost * (a.states + a.serialized),
                    final_per_group: a.final_per_group,
                    states: a.states,
                    state_bytes: a.state_bytes,
                    group_columns: g.group_columns,
                    groups: g.groups,
                    having_per_group: g.having_per_group,
                },
                p,
            )
        },
    );
    let mut layers = vec![Layer::Finalize(strategy)];
    layers.extend(below.iter().copied());
    Shape {
        layers,
        agg,
        strategy,
    }
}

impl ParallelGroup {
    pub fn workers(&self) -> u32 {
        self.read
            .cost
            .and_then(|c| c.gather)
            .map_or(0, |g| g.workers)
    }

    /// The Finalize's title.
    pub fn title(&self, has_aggregates: bool) -> &'static str {
        match (self.choice.strategy, has_aggregates) {
            (Strategy::Hashed, _) => "Finalize HashAggregate",
            (_, true) => "Finalize GroupAggregate",
            (_, false) => "Group",
        }
    }

    /// Why grouping in parts won, against one process's `serial` plan.
    pub fn why(&self, table: &str, has_aggregates: bool, serial: Considered) -> String {
        let w = self.workers();
        let scan = self.read.cost.map(|c| c.scan);
        let rows = scan.map_or(0.0, |c| c.rows);
        let mut partial = None;
        let mut merge = false;
        let mut sorted_in_process = false;
        let mut sorted_by_leader = false;
        let mut seen_gather = false;
        for l in &self.layers {
            match l {
                Layer::Partial(s, c) => partial = Some((*s, c.rows)),
                Layer::GatherMerge(_) => (merge, seen_gather) = (true, true),
                Layer::Gather(_) => seen_gather = true,
                Layer::Sort(_) if seen_gather => sorted_in_process = true,
                Layer::Sort(_) => sorted_by_leader = true,
                Layer::Finalize(_) => {}
            }
        }
        let sorts_rows = matches!(self.layers.last(), Some(Layer::Sort(_)));
        let (how, groups) = match partial {
            Some((Strategy::Hashed, g)) => ("in a hash table", g),
            Some((_, g)) if sorts_rows => ("after sorting them", g),
            Some((_, g)) => ("as they come, already in group order,", g),
            None => ("", 0.0),
        };
        let sent = groups * f64::from(w);
        let crossing = match (merge, sorted_in_process) {
            (true, true) => format!(
                "each sorts its partial groups by the key, and a Gather Merge merges the about \
                 {} that cross to the leader in order",
                why::whole(sent)
            ),
            (true, false) => format!(
                "a Gather Merge merges the about {} partial groups that cross to the leader in \
                 order",
                why::whole(sent)
            ),
            _ => format!(
                "a Gather collects the about {} partial groups",
                why::whole(sent)
            ),
        };
        let leader = match (self.choice.strategy, sorted_by_leader) {
            (Strategy::Hashed, _) => "the leader combines each group's parts in a hash table",
            (_, true) => "the leader sorts them and combines each group's parts in turn",
            _ => "the leader combines each group's parts as they stream in",
        };
        format!(
            "{}: the leader and {w} worker{} each read a share of {table}'s pages and group their \
             about {} rows {how} into about {} partial groups; {crossing}, and {leader}; only \
             partial groups cross between processes, cheaper than one process grouping every \
             row {}.",
            self.title(has_aggregates),
            if w == 1 { "" } else { "s" },
            why::whole(rows),
            why::whole(groups),
            why::costs(self.choice.finished, &[serial]),
        )
    }

    /// The plan tree above the parallel scan, from the Gather the scan ran
    /// under (without the Finalize, which the caller builds): `rows` are
    /// the scan's rows, their first values the group key, for the
    /// per-process figures.
    pub fn restack(&self, mut gather: PlanNode, rows: &[Vec<Value>], plan: &GroupPlan) -> PlanNode {
        let scan = gather.children.remove(0);
        let processes = scan.loops.max(1) as usize;
        let share = shares(rows.len(), self.table_pages, processes);
        let mut rows_in = vec![0u64; processes];
        let mut keys = vec![HashSet::new(); processes];
        for (row, &s) in rows.iter().zip(&share) {
            rows_in[s] += 1;
            if let Ok(k) = GroupKey::checked(&row[..plan.keys.len()]) {
                keys[s].insert(k);
            }
        }
        let groups: Vec<u64> = keys.iter().map(|k| k.len() as u64).collect();
        let key_list: Vec<String> = plan.keys.iter().map(deparse).collect();
        let sort_key = format!("Sort Key: {}", key_list.join(", "));
        let width = self.partial_width.round() as u32;
        // Bottom up, each layer below the Finalize over the scan: first
        // what every process runs over its rows, then its partial groups,
        // then, past the Gather, the leader.
        let mut stage = Stage::Rows;
        let mut node = scan;
        for layer in self.layers.iter().skip(1).rev() {
            node = match (*layer, stage) {
                (Layer::Partial(strategy, cost), _) => {
                    stage = Stage::Groups;
                    let title = match (strategy, plan.aggregates.is_empty()) {
                        (Strategy::Hashed, _) => "Partial HashAggregate",
                        (_, false) => "Partial GroupAggregate",
                        (_, true) => "Group",
                    };
                    let details = vec![format!("Group Key: {}", key_list.join(", "))];
                    let per = rows_per_loop(groups.iter().sum(), processes as u64);
                    above(title, details, per, node, cost, width)
                }
                (Layer::Sort(cost), Stage::Rows | Stage::Groups) => {
                    let counts = if stage == Stage::Rows {
                        &rows_in
                    } else {
                        &groups
                    };
                    let w = node.width;
                    let mut details = vec![sort_key.clone()];
                    details.extend(sort_methods(counts, w));
                    let per = rows_per_loop(counts.iter().sum(), processes as u64);
                    above("Sort", details, per, node, cost, w)
                }
                (Layer::Sort(cost), Stage::Leader) => {
                    let sent = node.rows;
                    let details = vec![sort_key.clone(), sort_methods(&[sent], width).remove(0)];
                    above("Sort", details, sent, node, cost, width)
                }
                (Layer::Gather(cost) | Layer::GatherMerge(cost), _) => {
                    stage = Stage::Leader;
                    let title = match layer {
                        Layer::Gather(_) => "Gather",
                        _ => "Gather Merge",
                    };
                    let details = gather.details.clone();
                    let mut g = above(title, details, groups.iter().sum(), node, cost, width);
                    g.loops = 1;
                    g
                }
                (Layer::Finalize(_), _) => node,
            };
        }
        node
    }
}

/// Where a layer runs, bottom up.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Stage {
    /// In each process, over its rows.
    Rows,
    /// In each process, over its partial groups.
    Groups,
    /// In the leader, past the Gather.
    Leader,
}

/// A node over `child` with the estimate `cost`: it takes its child's rows
/// whole, so its time is the child's end, its buffers the child's.
fn above(
    title: &str,
    details: Vec<String>,
    rows: u64,
    child: PlanNode,
    cost: Cost,
    width: u32,
) -> PlanNode {
    PlanNode {
        title: title.into(),
        details,
        rows,
        loops: child.loops,
        first_us: child.last_us,
        last_us: child.last_us,
        buffers: child.buffers,
        est_cost: (cost.startup, cost.total),
        est_rows: cost.rows,
        costed: true,
        width,
        children: vec![child],
        ..PlanNode::default()
    }
}

/// The Sort Method lines of a Sort each process ran over `counts` rows of
/// `width` bytes: the leader's, then one per worker.
fn sort_methods(counts: &[u64], width: u32) -> Vec<String> {
    let kb = |n: u64| (n * u64::from(width + 24)).div_ceil(1024).max(25);
    counts
        .iter()
        .enumerate()
        .map(|(n, &c)| match n {
            0 => format!("Sort Method: quicksort  Memory: {}kB", kb(c)),
            _ => format!(
                "Worker {}:  Sort Method: quicksort  Memory: {}kB",
                n - 1,
                kb(c)
            ),
        })
        .collect()
}

/// Which process reads each of `rows` rows spread evenly over `pages`
/// pages: the parallel scan hands out chunks of pages
/// (`table_block_parallelscan_startblock_init`: a power of two near the
/// table's 1/2048th, at most 8192 pages), here to each process in turn.
fn shares(rows: usize, pages: f64, processes: usize) -> Vec<usize> {
    let pages = pages.max(1.0);
    let chunk = ((pages / 2048.0).max(1.0) as u64)
        .next_power_of_two()
        .min(8192) as f64;
    (0..rows)
        .map(|r| {
            let page = (r as f64 * pages / rows as f64).floor();
            ((page / chunk).floor() as usize) % processes
        })
        .collect()
}

/// The rows' order a Finalize GroupAggregate hands its groups up in: by
/// the group key, ascending.
pub fn in_key_order(groups: &mut [Vec<Value>], keys: usize) {
    groups.sort_by(|a, b| {
        (0..keys)
            .map(|k| super::super::select::sql_order(&a[k], &b[k], Order::Asc, false))
            .find(|c| c.is_ne())
            .unwrap_or(std::cmp::Ordering::Equal)
    });
}
