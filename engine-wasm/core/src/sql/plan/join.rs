//! The choice of a two-table join on the pg profile, by PostgreSQL 15's
//! costs: which table is outer, and whether each outer row looks its
//! partners up through an index on the inner table (Nested Loop over a
//! parameterized Index Scan) or the inner table is read once into a hash
//! table (Hash Join). Both orders are tried, as `populate_joinrel_with_paths`
//! does; the cheapest in total wins.
//!
//! Each side is first planned alone ([`super::plan_scan`]) with its own
//! conditions: its rows and cost feed the join's. The join's rows are the
//! product of both sides' rows and the equality's selectivity
//! ([`super::join_selectivity`]).
//!
//! A Merge Join reads both sides in key order and pairs them in one pass
//! ([`merge`]).
//!
//! Not modelled yet: a Nested Loop over a Materialize; PostgreSQL may
//! choose it (see ARCHITECTURE.md).
//!
//! On the yb profile, whose tables have no statistics, the same search runs
//! over YugabyteDB's heuristic scan costs ([`yb`]).

mod merge;
mod yb;

pub use merge::MergePlan;

use super::cost::hash_join::{self, KeyStats, Semi};
use super::cost::index_scan::{self, HeapFetch, IndexScan};
use super::cost::memoize::{self, Memoize};
use super::cost::nest_loop::{self, NestLoop};
use super::cost::{sort, Cost};
use super::join_selectivity::{inner as eqjoinsel, JoinColumn};
use super::selectivity::Estimator;
use super::statistics::{clamp_rows, SizeEstimate};
use super::why;
use super::{referenced_columns, PlannerStats, ScanPlan, TableInfo};
use crate::sql::ast::{BinOp, Expr, Select};
use crate::sql::error::SqlError;

/// One table of the join.
pub struct JoinSide<'a> {
    pub table: &'a TableInfo,
    /// Its own scan: the columns the query needs of it, and its conditions.
    pub query: &'a Select,
    /// The column the join's equality compares.
    pub key: usize,
    /// The indexes whose first column is `key`, to look partners up by,
    /// newest first (PostgreSQL's order: the newest wins a tie).
    pub lookups: Vec<usize>,
}

/// How the inner side finds an outer row's partners.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    /// An index scan on the inner side, once per outer row.
    NestLoop,
    /// The inner side read once into a hash table.
    Hash,
    /// Both sides read in key order and merged.
    Merge,
}

/// What the statement's hints leave the planner (pg_hint_plan's
/// `NestLoop(a b)`, `NoHashJoin(a b)`, `Leading((a b))`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Allowed {
    pub nest_loop: bool,
    pub hash: bool,
    pub merge: bool,
    /// Some(true): the second-written table must be the outer one.
    pub swapped: Option<bool>,
}

impl Allowed {
    fn permits(&self, method: Method) -> bool {
        match method {
            Method::NestLoop => self.nest_loop,
            Method::Hash => self.hash,
            Method::Merge => self.merge,
        }
    }
}

impl Default for Allowed {
    fn default() -> Self {
        Allowed {
            nest_loop: true,
            hash: true,
            merge: true,
            swapped: None,
        }
    }
}

