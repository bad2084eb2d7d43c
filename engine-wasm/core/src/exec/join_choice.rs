//! Two-table inner joins on a profile whose planner costs paths (pg): the
//! planner ([`crate::sql::plan::join`]) picks the outer table and the method;
//! this runs a Hash Join when that is the choice (a Nested Loop runs in
//! `join.rs`, with the sides in the chosen order).

use super::hash_join::{hash_node, inner_join, HashKeys, HashTableFigures};
use super::join::{Belongs, JoinExec};
use super::nested_loop::{outer_ran, outer_read, Side};
use super::plan_node::PlanNode;
use super::plan_phase::{self, Phase};
use super::row::Row;
use crate::sql::ast::{BinOp, Expr, Order, OrderItem, Select, SelectItem};
use crate::sql::error::SqlError;
use crate::sql::eval::{bind, Scope};
use crate::sql::hints::{Hint, HintKind, JoinMethod, JoinTree, Leading};
use crate::sql::plan::cost::hash_join::table_size;
use crate::sql::plan::join::{choose, Allowed, JoinChoice, JoinSide};
use crate::sql::plan::TableInfo;
use crate::sql::rewrite::unqualify;

/// One side as the join sees it: the table, its own conditions
/// (unqualified) and the columns the query needs of it.
pub struct SideQuery<'a> {
    pub side: &'a Side,
    pub filter: &'a [Expr],
    pub items: &'a [SelectItem],
}

impl SideQuery<'_> {
    fn select(&self) -> Select {
        Select {
            items: self.items.to_vec(),
            filter: super::join::and_all(self.filter.to_vec()),
            ..Select::empty()
        }
    }
}

/// An equality between a column of each side: (first's, second's), as
/// written in `cond`.
pub(super) fn column_pair<E: JoinExec>(
    engine: &E,
    cond: &Expr,
    first: &Side,
    second: &Side,
) -> Result<Option<(Expr, Expr)>, SqlError> {
    let Expr::Binary {
        op: BinOp::Eq,
        left,
        right,
    } = cond
    else {
        return Ok(None);
    };
    let is_column = |e: &Expr| matches!(e, Expr::Column { .. });
    if !is_column(left) || !is_column(right) {
        return Ok(None);
    }
    let l = engine.belongs(left, first, second)?;
    let r = engine.belongs(right, first, second)?;
    Ok(match (l, r) {
        (Belongs::Outer, Belongs::Inner) => Some((*left.clone(), *right.clone())),
        (Belongs::Inner, Belongs::Outer) => Some((*right.clone(), *left.clone())),
        _ => None,
    })
}

/// A column's position in its table.
fn position(info: &TableInfo, e: &Expr) -> Option<usize> {
    let Expr::Column { name, .. } = e else {
        return None;
    };
    info.columns.iter().position(|(c, _)| c == name)
}

/// The indexes to look `col` up by (its first column, not partial), newest
/// first.
fn lookup_indexes(info: &TableInfo, col: usize) -> Vec<usize> {
    (0..info.indexes.len())
        .rev()
        .filter(|&n| {
            let i = &info.indexes[n];
            i.key[0].0 == col && i.predicate.is_empty() && i.hash_columns < 2
        })
        .collect()
}

