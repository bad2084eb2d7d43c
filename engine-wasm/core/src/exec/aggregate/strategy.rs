//! Which Agg node a grouping query over one table gets on a profile whose
//! planner costs paths (pg): the input is planned twice (in any order, and
//! in group order) and [`crate::sql::plan::grouping::choose`] weighs a
//! GroupAggregate over the ordered read against a HashAggregate over the
//! cheapest one. Other queries (joins, a CTE, computed keys, yb) keep the
//! HashAggregate, uncosted.

mod yb;

use super::parallel::ParallelAgg;
use super::parallel_group::{self, ParallelGroup};
use super::GroupPlan;
use crate::exec::engine::GroupStop;
use crate::exec::executor::Executor;
use crate::exec::plan_node::{set_cost, PlanNode};
use crate::exec::select::unqualify_select;
use crate::sql::ast::{AggFunc, Expr, FromItem, Order, OrderItem, Select, SelectItem};
use crate::sql::error::SqlError;
use crate::sql::plan::cost::aggregate::Strategy;
use crate::sql::plan::cost::{qual_cost, sort, Cost, CostParams};
use crate::sql::plan::grouping::{choose, num_groups, AggregateCosts, Grouping, GroupingChoice};
use crate::sql::plan::selectivity::Estimator;
use crate::sql::plan::why::{self, Considered, GroupWay};
use crate::sql::plan::{plan_scan, plan_scans, ScanPlan, TableInfo};
use crate::sql::rewrite::unqualify;
use crate::value::SqlType;

/// The chosen grouping and what the executor needs to run it.
pub struct Planned {
    pub choice: GroupingChoice,
    /// The order a GroupAggregate reads its input in: the GROUP BY keys,
    /// ascending, those the ORDER BY names first (`preprocess_groupclause`).
    pub input_order: Vec<OrderItem>,
    /// `width=` of the group rows.
    pub width: f64,
    /// The group key's columns in the table.
    key: Vec<usize>,
    /// Why the strategy won (a choice between two).
    why: Option<String>,
    /// The read of the rows in group order a sorted choice runs (or the
    /// Parallel Seq Scan of a parallel one).
    pub read: Option<ScanPlan>,
    /// Computed in parts by parallel workers (an aggregate without GROUP BY).
    pub parallel: Option<ParallelAgg>,
    /// A GROUP BY computed in parts by parallel workers.
    pub parallel_group: Option<ParallelGroup>,
}

impl Planned {
    pub fn title(&self, plan: &GroupPlan) -> &'static str {
        if let Some(par) = &self.parallel_group {
            return par.title(!plan.aggregates.is_empty());
        }
        match self.choice.strategy {
            Strategy::Plain if self.parallel.is_some() => "Finalize Aggregate",
            Strategy::Plain => "Aggregate",
            Strategy::Hashed => "HashAggregate",
            Strategy::Sorted if plan.aggregates.is_empty() => "Group",
            Strategy::Sorted => "GroupAggregate",
        }
    }
}

impl Planned {
    /// Names the Agg node as chosen and gives it the planner's estimates.
    pub fn annotate(&self, node: &mut PlanNode, plan: &GroupPlan) {
        node.title = self.title(plan).into();
        node.why = self.why.clone();
        set_cost(node, &self.choice.agg);
        node.width = self.width.round() as u32;
    }

    /// Where a LIMIT stops the input: a GroupAggregate in the ORDER BY's
    /// order hands up each group as it ends, so the LIMIT's groups need only
    /// the rows up to the first of the next group (not under HAVING or
    /// DISTINCT, which drop groups after the Agg).
    pub fn group_stop(&self, q: &Select, plan: &GroupPlan) -> Option<GroupStop> {
        let streams = self.choice.strategy == Strategy::Sorted
            && self.choice.sort.is_none()
            && self.parallel_group.is_none();
        if !streams || plan.having.is_some() || q.distinct {
            return None;
        }
        Some(GroupStop {
            key: self.key.clone(),
            groups: constant_limit(q)? as u64,
            reads_next: true,
        })
    }