/// The chosen join.
#[derive(Debug, Clone, PartialEq)]
pub struct JoinChoice {
    /// The second-written table is the outer one.
    pub swapped: bool,
    pub method: Method,
    pub cost: Cost,
    /// A Nested Loop's inner index scan, one loop's estimate.
    pub inner: Option<Cost>,
    /// A Nested Loop's inner index: the cheapest to look a key up in.
    pub lookup: Option<usize>,
    /// The Sort the query's ORDER BY on the join key puts above a join
    /// whose rows do not come in that order.
    pub sort: Option<Cost>,
    /// A Merge Join on the ORDER BY's key: its rows come in that order.
    pub in_order: bool,
    /// Each side's cheapest read (outer, inner), for a Hash Join or a
    /// Nested Loop's outer side.
    pub reads: Box<(ScanPlan, ScanPlan)>,
    /// A Nested Loop's inner scan sits under a Memoize, with this estimate.
    pub memoize: Option<Cost>,
    /// A Merge Join's inputs and estimate.
    pub merge: Option<Box<MergePlan>>,
    /// The estimated rows of the outer and the inner side.
    pub outer_rows: f64,
    pub inner_rows: f64,
    /// The cheapest plan of another kind it beat: its method, whether under
    /// a Memoize, and its cost as the choice compared it.
    pub runner_up: Option<(Method, bool, f64)>,
    /// The share of the join's rows a constant LIMIT wants, when below 1:
    /// the plans were compared on what that share costs
    /// (`get_cheapest_fractional_path`), so one that starts sooner may win.
    pub fraction: Option<f64>,
    /// Costed by YugabyteDB's default planner, which assumes this many
    /// rows of a table it has no statistics for.
    pub assumed_rows: Option<f64>,
}

impl JoinChoice {
    /// Why it won, in one sentence naming the tables (outer, inner).
    pub fn why(&self, outer: &str, inner: &str) -> String {
        let costs = match self.fraction {
            None => why::costs(self.cost.total, &self.others()),
            Some(f) => format!(
                "{}; a LIMIT wants only the first {} of about {} rows, so each plan is costed \
                 up to there, and one that starts returning rows sooner gains)",
                why::costs(self.finished().fractional(f), &self.others()).trim_end_matches(')'),
                why::whole(f * self.cost.rows),
                why::whole(self.cost.rows),
            ),
        };
        if let Some(m) = &self.merge {
            return m.why(outer, inner, costs);
        }
        let mut why = why::join(
            way(self.method, self.memoize.is_some()),
            outer,
            inner,
            (self.outer_rows, self.inner_rows),
            costs,
        );
        if let Some(rows) = self.assumed_rows {
            why.push_str(&format!(
                " YugabyteDB's default planner reads no column statistics: it assumes {} rows of a table ANALYZE never counted, and guesses an index lookup's rows from the key columns it binds.",
                why::whole(rows)
            ));
        }
        why
    }

    /// Its estimate with the Sort the ORDER BY needs above it, if any.
    fn finished(&self) -> Cost {
        self.sort.unwrap_or(self.cost)
    }

    /// The cheapest plan of another kind it beat, named.
    fn others(&self) -> Vec<why::Considered> {
        self.runner_up
            .iter()
            .map(|(m, memo, cost)| why::Considered {
                name: way(*m, *memo).name().into(),
                cost: *cost,
            })
            .collect()
    }
}

fn way(method: Method, memoize: bool) -> why::JoinWay {
    match (method, memoize) {
        (Method::Hash, _) => why::JoinWay::Hash,
        (Method::NestLoop, false) => why::JoinWay::NestLoop,
        (Method::NestLoop, true) => why::JoinWay::Memoized,
        (Method::Merge, _) => why::JoinWay::Merge,
    }
}

/// A side planned alone, with the numbers the join's costs read.
struct Planned<'a> {
    side: &'a JoinSide<'a>,
    stats: &'a PlannerStats,
    /// The reads the planner keeps for it, the join key's order counting
    /// (those in that order, and the cheapest under a Sort).
    reads: Vec<ScanPlan>,
    /// Its cheapest read in total (`cheapest_total_path`), unsorted, and
    /// that read's estimate.
    plan: ScanPlan,
    scan: Cost,
    width: f64,
    size: SizeEstimate,
}

impl Planned<'_> {
    fn estimator(&self) -> Estimator<'_> {
        Estimator {
            table: self.side.table,
            stats: &self.stats.relation,
            tuples: self.size.tuples,
        }
    }
}

