//! The choice, as PostgreSQL's planner makes it for one table: every way to
//! read it is costed (a Seq Scan; each usable index as an Index Scan or
//! Index Only Scan, forward or backward; one Bitmap Heap Scan over the
//! index or the AND of indexes [`super::bitmap_and`] picks), a Sort is
//! added where the ORDER BY needs one and a LIMIT takes its share, and the
//! cheapest wins (`add_path`, `create_ordered_paths`, `create_limit_path`).
//! A plain SELECT of a big table may also be read by parallel workers under
//! a Gather ([`super::parallel`]).

use super::add_path::{compare_fuzzily, Costs};
use super::bitmap_and;
use super::cost::{bitmap_scan, index_scan, seq_scan, sort, Cost};
use super::parallel::{self, Gather};
use super::selectivity::Estimator;
use super::statistics::{clamp_rows, SizeEstimate};
use super::why::{self, Considered};
use super::{AccessPath, BitmapArm, IndexCandidate, KeyCond, PlannerStats, ScanPlan, TableInfo};
use crate::sql::ast::{Expr, Select, SelectItem};
use crate::value::Value;

/// A chosen path's estimates, for EXPLAIN.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PlanCost {
    pub scan: Cost,
    /// The Bitmap Index Scan under a Bitmap Heap Scan.
    pub bitmap_index: Option<Cost>,
    /// The BitmapAnd over it and the scans ANDed with it.
    pub bitmap_and: Option<Cost>,
    /// Bytes of each row the scan returns (`width=`).
    pub width: f64,
    /// The Sort above the scan when the ORDER BY needs one.
    pub sort: Option<Cost>,
    /// The LIMIT's row count, when it is a constant.
    pub limit: Option<f64>,
    /// A Gather over the scan: `scan` is then one process's share of a
    /// Parallel Seq Scan.
    pub gather: Option<Gather>,
}

impl PlanCost {
    /// The estimate of the plan's top node below any LIMIT: the Sort, the
    /// Gather, or the scan itself.
    pub fn top(&self) -> Cost {
        self.sort
            .or(self.gather.map(|g| g.cost))
            .unwrap_or(self.scan)
    }
}

/// What one table's query gives the choice.
pub struct Query<'a> {
    pub table: &'a TableInfo,
    pub stats: &'a PlannerStats,
    pub select: &'a Select,
    /// The WHERE's conjuncts.
    pub parts: &'a [Expr],
    /// Its ORs whose every arm an index finds ([`super::bitmap_or`]).
    pub ors: &'a [super::bitmap_or::OrGroup],
    pub system_columns: bool,
    /// The query may be read in parallel ([`parallel::gatherable`], and
    /// asked for: only a statement's own top-level query is).
    pub parallel: bool,
}

/// One costed way to read the table.
struct Path {
    plan: ScanPlan,
    cost: PlanCost,
}

/// The cheapest plan for `q`.
pub fn cheapest(q: &Query, candidates: &[IndexCandidate]) -> ScanPlan {
    finalists(q, candidates)
        .into_iter()
        .reduce(|best, p| {
            if finished_total(&p) < finished_total(&best) {
                p
            } else {
                best
            }
        })
        .expect("a Seq Scan is always a finalist")
}

/// A finished plan's total under its LIMIT.
pub fn finished_total(p: &ScanPlan) -> f64 {
    finished_cost(p).total
}

/// A finished plan's estimate under its LIMIT.
pub fn finished_cost(p: &ScanPlan) -> Cost {
    let c = p.cost.expect("a finalist is costed");
    let top = c.top();
    c.limit.map_or(top, |l| sort::limit(&top, l))
}