    /// The LIMIT's estimate over the top node (`adjust_limit_rows_costs`).
    pub fn annotate_limit(&self, node: &mut PlanNode, q: &Select) {
        if let (Some(l), "Limit") = (constant_limit(q), node.title.as_str()) {
            set_cost(node, &sort::limit(&self.choice.top(), l));
        }
    }
}

/// The plan for `q`'s grouping over `input` (its rows), or None when the
/// choice is not made by cost.
pub fn plan<E: Executor>(
    engine: &E,
    q: &Select,
    plan: &GroupPlan,
    input: &Select,
    input_types: &[SqlType],
    parallel: bool,
) -> Result<Option<Planned>, SqlError> {
    let (Some(info), true) = (one_table(engine, q), q.with.is_empty()) else {
        return Ok(None);
    };
    let input = &flat_input(input, plan.keys.len());
    let Some(stats) = info.stats.as_ref() else {
        return yb::plan(q, plan, input, input_types, &info);
    };
    let Some(keys) = key_columns(&info, plan) else {
        return Ok(None);
    };
    let unordered = input_cost(&info, input)?;
    let p = &stats.params;
    let aggregates = aggregate_costs(plan, input_types, p);
    let having = qual_cost(plan.having.as_slice(), p);
    let width = output_width(&info, plan, input_types);
    if !plan.grouped {
        let serial = crate::sql::plan::cost::aggregate::cost(
            &plain(unordered.0, unordered.1, &aggregates, having),
            p,
        );
        let in_parts = match parallel {
            true => super::parallel::plan(&info, input, &aggregates, (having, width), p)?,
            false => None,
        }
        .filter(|par| par.finalize.total < serial.total);
        let choice = GroupingChoice {
            strategy: Strategy::Plain,
            agg: in_parts.as_ref().map_or(serial, |par| par.finalize),
            sort: None,
            finished: 0.0,
            other: None,
        };
        return Ok(Some(Planned {
            why: in_parts
                .as_ref()
                .map(|par| par.why(&info.name, serial.total)),
            read: in_parts.as_ref().map(|par| par.read.clone()),
            parallel: in_parts,
            parallel_group: None,
            choice,
            input_order: Vec::new(),
            width,
            key: Vec::new(),
        }));
    }
    // The cheapest read may be a Gather of the rows a parallel scan keeps
    // (a selective WHERE on a big table): one process then groups them.
    let gathered = match parallel {
        true => gathered_input(&info, input)?.filter(|(c, _)| c.total < unordered.0.total),
        false => None,
    };
    let unordered = match &gathered {
        Some((cost, plan)) => (*cost, plan.cost.map_or(unordered.1, |c| c.width), false),
        None => unordered,
    };
    let size = stats.relation.estimate();
    let est = Estimator {
        table: &info,
        stats: &stats.relation,
        tuples: size.tuples,
    };
    let groups = num_groups(&est, &keys, size.tuples, unordered.0.rows);
    let order = group_order(plan);
    let input_order = ascending(plan, &order);
    let mut grouping = Grouping {
        unordered: unordered.0,
        ordered: unordered.0,
        input_width: unordered.1,
        aggregates,
        has_aggregates: !plan.aggregates.is_empty(),
        group_columns: keys.len() as f64,
        groups,
        having_per_group: having,
        having_selectivity: plan
            .having
            .as_ref()
            .map_or(1.0, |h| est.clauses(&[plan.readable(h)])),
        order_by_is_group_order: order_is_prefix(&plan.order_by, &order),
        has_order_by: !plan.order_by.is_empty(),
        output_width: width,
        limit: constant_limit(q),
    };
    let ordered_input = Select {
        order_by: input_order.clone(),
        ..input.clone()
    };
    // Every group key fixed by the WHERE (`where k = 5 group by k`): any
    // read, a Gather's too, is in group order (PostgreSQL's group pathkeys
    // are empty), so the cheapest read serves a GroupAggregate as it is.
    let keys_fixed = crate::sql::plan::order_keys::without_constant_keys(&ordered_input)
        .is_some_and(|q| q.order_by.is_empty());
    let (choice, read) = if keys_fixed {
        let read = match &gathered {
            Some((_, plan)) => plan.clone(),
            None => plan_scan(&info, &unqualify_select(input))?,
        };
        grouping.ordered = grouping.unordered;
        (choose(&grouping, p), read)
    } else {
        best_over_ordered(&info, &ordered_input, &mut grouping, p)?
    };
    let sorted_read = read.cost.is_some_and(|c| c.sort.is_some());
    let way = match choice.strategy {
        Strategy::Hashed => GroupWay::Hashed,
        _ if keys_fixed => GroupWay::Fixed,
        _ if !sorted_read => GroupWay::InOrder,
        _ => GroupWay::Sorted {
            ordered_aggregates: aggregates.ordered,
        },
    };
    let other = match choice.strategy {
        Strategy::Hashed => "a GroupAggregate",
        _ => "a HashAggregate",
    };
    let title = match choice.strategy {
        Strategy::Hashed => "HashAggregate",
        _ if plan.aggregates.is_empty() => "Group",
        _ => "GroupAggregate",
    };
    let limit = grouping.limit.filter(|_| choice.sort.is_none());
    let why = sentence(
        &choice,
        way,
        (title, other),
        (unordered.0.rows, groups),
        limit,
    );
    if parallel && !aggregates.ordered {
        let inputs = parallel_group::Inputs {
            info: &info,
            input,
            grouping: &grouping,
            est: &est,
            keys: &keys,
            partial_width: partial_width(&info, plan, input_types),
            keys_fixed,
        };
        let in_parts = parallel_group::plan(&inputs, p)?
            .filter(|par| parallel_wins(&choice, &par.choice, grouping.limit.is_some()));
        if let Some(par) = in_parts {
            let serial = Considered {
                name: format!("one process's {title}"),
                cost: choice.finished,
            };
            return Ok(Some(Planned {
                why: Some(par.why(&info.name, !plan.aggregates.is_empty(), serial)),
                read: Some(par.read.clone()),
                parallel: None,
                choice: GroupingChoice {
                    other: Some(choice.finished),
                    ..par.choice
                },
                parallel_group: Some(par),
                input_order: Vec::new(),
                width,
                key: keys,
            }));
        }
    }
    let read = match choice.strategy {
        Strategy::Sorted => Some(read),
        _ => gathered.map(|(_, plan)| plan),
    };
    Ok(Some(Planned {
        why: Some(why),
        read,
        parallel: None,
        parallel_group: None,
        choice,
        // Rows in group order already: no ORDER BY for the read.
        input_order: if keys_fixed { Vec::new() } else { input_order },
        width,
        key: keys,
    }))
}