/// The planner's choice for `first JOIN second ON both…`, or None when it
/// does not choose by cost (no statistics, no column equality, a derived side).
pub fn plan<E: JoinExec>(
    engine: &E,
    first: &SideQuery,
    second: &SideQuery,
    both: &[Expr],
    order_by: &[OrderItem],
    limit: Option<f64>,
) -> Result<Option<JoinChoice>, SqlError> {
    if first.side.derived.is_some() || second.side.derived.is_some() {
        return Ok(None);
    }
    let mut pairs = Vec::new();
    for c in both {
        pairs.extend(column_pair(engine, c, first.side, second.side)?);
    }
    let Some((a, b)) = pairs.first() else {
        return Ok(None);
    };
    let (ia, ib) = (
        engine.scan_info(first.side.table),
        engine.scan_info(second.side.table),
    );
    let (Some(ka), Some(kb)) = (position(&ia, a), position(&ib, b)) else {
        return Ok(None);
    };
    let (qa, qb) = (first.select(), second.select());
    let sa = JoinSide {
        table: &ia,
        query: &qa,
        key: ka,
        lookups: lookup_indexes(&ia, ka),
    };
    let sb = JoinSide {
        table: &ib,
        query: &qb,
        key: kb,
        lookups: lookup_indexes(&ib, kb),
    };
    let allowed = allowed(engine.join_hints(), &first.side.name, &second.side.name);
    let by_key = match order_by {
        [o] if o.order == Order::Asc && !o.nulls_come_first() => {
            let side = |e: &Expr| -> Result<Option<(Belongs, String)>, SqlError> {
                let Expr::Column { name, .. } = e else {
                    return Ok(None);
                };
                Ok(Some((
                    engine.belongs(e, first.side, second.side)?,
                    name.clone(),
                )))
            };
            let wanted = side(&o.expr)?;
            wanted.is_some() && (wanted == side(a)? || wanted == side(b)?)
        }
        _ => false,
    };
    // A LIMIT counts in the choice when the join's own order is the one
    // handed out: no ORDER BY, or one on the join key.
    let limit = limit.filter(|_| order_by.is_empty() || by_key);
    choose(&sa, &sb, pairs.len(), allowed, by_key, limit)
}

/// What the hints say about the join of `a` and `b` (relations named as the
/// query names them).
fn allowed(hints: &[Hint], a: &str, b: &str) -> Allowed {
    let mut out = Allowed::default();
    let pair = |rels: &[String]| {
        rels.len() == 2 && rels.iter().any(|r| r == a) && rels.iter().any(|r| r == b)
    };
    for h in hints {
        match &h.kind {
            HintKind::Join {
                method,
                negated,
                relations,
            } if pair(relations) => match (method, negated) {
                (JoinMethod::NestLoop, false) => {
                    (out.nest_loop, out.hash, out.merge) = (true, false, false)
                }
                (JoinMethod::HashJoin, false) => {
                    (out.nest_loop, out.hash, out.merge) = (false, true, false)
                }
                (JoinMethod::MergeJoin, false) => {
                    (out.nest_loop, out.hash, out.merge) = (false, false, true)
                }
                (JoinMethod::NestLoop, true) => out.nest_loop = false,
                (JoinMethod::HashJoin, true) => out.hash = false,
                (JoinMethod::MergeJoin, true) => out.merge = false,
                _ => {}
            },
            HintKind::Leading(Leading::Tree(JoinTree::Join(o, i))) => {
                if let (JoinTree::Relation(o), JoinTree::Relation(i)) = (o.as_ref(), i.as_ref()) {
                    if pair(&[o.clone(), i.clone()]) {
                        out.swapped = Some(o == b);
                    }
                }
            }
            _ => {}
        }
    }
    out
}