/// Every plan the planner keeps for `q`, finished as the query needs it
/// (`add_path`, then `create_ordered_paths`): under an ORDER BY each path
/// already in its order and the cheapest in total under a Sort, else every
/// path kept. An upper node (a GroupAggregate under a LIMIT) may prefer one
/// that starts sooner to the cheapest.
pub fn finalists(q: &Query, candidates: &[IndexCandidate]) -> Vec<ScanPlan> {
    let (size, est, rows) = estimates(q);
    let width = scan_width(q);
    let mut paths = vec![seq_path(q, &size, rows, width)];
    // Newest index first: PostgreSQL lists a table's indexes that way
    // (`get_relation_info` conses each on the front), so between two
    // equally cheap indexes the one created last wins.
    for c in candidates.iter().rev() {
        if let Some(p) = index_path(q, c, &est, &size, rows, width, None) {
            paths.push(p);
        }
    }
    // One Bitmap Heap Scan, over the best index or group of indexes ANDed.
    let bitmap: Vec<&IndexCandidate> = candidates
        .iter()
        .rev()
        // An index with a condition, or a partial one whose predicate the
        // WHERE implies (its entries are a share of the rows, so a bitmap
        // of them all selects; `get_index_paths` keeps a path with
        // selectivity below 1 for bitmaps).
        .filter(|c| c.cond.is_some() || c.partial)
        .collect();
    paths.extend(bitmap_path(q, &bitmap, &est, &size, rows, width));
    for group in q.ors {
        paths.push(bitmap_or_path(q, group, &est, &size, rows, width));
    }
    // The select list's computed values (`lower(v)`), for every row out.
    let target_per_row = super::cost::qual_cost(&computed_targets(q.select), &q.stats.params);
    for p in &mut paths {
        p.cost.scan.total += target_per_row * rows;
    }
    if q.parallel {
        paths.extend(gather_path(q, &size, (rows, target_per_row), width));
        for c in candidates.iter().rev() {
            let parallel = Some((rows, target_per_row));
            paths.extend(index_path(q, c, &est, &size, rows, width, parallel));
        }
    }
    let limit = constant_limit(q.select);
    let considered: Vec<Considered> = paths
        .iter()
        .map(|p| Considered {
            name: path_name(q, p),
            cost: as_finished(q, p, width, limit),
        })
        .collect();
    let mut kept: Vec<Path> = Vec::new();
    for p in paths {
        add_path(&mut kept, p, limit.is_some(), !q.select.order_by.is_empty());
    }
    let mut finals: Vec<Path> = Vec::new();
    if !q.select.order_by.is_empty() {
        // The cheapest path in total, sorted; and every path already in order.
        let cheapest = (0..kept.len()).reduce(|a, b| {
            let (x, y) = (&kept[a].cost.scan, &kept[b].cost.scan);
            if (y.total, y.startup) < (x.total, x.startup) {
                b
            } else {
                a
            }
        });
        for (i, mut p) in kept.into_iter().enumerate() {
            if p.plan.ordered {
                finals.push(p);
            } else if Some(i) == cheapest {
                let s = sort::cost(&p.cost.scan, width, limit, &q.stats.params);
                p.cost.sort = Some(s);
                finals.push(p);
            }
        }
    } else {
        finals = kept;
    }
    let total = |p: &Path| {
        let top = p.cost.top();
        limit.map_or(top.total, |l| sort::limit(&top, l).total)
    };
    finals
        .into_iter()
        .map(|mut p| {
            p.cost.limit = limit;
            let why = reason(q, &p, &size, rows, total(&p), &considered);
            ScanPlan {
                cost: Some(p.cost),
                why: Some(why),
                ..p.plan
            }
        })
        .collect()
}

/// The Parallel Seq Scan an upper node may put under a Gather (an
/// aggregate computed in parts), whether or not a Gather straight over it
/// would be cheaper than reading the table alone: PostgreSQL keeps partial
/// paths apart (`partial_pathlist`), for the nodes above to use.
pub fn partial(q: &Query, candidates: &[IndexCandidate]) -> Option<ScanPlan> {
    let (size, est, rows) = estimates(q);
    let target = super::cost::qual_cost(&computed_targets(q.select), &q.stats.params);
    let width = scan_width(q);
    // The cheapest partial path in total (`add_partial_path`), newest index
    // first as for the other paths.
    let mut best = gather_path(q, &size, (rows, target), width);
    for c in candidates.iter().rev() {
        let parallel = Some((rows, target));
        let Some(p) = index_path(q, c, &est, &size, rows, width, parallel) else {
            continue;
        };
        if best
            .as_ref()
            .is_none_or(|b| p.cost.scan.total < b.cost.scan.total)
        {
            best = Some(p);
        }
    }
    let p = best?;
    Some(ScanPlan {
        cost: Some(p.cost),
        ..p.plan
    })
}

