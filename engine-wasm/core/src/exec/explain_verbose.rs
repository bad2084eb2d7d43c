//! EXPLAIN (VERBOSE): each node's `Output:` (PostgreSQL's show_plan_tlist),
//! relations with their schema, and columns qualified by their relation in
//! conditions, sort and group keys (`useprefix = … || es->verbose`).
//! IndexLab derives the target lists only where it can tell them exactly, as
//! PostgreSQL 15 prints them (checked against it):
//! - one table read by a Seq or Index Scan, under an optional Sort and Limit,
//!   selecting and ordering by plain columns (a sort column the select list
//!   lacks is carried as resjunk: `Output: v, w`);
//! - the same under an Aggregate or HashAggregate of plain columns and
//!   aggregates, whose scan returns the whole row (the planner's physical
//!   target list: `Output: id, v, w`);
//! - on the pg profile, DELETE and UPDATE over such a scan (`Output: ctid`,
//!   `Output: (v + 1), ctid`) and INSERT of literal VALUES.
//!
//! Everything else is refused by name rather than printed wrong.

use super::engine::QueryEngine;
use super::plan_node::PlanNode;
use crate::sql::ast::{BinOp, Expr, FromItem, Order, Select, SelectItem, Statement};
use crate::sql::deparse::deparse;
use crate::sql::error::{unsupported, SqlError};
use crate::sql::plan::TableInfo;
use crate::value::{SqlType, Value};

fn refuse<T>(what: &str) -> Result<T, SqlError> {
    Err(unsupported(format!("EXPLAIN (VERBOSE) of {what}")))
}

/// Refuses, before anything runs (ANALYZE of DML changes rows), what VERBOSE
/// cannot show. YugabyteDB's DML finds rows by `ybctid`, not `ctid`.
pub fn check_statement<E: QueryEngine>(engine: &E, statement: &Statement) -> Result<(), SqlError> {
    match statement {
        Statement::Select(q) => check_select(q),
        _ if engine.is_yugabyte() => refuse("INSERT, UPDATE or DELETE on YugabyteDB"),
        Statement::Insert {
            on_conflict: Some(_),
            ..
        } => refuse("INSERT … ON CONFLICT"),
        Statement::Insert {
            table,
            columns,
            source,
            ..
        } => insert_output(&info_of(engine, table)?, columns.as_deref(), source).map(|_| ()),
        Statement::Update {
            table, assignments, ..
        } => update_output(&info_of(engine, table)?, assignments).map(|_| ()),
        Statement::Delete { .. } => Ok(()),
        _ => refuse("this statement"),
    }
}

fn info_of<E: QueryEngine>(engine: &E, table: &str) -> Result<TableInfo, SqlError> {
    Ok(engine.planner_info(engine.table_id(table)?))
}

fn check_select(q: &Select) -> Result<(), SqlError> {
    match q.from.as_slice() {
        [FromItem::Table { name, alias }] if alias.as_ref().is_none_or(|a| a == name) => {}
        _ => return refuse("a query with anything but one table in FROM, without an alias"),
    }
    if !q.joins.is_empty() || !q.with.is_empty() || q.values.is_some() {
        return refuse("a query with a join, WITH or VALUES");
    }
    if q.having.is_some() || q.distinct {
        return refuse("a query with HAVING or DISTINCT");
    }
    if q.filter.as_ref().is_some_and(has_subquery) {
        return refuse("a query with a subquery");
    }
    let aggregated = is_aggregated(q);
    let item_ok = |e: &Expr| column_name(e).is_some() || (aggregated && is_plain_aggregate(e));
    let items_ok = q.items.iter().all(|i| match i {
        SelectItem::Wildcard => !aggregated,
        SelectItem::Expr { expr, .. } => item_ok(expr),
    });
    if !items_ok || q.group_by.iter().any(|g| column_name(g).is_none()) {
        return refuse("a query whose select list or GROUP BY has expressions");
    }
    if aggregated && !q.order_by.is_empty() {
        return refuse("an aggregate query with ORDER BY");
    }
    // IndexLab's Sort Key shows DESC but not a NULLS order that differs from
    // the default, as PostgreSQL would.
    let odd_nulls = |o: &crate::sql::ast::OrderItem| {
        o.nulls_first.is_some_and(|f| f != (o.order == Order::Desc))
    };
    if q.order_by
        .iter()
        .any(|o| column_name(&o.expr).is_none() || odd_nulls(o))
    {
        return refuse("a query ordered by expressions or by NULLS FIRST/LAST");
    }
    Ok(())
}

