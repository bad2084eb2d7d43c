//! The yb profile's scan of one table, chosen as YugabyteDB's planner
//! chooses by default: by its heuristic costs ([`cost::yb_legacy`]), which
//! read no statistics. The paths are weighed as PostgreSQL's `add_path` and
//! `create_ordered_paths` do: the Seq Scan first, then each index, newest
//! first (`get_relation_info` lists them so). An index path also pays what
//! PostgreSQL's `cost_index` adds around the heuristic (one table page and
//! each row fetched). Every heuristic cost starts at zero, so `add_path`
//! keeps only the cheapest read in total and, under an ORDER BY, the
//! cheapest that gives it; of those a read that does not give the ORDER BY
//! pays for a Sort, and a constant LIMIT takes its share of each (its rows:
//! the index's guess, or for the Seq Scan every row of the table, as
//! YugabyteDB's planner estimates a table with no statistics whatever its
//! WHERE says). The cheapest wins, the earlier path on a tie. EXPLAIN
//! prints the chosen path's estimates, as YugabyteDB does:
//! `Seq Scan on t  (cost=0.00..102.50 rows=1000 width=8)`.

use super::choose::PlanCost;
use super::cost::yb_legacy::{self, KeyUse, Read};
use super::cost::{self, sort, Cost, CostParams};
use super::statistics::clamp_rows;
use super::why::{self, Considered};
use super::{AccessPath, IndexCandidate, KeyCond, ScanDirection, ScanPlan, TableInfo};
use crate::sql::ast::{Expr, Select};

/// A path the choice weighs: a candidate index, or the Seq Scan (None).
struct Weighed<'a> {
    candidate: Option<&'a IndexCandidate>,
    read: Read,
    cost: Cost,
    /// With its Sort and LIMIT.
    finished: f64,
}

/// The rows YugabyteDB's default planner takes `table` to hold: those
/// ANALYZE counted, else 1 000 (`ybcGetForeignRelSize`; a count of 0 is
/// taken as never counted, as the releases the articles ran did).
pub fn tuples(table: &TableInfo) -> f64 {
    table
        .reltuples
        .filter(|&n| n > 0.0)
        .unwrap_or(yb_legacy::DEFAULT_NUM_ROWS)
}

/// The chosen read of one table and the estimates a join's costs read.
pub struct YbRead {
    pub plan: ScanPlan,
    /// The chosen path's cost and rows, without Sort or LIMIT.
    pub cost: Cost,
    /// The table's rows after its WHERE (`baserel->rows`): every row, unless
    /// an index condition on constants guesses fewer
    /// (`ybcIndexCostEstimate` lowers it so).
    pub rel_rows: f64,
}