/// The table's size, the selectivity estimator over its statistics, and
/// the rows the WHERE keeps.
fn estimates<'a>(q: &Query<'a>) -> (SizeEstimate, Estimator<'a>, f64) {
    let size = q.stats.relation.estimate();
    let est = Estimator {
        table: q.table,
        stats: &q.stats.relation,
        tuples: size.tuples,
    };
    let rows = clamp_rows(size.tuples * est.clauses(q.parts));
    (size, est, rows)
}

/// A path by name, as the "why" sentence calls it.
fn path_name(q: &Query, p: &Path) -> String {
    let index = |i: &usize| &q.table.indexes[*i].name;
    let name = match &p.plan.access {
        AccessPath::Seq if p.cost.gather.is_some() => "a Parallel Seq Scan under a Gather".into(),
        AccessPath::Index { index: i, only, .. } if p.cost.gather.is_some() => format!(
            "a Parallel Index{} Scan using {} under a Gather",
            if *only { " Only" } else { "" },
            index(i)
        ),
        AccessPath::Seq => "a Seq Scan".to_string(),
        AccessPath::Index {
            index: i,
            only: true,
            ..
        } => format!("an Index Only Scan using {}", index(i)),
        AccessPath::Index { index: i, .. } => format!("an Index Scan using {}", index(i)),
        AccessPath::Bitmap {
            index: i, and, or, ..
        } => {
            let mut name = format!("a Bitmap Heap Scan using {}", index(i));
            let word = if *or { "OR" } else { "AND" };
            for a in and {
                name.push_str(&format!(" {word} {}", index(&a.index)));
            }
            name
        }
    };
    if p.plan.ordered {
        name
    } else {
        format!("{name} then a Sort")
    }
}

/// A path's total cost once sorted (if the ORDER BY needs it) and limited.
fn as_finished(q: &Query, p: &Path, width: f64, limit: Option<f64>) -> f64 {
    let top = if p.plan.ordered {
        p.cost.top()
    } else {
        sort::cost(&p.cost.scan, width, limit, &q.stats.params)
    };
    limit.map_or(top.total, |l| sort::limit(&top, l).total)
}

/// Why `best` won, with the costs of the others.
fn reason(
    q: &Query,
    best: &Path,
    size: &SizeEstimate,
    rows: f64,
    cost: f64,
    considered: &[Considered],
) -> String {
    let chosen = path_name(q, best);
    let others: Vec<Considered> = considered
        .iter()
        .filter(|c| c.name != chosen)
        .cloned()
        .collect();
    let (kind, index) = match &best.plan.access {
        AccessPath::Seq => match best.cost.gather {
            Some(g) => (why::ScanKind::ParallelSeq(g.workers), String::new()),
            None => (why::ScanKind::Seq, String::new()),
        },
        AccessPath::Index { index, .. } if best.cost.gather.is_some() => (
            why::ScanKind::ParallelIndex(best.cost.gather.map_or(0, |g| g.workers)),
            q.table.indexes[*index].name.clone(),
        ),
        AccessPath::Index { index, only, .. } => (
            if *only {
                why::ScanKind::IndexOnly
            } else {
                why::ScanKind::Index
            },
            q.table.indexes[*index].name.clone(),
        ),
        AccessPath::Bitmap { index, and, or, .. } => {
            let mut names: Vec<&str> = std::iter::once(*index)
                .chain(and.iter().map(|a| a.index))
                .map(|i| q.table.indexes[i].name.as_str())
                .collect();
            let kind = match (and.is_empty(), or) {
                (true, _) => why::ScanKind::Bitmap,
                (false, false) => why::ScanKind::BitmapAnd,
                (false, true) => why::ScanKind::BitmapOr,
            };
            // An index read for two arms is named once.
            names.dedup();
            (kind, names.join(" and "))
        }
    };
    let facts = why::ScanFacts {
        table: &q.table.name,
        rows,
        tuples: size.tuples,
        pages: size.pages,
        all_visible: size.all_visible_frac,
        in_order: !q.select.order_by.is_empty() && best.plan.ordered,
        limit: best.cost.limit,
        sorted_after: best.cost.sort.is_some(),
        any_index: considered
            .iter()
            .any(|c| c.name != "a Seq Scan" && !c.name.starts_with("a Seq Scan ")),
    };
    why::scan(kind, &index, &facts, why::costs(cost, &others))
}