/// Runs the Hash Join: `outer` probes a hash table of `inner`'s rows.
/// Returns the join's node and its rows (outer's columns, then inner's).
pub fn run_hash<E: JoinExec>(
    engine: &mut E,
    (outer, inner): (&SideQuery, &SideQuery),
    both: &[Expr],
    choice: &JoinChoice,
    passed_up: &[usize],
    (execute, limit): (bool, Option<u64>),
) -> Result<(PlanNode, Vec<Row>), SqlError> {
    let start = engine.now_us();
    let only_planned = (!execute).then_some(0);
    let (oinfo, iinfo) = (
        engine.scan_info(outer.side.table),
        engine.scan_info(inner.side.table),
    );
    let (mut hash_keys, mut shown, mut rest) = (
        HashKeys {
            outer: Vec::new(),
            inner: Vec::new(),
            filter: Vec::new(),
        },
        Vec::new(),
        Vec::new(),
    );
    let own = |s: &Side| Scope {
        columns: engine
            .planner_info(s.table)
            .columns
            .into_iter()
            .map(|(c, ty)| (s.name.clone(), c, ty))
            .collect(),
    };
    let (oscope, iscope) = (own(outer.side), own(inner.side));
    for c in both {
        match column_pair(engine, c, outer.side, inner.side)? {
            Some((o, i)) => {
                hash_keys.outer.push(bind(&unqualify(&o), &oscope)?);
                hash_keys.inner.push(bind(&unqualify(&i), &iscope)?);
                shown.push(Expr::Binary {
                    op: BinOp::Eq,
                    left: Box::new(o),
                    right: Box::new(i),
                });
            }
            None => rest.push(c.clone()),
        }
    }
    let scope = engine.join_scope(outer.side, inner.side);
    hash_keys.filter = rest
        .iter()
        .map(|e| bind(e, &scope))
        .collect::<Result<_, _>>()?;
    // PostgreSQL reads the inner side first (the Hash), then the outer.
    let (outer_plan, inner_plan) = &*choice.reads;
    let inner_out = engine.run_scan(inner.side.table, inner_plan, only_planned)?;
    let (stored, tuple_bytes) = hashed(engine, &inner_out, &hash_keys.inner, passed_up, &iinfo)?;
    // yb: YugabyteDB's query layer sizes the table as PostgreSQL does, with
    // the default settings.
    let defaults = crate::sql::plan::cost::CostParams::default();
    let params = iinfo.stats.as_ref().map_or(&defaults, |s| &s.params);
    let figures = match inner_plan.cost {
        Some(cost) if execute => {
            let (buckets, batches) = table_size(cost.scan.rows, cost.width, params);
            Some(HashTableFigures {
                planned_buckets: buckets,
                batches,
                rows: stored,
                tuple_bytes,
            })
        }
        _ => None,
    };
    if execute {
        let detail = figures.as_ref().map(HashTableFigures::detail);
        plan_phase::record(
            engine,
            Phase::of("Hash Join", "build", &inner.side.name),
            (inner_out.rows.len() as u64, stored),
            detail.unwrap_or_default(),
        );
    }
    // The outer side is probed row by row: under a LIMIT, only until it is met.
    let outer_read = outer_read(engine, outer.side.table, outer_plan, (execute, limit, 1))?;
    let inner_rows: Vec<Row> = inner_out.rows.iter().map(|(_, r)| r.clone()).collect();
    let max_rows = engine.settings().max_rows() as u64;
    let (joined, taken) = inner_join(
        engine,
        (&outer_read.rows, &inner_rows),
        &hash_keys,
        (max_rows, limit),
    )?;
    let reached = limit.is_some_and(|l| joined.len() as u64 >= l);
    let outer_out = outer_ran(
        engine,
        outer.side.table,
        outer_plan,
        outer_read,
        (reached, taken),
    )?;
    if execute {
        plan_phase::record(
            engine,
            Phase::of("Hash Join", "probe", &outer.side.name),
            (outer_out.rows.len() as u64, joined.len() as u64),
            String::new(),
        );
    }
    let (mut onode, mut inode) = (outer_out.node, inner_out.node);
    super::join::alias_title(&mut onode, &oinfo.name, &outer.side.name);
    super::join::alias_title(&mut inode, &iinfo.name, &inner.side.name);
    let hash = hash_node(inode, figures.as_ref());
    let shown: Vec<String> = shown.iter().map(crate::sql::deparse::deparse).collect();
    let mut details = vec![format!(
        "Hash Cond: {}",
        super::join_chain::wrap_and(&shown)
    )];
    details.extend(
        rest.iter()
            .map(|e| format!("Join Filter: {}", crate::sql::deparse::deparse(e))),
    );
    let times = (hash.last_us, engine.now_us() - start);
    let names = (outer.side.name.as_str(), inner.side.name.as_str());
    let node = join_node(
        "Hash Join",
        details,
        joined.len(),
        [onode, hash],
        times,
        choice,
        names,
    );
    Ok((node, joined))
}

/// The inner rows the Hash stores (a NULL key is not stored) and the bytes
/// of their minimal tuples: only the columns `needed` above the join.
fn hashed<E: JoinExec>(
    engine: &mut E,
    inner: &super::engine::ScanOutput,
    keys: &[crate::sql::eval::Bound],
    needed: &[usize],
    info: &TableInfo,
) -> Result<(u64, u64), SqlError> {
    let types: Vec<_> = needed.iter().map(|c| info.columns[*c].1).collect();
    let (mut rows, mut tuple_bytes) = (0, 0);
    for (_, r) in &inner.rows {
        if super::hash_join::join_key(engine, keys, r)?.is_some() {
            let values: Vec<_> = needed.iter().map(|c| r[*c].clone()).collect();
            rows += 1;
            tuple_bytes += engine.minimal_tuple_len(&values, &types);
        }
    }
    Ok((rows, tuple_bytes))
}