fn is_aggregated(q: &Select) -> bool {
    !q.group_by.is_empty()
        || q.items.iter().any(|i| {
            matches!(
                i,
                SelectItem::Expr {
                    expr: Expr::Aggregate { .. },
                    ..
                }
            )
        })
}

/// `count(*)`, `sum(v)`: an aggregate of nothing or of a plain column.
fn is_plain_aggregate(e: &Expr) -> bool {
    match e {
        Expr::Aggregate { arg, .. } => arg.as_deref().is_none_or(|a| column_name(a).is_some()),
        _ => false,
    }
}

fn column_name(e: &Expr) -> Option<&str> {
    match e {
        Expr::Column { name, .. } => Some(name),
        _ => None,
    }
}

fn has_subquery(e: &Expr) -> bool {
    let mut found = false;
    e.visit(&mut |x| {
        found |= matches!(
            x,
            Expr::ScalarSubquery(_) | Expr::Exists { .. } | Expr::InSubquery { .. }
        );
    });
    found
}

/// `e` as a single-table target list prints it: columns unqualified.
fn tlist_text(e: &Expr) -> String {
    deparse(&e.map(&mut |x| match x {
        Expr::Column { name, .. } => Some(Expr::Column {
            table: None,
            name: name.clone(),
        }),
        _ => None,
    }))
}

/// Fills in the Output of every node of the plan of `statement` (checked by
/// [`check_statement`]) and qualifies its sort and group keys.
pub fn annotate<E: QueryEngine>(
    engine: &E,
    statement: &Statement,
    node: &mut PlanNode,
) -> Result<(), SqlError> {
    let table = match statement {
        Statement::Select(q) => match q.from.first() {
            Some(FromItem::Table { name, .. }) => name,
            _ => return refuse("a query without a table"),
        },
        Statement::Insert { table, .. }
        | Statement::Update { table, .. }
        | Statement::Delete { table, .. } => table,
        _ => return refuse("this statement"),
    };
    let info = info_of(engine, table)?;
    match statement {
        Statement::Select(q) => annotate_select(&info, q, node),
        _ => annotate_dml(&info, statement, node),
    }
}