/// `add_path`: keeps `new` unless a kept path is as cheap (within the
/// fuzz) and as well ordered, and drops the kept paths it beats that way.
/// Startup costs matter only under a LIMIT; the order only under an ORDER BY.
fn add_path(kept: &mut Vec<Path>, new: Path, limit: bool, order_matters: bool) {
    // Better1: the new path's order is better; Better2: the kept one's.
    let keys = |old: &Path| match (order_matters, new.plan.ordered, old.plan.ordered) {
        (false, ..) => Costs::Equal,
        (true, a, b) if a == b => Costs::Equal,
        (true, true, false) => Costs::Better1,
        _ => Costs::Better2,
    };
    let mut accept = true;
    let mut i = 0;
    while i < kept.len() {
        let old = &kept[i];
        let (a, b) = (new.cost.top(), old.cost.top());
        let costs = compare_fuzzily(&a, &b, 1.01, limit);
        let keys = keys(old);
        let (remove_old, reject_new) = match (costs, keys) {
            (Costs::Different, _) => (false, false),
            (Costs::Equal, Costs::Better1) => (true, false),
            (Costs::Equal, Costs::Better2) => (false, true),
            (Costs::Equal, _) => {
                let near = compare_fuzzily(&a, &b, 1.000_000_000_1, limit);
                if near == Costs::Better1 {
                    (true, false)
                } else {
                    (false, true)
                }
            }
            (Costs::Better1, Costs::Better1 | Costs::Equal) => (true, false),
            (Costs::Better2, Costs::Better2 | Costs::Equal) => (false, true),
            _ => (false, false),
        };
        if reject_new {
            accept = false;
            break;
        }
        if remove_old {
            kept.remove(i);
        } else {
            i += 1;
        }
    }
    if accept {
        kept.push(new);
    }
}

fn seq_path(q: &Query, size: &SizeEstimate, rows: f64, width: f64) -> Path {
    let scan = seq_scan::cost(size, q.parts, rows, &q.stats.params);
    Path {
        plan: ScanPlan {
            access: AccessPath::Seq,
            filter: super::order_keys::restriction_order(q.table, q.parts),
            ordered: q.select.order_by.is_empty(),
            system_columns: q.system_columns,
            cost: None,
            why: None,
        },
        cost: plain(scan, width),
    }
}

fn plain(scan: Cost, width: f64) -> PlanCost {
    PlanCost {
        scan,
        bitmap_index: None,
        bitmap_and: None,
        width,
        sort: None,
        limit: None,
        gather: None,
    }
}

/// A Gather over a Parallel Seq Scan, when the table is big enough for a
/// worker: the checks and the select list are shared among the processes,
/// the pages still all read, and each row out handed to the Gather.
fn gather_path(
    q: &Query,
    size: &SizeEstimate,
    (rows, target): (f64, f64),
    width: f64,
) -> Option<Path> {
    let p = &q.stats.params;
    let workers = parallel::workers(size.pages, p);
    if workers == 0 {
        return None;
    }
    let divisor = parallel::divisor(workers, p);
    let scan = seq_scan::partial(size, q.parts, (rows, target), divisor, p);
    let mut path = seq_path(q, size, rows, width);
    path.cost.scan = scan;
    path.cost.gather = Some(Gather {
        workers,
        leader: p.parallel_leader_participation,
        cost: parallel::gather(&scan, rows, p),
    });
    Some(path)
}