/// The cheapest of a Seq Scan and `candidates` for `q` (rows `tuples`),
/// with its estimates.
pub fn choose_read(
    table: &TableInfo,
    q: &Select,
    parts: Vec<Expr>,
    candidates: &[IndexCandidate],
    system_columns: bool,
    tuples: f64,
) -> YbRead {
    let p = CostParams::default();
    let quals = cost::qual_cost(&parts, &p);
    let limit = super::choose::constant_limit(q);
    let finish = |c: &Cost, ordered: bool| -> f64 {
        let sorted = if ordered || q.order_by.is_empty() {
            *c
        } else {
            // Every row held in memory: its width only decides a spill,
            // which a table of this size never reaches.
            sort::cost(c, 32.0, limit, &p)
        };
        limit.map_or(sorted.total, |l| sort::limit(&sorted, l).total)
    };
    let seq = Read {
        selectivity: 1.0,
        backward: false,
        uncovered: false,
        partial: false,
    };
    let seq_cost = yb_legacy::scan(&seq, tuples, quals, &p);
    let mut rel_rows = tuples;
    let mut paths = vec![Weighed {
        candidate: None,
        finished: finish(&seq_cost, false),
        read: seq,
        cost: seq_cost,
    }];
    // An index with no condition, no order to give and no predicate would
    // read every row as the Seq Scan does, for no less: not weighed.
    let useful = candidates
        .iter()
        .filter(|c| c.cond.is_some() || c.direction.is_some() || c.partial);
    for c in useful.rev() {
        let read = read_of(table, c, tuples);
        let qpquals = cost::qual_cost(&c.plan(q, system_columns).filter, &p);
        let mut cost = yb_legacy::scan(&read, tuples, quals, &p);
        cost.total += yb_legacy::index_extras(&read, tuples, qpquals, 1.0, &p);
        if c.cond.is_some() {
            rel_rows = rel_rows.min(clamp_rows(cost.rows));
        }
        paths.push(Weighed {
            candidate: Some(c),
            finished: finish(&cost, c.direction.is_some()),
            read,
            cost,
        });
    }
    let cheapest = |keep: &dyn Fn(&Weighed) -> bool| {
        (0..paths.len())
            .filter(|&i| keep(&paths[i]))
            .reduce(|best, i| {
                if paths[i].cost.total < paths[best].cost.total {
                    i
                } else {
                    best
                }
            })
    };
    // What `add_path` keeps: the cheapest in total, and the cheapest read
    // that gives the ORDER BY (index paths carry no order without one).
    let mut kept = vec![cheapest(&|_| true).expect("the Seq Scan is weighed")];
    let ordered = |w: &Weighed| w.candidate.is_some_and(|c| c.direction.is_some());
    if !q.order_by.is_empty() {
        kept.extend(cheapest(&ordered).filter(|i| !kept.contains(i)));
    }
    kept.sort_unstable();
    let best = kept
        .iter()
        .copied()
        .reduce(|best, i| {
            if paths[i].finished < paths[best].finished {
                i
            } else {
                best
            }
        })
        .expect("one path kept");
    let why = sentence(table, &paths, &kept, best);
    let chosen = &paths[best];
    let mut plan = match chosen.candidate {
        Some(c) => c.plan(q, system_columns),
        None => ScanPlan {
            access: AccessPath::Seq,
            filter: super::order_keys::restriction_order(table, &parts),
            ordered: q.order_by.is_empty(),
            system_columns,
            cost: None,
            why: None,
        },
    };
    plan.why = Some(why);
    // EXPLAIN's `cost=`, `rows=` and `width=`: YugabyteDB's estimates, a
    // Sort above the read costed as PostgreSQL's.
    let width = output_width(table, q);
    let sort = (!q.order_by.is_empty() && !plan.ordered)
        .then(|| sort::cost(&chosen.cost, width, limit, &p));
    plan.cost = Some(PlanCost {
        scan: chosen.cost,
        bitmap_index: None,
        bitmap_and: None,
        width,
        sort,
        limit,
        gather: None,
    });
    YbRead {
        plan,
        cost: chosen.cost,
        rel_rows,
    }
}

/// `width=`: the typical bytes of the columns the read hands up (the
/// select list's and the ORDER BY's), as YugabyteDB's planner sizes a
/// table without statistics (`get_typavgwidth`).
fn output_width(table: &TableInfo, q: &Select) -> f64 {
    super::choose::output_columns(table, q)
        .iter()
        .filter_map(|&c| table.columns.get(c))
        .map(|(_, ty)| f64::from(crate::exec::type_width(*ty)))
        .sum()
}

/// How candidate `c` reads: the share YugabyteDB guesses from its bound key
/// columns, its direction, and whether the table must be read after it.
fn read_of(table: &TableInfo, c: &IndexCandidate, tuples: f64) -> Read {
    let index = &table.indexes[c.index];
    let primary = is_primary(table, c);
    let selectivity = match &c.cond {
        Some(KeyCond::HashCode { lower, upper }) => hash_code_share(lower, upper),
        cond => yb_legacy::index_selectivity(
            &KeyUse {
                bound: bound_keys(cond.as_ref(), index.hash_columns),
                hash_columns: index.hash_columns,
                key_columns: index.key.len(),
                unique: index.unique,
            },
            tuples,
        ),
    };
    Read {
        selectivity,
        backward: c.direction == Some(ScanDirection::Backward),
        uncovered: !primary && !c.only,
        partial: c.partial,
    }
}

/// The primary key is the table itself in DocDB: reading it is never
/// "uncovered", and EXPLAIN calls it an Index Scan.
fn is_primary(table: &TableInfo, c: &IndexCandidate) -> bool {
    primary_key(table, c.index)
}

/// Whether `index` is the table's primary key, which holds its rows.
pub fn primary_key(table: &TableInfo, index: usize) -> bool {
    let info = &table.indexes[index];
    index == 0 && info.unique && info.include.len() == table.columns.len()
}