/// A plain Aggregate (no GROUP BY) over an input the planner costed
/// without this module (a join): `cost_agg` over the input's estimate.
/// None when the input is not costed.
pub fn plain_over<E: Executor>(
    engine: &E,
    q: &Select,
    plan: &GroupPlan,
    input_types: &[SqlType],
    child: &PlanNode,
) -> Option<Cost> {
    if plan.grouped || !child.costed {
        return None;
    }
    let Some(FromItem::Table { name, .. }) = q.from.first() else {
        return None;
    };
    let info = engine.scan_info(engine.table_id(name).ok()?);
    let p = &info.stats.as_ref()?.params;
    let input = Cost {
        startup: child.est_cost.0,
        total: child.est_cost.1,
        rows: child.est_rows,
    };
    let aggregates = aggregate_costs(plan, input_types, p);
    let having = qual_cost(plan.having.as_slice(), p);
    let agg = plain(input, f64::from(child.width), &aggregates, having);
    Some(crate::sql::plan::cost::aggregate::cost(&agg, p))
}

/// `input` as the planner costs it (`make_group_input_target`): the scan
/// computes the group keys (the first `keys` items), but only hands up the
/// columns the aggregates' arguments read, which the Agg evaluates (and
/// pays for) itself.
fn flat_input(input: &Select, keys: usize) -> Select {
    let mut items: Vec<SelectItem> = input.items.iter().take(keys).cloned().collect();
    for item in input.items.iter().skip(keys) {
        let SelectItem::Expr { expr, .. } = item else {
            continue;
        };
        expr.visit(&mut |e| {
            if matches!(e, Expr::Column { .. }) {
                let column = SelectItem::Expr {
                    expr: e.clone(),
                    alias: None,
                };
                if !items.contains(&column) {
                    items.push(column);
                }
            }
        });
    }
    Select {
        items,
        ..input.clone()
    }
}