/// The index's part of a scan: its conditions' selectivity and cost.
fn btree(
    q: &Query,
    c: &IndexCandidate,
    est: &Estimator,
    size: &SizeEstimate,
) -> index_scan::IndexCost {
    let info = &q.table.indexes[c.index];
    let stats = &q.stats.indexes[c.index];
    let mut quals = c.used.clone();
    // A partial index's predicate narrows what it finds.
    quals.extend(info.predicate.iter().cloned());
    let descents = c.cond.as_ref().map_or(1.0, super::composite::descents);
    // An equality on every key column of a unique index finds one row.
    let columns = match &c.cond {
        Some(KeyCond::Columns(conds)) => conds.len(),
        Some(KeyCond::Checked { .. }) | None => 0,
        Some(_) => 1,
    };
    // The entries read: those the bounding conditions find
    // (`indexBoundQuals`, with the predicate).
    let mut bound: Vec<Expr> = c.used[..c.bound_parts].to_vec();
    bound.extend(info.predicate.iter().cloned());
    let share = |quals: &[Expr]| {
        if quals.is_empty() {
            1.0
        } else {
            est.clauses(quals)
        }
    };
    let unique_match = stats.unique
        && info.key.len() == columns
        && c.cond.as_ref().is_some_and(KeyCond::is_equality)
        && descents == 1.0;
    let scan = index_scan::IndexScan {
        index: stats,
        quals: &c.used,
        selectivity: share(&quals),
        bound_selectivity: share(&bound),
        descents,
        unique_match,
        loops: 1.0,
    };
    index_scan::btree_cost(&scan, size, size.pages, &q.stats.params)
}

/// An Index (Only) Scan of the candidate, if PostgreSQL would consider one:
/// it needs a condition, a useful order, a partial predicate the query
/// proves, or to cover the query.
fn index_path(
    q: &Query,
    c: &IndexCandidate,
    est: &Estimator,
    size: &SizeEstimate,
    rows: f64,
    width: f64,
    parallel: Option<(f64, f64)>,
) -> Option<Path> {
    if c.cond.is_none() && c.direction.is_none() && !c.partial && !c.only {
        return None;
    }
    let ix = btree(q, c, est, size);
    let info = &q.table.indexes[c.index];
    let mut correlation = est_correlation(q, info.key[0].0);
    if info.key.len() > 1 {
        correlation *= 0.75;
    }
    let heap = index_scan::HeapFetch {
        heap: size,
        table_pages: size.pages,
        correlation,
        index_only: c.only,
        filter: &c.rest,
        rows,
        loops: 1.0,
    };
    let pages = f64::from(q.stats.indexes[c.index].pages);
    let p = &q.stats.params;
    let mut cost = plain(index_scan::cost(&ix, pages, &heap, p), width);
    if let Some((rows, target)) = parallel {
        // A Parallel Index (Only) Scan: workers by the index pages it
        // reads and, unless index-only, the heap pages it fetches.
        let heap_pages = index_scan::random_heap_pages(&ix, pages, &heap, p);
        let workers = parallel::index_workers(heap_pages, ix.pages, p);
        if workers == 0 {
            return None;
        }
        let divisor = parallel::divisor(workers, p);
        let mut scan = index_scan::partial_cost(&ix, pages, &heap, divisor, p);
        scan.total += target * rows / divisor;
        cost.scan = scan;
        cost.gather = Some(Gather {
            workers,
            leader: p.parallel_leader_participation,
            cost: parallel::gather(&scan, rows, p),
        });
    }
    Some(Path {
        plan: c.plan(q.select, q.system_columns),
        cost,
    })
}

