//! Grouping queries: aggregates (`count(*)`, `sum`, `avg`, `min`, `max`, with
//! DISTINCT), GROUP BY, HAVING and SELECT DISTINCT, as PostgreSQL's Agg node
//! runs them (`nodeAgg.c`): the rows come from the query below it, each row
//! goes to its group, each group folds its rows into one transition state per
//! aggregate, and the groups become the rows the rest of the query sees.
//!
//! The query is split in two, the way PostgreSQL's planner splits it:
//! - the **input**: the same FROM, joins and WHERE, whose select list is just
//!   the group keys and the aggregates' arguments, run by the ordinary
//!   executor (so its scan is planned and counted as any other);
//! - the **grouping** on top: the select list, HAVING and ORDER BY rewritten
//!   to read the group row (`[keys…, aggregate results…]`).
//!
//! A column that is neither grouped nor inside an aggregate is PostgreSQL's
//! error, found by the rewrite.

pub mod accumulate;
mod parallel;
mod parallel_group;
mod pushdown;
mod strategy;

use super::engine::PlannedRead;
use super::executor::Executor;
use super::plan_node::{set_cost, PlanNode};
use super::select::{apply_offset_limit, sql_order, QueryResult};
use crate::sql::ast::{Expr, OrderItem, Select, SelectItem};
use crate::sql::deparse::deparse;
use crate::sql::error::{unsupported, ErrorKind, SqlError};
use crate::sql::eval::{bind, Scope};
use crate::sql::plan::cost::aggregate::Strategy;
use crate::value::{SqlType, Value};
use accumulate::{Accumulator, GroupKey};
use std::collections::HashMap;