/// The table a query reads alone, with its planner statistics.
fn one_table<E: Executor>(engine: &E, q: &Select) -> Option<TableInfo> {
    if q.from.len() != 1 || !q.joins.is_empty() {
        return None;
    }
    let FromItem::Table { name, .. } = &q.from[0] else {
        return None;
    };
    let id = engine.table_id(name).ok()?;
    Some(engine.scan_info(id))
}

/// Each GROUP BY key's column, when every key is a plain column.
fn key_columns(info: &TableInfo, plan: &GroupPlan) -> Option<Vec<usize>> {
    plan.keys
        .iter()
        .map(|k| match unqualify(k) {
            Expr::Column { name, .. } => info.columns.iter().position(|(c, _)| *c == name),
            _ => None,
        })
        .collect()
}

/// The planned cost of reading `input`'s rows (its Sort included) and
/// their width.
fn input_cost(info: &TableInfo, input: &Select) -> Result<(Cost, f64, bool), SqlError> {
    let cost = plan_scan(info, &unqualify_select(input))?
        .cost
        .expect("a costed table plans a cost");
    Ok((
        cost.sort.unwrap_or(cost.scan),
        cost.width,
        cost.sort.is_some(),
    ))
}

/// Whether the parallel grouping beats one process's: `add_path` first
/// drops whichever the other dominates (within 1 %, the sooner start or
/// the group order decides), then the cheaper once finished wins.
fn parallel_wins(serial: &GroupingChoice, parallel: &GroupingChoice, startup_counts: bool) -> bool {
    let sorted = |c: &GroupingChoice| c.strategy == Strategy::Sorted;
    let weighed = [
        (serial.agg, sorted(serial)),
        (parallel.agg, sorted(parallel)),
    ];
    match crate::sql::plan::add_path::survivors(&weighed, startup_counts).as_slice() {
        [1] => true,
        [0] => false,
        _ => parallel.finished < serial.finished,
    }
}

/// The cheapest read of `input`'s rows when it is a Gather over a parallel
/// scan, with its Gather's estimate.
fn gathered_input(info: &TableInfo, input: &Select) -> Result<Option<(Cost, ScanPlan)>, SqlError> {
    let plan = crate::sql::plan::plan_top_scan(info, &unqualify_select(input))?;
    Ok(plan
        .cost
        .and_then(|c| c.gather)
        .map(|g| (g.cost, plan.clone())))
}

/// The grouping's best choice over each finished read of the rows in group
/// order (`ordered`: an index in that order, or the cheapest read under a
/// Sort), as PostgreSQL tries every presorted input path: under a LIMIT the
/// one that starts soonest may win. With it, the read a sorted choice runs.
fn best_over_ordered(
    info: &TableInfo,
    ordered: &Select,
    g: &mut Grouping,
    p: &CostParams,
) -> Result<(GroupingChoice, ScanPlan), SqlError> {
    let mut chosen: Vec<(GroupingChoice, ScanPlan)> = Vec::new();
    // A hashed choice beat the sorted one over every read: quote the best.
    let mut cheapest_sorted = f64::INFINITY;
    for plan in plan_scans(info, &unqualify_select(ordered), false)? {
        let c = plan.cost.expect("a costed table plans a cost");
        g.ordered = c.sort.unwrap_or(c.scan);
        let choice = choose(g, p);
        if choice.strategy == Strategy::Hashed {
            cheapest_sorted = cheapest_sorted.min(choice.other.unwrap_or(f64::INFINITY));
        }
        chosen.push((choice, plan));
    }
    // All of them finished as the query wants: `add_path` keeps the one
    // that starts sooner among totals within 1 %, then the cheapest wins.
    let weighed: Vec<(Cost, bool)> = chosen
        .iter()
        .map(|(c, _)| (crate::sql::plan::grouping::limited_cost(c, g), true))
        .collect();
    let survived = crate::sql::plan::add_path::survivors(&weighed, g.limit.is_some());
    let (mut choice, plan) = chosen
        .into_iter()
        .enumerate()
        .filter(|(n, _)| survived.contains(n))
        .map(|(_, c)| c)
        .reduce(|best, c| {
            if c.0.finished < best.0.finished {
                c
            } else {
                best
            }
        })
        .expect("a Seq Scan is always planned");
    if choice.strategy == Strategy::Hashed && cheapest_sorted.is_finite() {
        choice.other = Some(cheapest_sorted);
    }
    Ok((choice, plan))
}