fn bitmap_path(
    q: &Query,
    candidates: &[&IndexCandidate],
    est: &Estimator,
    size: &SizeEstimate,
    rows: f64,
    width: f64,
) -> Option<Path> {
    let p = &q.stats.params;
    let indexes: Vec<index_scan::IndexCost> =
        candidates.iter().map(|c| btree(q, c, est, size)).collect();
    let arms: Vec<bitmap_and::Arm> = candidates
        .iter()
        .zip(&indexes)
        .map(|(c, ix)| bitmap_and::Arm {
            used: &c.used,
            predicate: &q.table.indexes[c.index].predicate,
            tree: bitmap_scan::index_tree(ix, rows, p),
        })
        .collect();
    let heap_cost = |t: &bitmap_scan::Tree| bitmap_scan::heap_scan(t, size, q.parts, rows, p).total;
    let (group, tree) = bitmap_and::choose(&arms, heap_cost, p)?;
    let arms: Vec<(&IndexCandidate, Cost)> = group
        .iter()
        .map(|&k| (candidates[k], bitmap_scan::index_node(&indexes[k], size)))
        .collect();
    let first = arms[0].0;
    // The conditions no index of the group checks stay a Filter.
    let filter: Vec<Expr> = first
        .rest
        .iter()
        .filter(|e| !arms[1..].iter().any(|(c, _)| c.used.contains(e)))
        .cloned()
        .collect();
    Some(bitmap_heap_path(
        q, &arms, false, &tree, filter, size, rows, width,
    ))
}

/// A Bitmap Heap Scan over `arms` (each index's candidate and its Bitmap
/// Index Scan's estimate), their bitmaps ANDed, or ORed when `or`, into
/// `tree`; `filter` checked on each row.
#[allow(clippy::too_many_arguments)]
fn bitmap_heap_path(
    q: &Query,
    arms: &[(&IndexCandidate, Cost)],
    or: bool,
    tree: &bitmap_scan::Tree,
    filter: Vec<Expr>,
    size: &SizeEstimate,
    rows: f64,
    width: f64,
) -> Path {
    let (first, first_cost) = arms[0];
    let more: Vec<BitmapArm> = arms[1..]
        .iter()
        .map(|(c, cost)| BitmapArm {
            index: c.index,
            cond: c.cond.clone(),
            cond_exprs: c.used.clone(),
            cost: Some(*cost),
        })
        .collect();
    let p = &q.stats.params;
    Path {
        plan: ScanPlan {
            access: AccessPath::Bitmap {
                index: first.index,
                cond: first.cond.clone(),
                cond_exprs: first.used.clone(),
                and: more,
                or,
            },
            filter: super::order_keys::restriction_order(q.table, &filter),
            ordered: q.select.order_by.is_empty(),
            system_columns: q.system_columns,
            cost: None,
            why: None,
        },
        cost: PlanCost {
            bitmap_index: Some(first_cost),
            bitmap_and: (arms.len() > 1).then(|| bitmap_scan::and_node(tree, size)),
            ..plain(bitmap_scan::heap_scan(tree, size, q.parts, rows, p), width)
        },
    }
}

/// A Bitmap Heap Scan over a BitmapOr: each arm of the OR found by its
/// cheapest index, their bitmaps ORed, the OR rechecked on the heap.
fn bitmap_or_path(
    q: &Query,
    group: &super::bitmap_or::OrGroup,
    est: &Estimator,
    size: &SizeEstimate,
    rows: f64,
    width: f64,
) -> Path {
    let p = &q.stats.params;
    // Each arm by the index whose Bitmap Heap Scan alone would cost least.
    let chosen: Vec<(&IndexCandidate, index_scan::IndexCost, bitmap_scan::Tree)> = group
        .arms
        .iter()
        .map(|arm| {
            let costed = arm.iter().map(|c| {
                let ix = btree(q, c, est, size);
                let tree = bitmap_scan::index_tree(&ix, rows, p);
                let heap = bitmap_scan::heap_scan(&tree, size, &c.used, rows, p).total;
                (c, ix, tree, heap)
            });
            let (c, ix, tree, _) = costed
                .min_by(|a, b| a.3.total_cmp(&b.3))
                .expect("an OR group's arm has an index");
            (c, ix, tree)
        })
        .collect();
    let trees: Vec<bitmap_scan::Tree> = chosen.iter().map(|(_, _, t)| *t).collect();
    let tree = bitmap_scan::or_tree(&trees);
    let arms: Vec<(&IndexCandidate, Cost)> = chosen
        .iter()
        .map(|(c, ix, _)| (*c, bitmap_scan::index_node(ix, size)))
        .collect();
    let filter = (q.parts.iter().enumerate())
        .filter(|(i, _)| *i != group.part)
        .map(|(_, e)| e.clone())
        .collect();
    bitmap_heap_path(q, &arms, true, &tree, filter, size, rows, width)
}