/// Runs a query that groups rows (see [`Select::groups`]).
pub fn run_grouped<E: Executor>(
    engine: &mut E,
    q: &Select,
    execute: bool,
) -> Result<(PlanNode, QueryResult), SqlError> {
    let has_aggregates = q.items.iter().any(|i| match i {
        SelectItem::Expr { expr, .. } => expr.has_aggregate(),
        SelectItem::Wildcard => false,
    }) || q.having.as_ref().is_some_and(Expr::has_aggregate)
        || q.order_by.iter().any(|o| o.expr.has_aggregate());
    if q.group_by.is_empty() && !has_aggregates && q.having.is_none() {
        return run_distinct(engine, q, execute);
    }
    let moved = having_to_where(q);
    if moved.is_some() {
        // A HAVING that names an ungrouped column is an error before any
        // part of it moves.
        GroupPlan::new(q)?;
    }
    let q = moved.as_ref().unwrap_or(q);
    let plan = GroupPlan::new(q)?;
    let input = Select {
        items: plan.input_items(),
        group_by: Vec::new(),
        having: None,
        distinct: false,
        order_by: Vec::new(),
        limit: None,
        offset: None,
        ..q.clone()
    };
    // The arguments' types decide sum()'s result (bigint or numeric); a
    // query the typer does not know leaves them unknown.
    let input_types: Vec<SqlType> = super::types::output_columns(engine, &input)
        .map(|cols| cols.into_iter().map(|(_, ty)| ty).collect())
        .unwrap_or_default();
    // The statement's own aggregate query may be computed in parts.
    let parallel = engine.take_gather(q);
    let planned = strategy::plan(engine, q, &plan, &input, &input_types, parallel)?;
    let input = match &planned {
        Some(p) if p.choice.strategy == Strategy::Sorted && p.parallel_group.is_none() => Select {
            order_by: p.input_order.clone(),
            ..input
        },
        _ => input,
    };
    let stop = planned.as_ref().and_then(|p| p.group_stop(q, &plan));
    let read = planned
        .as_ref()
        .and_then(|p| p.read.clone())
        .map(|plan| PlannedRead {
            plan,
            stop: stop.clone(),
        });
    let plain_order = crate::sql::plan::order_keys::without_constant_keys(&input).is_none();
    engine.offer_aggregate_pushdown(
        !plan.grouped && one_plain_table(q) && pushdown::pushable(&plan.aggregates, &input_types),
    );
    let ran = match &read {
        Some(read) if plain_order => {
            super::executor::one_table(engine, &input, execute, Some(read))
        }
        _ => engine.run_select(&input, execute),
    };
    engine.offer_aggregate_pushdown(false);
    let (child, rows) = ran?;
    // The scan took the aggregates: what comes up is one partial row a
    // read request, which this node combines.
    let pushed = child.details.iter().any(|d| d == "Partial Aggregate: true");
    let child = match planned.as_ref() {
        Some(strategy::Planned {
            parallel: Some(par),
            ..
        }) => par.restack(child),
        Some(strategy::Planned {
            parallel_group: Some(par),
            ..
        }) => par.restack(child, &rows.rows, &plan),
        _ => child,
    };
    let start = engine.now_us();
    let mut groups = plan.fold(&rows.rows, &input_types)?;
    // A Finalize GroupAggregate hands its groups up in key order.
    if let Some(par) = planned.as_ref().and_then(|p| p.parallel_group.as_ref()) {
        if par.choice.strategy == Strategy::Sorted {
            parallel_group::in_key_order(&mut groups, plan.keys.len());
        }
    }
    let folded = if pushed {
        child.rows
    } else {
        rows.rows.len() as u64
    };
    engine.advance_us(
        folded as f64 * plan.aggregates.len().max(1) as f64 * engine.cost().cpu_operator_us,
    );
    let scope = plan.group_scope(&groups);
    let mut env_rows = Vec::new();
    let having = plan.having.as_ref().map(|h| bind(h, &scope)).transpose()?;
    let mut removed = 0u64;
    for g in groups {
        if let Some(h) = &having {
            if engine.eval_bound(h, &g)? != Value::Bool(true) {
                removed += 1;
                continue;
            }
        }
        env_rows.push(g);
    }
    let mut node = plan.node(
        child,
        env_rows.len() as u64,
        removed,
        start,
        engine.now_us(),
    );
    if pushed {
        node.title = format!("Finalize {}", node.title);
    }
    if let Some(p) = &planned {
        p.annotate(&mut node, &plan);
    } else if let Some(c) = (node.children.first())
        .and_then(|child| strategy::plain_over(engine, q, &plan, &input_types, child))
    {
        set_cost(&mut node, &c);
    }
    if let (Some(stop), true) = (&stop, plain_order) {
        // The group its last row began was never handed up.
        node.rows = node.rows.min(stop.groups);
    }
    let (columns, exprs) = plan.outputs(&scope)?;
    let mut out = Vec::with_capacity(env_rows.len());
    for g in &env_rows {
        let row = exprs
            .iter()
            .map(|e| engine.eval_bound(e, g))
            .collect::<Result<Vec<_>, _>>()?;
        out.push((row, g.clone()));
    }
    if q.distinct {
        dedupe_by(&mut out, |(row, _)| row)?;
    }
    if !plan.order_by.is_empty() {
        let keys = plan
            .order_by
            .iter()
            .map(|o| Ok((bind(&o.expr, &scope)?, o.order, o.nulls_come_first())))
            .collect::<Result<Vec<_>, SqlError>>()?;
        let mut keyed = Vec::with_capacity(out.len());
        for (row, g) in out {
            let k = keys
                .iter()
                .map(|(e, ..)| engine.eval_bound(e, &g))
                .collect::<Result<Vec<_>, _>>()?;
            keyed.push((k, (row, g)));
        }
        keyed.sort_by(|(a, _), (b, _)| {
            keys.iter()
                .enumerate()
                .map(|(i, (_, ord, nf))| sql_order(&a[i], &b[i], *ord, *nf))
                .find(|c| c.is_ne())
                .unwrap_or(std::cmp::Ordering::Equal)
        });
        out = keyed.into_iter().map(|(_, r)| r).collect();
        // A GroupAggregate in the ORDER BY's order needs no Sort (its rows
        // were already in order; the stable sort above kept them so).
        match &planned {
            Some(p) if p.choice.sort.is_none() => {}
            _ => {
                let written: Vec<OrderItem> = plan
                    .order_by
                    .iter()
                    .map(|o| OrderItem {
                        expr: plan.readable(&o.expr),
                        ..o.clone()
                    })
                    .collect();
                node = sort_node(node, &written);
                if let Some(sort) = planned.as_ref().and_then(|p| p.choice.sort) {
                    set_cost(&mut node, &sort);
                }
            }
        }
    }
    let mut rows: Vec<Vec<Value>> = out.into_iter().map(|(r, _)| r).collect();
    node = apply_offset_limit(engine, node, &mut rows, q)?;
    if let Some(p) = &planned {
        p.annotate_limit(&mut node, q);
    }
    Ok((node, QueryResult { columns, rows }))
}