fn planned<'a>(side: &'a JoinSide<'a>) -> Result<Option<Planned<'a>>, SqlError> {
    let Some(stats) = &side.table.stats else {
        return Ok(None);
    };
    // A read in the key's order is kept beside the cheapest, as it may
    // feed a Merge Join; so the cheapest of all may be one PostgreSQL would
    // not have kept for the table alone (an index-only scan 1 % cheaper
    // than a Seq Scan that starts sooner).
    let reads = merge::in_key_order(side)?;
    let Some(cheapest) = merge::cheapest(&reads) else {
        return Ok(None);
    };
    let mut plan = reads[cheapest].clone();
    let Some(cost) = plan.cost.as_mut() else {
        return Ok(None);
    };
    cost.sort = None;
    let cost = *cost;
    Ok(Some(Planned {
        side,
        stats,
        reads,
        plan,
        scan: cost.scan,
        width: cost.width,
        size: stats.relation.estimate(),
    }))
}

/// The cheapest way to join `first` and `second` on `first.key =
/// second.key` (and `clauses - 1` other equalities checked alongside) that
/// the hints allow, or None when the hints allow none of these. On the yb
/// profile (no statistics) YugabyteDB's choice ([`yb::choose`]).
///
/// `by_key`: the query's ORDER BY is the join key, ascending: a Merge Join
/// hands its rows over in that order, the other methods need a Sort above
/// them, which their costs then carry (`create_ordered_paths`).
pub fn choose(
    first: &JoinSide,
    second: &JoinSide,
    clauses: usize,
    allowed: Allowed,
    by_key: bool,
    limit: Option<f64>,
) -> Result<Option<JoinChoice>, SqlError> {
    if first.table.stats.is_none() && second.table.stats.is_none() {
        return yb::choose(first, second, clauses, allowed, by_key, limit);
    }
    let (Some(a), Some(b)) = (planned(first)?, planned(second)?) else {
        return Ok(None);
    };
    let (ea, eb) = (a.estimator(), b.estimator());
    let ja = JoinColumn {
        est: &ea,
        col: a.side.key,
        rows: a.scan.rows,
    };
    let jb = JoinColumn {
        est: &eb,
        col: b.side.key,
        rows: b.scan.rows,
    };
    let selectivity = eqjoinsel(&ja, &jb);
    let rows = clamp_rows(a.scan.rows * b.scan.rows * selectivity);
    let fraction = limit.map(|l| l / rows).filter(|f| *f < 1.0);
    // What the choice compares: the whole cost, or a LIMIT's share of it.
    let compared = |c: &Cost| fraction.map_or(c.total, |f| c.fractional(f));
    let mut best: Option<JoinChoice> = None;
    let mut all: Vec<(Method, bool, f64)> = Vec::new();
    for (swapped, (outer, inner), (jo, ji)) in
        [(false, (&a, &b), (&ja, &jb)), (true, (&b, &a), (&jb, &ja))]
    {
        if allowed.swapped.is_some_and(|s| s != swapped) {
            continue;
        }
        let semi = inner
            .stats
            .relation
            .unique
            .get(inner.side.key)
            .copied()
            .unwrap_or(false)
            .then(|| semi_factors(inner.scan.rows, selectivity));
        let lookup = cheapest_lookup(outer, inner, ji)?;
        let choice = |method, cost, memoize, merge| JoinChoice {
            swapped,
            method,
            cost,
            inner: lookup
                .filter(|_| method == Method::NestLoop)
                .map(|(_, c)| c),
            lookup: lookup
                .filter(|_| method == Method::NestLoop)
                .map(|(i, _)| i),
            memoize,
            merge,
            sort: None,
            in_order: by_key && method == Method::Merge,
            reads: Box::new((outer.plan.clone(), inner.plan.clone())),
            outer_rows: outer.scan.rows,
            inner_rows: inner.scan.rows,
            runner_up: None,
            fraction,
            assumed_rows: None,
        };
        let mut paths = Vec::new();
        if let Some((_, scan)) = lookup {
            for (c, m) in nest_loop_costs(outer, inner, jo, scan, rows, clauses, semi) {
                paths.push(choice(Method::NestLoop, c, m, None));
            }
        }
        let hash = hash_cost(outer, inner, ji, rows, clauses, selectivity, semi);
        paths.push(choice(Method::Hash, hash, None, None));
        let pairing = merge::Pairing {
            keys: (jo, ji),
            rows,
            matched: clamp_rows(selectivity * outer.scan.rows * inner.scan.rows),
            clauses,
            unique_inner: semi.is_some(),
        };
        for m in merge::paths(outer, inner, &pairing)? {
            paths.push(choice(Method::Merge, m.cost.cost, None, Some(Box::new(m))));
        }
        paths.retain(|c| allowed.permits(c.method));
        let width = outer.width + inner.width;
        for mut c in paths {
            if by_key && c.method != Method::Merge {
                c.sort = Some(sort::cost(&c.cost, width, limit, &outer.stats.params));
            }
            let finished = c.finished();
            all.push((c.method, c.memoize.is_some(), compared(&finished)));
            let better = best.as_ref().is_none_or(|b| {
                let b = b.finished();
                (compared(&finished), finished.startup) < (compared(&b), b.startup)
            });
            if better {
                best = Some(c);
            }
        }
    }
    Ok(best.map(|mut b| {
        let kind = (b.method, b.memoize.is_some());
        b.runner_up = all
            .into_iter()
            .filter(|(m, memo, _)| (*m, *memo) != kind)
            .min_by(|x, y| x.2.total_cmp(&y.2));
        b
    }))
}