/// The leading column's correlation with the heap's order, 0 without
/// statistics.
fn est_correlation(q: &Query, col: usize) -> f64 {
    q.stats
        .relation
        .columns
        .get(col)
        .and_then(Option::as_ref)
        .and_then(|s| s.correlation)
        .map_or(0.0, f64::from)
}

/// The expressions the scan computes for each row it returns (its target
/// list's, `cost_qual_eval` of the path target): the select list's and the
/// ORDER BY's that are not plain columns. None under an aggregate, which
/// evaluates its own.
fn computed_targets(q: &Select) -> Vec<Expr> {
    let mut has_aggregate = !q.group_by.is_empty();
    let mut out: Vec<Expr> = Vec::new();
    let items = q.items.iter().filter_map(|i| match i {
        SelectItem::Expr { expr, .. } => Some(expr),
        SelectItem::Wildcard => None,
    });
    for e in items.chain(q.order_by.iter().map(|o| &o.expr)) {
        e.visit(&mut |x| has_aggregate |= matches!(x, Expr::Aggregate { .. }));
        if !matches!(e, Expr::Column { .. }) && !out.contains(e) {
            out.push(e.clone());
        }
    }
    if has_aggregate {
        return Vec::new();
    }
    out
}

/// `LIMIT n` (plus its OFFSET) when both are constants.
pub fn constant_limit(q: &Select) -> Option<f64> {
    let number = |e: &Expr| match e {
        Expr::Literal(Value::Int(n)) => Some(*n as f64),
        _ => None,
    };
    let limit = number(q.limit.as_ref()?)?;
    let offset = match &q.offset {
        Some(o) => number(o)?,
        None => 0.0,
    };
    Some(limit + offset)
}

/// `width=`: the bytes of the columns the scan hands up (the select list's
/// and the ORDER BY's; a column only the WHERE reads stays in the scan).
fn scan_width(q: &Query) -> f64 {
    let columns = output_columns(q.table, q.select);
    let widths = &q.stats.relation.column_widths;
    columns
        .iter()
        .map(|&c| match widths.get(c) {
            Some(w) => f64::from(*w),
            // A system column: ctid is 6 bytes, xmin and xmax 4.
            None if c == q.table.columns.len() => 6.0,
            None => 4.0,
        })
        .sum()
}

/// The columns a read of `table` for `q` hands up, by position: the select
/// list's and those the ORDER BY, GROUP BY and HAVING name (a column only
/// the WHERE reads stays in the scan).
pub(super) fn output_columns(table: &TableInfo, q: &Select) -> Vec<usize> {
    let mut exprs: Vec<&Expr> = Vec::new();
    let mut columns: Vec<usize> = Vec::new();
    for item in &q.items {
        match item {
            SelectItem::Wildcard => columns.extend(0..table.columns.len()),
            SelectItem::Expr { expr, .. } => exprs.push(expr),
        }
    }
    exprs.extend(q.order_by.iter().map(|o| &o.expr));
    exprs.extend(&q.group_by);
    exprs.extend(&q.having);
    for e in exprs {
        e.visit(&mut |x| {
            if let Expr::Column { name, .. } = x {
                columns.extend(table.column_position(name));
            }
        });
    }
    columns.sort_unstable();
    columns.dedup();
    columns
}