/// `q` with the parts of its HAVING that hold no aggregate moved to its
/// WHERE, as PostgreSQL's `subquery_planner` moves them under a GROUP BY:
/// they check the group key, so they may as well check each row before it
/// is grouped (and an index may find those rows). A volatile function or a
/// subquery stays in HAVING. None when nothing moves.
fn having_to_where(q: &Select) -> Option<Select> {
    let having = q.having.as_ref().filter(|_| !q.group_by.is_empty())?;
    let mut parts = Vec::new();
    crate::sql::plan::conjuncts(having, &mut parts);
    let subquery = |e: &Expr| {
        let mut found = false;
        e.visit(&mut |x| {
            found |= matches!(
                x,
                Expr::ScalarSubquery(_) | Expr::Exists { .. } | Expr::InSubquery { .. }
            );
        });
        found
    };
    let (kept, moved): (Vec<Expr>, Vec<Expr>) = parts
        .into_iter()
        .partition(|e| e.has_aggregate() || super::executor::is_volatile(e) || subquery(e));
    if moved.is_empty() {
        return None;
    }
    let and = |list: Vec<Expr>| super::join::and_all(list);
    Some(Select {
        filter: and(q.filter.iter().cloned().chain(moved).collect()),
        having: and(kept),
        ..q.clone()
    })
}

/// A query reading one table by name, with no subquery whose scans would
/// run first: the next scan is its own.
fn one_plain_table(q: &Select) -> bool {
    let subquery = |e: &Expr| {
        let mut found = false;
        e.visit(&mut |x| {
            found |= matches!(
                x,
                Expr::ScalarSubquery(_) | Expr::Exists { .. } | Expr::InSubquery { .. }
            );
        });
        found
    };
    let items = q.items.iter().any(|i| match i {
        SelectItem::Expr { expr, .. } => subquery(expr),
        SelectItem::Wildcard => false,
    });
    matches!(q.from.as_slice(), [crate::sql::ast::FromItem::Table { .. }])
        && q.joins.is_empty()
        && !items
        && !q.filter.as_ref().is_some_and(subquery)
        && !q.having.as_ref().is_some_and(subquery)
}

