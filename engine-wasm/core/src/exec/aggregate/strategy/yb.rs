//! Which Agg node a grouping query over one table gets on yb, as
//! YugabyteDB's default planner chooses it: PostgreSQL's weighing of a
//! HashAggregate over the cheapest read against a GroupAggregate over a
//! read in group order (`add_paths_to_grouping_rel`), over YugabyteDB's
//! heuristic read costs ([`crate::sql::plan::yb_choose`]), which know no
//! statistics: the table holds 1 000 rows unless ANALYZE counted them, and
//! a column has PostgreSQL's default 200 distinct values unless a unique
//! index makes each value distinct.
//!
//! A range index on the group key gives the rows in order for about what
//! the Seq Scan costs, so a GroupAggregate over it starts at once and costs
//! no more: it wins. A hash-sharded table gives no order, and 1 000 rows
//! are cheaper hashed than sorted.

use super::{
    aggregate_costs, ascending, group_order, key_columns, order_is_prefix, output_width, sentence,
    Planned,
};
use super::{constant_limit, GroupPlan};
use crate::sql::ast::Select;
use crate::sql::error::SqlError;
use crate::sql::plan::cost::aggregate::Strategy;
use crate::sql::plan::cost::{qual_cost, CostParams};
use crate::sql::plan::grouping::{choose, num_groups, Grouping};
use crate::sql::plan::selectivity::Estimator;
use crate::sql::plan::statistics::RelationStats;
use crate::sql::plan::why::GroupWay;
use crate::sql::plan::{plan_yb_read, yb_choose, TableInfo};
use crate::value::SqlType;

/// The plan for a GROUP BY over `info` on yb (`input`: the rows to group,
/// as the planner costs them), or None when it is not chosen by cost (no
/// GROUP BY, or a computed key).
pub(super) fn plan(
    q: &Select,
    plan: &GroupPlan,
    input: &Select,
    input_types: &[SqlType],
    info: &TableInfo,
) -> Result<Option<Planned>, SqlError> {
    let Some(keys) = key_columns(info, plan).filter(|_| plan.grouped) else {
        return Ok(None);
    };
    let Some(unordered) = plan_yb_read(info, input)? else {
        return Ok(None);
    };
    let order = group_order(plan);
    let input_order = ascending(plan, &order);
    let ordered_input = Select {
        order_by: input_order.clone(),
        ..input.clone()
    };
    let ordered = plan_yb_read(info, &ordered_input)?.expect("a yb table has no statistics");
    let ordered_cost = ordered.plan.cost.expect("a yb read is costed");
    let p = CostParams::default();
    let stats = without_statistics(info);
    let tuples = yb_choose::tuples(info);
    let est = Estimator {
        table: info,
        stats: &stats,
        tuples,
    };
    let rows = unordered.cost.rows;
    let groups = num_groups(&est, &keys, tuples, rows);
    let aggregates = aggregate_costs(plan, input_types, &p);
    let width = output_width(info, plan, input_types);
    let grouping = Grouping {
        unordered: unordered.cost,
        ordered: ordered_cost.sort.unwrap_or(ordered_cost.scan),
        input_width: unordered.plan.cost.map_or(0.0, |c| c.width),
        aggregates,
        has_aggregates: !plan.aggregates.is_empty(),
        group_columns: keys.len() as f64,
        groups,
        having_per_group: qual_cost(plan.having.as_slice(), &p),
        having_selectivity: plan
            .having
            .as_ref()
            .map_or(1.0, |h| est.clauses(&[plan.readable(h)])),
        order_by_is_group_order: order_is_prefix(&plan.order_by, &order),
        has_order_by: !plan.order_by.is_empty(),
        output_width: width,
        limit: constant_limit(q),
    };
    let choice = choose(&grouping, &p);
    let sorted_read = ordered_cost.sort.is_some();
    let (way, title, other) = match choice.strategy {
        Strategy::Hashed => (GroupWay::Hashed, "HashAggregate", "a GroupAggregate"),
        _ if !sorted_read => (GroupWay::InOrder, "GroupAggregate", "a HashAggregate"),
        _ => (
            GroupWay::Sorted {
                ordered_aggregates: aggregates.ordered,
            },
            "GroupAggregate",
            "a HashAggregate",
        ),
    };
    let title = if plan.aggregates.is_empty() && choice.strategy != Strategy::Hashed {
        "Group"
    } else {
        title
    };
    let limit = grouping.limit.filter(|_| choice.sort.is_none());
    let why = sentence(&choice, way, (title, other), (rows, groups), limit);
    let read = (choice.strategy == Strategy::Sorted).then_some(ordered.plan);
    Ok(Some(Planned {
        why: Some(why),
        read,
        parallel: None,
        parallel_group: None,
        choice,
        input_order,
        width,
        key: keys,
    }))
}

/// What YugabyteDB's planner knows of a table it has no statistics for:
/// each column's typical width, and which columns a unique index makes
/// distinct (`has_unique_index`).
fn without_statistics(info: &TableInfo) -> RelationStats {
    let unique = (0..info.columns.len())
        .map(|c| {
            info.indexes.iter().any(|ix| {
                ix.unique && ix.predicate.is_empty() && ix.key.len() == 1 && ix.key[0].0 == c
            })
        })
        .collect();
    RelationStats {
        blocks_now: 0,
        relpages: 0,
        reltuples: yb_choose::tuples(info),
        relallvisible: 0,
        usable_page_bytes: 0,
        column_widths: info
            .columns
            .iter()
            .map(|(_, ty)| crate::exec::type_width(*ty))
            .collect(),
        columns: vec![None; info.columns.len()],
        unique,
    }
}