fn annotate_select(info: &TableInfo, q: &Select, node: &mut PlanNode) -> Result<(), SqlError> {
    let every_column: Vec<String> = info.columns.iter().map(|(c, _)| c.clone()).collect();
    let aggregated = is_aggregated(q);
    let mut output: Vec<String> = Vec::new();
    for item in &q.items {
        match item {
            SelectItem::Wildcard => output.extend(every_column.iter().cloned()),
            SelectItem::Expr { expr, .. } => output.push(tlist_text(expr)),
        }
    }
    // The sort columns the select list lacks ride along as resjunk.
    for o in &q.order_by {
        let c = tlist_text(&o.expr);
        if !output.contains(&c) {
            output.push(c);
        }
    }
    let mut n = node;
    if n.title == "Limit" {
        // A node above another prints the expressions it passes on as
        // references to its child's output, in parentheses: `(count(*))`.
        // (Only an aggregate query has such items; it has no `*`.)
        let upper: Vec<String> = q
            .items
            .iter()
            .zip(&output)
            .map(|(item, o)| match item {
                SelectItem::Expr { expr, .. } if column_name(expr).is_none() => format!("({o})"),
                _ => o.clone(),
            })
            .collect();
        let upper = if aggregated { upper } else { output.clone() };
        n = pass_through(n, &upper)?;
    }
    if aggregated {
        let over_scan = n.children.first().is_some_and(|c| c.title.contains(" on "));
        let kind = n.title.as_str();
        if !(matches!(kind, "Aggregate" | "HashAggregate") || kind == "GroupAggregate" && over_scan)
        {
            return refuse(&format!("a plan with a {} node", n.title));
        }
        let keys: Vec<String> = q.group_by.iter().map(|g| qualified(info, g)).collect();
        requalify(n, "Group Key: ", &keys);
        n = pass_through(n, &output)?;
        if n.title.starts_with("Index Only Scan") {
            // Its physical target list is the index's columns.
            let Some(columns) = index_columns(info, &n.title) else {
                return refuse("an aggregate over an Index Only Scan of an expression index");
            };
            return scan_leaf(n, columns);
        }
        return scan_leaf(n, every_column);
    }
    if n.title == "Sort" {
        let keys: Vec<String> = q
            .order_by
            .iter()
            .map(|o| {
                let desc = if o.order == Order::Desc { " DESC" } else { "" };
                format!("{}{desc}", qualified(info, &o.expr))
            })
            .collect();
        requalify(n, "Sort Key: ", &keys);
        n = pass_through(n, &output)?;
    }
    scan_leaf(n, output)
}

/// `t.v`: a plain column as a verbose key prints it.
fn qualified(info: &TableInfo, e: &Expr) -> String {
    format!(
        "{}.{}",
        super::schemas::bare(&info.name),
        column_name(e).unwrap_or_default()
    )
}

/// Replaces the node's `prefix` line with `keys` under VERBOSE.
fn requalify(n: &mut PlanNode, prefix: &str, keys: &[String]) {
    n.verbose_details = n
        .details
        .iter()
        .map(|d| match d.strip_prefix(prefix) {
            Some(_) => format!("{prefix}{}", keys.join(", ")),
            None => d.clone(),
        })
        .collect();
}

/// Sets the Output of a node with one child and returns the child.
fn pass_through<'n>(n: &'n mut PlanNode, output: &[String]) -> Result<&'n mut PlanNode, SqlError> {
    if n.children.len() != 1 {
        return refuse(&format!("a plan with a {} node", n.title));
    }
    n.output = output.to_vec();
    Ok(&mut n.children[0])
}

/// Sets the Output of the scan the plan must end in.
/// The columns of the index an Index Only Scan titled `title` reads, keys
/// then INCLUDE columns; None when a key is an expression.
fn index_columns(info: &TableInfo, title: &str) -> Option<Vec<String>> {
    let name = title.split(" using ").nth(1)?.split(" on ").next()?;
    let index = info.indexes.iter().find(|i| i.name == name)?;
    index
        .key
        .iter()
        .map(|(c, _)| *c)
        .chain(index.include.iter().copied())
        .map(|c| info.columns.get(c).map(|(n, _)| n.clone()))
        .collect()
}

fn scan_leaf(n: &mut PlanNode, output: Vec<String>) -> Result<(), SqlError> {
    let scan = ["Seq Scan on ", "Index Scan ", "Index Only Scan "]
        .iter()
        .any(|p| n.title.starts_with(p));
    if !scan || !n.children.is_empty() {
        return refuse(&format!("a plan with a {} node", n.title));
    }
    n.output = output;
    Ok(())
}