/// `SELECT DISTINCT …` without aggregates: the query's own rows, each kept
/// once, by a HashAggregate on every output column or (chosen by cost on
/// pg) a Unique over the rows in order.
fn run_distinct<E: Executor>(
    engine: &mut E,
    q: &Select,
    execute: bool,
) -> Result<(PlanNode, QueryResult), SqlError> {
    let positions = q
        .order_by
        .iter()
        .map(|o| {
            q.items
                .iter()
                .position(|i| matches!(i, SelectItem::Expr { expr, .. } if *expr == o.expr))
                .ok_or_else(|| {
                    SqlError::new(
                        ErrorKind::Semantic,
                        "for SELECT DISTINCT, ORDER BY expressions must appear in select list",
                    )
                })
        })
        .collect::<Result<Vec<_>, _>>()?;
    let input = Select {
        distinct: false,
        order_by: Vec::new(),
        limit: None,
        offset: None,
        ..q.clone()
    };
    let planned = strategy::plan_distinct(engine, q, &input)?;
    let sorted = planned
        .as_ref()
        .filter(|p| p.choice.strategy == Strategy::Sorted);
    let input = match sorted {
        Some(p) => Select {
            order_by: p.input_order.clone(),
            ..input
        },
        None => input,
    };
    let stop = sorted.and_then(|p| p.stop(q));
    let read = sorted.and_then(|p| p.read.clone()).map(|plan| PlannedRead {
        plan,
        stop: stop.clone(),
    });
    let plain_order = crate::sql::plan::order_keys::without_constant_keys(&input).is_none();
    let (child, mut result) = match &read {
        Some(read) if plain_order => {
            super::executor::one_table(engine, &input, execute, Some(read))?
        }
        _ => engine.run_select(&input, execute)?,
    };
    let before = result.rows.len();
    dedupe_by(&mut result.rows, |r| r)?;
    let keys: Vec<String> = q
        .items
        .iter()
        .map(|i| match i {
            SelectItem::Expr { expr, .. } => deparse(expr),
            SelectItem::Wildcard => "*".into(),
        })
        .collect();
    let mut node = match sorted {
        // A Unique compares each row with the last: no key line.
        Some(_) => above("Unique", Vec::new(), result.rows.len() as u64, child),
        None => above(
            "HashAggregate",
            vec![format!("Group Key: {}", keys.join(", "))],
            result.rows.len() as u64,
            child,
        ),
    };
    if let (Some(stop), true) = (&stop, plain_order) {
        // The row that began the next distinct value was never handed up.
        node.rows = node.rows.min(stop.groups);
    }
    if let Some(p) = &planned {
        set_cost(&mut node, &p.choice.agg);
        node.why = Some(p.why.clone());
        if let Some(cost) = &p.result {
            node = above("Result", Vec::new(), node.rows, node);
            set_cost(&mut node, cost);
        }
    }
    engine.advance_us(before as f64 * engine.cost().cpu_operator_us);
    if !q.order_by.is_empty() {
        for row in &result.rows {
            accumulate::check_sortable(positions.iter().map(|p| &row[*p]))?;
        }
        result.rows.sort_by(|a, b| {
            positions
                .iter()
                .zip(&q.order_by)
                .map(|(p, o)| sql_order(&a[*p], &b[*p], o.order, o.nulls_come_first()))
                .find(|c| c.is_ne())
                .unwrap_or(std::cmp::Ordering::Equal)
        });
        // A Unique's rows were already in this order.
        if sorted.is_none() {
            node = sort_node(node, &q.order_by);
            if let Some(sort) = planned.as_ref().and_then(|p| p.choice.sort) {
                set_cost(&mut node, &sort);
            }
        }
    }
    node = apply_offset_limit(engine, node, &mut result.rows, q)?;
    if let (Some(p), Some(l), "Limit") = (&planned, q.limit.as_ref(), node.title.as_str()) {
        if let (Expr::Literal(Value::Int(n)), None) = (l, &q.offset) {
            let top = p.result.unwrap_or(p.choice.top());
            let limited = crate::sql::plan::cost::sort::limit(&top, *n as f64);
            set_cost(&mut node, &limited);
        }
    }
    Ok((node, result))
}

/// Keeps the first of each run of equal items (equal as GROUP BY sees them:
/// NULLs are one group), in their order.
fn dedupe_by<T>(items: &mut Vec<T>, key: impl Fn(&T) -> &Vec<Value>) -> Result<(), SqlError> {
    let mut seen = std::collections::HashSet::new();
    let mut keys = Vec::with_capacity(items.len());
    for item in items.iter() {
        keys.push(GroupKey::checked(key(item))?);
    }
    let mut keys = keys.into_iter();
    items.retain(|_| seen.insert(keys.next().expect("one key per item")));
    Ok(())
}

pub(super) fn sort_node(child: PlanNode, order: &[OrderItem]) -> PlanNode {
    let keys: Vec<String> = order
        .iter()
        .map(|o| {
            // EXPLAIN brackets a sort key that is not a plain column.
            let d = match &o.expr {
                Expr::Column { .. } => deparse(&o.expr),
                e => format!("({})", deparse(e)),
            };
            if o.order == crate::sql::ast::Order::Desc {
                format!("{d} DESC")
            } else {
                d
            }
        })
        .collect();
    let kb = (child.rows * u64::from(child.width + 24))
        .div_ceil(1024)
        .max(25);
    let rows = child.rows;
    let details = vec![
        format!("Sort Key: {}", keys.join(", ")),
        format!("Sort Method: quicksort  Memory: {kb}kB"),
    ];
    above("Sort", details, rows, child)
}