fn plain(
    input: Cost,
    width: f64,
    a: &AggregateCosts,
    having: f64,
) -> crate::sql::plan::cost::aggregate::Agg {
    crate::sql::plan::cost::aggregate::Agg {
        strategy: Strategy::Plain,
        input,
        input_width: width,
        trans_per_row: a.trans_per_row,
        final_per_group: a.final_per_group,
        states: a.states,
        state_bytes: a.state_bytes,
        group_columns: 0.0,
        groups: 1.0,
        having_per_group: having,
    }
}

/// `get_agg_clause_costs`: every built-in transition and final function
/// costs one operator; arguments and FILTERs their own evaluation.
fn aggregate_costs(plan: &GroupPlan, input_types: &[SqlType], p: &CostParams) -> AggregateCosts {
    let mut c = AggregateCosts::default();
    let mut arg_index = plan.keys.len();
    for a in &plan.aggregates {
        let Expr::Aggregate {
            func,
            arg,
            distinct,
            order_by,
            filter,
            ..
        } = a
        else {
            continue;
        };
        let arg_type = arg.as_ref().and_then(|_| {
            arg_index += 1;
            input_types.get(arg_index - 1).copied()
        });
        c.trans_per_row += p.cpu_operator_cost;
        c.trans_per_row += qual_cost(arg.as_deref().map(std::slice::from_ref).unwrap_or(&[]), p);
        if let Some(f) = filter {
            c.trans_per_row += qual_cost(std::slice::from_ref(f.as_ref()), p);
        }
        let (has_final, by_reference) = final_and_state(*func, arg_type);
        if has_final {
            c.final_per_group += p.cpu_operator_cost;
        }
        if internal_state(*func, arg_type) {
            c.serialized += 1.0;
        }
        if by_reference {
            // `get_typavgwidth` of a variable-width state.
            c.state_bytes += 32.0;
        }
        c.states += 1.0;
        c.ordered |= *distinct || !order_by.is_empty();
    }
    c
}

/// Whether PostgreSQL's aggregate for `func` over `arg` has a final function,
/// and whether its transition state is passed by reference.
fn final_and_state(func: AggFunc, arg: Option<SqlType>) -> (bool, bool) {
    let wide = matches!(arg, Some(SqlType::Int8 | SqlType::Numeric(_)));
    match func {
        AggFunc::Count | AggFunc::Min | AggFunc::Max => (false, false),
        // sum(int4) adds into an int8; sum(int8) and sum(numeric) into a
        // numeric state, finished by a function.
        AggFunc::Sum => (wide, wide),
        // avg keeps (count, sum) and divides at the end.
        AggFunc::Avg => (true, true),
        AggFunc::StringAgg => (true, true),
    }
}

/// Whether PostgreSQL's state for `func` over `arg` is of type `internal`
/// (a C structure, which must be serialized to cross between processes):
/// `sum` and `avg` of a bigint or numeric. `avg` of a smaller integer or a
/// float keeps an array, `sum` of an integer a bigint.
fn internal_state(func: AggFunc, arg: Option<SqlType>) -> bool {
    let wide = matches!(arg, Some(SqlType::Int8 | SqlType::Numeric(_)));
    matches!(func, AggFunc::Sum | AggFunc::Avg) && wide
}

/// The group keys in `order`, each ascending: the order a GroupAggregate
/// reads its rows in.
fn ascending(plan: &GroupPlan, order: &[usize]) -> Vec<OrderItem> {
    order
        .iter()
        .map(|&i| OrderItem {
            expr: plan.keys[i].clone(),
            order: Order::Asc,
            nulls_first: None,
        })
        .collect()
}