/// ModifyTable prints no Output without RETURNING; its source's target list
/// is the new row (INSERT), the changed columns then `ctid` (UPDATE), or
/// `ctid` alone (DELETE).
fn annotate_dml(info: &TableInfo, stmt: &Statement, node: &mut PlanNode) -> Result<(), SqlError> {
    let child = match node.children.as_mut_slice() {
        [c] => c,
        _ => return refuse(&format!("a plan with a {} node", node.title)),
    };
    match stmt {
        Statement::Delete { .. } => {
            no_index_only(child).and_then(|c| scan_leaf(c, vec!["ctid".into()]))
        }
        Statement::Update { assignments, .. } => {
            let output = update_output(info, assignments)?;
            no_index_only(child).and_then(|c| scan_leaf(c, output))
        }
        Statement::Insert {
            columns, source, ..
        } => {
            let values = insert_output(info, columns.as_deref(), source)?;
            child.output = match child.title.as_str() {
                "Result" => values,
                "Values Scan on \"*VALUES*\"" => (1..=info.columns.len())
                    .map(|i| format!("\"*VALUES*\".column{i}"))
                    .collect(),
                other => return refuse(&format!("INSERT from a {other} node")),
            };
            Ok(())
        }
        _ => refuse("this statement"),
    }
}

/// The changed columns' new values, in column order (as PostgreSQL orders
/// them), then `ctid`.
fn update_output(
    info: &TableInfo,
    assignments: &[(String, Expr)],
) -> Result<Vec<String>, SqlError> {
    let mut output = Vec::new();
    for (name, ty) in &info.columns {
        if let Some((_, e)) = assignments.iter().find(|(n, _)| n == name) {
            output.push(value_text(info, e, *ty, true)?);
        }
    }
    output.push("ctid".into());
    Ok(output)
}

fn no_index_only(child: &mut PlanNode) -> Result<&mut PlanNode, SqlError> {
    if child.title.starts_with("Index Only Scan") {
        return refuse("UPDATE or DELETE over an Index Only Scan");
    }
    Ok(child)
}

/// The values of the last VALUES row (a `Result` of one row prints them),
/// each checked to print as PostgreSQL prints it.
fn insert_output(
    info: &TableInfo,
    columns: Option<&[String]>,
    source: &Select,
) -> Result<Vec<String>, SqlError> {
    let names: Vec<&String> = info.columns.iter().map(|(c, _)| c).collect();
    let in_order = columns.is_none_or(|c| c.iter().eq(names.iter().copied()));
    let (Some(rows), true) = (&source.values, in_order) else {
        return refuse("INSERT of anything but VALUES for every column, in the table's order");
    };
    let mut last = Vec::new();
    for row in rows {
        if row.len() != info.columns.len() {
            return refuse("INSERT of VALUES rows of another width than the table");
        }
        last = row
            .iter()
            .zip(&info.columns)
            .map(|(e, (_, ty))| value_text(info, e, *ty, false))
            .collect::<Result<Vec<_>, _>>()?;
    }
    Ok(last)
}

/// A new value as PostgreSQL deparses it in a target list, for the values
/// whose printed form IndexLab knows: integer and text literals into integer
/// and text columns (no coercion to print), a column, `column ± integer`.
fn value_text(
    info: &TableInfo,
    e: &Expr,
    ty: SqlType,
    columns_allowed: bool,
) -> Result<String, SqlError> {
    let column_of = |x: &Expr, want: SqlType| {
        columns_allowed
            && column_name(x)
                .is_some_and(|c| info.columns.iter().any(|(n, t)| n == c && *t == want))
    };
    let ok = match (e, ty) {
        (Expr::Literal(Value::Int(_)), SqlType::Int4) => true,
        (Expr::Literal(Value::Text(_)), SqlType::Text) => true,
        (Expr::Column { .. }, _) => column_of(e, ty),
        (Expr::Binary { op, left, right }, SqlType::Int4) => {
            matches!(op, BinOp::Add | BinOp::Sub)
                && column_of(left, SqlType::Int4)
                && matches!(**right, Expr::Literal(Value::Int(_)))
        }
        _ => false,
    };
    if !ok {
        return refuse(&format!(
            "a new value {} for a column of type {}",
            tlist_text(e),
            ty.pg_name()
        ));
    }
    Ok(tlist_text(e))
}