/// `compute_semi_anti_join_factors` for an inner join whose inner side is
/// unique on the key: of the outer rows, the share with a partner, and how
/// many partners such a row has on average.
///
/// PostgreSQL asks `eqjoinsel` for the semi-join selectivity here, but an
/// inner join hands it a SpecialJoinInfo of type JOIN_INNER, and
/// `eqjoinsel` switches on that: the share it returns is the inner join's
/// selectivity, and each matched row is taken to meet every inner row.
fn semi_factors(inner_rows: f64, inner_sel: f64) -> Semi {
    let jselec = inner_sel;
    let match_count = if jselec > 0.0 {
        (inner_sel * inner_rows / jselec).max(1.0)
    } else {
        1.0
    };
    Semi {
        outer_match_frac: jselec,
        match_count,
    }
}

fn hash_cost(
    outer: &Planned,
    inner: &Planned,
    key: &JoinColumn,
    rows: f64,
    clauses: usize,
    selectivity: f64,
    semi: Option<Semi>,
) -> Cost {
    let (distinct, default) = key.est.distinct_or_default(key.col);
    let st = key.est.column_stats(key.col);
    let stats = KeyStats {
        distinct,
        default,
        null_frac: st.map_or(0.0, |s| f64::from(s.null_frac)),
        mcv_freq: st
            .and_then(|s| s.most_common.first())
            .map_or(0.0, |(_, f)| f64::from(*f)),
        rel_rows: inner.scan.rows,
        rel_tuples: inner.size.tuples,
    };
    let join = hash_join::HashJoin {
        outer: hash_join::Input {
            cost: outer.scan,
            width: outer.width,
        },
        inner: hash_join::Input {
            cost: inner.scan,
            width: inner.width,
        },
        key: &stats,
        clauses: clauses as f64,
        matched: clamp_rows(selectivity * outer.scan.rows * inner.scan.rows),
        rows,
        semi,
        enable: outer.stats.params.enable_hashjoin,
    };
    hash_join::cost(&join, &outer.stats.params)
}