/// The group order (`preprocess_groupclause`): the keys ORDER BY names, in
/// its order (when each is ascending), then the others; the keys as written
/// when the ORDER BY does not lead with them.
fn group_order(plan: &GroupPlan) -> Vec<usize> {
    let written: Vec<usize> = (0..plan.keys.len()).collect();
    let mut order = Vec::new();
    let mut partial = false;
    for o in &plan.order_by {
        match key_of(o) {
            Some(i) if !order.contains(&i) => order.push(i),
            _ => {
                partial = true;
                break;
            }
        }
    }
    if order.is_empty() || (partial && order.len() < written.len()) {
        return written;
    }
    let rest: Vec<usize> = written.into_iter().filter(|i| !order.contains(i)).collect();
    order.extend(rest);
    order
}

/// The group key an ascending, NULLS LAST ORDER BY item is.
fn key_of(o: &OrderItem) -> Option<usize> {
    if o.order != Order::Asc || o.nulls_come_first() {
        return None;
    }
    match &o.expr {
        Expr::Column { table: None, name } => name.strip_prefix("#key")?.parse().ok(),
        _ => None,
    }
}

/// Whether the ORDER BY is a leading part of the group order.
fn order_is_prefix(order_by: &[OrderItem], order: &[usize]) -> bool {
    order_by.len() <= order.len()
        && order_by
            .iter()
            .zip(order)
            .all(|(o, &i)| key_of(o) == Some(i))
}

fn constant_limit(q: &Select) -> Option<f64> {
    if q.offset.is_some() {
        return None;
    }
    match &q.limit {
        Some(Expr::Literal(crate::value::Value::Int(n))) if *n >= 0 => Some(*n as f64),
        _ => None,
    }
}

/// `width=` of the group rows: a key's column width, 8 for a count or an
/// integer sum, 32 for a numeric result, an argument's width for min/max.
fn output_width(info: &TableInfo, plan: &GroupPlan, input_types: &[SqlType]) -> f64 {
    let column_width = |e: &Expr| column_width(info, e);
    let mut arg_index = plan.keys.len();
    let mut aggregate_widths = Vec::new();
    for a in &plan.aggregates {
        let Expr::Aggregate { func, arg, .. } = a else {
            aggregate_widths.push(8.0);
            continue;
        };
        let ty = arg.as_ref().and_then(|_| {
            arg_index += 1;
            input_types.get(arg_index - 1).copied()
        });
        aggregate_widths.push(match func {
            AggFunc::Count => 8.0,
            AggFunc::Sum => match ty {
                Some(SqlType::Int8 | SqlType::Numeric(_)) => 32.0,
                _ => 8.0,
            },
            AggFunc::Avg => match ty {
                Some(SqlType::Float4 | SqlType::Float8) => 8.0,
                _ => 32.0,
            },
            AggFunc::Min | AggFunc::Max => type_width(ty, arg.as_deref().map_or(8.0, column_width)),
            AggFunc::StringAgg => 32.0,
        });
    }
    let selected: f64 = plan
        .items
        .iter()
        .map(|(e, _)| match e {
            Expr::Column { table: None, name } if name.starts_with("#key") => name[4..]
                .parse::<usize>()
                .ok()
                .and_then(|i| plan.keys.get(i))
                .map_or(4.0, column_width),
            Expr::Column { table: None, name } if name.starts_with("#agg") => name[4..]
                .parse::<usize>()
                .ok()
                .and_then(|i| aggregate_widths.get(i).copied())
                .unwrap_or(8.0),
            _ => 4.0,
        })
        .sum();
    // A group key the select list leaves out still rides along, unseen
    // (a resjunk entry of the target list), and counts in the width.
    let unseen: f64 = (0..plan.keys.len())
        .filter(|i| {
            let name = format!("#key{i}");
            !plan
                .items
                .iter()
                .any(|(e, _)| matches!(e, Expr::Column { table: None, name: n } if *n == name))
        })
        .map(|i| column_width(&plan.keys[i]))
        .sum();
    selected + unseen
}