/// A two-table join's node over its outer and inner inputs: their
/// buffers, the planner's estimate and why it chose the join; `times` its
/// first and last row's.
pub(super) fn join_node(
    title: &str,
    details: Vec<String>,
    rows: usize,
    [outer, inner]: [PlanNode; 2],
    (first_us, last_us): (f64, f64),
    choice: &JoinChoice,
    (outer_name, inner_name): (&str, &str),
) -> PlanNode {
    let mut buffers = outer.buffers;
    buffers.add(&inner.buffers);
    PlanNode {
        title: title.into(),
        details,
        rows: rows as u64,
        loops: 1,
        first_us,
        last_us,
        buffers,
        est_cost: (choice.cost.startup, choice.cost.total),
        est_rows: choice.cost.rows,
        costed: true,
        why: Some(choice.why(outer_name, inner_name)),
        width: outer.width + inner.width,
        children: vec![outer, inner],
        ..PlanNode::default()
    }
}

/// The columns of `side` the join passes up, in the order of PostgreSQL's
/// target list (what a Hash stores, and so its memory): those the select
/// list and ORDER BY name, in order, then those the join's conditions read.
pub fn passed_up<E: JoinExec>(
    engine: &E,
    q: &Select,
    both: &[Expr],
    side: &Side,
    (first, second): (&Side, &Side),
) -> Vec<usize> {
    let info = engine.planner_info(side.table);
    let mut refs = Vec::new();
    for item in &q.items {
        match item {
            SelectItem::Wildcard => {
                for s in [first, second] {
                    let cols = engine.planner_info(s.table).columns;
                    refs.extend(cols.into_iter().map(|(c, _)| (Some(s.name.clone()), c)));
                }
            }
            SelectItem::Expr { expr, .. } => crate::sql::rewrite::column_refs(expr, &mut refs),
        }
    }
    for e in q.order_by.iter().map(|o| &o.expr).chain(both) {
        crate::sql::rewrite::column_refs(e, &mut refs);
    }
    let mut out = Vec::new();
    for (table, name) in refs {
        let mine = match table.as_deref() {
            Some(t) => t == side.name,
            None if engine.has_column(first, &name) => first.name == side.name,
            None => second.name == side.name,
        };
        let col = info.columns.iter().position(|(c, _)| *c == name);
        if let (true, Some(c)) = (mine, col) {
            if !out.contains(&c) {
                out.push(c);
            }
        }
    }
    out
}

/// The join's `width=`: the bytes of the columns the query needs above the
/// join (its select list and ORDER BY), not those only the join or a side's
/// filter reads. None without statistics.
pub fn output_width<E: JoinExec>(
    engine: &E,
    q: &Select,
    using: &[String],
    first: &Side,
    second: &Side,
) -> Option<u32> {
    let infos = [
        engine.scan_info(first.table),
        engine.scan_info(second.table),
    ];
    let widths: Vec<&Vec<u32>> = infos
        .iter()
        .map(|i| i.stats.as_ref().map(|s| &s.relation.column_widths))
        .collect::<Option<_>>()?;
    let mut refs = Vec::new();
    for item in &q.items {
        match item {
            SelectItem::Wildcard => {
                // A USING column is one column of the join: the first side's.
                for (n, (side, info)) in [first, second].iter().zip(&infos).enumerate() {
                    let columns =
                        (info.columns.iter()).filter(|(c, _)| n == 0 || !using.contains(c));
                    refs.extend(columns.map(|(c, _)| (Some(side.name.clone()), c.clone())));
                }
            }
            SelectItem::Expr { expr, .. } => crate::sql::rewrite::column_refs(expr, &mut refs),
        }
    }
    for o in &q.order_by {
        crate::sql::rewrite::column_refs(&o.expr, &mut refs);
    }
    let mut seen = Vec::new();
    for (table, name) in refs {
        let side = match table.as_deref() {
            Some(t) if t == first.name => 0,
            Some(t) if t == second.name => 1,
            Some(_) => continue,
            None if infos[0].column_position(&name).is_some() => 0,
            None => 1,
        };
        if let Some(col) = infos[side].columns.iter().position(|(c, _)| *c == name) {
            if !seen.contains(&(side, col)) {
                seen.push((side, col));
            }
        }
    }
    Some(
        seen.iter()
            .map(|&(s, c)| widths[s].get(c).copied().unwrap_or(0))
            .sum(),
    )
}