/// A node that takes its child's rows whole before giving its first (a
/// sort, a hash aggregate): its time is the child's end, its buffers the
/// child's.
fn above(title: &str, details: Vec<String>, rows: u64, child: PlanNode) -> PlanNode {
    PlanNode {
        title: title.into(),
        details,
        rows,
        loops: 1,
        first_us: child.last_us,
        last_us: child.last_us,
        buffers: child.buffers,
        est_cost: child.est_cost,
        est_rows: child.est_rows,
        width: child.width,
        children: vec![child],
        ..PlanNode::default()
    }
}

/// The grouping half of a query: its keys, its distinct aggregates, and the
/// select list, HAVING and ORDER BY rewritten over the group row.
struct GroupPlan {
    keys: Vec<Expr>,
    aggregates: Vec<Expr>,
    items: Vec<(Expr, Option<String>)>,
    having: Option<Expr>,
    order_by: Vec<OrderItem>,
    grouped: bool,
}

/// The name of the group row's column `i` (never a name SQL can write).
fn key_column(i: usize) -> Expr {
    Expr::Column {
        table: None,
        name: format!("#key{i}"),
    }
}

fn aggregate_column(i: usize) -> Expr {
    Expr::Column {
        table: None,
        name: format!("#agg{i}"),
    }
}

impl GroupPlan {
    fn new(q: &Select) -> Result<GroupPlan, SqlError> {
        let mut plan = GroupPlan {
            keys: q.group_by.clone(),
            aggregates: Vec::new(),
            items: Vec::new(),
            having: None,
            order_by: Vec::new(),
            grouped: !q.group_by.is_empty(),
        };
        for k in &plan.keys {
            if k.has_aggregate() {
                return Err(SqlError::new(
                    ErrorKind::Semantic,
                    "aggregate functions are not allowed in GROUP BY",
                ));
            }
        }
        for item in &q.items {
            match item {
                SelectItem::Wildcard => {
                    return Err(unsupported(
                        "SELECT * in a query with GROUP BY or aggregates (name the columns)",
                    ))
                }
                SelectItem::Expr { expr, alias } => {
                    crate::sql::eval::reject_numeric_output(expr)?;
                    let name = alias.clone().or_else(|| match expr {
                        Expr::Aggregate { func, .. } => Some(func.name().to_string()),
                        _ => None,
                    });
                    let e = plan.rewrite(expr)?;
                    plan.items
                        .push((e, name.or_else(|| Some(super::select::output_name(expr)))));
                }
            }
        }
        plan.having = q.having.as_ref().map(|h| plan.rewrite(h)).transpose()?;
        plan.order_by = q
            .order_by
            .iter()
            .map(|o| {
                Ok(OrderItem {
                    expr: plan.rewrite(&o.expr)?,
                    ..o.clone()
                })
            })
            .collect::<Result<_, SqlError>>()?;
        Ok(plan)
    }

    /// `e` over the group row: a group key becomes its column, an aggregate its
    /// result's; any other column is PostgreSQL's error.
    fn rewrite(&mut self, e: &Expr) -> Result<Expr, SqlError> {
        let mut error = None;
        let keys = self.keys.clone();
        let out = e.map(&mut |x| {
            if let Some(i) = keys.iter().position(|k| k == x) {
                return Some(key_column(i));
            }
            match x {
                Expr::Aggregate { arg, filter, .. } => {
                    if arg.as_ref().is_some_and(|a| a.has_aggregate()) {
                        error.get_or_insert(SqlError::new(
                            ErrorKind::Semantic,
                            "aggregate function calls cannot be nested",
                        ));
                    }
                    if filter.as_ref().is_some_and(|f| f.has_aggregate()) {
                        error.get_or_insert(SqlError::new(
                            ErrorKind::Semantic,
                            "aggregate functions are not allowed in FILTER",
                        ));
                    }
                    let i = match self.aggregates.iter().position(|a| a == x) {
                        Some(i) => i,
                        None => {
                            self.aggregates.push(x.clone());
                            self.aggregates.len() - 1
                        }
                    };
                    Some(aggregate_column(i))
                }
                Expr::Column { table, name } if !name.starts_with('#') => {
                    let full = table.as_ref().map_or(name.clone(), |t| format!("{t}.{name}"));
                    error.get_or_insert(
                        SqlError::new(
                            ErrorKind::Semantic,
                            format!(
                                "column \"{full}\" must appear in the GROUP BY clause or be used in an aggregate function"
                            ),
                        )
                        .near(name.clone()),
                    );
                    None
                }
                _ => None,
            }
        });
        match error {
            Some(e) => Err(e),
            None => Ok(out),
        }
    }