/// `width=` of a column: ANALYZE's average width, or without statistics
/// (yb) its type's typical width; 4 for an expression.
fn column_width(info: &TableInfo, e: &Expr) -> f64 {
    let Expr::Column { name, .. } = unqualify(e) else {
        return 4.0;
    };
    let Some(c) = info.columns.iter().position(|(n, _)| *n == name) else {
        return 4.0;
    };
    let width = match &info.stats {
        Some(s) => s.relation.column_widths.get(c).copied(),
        None => Some(crate::exec::type_width(info.columns[c].1)),
    };
    width.map_or(4.0, f64::from)
}

/// `width=` of an expression of type `ty` (`get_typavgwidth`): a
/// fixed-width type's bytes, 32 for a variable-width one; `column` when the
/// type is unknown.
fn type_width(ty: Option<SqlType>, column: f64) -> f64 {
    match ty.map(crate::exec::column_size::type_length) {
        Some(Ok(-1)) => 32.0,
        Some(Ok(n)) => n as f64,
        _ => column,
    }
}

/// `width=` of a partial group row, as the processes hand it to the
/// leader: each key's column width, then each aggregate's transition state
/// (`count`'s and an integer `sum`'s bigint, `avg`'s array or `internal`,
/// `min`/`max`'s argument).
fn partial_width(info: &TableInfo, plan: &GroupPlan, input_types: &[SqlType]) -> f64 {
    let keys: f64 = plan.keys.iter().map(|k| column_width(info, k)).sum();
    let mut arg_index = plan.keys.len();
    let mut states = 0.0;
    for a in &plan.aggregates {
        let Expr::Aggregate { func, arg, .. } = a else {
            states += 8.0;
            continue;
        };
        let ty = arg.as_ref().and_then(|_| {
            arg_index += 1;
            input_types.get(arg_index - 1).copied()
        });
        states += match func {
            AggFunc::Count => 8.0,
            AggFunc::Sum => match ty {
                Some(SqlType::Int8 | SqlType::Numeric(_)) => 32.0,
                Some(SqlType::Float4) => 4.0,
                _ => 8.0,
            },
            AggFunc::Avg | AggFunc::StringAgg => 32.0,
            AggFunc::Min | AggFunc::Max => type_width(ty, 4.0),
        };
    }
    keys + states
}

/// `SELECT DISTINCT` of plain columns of one table, planned as
/// `create_distinct_paths` does: a Unique over the rows in the distinct
/// order (the ORDER BY's keys first, as written, then the others ascending)
/// against a HashAggregate over the cheapest read.
pub struct DistinctPlan {
    pub choice: GroupingChoice,
    pub input_order: Vec<OrderItem>,
    pub why: String,
    key: Vec<usize>,
    /// The read of the rows in order a Unique runs.
    pub read: Option<ScanPlan>,
    /// Its scan hands up more columns than the DISTINCT's (an index-only
    /// scan's index columns, a heap scan's row), and a Unique cannot
    /// project: a Result above it does, with the Unique's estimate.
    pub result: Option<Cost>,
}

impl DistinctPlan {
    /// A Unique over an in-order scan under a LIMIT stops the scan early.
    pub fn stop(&self, q: &Select) -> Option<GroupStop> {
        if self.choice.strategy != Strategy::Sorted {
            return None;
        }
        Some(GroupStop {
            key: self.key.clone(),
            groups: constant_limit(q)? as u64,
            reads_next: false,
        })
    }
}