/// "Index Scan using t_k", as EXPLAIN names the read.
fn read_name(table: &TableInfo, c: &IndexCandidate) -> String {
    let kind = if c.only && !is_primary(table, c) {
        "Index Only Scan"
    } else {
        "Index Scan"
    };
    format!("{kind} using {}", table.indexes[c.index].name)
}

/// The key positions a condition binds.
fn bound_keys(cond: Option<&KeyCond>, hash_columns: usize) -> Vec<usize> {
    match cond {
        None => Vec::new(),
        Some(KeyCond::HashKey(values)) => (0..values.len().max(hash_columns)).collect(),
        Some(KeyCond::Columns(each)) => (0..each.len()).collect(),
        Some(KeyCond::Checked { bound, checks }) => {
            let mut keys = bound_keys(bound.as_deref(), hash_columns);
            keys.extend(checks.iter().map(|(k, _)| *k));
            keys
        }
        Some(_) => vec![0],
    }
}

/// `yb_hash_code(…)` between two constants: the share of the 65 536 hash
/// values it covers (`ybcEvalHashSelectivity`); one value for an equality.
fn hash_code_share(lower: &std::ops::Bound<Expr>, upper: &std::ops::Bound<Expr>) -> f64 {
    use std::ops::Bound::*;
    let value = |b: &std::ops::Bound<Expr>, none: f64| match b {
        Included(Expr::Literal(crate::value::Value::Int(v)))
        | Excluded(Expr::Literal(crate::value::Value::Int(v))) => *v as f64,
        _ => none,
    };
    let (lo, hi) = (value(lower, 0.0), value(upper, 65_535.0));
    if lo == hi {
        return 10.0 / yb_legacy::DEFAULT_NUM_ROWS;
    }
    ((hi.min(65_535.0) - lo.max(0.0) + 1.0) / 65_536.0).clamp(0.0, 1.0)
}

/// Why the chosen path won, with the costs of the ones it beat: with their
/// Sort and LIMIT those `kept` by `add_path`, in total the others (which
/// lost on that alone).
fn sentence(table: &TableInfo, paths: &[Weighed], kept: &[usize], best: usize) -> String {
    let name = |w: &Weighed| match w.candidate {
        None => "a Seq Scan".to_string(),
        Some(c) => format!("an {}", read_name(table, c)),
    };
    let chosen = &paths[best];
    let others: Vec<Considered> = paths
        .iter()
        .enumerate()
        .filter(|(i, _)| *i != best)
        .map(|(i, w)| Considered {
            name: name(w),
            cost: if kept.contains(&i) {
                w.finished
            } else {
                w.cost.total
            },
        })
        .collect();
    let guess = match chosen.read.selectivity {
        s if s >= 1.0 => "every row".to_string(),
        _ if chosen.cost.rows <= 1.0 => "one row (an equality on every column of a unique key)".into(),
        s if (s - 0.1).abs() < 1e-12 => "a hundred rows in a thousand (a condition on part of the key: its hash columns, or some of its range columns)".into(),
        s if (s - 0.01).abs() < 1e-12 => "ten rows in a thousand (an equality on every key column)".into(),
        s => format!("about {} of {} rows", why::whole(chosen.cost.rows), why::whole(chosen.cost.rows / s)),
    };
    let mut extra = Vec::new();
    if chosen.read.uncovered {
        extra.push("fetching each row from the table after the index adds 10 %");
    }
    if chosen.read.backward {
        extra.push("reading backward adds 10 %");
    }
    if chosen
        .candidate
        .is_some_and(|c| matches!(c.cond, Some(KeyCond::Checked { .. })))
    {
        extra.push(
            "DocDB then skips: under each value of the key's first column it seeks to the second column's bound, and past the rest of that value once beyond it",
        );
    }
    let extra = if extra.is_empty() {
        String::new()
    } else {
        format!("; {}", extra.join(", "))
    };
    let what = chosen
        .candidate
        .map_or("Seq Scan".to_string(), |c| read_name(table, c));
    format!(
        "{what}: YugabyteDB's default planner reads no column statistics; its heuristic costs guess {guess} and charge ten times PostgreSQL's cost a row read through DocDB{extra} {}",
        why::costs(chosen.finished, &others)
    )
}