    /// The input query's select list: the keys, then each aggregate's argument.
    fn input_items(&self) -> Vec<SelectItem> {
        let args = self.aggregates.iter().filter_map(|a| match a {
            Expr::Aggregate { arg: Some(arg), .. } => Some((**arg).clone()),
            _ => None,
        });
        // Then each call's sort keys (`string_agg(v, ',' ORDER BY k)`).
        let sort_keys = self.aggregates.iter().flat_map(|a| match a {
            Expr::Aggregate { order_by, .. } => order_by.iter().map(|o| o.expr.clone()).collect(),
            _ => Vec::new(),
        });
        // Then each FILTER's condition.
        let filters = self.aggregates.iter().filter_map(|a| match a {
            Expr::Aggregate {
                filter: Some(f), ..
            } => Some((**f).clone()),
            _ => None,
        });
        self.keys
            .iter()
            .cloned()
            .chain(args)
            .chain(sort_keys)
            .chain(filters)
            .map(|expr| SelectItem::Expr { expr, alias: None })
            .collect()
    }

    /// Folds the input rows into groups: `[keys…, aggregate results…]` each,
    /// in the order each group first appeared.
    fn fold(
        &self,
        rows: &[Vec<Value>],
        input_types: &[SqlType],
    ) -> Result<Vec<Vec<Value>>, SqlError> {
        let n = self.keys.len();
        let mut next_arg = n;
        let arg_types: Vec<Option<SqlType>> = self
            .aggregates
            .iter()
            .map(|call| match call {
                Expr::Aggregate { arg: Some(_), .. } => {
                    next_arg += 1;
                    input_types.get(next_arg - 1).copied()
                }
                _ => None,
            })
            .collect();
        let sort_keys: usize = self
            .aggregates
            .iter()
            .map(|call| match call {
                Expr::Aggregate { order_by, .. } => order_by.len(),
                _ => 0,
            })
            .sum();
        let mut index: HashMap<GroupKey, usize> = HashMap::new();
        let mut groups: Vec<(Vec<Value>, Vec<Accumulator>)> = Vec::new();
        let fresh = || -> Vec<Accumulator> {
            self.aggregates
                .iter()
                .zip(&arg_types)
                .map(|(call, ty)| Accumulator::for_call(call, *ty))
                .collect()
        };
        if !self.grouped {
            // No GROUP BY: one group, even over no rows (`count(*)` is 0).
            groups.push((Vec::new(), fresh()));
        }
        for row in rows {
            let g = if self.grouped {
                let key = row[..n].to_vec();
                *index.entry(GroupKey::checked(&key)?).or_insert_with(|| {
                    groups.push((key, fresh()));
                    groups.len() - 1
                })
            } else {
                0
            };
            let mut arg = n;
            let mut key = next_arg;
            let mut filter = next_arg + sort_keys;
            for acc in &mut groups[g].1 {
                let value = if acc.takes_argument() {
                    arg += 1;
                    Some(&row[arg - 1])
                } else {
                    None
                };
                let keys = &row[key..key + acc.sort_keys()];
                key += acc.sort_keys();
                if acc.takes_filter() {
                    filter += 1;
                    // Only a row the condition holds for (not NULL) counts.
                    match &row[filter - 1] {
                        Value::Bool(true) => {}
                        Value::Bool(false) | Value::Null => continue,
                        other => {
                            return Err(SqlError::new(
                                ErrorKind::Semantic,
                                format!(
                                    "argument of FILTER must be type boolean, not type {}",
                                    crate::sql::functions::type_name(other)
                                ),
                            ))
                        }
                    }
                }
                acc.add_sorted(value, keys)?;
            }
        }
        groups
            .into_iter()
            .map(|(mut key, accs)| {
                for a in accs {
                    key.push(a.finish()?);
                }
                Ok(key)
            })
            .collect()
    }