/// The plan for `q`'s DISTINCT, or None when it is not chosen by cost.
pub fn plan_distinct<E: Executor>(
    engine: &E,
    q: &Select,
    input: &Select,
) -> Result<Option<DistinctPlan>, SqlError> {
    let (Some(info), true) = (one_table(engine, q), q.with.is_empty()) else {
        return Ok(None);
    };
    let Some(stats) = info.stats.as_ref() else {
        return Ok(None);
    };
    let mut items = Vec::new();
    for item in &q.items {
        let crate::sql::ast::SelectItem::Expr { expr, .. } = item else {
            return Ok(None);
        };
        let Expr::Column { name, .. } = unqualify(expr) else {
            return Ok(None);
        };
        let Some(c) = info.columns.iter().position(|(n, _)| *n == name) else {
            return Ok(None);
        };
        items.push((expr.clone(), c));
    }
    // The ORDER BY's keys lead, in its direction; the rest follow ascending.
    let mut input_order: Vec<OrderItem> = q.order_by.clone();
    for (e, _) in &items {
        if !input_order.iter().any(|o| o.expr == *e) {
            input_order.push(OrderItem {
                expr: e.clone(),
                order: Order::Asc,
                nulls_first: None,
            });
        }
    }
    let key: Vec<usize> = items.iter().map(|(_, c)| *c).collect();
    let unordered = input_cost(&info, input)?;
    let size = stats.relation.estimate();
    let est = Estimator {
        table: &info,
        stats: &stats.relation,
        tuples: size.tuples,
    };
    let groups = num_groups(&est, &key, size.tuples, unordered.0.rows);
    let mut grouping = Grouping {
        unordered: unordered.0,
        ordered: unordered.0,
        input_width: unordered.1,
        aggregates: AggregateCosts::default(),
        has_aggregates: false,
        group_columns: key.len() as f64,
        groups,
        having_per_group: 0.0,
        having_selectivity: 1.0,
        // The Unique's rows come in the distinct order, which leads with
        // the ORDER BY.
        order_by_is_group_order: true,
        has_order_by: !q.order_by.is_empty(),
        output_width: unordered.1,
        limit: constant_limit(q),
    };
    let ordered_input = Select {
        order_by: input_order.clone(),
        ..input.clone()
    };
    let (choice, read) = best_over_ordered(&info, &ordered_input, &mut grouping, &stats.params)?;
    let sorted_read = read.cost.is_some_and(|c| c.sort.is_some());
    let (way, title, other) = match choice.strategy {
        Strategy::Hashed => (GroupWay::Hashed, "HashAggregate", "a Unique"),
        _ if !sorted_read => (GroupWay::InOrder, "Unique", "a HashAggregate"),
        _ => (
            GroupWay::Sorted {
                ordered_aggregates: false,
            },
            "Unique",
            "a HashAggregate",
        ),
    };
    let why = sentence(
        &choice,
        way,
        (title, other),
        (unordered.0.rows, groups),
        grouping.limit,
    );
    let read = (choice.strategy == Strategy::Sorted).then_some(read);
    let result = read
        .as_ref()
        .filter(|r| r.cost.is_some_and(|c| c.sort.is_none()))
        .filter(|r| physical_columns(&info, r) != key)
        // `inject_projection_plan` copies its child's estimate.
        .map(|_| choice.agg);
    Ok(Some(DistinctPlan {
        result,
        read,
        choice,
        input_order,
        why,
        key,
    }))
}

/// The columns a scan hands up when its parent takes whatever it gives
/// (`use_physical_tlist`): an index-only scan's index columns, else the row.
fn physical_columns(info: &TableInfo, read: &ScanPlan) -> Vec<usize> {
    match &read.access {
        crate::sql::plan::AccessPath::Index {
            index, only: true, ..
        } => {
            let ix = &info.indexes[*index];
            ix.key
                .iter()
                .map(|(c, _)| *c)
                .chain(ix.include.iter().copied())
                .collect()
        }
        _ => (0..info.columns.len()).collect(),
    }
}

/// The grouping's "why" sentence: `names` are the chosen node's title and
/// the beaten strategy's name, `sizes` the input rows and the groups.
fn sentence(
    choice: &GroupingChoice,
    way: GroupWay,
    names: (&str, &str),
    sizes: (f64, f64),
    limit: Option<f64>,
) -> String {
    let others: Vec<Considered> = choice
        .other
        .iter()
        .map(|c| Considered {
            name: names.1.into(),
            cost: *c,
        })
        .collect();
    let mut text = why::grouping(
        names.0,
        way,
        sizes.0,
        sizes.1,
        limit.filter(|_| way == GroupWay::InOrder),
        why::costs(choice.finished, &others),
    );
    if choice.other.is_some_and(|o| o < choice.finished) {
        text.push_str(why::SOONER);
    }
    text
}