/// The Nested Loops whose inner side looks each outer row's value up in its
/// index (one loop costing `scan`): bare, and under a Memoize when
/// PostgreSQL would consider one (`get_memoize_path`). Each: its cost and
/// the Memoize's.
fn nest_loop_costs(
    outer: &Planned,
    inner: &Planned,
    outer_key: &JoinColumn,
    scan: Cost,
    rows: f64,
    clauses: usize,
    semi: Option<Semi>,
) -> Vec<(Cost, Option<Cost>)> {
    let p = &inner.stats.params;
    let plain = NestLoop {
        outer: outer.scan,
        inner: scan,
        rescan: (scan.startup, scan.total),
        indexed: true,
        rows,
        semi,
    };
    let mut out = vec![(nest_loop::cost(&plain, p), None)];
    // A unique inner side stops at its first match; Memoize can then only
    // cache when that one equality is the whole join condition.
    let usable = p.enable_memoize && outer.scan.rows >= 2.0 && !(semi.is_some() && clauses > 1);
    if usable {
        let (d, default) = outer_key.est.distinct_or_default(outer_key.col);
        let m = Memoize {
            inner: scan,
            width: inner.width,
            calls: outer.scan.rows,
            distinct: (!default).then(|| {
                memoize::distinct_among(d, outer.size.tuples, outer.scan.rows, outer.scan.rows)
            }),
            key_width: f64::from(
                outer
                    .stats
                    .relation
                    .column_widths
                    .get(outer_key.col)
                    .copied()
                    .unwrap_or(4),
            ),
        };
        let path = memoize::path_cost(&m, p);
        let cached = NestLoop {
            inner: path,
            rescan: memoize::rescan_cost(&m, p),
            indexed: false,
            ..plain
        };
        out.push((nest_loop::cost(&cached, p), Some(path)));
    }
    out
}

/// The index of the inner side whose lookup of one key costs least, and
/// that one loop's cost; None without an index to look the key up in.
fn cheapest_lookup(
    outer: &Planned,
    inner: &Planned,
    key: &JoinColumn,
) -> Result<Option<(usize, Cost)>, SqlError> {
    let mut best: Option<(usize, Cost)> = None;
    for &index in &inner.side.lookups {
        let c = inner_lookup_cost(outer, inner, key, index)?;
        if best.is_none_or(|(_, b)| c.total < b.total) {
            best = Some((index, c));
        }
    }
    Ok(best)
}

/// One loop of the inner index scan of `index` on the join key (`key = $1`).
fn inner_lookup_cost(
    outer: &Planned,
    inner: &Planned,
    key: &JoinColumn,
    index: usize,
) -> Result<Cost, SqlError> {
    let table = inner.side.table;
    let info = &table.indexes[index];
    let ix_stats = &inner.stats.indexes[index];
    let p = &inner.stats.params;
    let est = key.est;
    let column = Expr::Column {
        table: None,
        name: table.columns[inner.side.key].0.clone(),
    };
    // `key = $1`: the outer row's value, unknown when planning.
    let param = Expr::Binary {
        op: BinOp::Eq,
        left: Box::new(column),
        right: Box::new(Expr::Param(1)),
    };
    let key_sel = est.eq_const(inner.side.key, None, false);
    let mut parts = Vec::new();
    if let Some(f) = &inner.side.query.filter {
        super::conjuncts(f, &mut parts);
    }
    let rows_per_loop = clamp_rows(inner.size.tuples * key_sel * est.clauses(&parts));
    let quals = [param];
    let scan = IndexScan {
        index: ix_stats,
        quals: &quals,
        selectivity: key_sel,
        bound_selectivity: key_sel,
        descents: 1.0,
        unique_match: ix_stats.unique && info.key.len() == 1,
        loops: outer.scan.rows,
    };
    let ix = index_scan::btree_cost(&scan, &inner.size, inner.size.pages + outer.size.pages, p);
    let referenced = referenced_columns(table, inner.side.query)?;
    let only = referenced.iter().all(|c| info.covers(*c));
    let mut correlation = inner
        .stats
        .relation
        .columns
        .get(info.key[0].0)
        .and_then(Option::as_ref)
        .and_then(|s| s.correlation)
        .map_or(0.0, f64::from);
    if info.key.len() > 1 {
        correlation *= 0.75;
    }
    let heap = HeapFetch {
        heap: &inner.size,
        table_pages: inner.size.pages + outer.size.pages,
        correlation,
        index_only: only,
        filter: &parts,
        rows: rows_per_loop,
        loops: outer.scan.rows,
    };
    Ok(index_scan::cost(&ix, f64::from(ix_stats.pages), &heap, p))
}