    /// The group row's columns, typed from the values they hold (a type only
    /// matters to binding where a quoted literal meets the column).
    fn group_scope(&self, groups: &[Vec<Value>]) -> Scope {
        let width = self.keys.len() + self.aggregates.len();
        let columns = (0..width)
            .map(|i| {
                let name = if i < self.keys.len() {
                    format!("#key{i}")
                } else {
                    format!("#agg{}", i - self.keys.len())
                };
                let ty = groups
                    .iter()
                    .map(|g| &g[i])
                    .find(|v| !v.is_null())
                    .map_or(SqlType::Int8, value_type);
                (String::new(), name, ty)
            })
            .collect();
        Scope { columns }
    }

    fn outputs(
        &self,
        scope: &Scope,
    ) -> Result<(Vec<String>, Vec<crate::sql::eval::Bound>), SqlError> {
        let names = self
            .items
            .iter()
            .map(|(_, n)| n.clone().unwrap_or_else(|| "?column?".into()))
            .collect();
        let exprs = self
            .items
            .iter()
            .map(|(e, _)| bind(e, scope))
            .collect::<Result<_, _>>()?;
        Ok((names, exprs))
    }

    /// EXPLAIN's node: `Aggregate` without GROUP BY, else `HashAggregate`.
    fn node(&self, child: PlanNode, rows: u64, removed: u64, start: f64, end: f64) -> PlanNode {
        let mut details = Vec::new();
        if self.grouped {
            let keys: Vec<String> = self.keys.iter().map(deparse).collect();
            details.push(format!("Group Key: {}", keys.join(", ")));
        }
        if let Some(h) = &self.having {
            details.push(format!("Filter: {}", deparse(&self.readable(h))));
            details.push(format!("Rows Removed by Filter: {removed}"));
        }
        PlanNode {
            title: if self.grouped {
                "HashAggregate"
            } else {
                "Aggregate"
            }
            .into(),
            details,
            rows,
            loops: 1,
            first_us: end - start + child.last_us,
            last_us: end - start + child.last_us,
            buffers: child.buffers,
            est_cost: child.est_cost,
            est_rows: if self.grouped { child.est_rows } else { 1.0 },
            width: 8 * self.items.len().max(1) as u32,
            children: vec![child],
            ..PlanNode::default()
        }
    }

    /// A rewritten expression with its group-row columns named as written,
    /// for EXPLAIN (`Filter: (count(*) > 1)`).
    fn readable(&self, e: &Expr) -> Expr {
        e.map(&mut |x| match x {
            Expr::Column { name, .. } if name.starts_with("#key") => name[4..]
                .parse::<usize>()
                .ok()
                .map(|i| self.keys[i].clone()),
            Expr::Column { name, .. } if name.starts_with("#agg") => name[4..]
                .parse::<usize>()
                .ok()
                .map(|i| self.aggregates[i].clone()),
            _ => None,
        })
    }
}

fn value_type(v: &Value) -> SqlType {
    match v {
        Value::Int(_) | Value::Null => SqlType::Int8,
        Value::Float(_) => SqlType::Float8,
        Value::Numeric(_) => SqlType::Numeric(None),
        Value::Text(_) => SqlType::Text,
        Value::Bool(_) => SqlType::Bool,
        Value::Timestamp(_) => SqlType::Timestamptz,
        Value::Date(_) | Value::LocalTimestamp(_) | Value::Interval(_) => {
            v.datetime_type().unwrap_or(SqlType::Text)
        }
        Value::Tid(_) => SqlType::Tid,
        Value::Real(_) => SqlType::Float4,
        Value::Bytea(_) => SqlType::Bytea,
        Value::Json(_) => SqlType::Json,
        Value::Jsonb(_) => SqlType::Jsonb,
    }
}
