//! `UNION`, `INTERSECT` and `EXCEPT` [ALL], as PostgreSQL 15 runs them
//! (`prepunion.c`, `nodeAppend.c`, `nodeSetOp.c`): each branch is a query of
//! its own, planned and run by the ordinary executor (so its scans are real
//! and traced); their rows are then combined:
//!
//! - `UNION ALL` appends; `UNION` keeps one row of each set of equal rows;
//! - `INTERSECT [ALL]` and `EXCEPT [ALL]` count each distinct row on both
//!   sides (nodeSetOp's numLeft/numRight): INTERSECT keeps it once if on
//!   both sides, INTERSECT ALL min(left, right) times; EXCEPT once if only
//!   on the left, EXCEPT ALL left − right times.
//!
//! Rows are equal when all their columns are, NULL equal to NULL (as for
//! DISTINCT). The tree is typed before any branch runs, bottom up as
//! `transformSetOperationTree` does, so column-count and type errors come
//! first; the output takes the first branch's column names. ORDER BY, LIMIT
//! and OFFSET apply to the whole result, and ORDER BY may only name an output
//! column (by name or position). Which order rows come in without ORDER BY is
//! PostgreSQL's plan's (a hash table's): not modeled, as no one may rely on it.
//!
//! EXPLAIN of a statement holding a set operation is refused by name
//! ([`in_statement`]): IndexLab does not draw PostgreSQL's Append/HashSetOp
//! plan shapes, and prints nothing rather than something else.

use super::engine::QueryEngine;
use super::executor::Executor;
use super::plan_node::PlanNode;
use super::select::{apply_offset_limit, limit_error, sql_order, QueryResult};
use crate::sql::ast::{Expr, FromItem, Order, Select, SelectItem, SetOp, SetOperation, Statement};
use crate::sql::error::{unsupported, ErrorKind, SqlError};
use crate::sql::eval::compare;
use crate::value::{SqlType, Value};
use std::cmp::Ordering;
use std::collections::BTreeMap;

/// An output column's type as a set operation resolves it. `unknown`: an
/// untyped literal (`'x'`, `NULL`), which takes the other side's type.
#[derive(Debug, Clone, Copy, PartialEq)]
struct ColumnType {
    ty: SqlType,
    unknown: bool,
    /// A `varchar` column (text to the executor): named `character varying`.
    varchar: bool,
}

impl ColumnType {
    fn known(ty: SqlType) -> ColumnType {
        ColumnType {
            ty,
            unknown: false,
            varchar: false,
        }
    }

    fn name(self) -> &'static str {
        if self.varchar && self.ty == SqlType::Text {
            "character varying"
        } else {
            self.ty.pg_name()
        }
    }
}

/// One step of the tree in postfix order: a branch runs, a node combines
/// the two results below it on the stack. Flattened without recursion: a
/// chain of 500 UNIONs is a tree 500 deep.
enum Step<'a> {
    Branch(&'a Select),
    Combine(&'a SetOperation),
}

/// The tree of `q` as steps. A parenthesized set operation with clauses of
/// its own (ORDER BY, LIMIT, OFFSET, WITH) is one branch: it runs whole.
fn steps(q: &Select) -> Vec<Step<'_>> {
    let mut out = Vec::new();
    let mut stack: Vec<(&Select, bool)> = vec![(q, false)];
    while let Some((s, expanded)) = stack.pop() {
        match &s.set_operation {
            Some(op) if expanded => out.push(Step::Combine(op)),
            Some(op) if std::ptr::eq(s, q) || !has_own_clauses(s) => {
                stack.push((s, true));
                stack.push((&op.right, false));
                stack.push((&op.left, false));
            }
            _ => out.push(Step::Branch(s)),
        }
    }
    out
}

fn has_own_clauses(s: &Select) -> bool {
    !s.order_by.is_empty() || s.limit.is_some() || s.offset.is_some() || !s.with.is_empty()
}

/// The queries a set operation combines, left to right (its leaves).
pub fn branches(q: &Select) -> Vec<&Select> {
    let mut out = Vec::new();
    let mut stack = vec![q];
    while let Some(s) = stack.pop() {
        match &s.set_operation {
            Some(op) => {
                stack.push(&op.right);
                stack.push(&op.left);
            }
            None => out.push(s),
        }
    }
    out
}

/// The tree typed: each step's output columns, and the untyped literals
/// that must read as the type they were given (checked before anything runs).
struct Typed {
    names: Vec<String>,
    types: Vec<Vec<ColumnType>>,
    literal_casts: Vec<(Value, SqlType)>,
}

/// A branch with the WITH queries of the set operation around it (its own
/// first: an inner name hides an outer one).
fn with_outer(branch: &Select, outer: &Select) -> Select {
    let mut b = branch.clone();
    b.with.extend(outer.with.iter().cloned());
    b
}

/// Types the tree bottom up, as `transformSetOperationTree` does: at each
/// node the column counts must agree, then each column pair resolves.
fn type_tree<E: QueryEngine>(engine: &E, q: &Select, steps: &[Step]) -> Result<Typed, SqlError> {
    let mut types: Vec<Vec<ColumnType>> = Vec::with_capacity(steps.len());
    let mut literal_casts = Vec::new();
    // (step index, literal values of the branch's untyped columns)
    let mut stack: Vec<(usize, Vec<Option<Value>>)> = Vec::new();
    let mut names = None;
    for (i, step) in steps.iter().enumerate() {
        match step {
            Step::Branch(b) => {
                let b = &with_outer(b, q);
                let (cols, literals) = branch_columns(engine, b)?;
                names.get_or_insert_with(|| cols.iter().map(|(n, _)| n.clone()).collect());
                types.push(cols.into_iter().map(|(_, t)| t).collect());
                stack.push((i, literals));
            }
            Step::Combine(op) => {
                let (r, right_literals) = stack.pop().expect("a right side");
                let (l, left_literals) = stack.pop().expect("a left side");
                if types[l].len() != types[r].len() {
                    return Err(SqlError::new(
                        ErrorKind::Semantic,
                        format!(
                            "each {} query must have the same number of columns",
                            op.op.name()
                        ),
                    ));
                }
                let mut node = Vec::with_capacity(types[l].len());
                for (c, (a, b)) in types[l].iter().zip(&types[r]).enumerate() {
                    let ty = common_type(op.op, *a, *b)?;
                    for (side, literals) in [(a, &left_literals), (b, &right_literals)] {
                        if let (true, Some(Some(v))) = (side.unknown, literals.get(c)) {
                            literal_casts.push((v.clone(), ty.ty));
                        }
                    }
                    node.push(ty);
                }
                types.push(node);
                stack.push((i, Vec::new()));
            }
        }
    }
    Ok(Typed {
        names: names.unwrap_or_default(),
        types,
        literal_casts,
    })
}

/// A branch's output columns (names and types), and for each the untyped
/// literal it is (if it is one).
type BranchColumns = (Vec<(String, ColumnType)>, Vec<Option<Value>>);

/// Types one branch as the executor will run it (`types::output_columns`);
/// a select item that is a bare `'…'` or NULL is untyped.
fn branch_columns<E: QueryEngine>(engine: &E, b: &Select) -> Result<BranchColumns, SqlError> {
    if b.set_operation.is_some() {
        let cols = output_columns(engine, b)?;
        let n = cols.len();
        let cols = cols
            .into_iter()
            .map(|(name, ty)| (name, ColumnType::known(ty)))
            .collect();
        return Ok((cols, vec![None; n]));
    }
    let cols = super::types::output_columns(engine, b)?;
    let mut literals = vec![None; cols.len()];
    if b.values.is_none() {
        let wildcards = b
            .items
            .iter()
            .filter(|i| matches!(i, SelectItem::Wildcard))
            .count();
        let each = (cols.len() + wildcards)
            .saturating_sub(b.items.len())
            .checked_div(wildcards)
            .unwrap_or(0);
        let mut at = 0;
        for item in &b.items {
            match item {
                SelectItem::Wildcard => at += each,
                SelectItem::Expr { expr, .. } => {
                    if let (Expr::Literal(v @ (Value::Text(_) | Value::Null)), Some(slot)) =
                        (expr, literals.get_mut(at))
                    {
                        *slot = Some(v.clone());
                    }
                    at += 1;
                }
            }
        }
    }
    let varchar = varchar_columns(engine, b, cols.len());
    let cols = cols
        .into_iter()
        .zip(literals.iter().zip(varchar))
        .map(|((name, ty), (lit, varchar))| {
            let unknown = lit.is_some();
            (
                name,
                ColumnType {
                    ty,
                    unknown,
                    varchar,
                },
            )
        })
        .collect();
    Ok((cols, literals))
}

/// Which output columns of a one-table branch are `varchar` columns of its
/// table (only their names in messages differ, so other forms say text).
fn varchar_columns<E: QueryEngine>(engine: &E, b: &Select, n: usize) -> Vec<bool> {
    let mut out = vec![false; n];
    let ([item], true) = (b.from.as_slice(), b.joins.is_empty()) else {
        return out;
    };
    let Ok((FromItem::Table { name, .. }, _)) = crate::sql::rewrite::inline_cte(item, &b.with)
    else {
        return out;
    };
    let Ok(id) = engine.table_id(&name) else {
        return out;
    };
    let mut names = Vec::new();
    for i in &b.items {
        match i {
            SelectItem::Wildcard => names.extend(
                engine
                    .planner_info(id)
                    .columns
                    .into_iter()
                    .map(|(c, _)| Some(c)),
            ),
            SelectItem::Expr {
                expr: Expr::Column { name, .. },
                ..
            } => names.push(Some(name.clone())),
            SelectItem::Expr { .. } => names.push(None),
        }
    }
    for (slot, c) in out.iter_mut().zip(names) {
        *slot = c.is_some_and(|c| engine.is_varchar(id, &c));
    }
    out
}

/// The type both sides become (`select_common_type`): an untyped literal
/// takes the other side's; within the numeric types the wider one (float8
/// over float4 over numeric over bigint over integer over smallint); else
/// they must match.
fn common_type(op: SetOp, a: ColumnType, b: ColumnType) -> Result<ColumnType, SqlError> {
    match (a.unknown, b.unknown) {
        (true, true) => return Ok(ColumnType::known(SqlType::Text)),
        // A literal's typmod is none: a bpchar loses its length.
        (true, false) => {
            return Ok(ColumnType {
                unknown: false,
                ty: without_length(b.ty),
                ..b
            })
        }
        (false, true) => {
            return Ok(ColumnType {
                unknown: false,
                ty: without_length(a.ty),
                ..a
            })
        }
        _ => {}
    }
    let rank = |t: SqlType| match t {
        SqlType::Int2 => Some(0),
        SqlType::Int4 => Some(1),
        SqlType::Int8 => Some(2),
        SqlType::Numeric(_) => Some(3),
        SqlType::Float4 => Some(4),
        SqlType::Float8 => Some(5),
        _ => None,
    };
    match (rank(a.ty), rank(b.ty)) {
        // Two numerics keep a typmod only when it is the same (select_common_typmod).
        _ if a.ty.is_numeric() && b.ty.is_numeric() && a.ty != b.ty => {
            Ok(ColumnType::known(SqlType::Numeric(None)))
        }
        // text and varchar cast to each other implicitly, so the first
        // side's type stays (select_common_type switches only one way).
        _ if a.ty == b.ty => Ok(a),
        // bpchar and text cast to each other implicitly too: the first
        // side's type stays, without a length (each value as it is).
        _ if a.ty.is_text() && b.ty.is_text() => Ok(a),
        // A numeric meeting another type loses its typmod: `id` (integer)
        // unioned with a numeric(6,2) prints `7`, not `7.00`.
        (Some(x), Some(y)) => Ok(ColumnType::known(match if y > x { b.ty } else { a.ty } {
            SqlType::Numeric(_) => SqlType::Numeric(None),
            other => other,
        })),
        _ => Err(SqlError::new(
            ErrorKind::Semantic,
            format!(
                "{} types {} and {} cannot be matched",
                op.name(),
                a.name(),
                b.name()
            ),
        )),
    }
}

/// `character(n)` without its n (`bpchar`): values keep their padding, and
/// a literal gets none.
fn without_length(ty: SqlType) -> SqlType {
    match ty {
        SqlType::Bpchar(_) => SqlType::Bpchar(0),
        other => other,
    }
}

/// The output columns of a set operation: the first branch's names, the
/// resolved types (what CREATE TABLE AS makes).
pub fn output_columns<E: QueryEngine>(
    engine: &E,
    q: &Select,
) -> Result<Vec<(String, SqlType)>, SqlError> {
    let steps = steps(q);
    let typed = type_tree(engine, q, &steps)?;
    let last = typed.types.last().cloned().unwrap_or_default();
    Ok(typed
        .names
        .into_iter()
        .zip(last)
        .map(|(n, t)| (n, t.ty))
        .collect())
}

/// Runs the set operation `q` (its tree, then its ORDER BY, OFFSET, LIMIT).
pub fn run<E: Executor>(
    engine: &mut E,
    q: &Select,
    execute: bool,
) -> Result<(PlanNode, QueryResult), SqlError> {
    if !execute {
        return Err(explain_refused());
    }
    let steps = steps(q);
    let typed = type_tree(&*engine, q, &steps)?;
    let order = order_columns(q, &typed.names)?;
    for (v, ty) in &typed.literal_casts {
        cast(engine, v.clone(), *ty)?;
    }
    let max_rows = engine.settings().max_rows() as u64;
    let mut read = 0u64;
    // (rows, the step that made them, its plan node)
    let mut stack: Vec<(Vec<Vec<Value>>, usize, PlanNode)> = Vec::new();
    for (i, step) in steps.iter().enumerate() {
        match step {
            Step::Branch(b) => {
                let (node, result) = engine.run_select(&with_outer(b, q), true)?;
                let width = typed.types[i].len();
                if result.rows.iter().any(|r| r.len() != width) {
                    // Typed otherwise than it ran: never combine misaligned rows.
                    return Err(unsupported(
                        "this form of a UNION, INTERSECT or EXCEPT branch",
                    ));
                }
                read += result.rows.len() as u64;
                if read > max_rows {
                    return Err(limit_error(format!(
                        "the branches of this {} return more than max_rows={max_rows} rows",
                        op_name(q)
                    )));
                }
                stack.push((result.rows, i, node));
            }
            Step::Combine(op) => {
                let (right, r, right_node) = stack.pop().expect("a right side");
                let (left, l, left_node) = stack.pop().expect("a left side");
                let node_types = &typed.types[i];
                let left = coerce_rows(engine, left, &typed.types[l], node_types)?;
                let right = coerce_rows(engine, right, &typed.types[r], node_types)?;
                let n = (left.len() + right.len()) as f64;
                let bpchar: Vec<bool> = node_types
                    .iter()
                    .map(|t| matches!(t.ty, SqlType::Bpchar(_)))
                    .collect();
                let rows = combine(op, left, right, &bpchar)?;
                engine.advance_us(n * engine.cost().cpu_compare_us);
                let node = plan_node(op, left_node, right_node, rows.len() as u64);
                stack.push((rows, i, node));
            }
        }
    }
    let (mut rows, root, mut node) = stack.pop().expect("the whole tree");
    if !order.is_empty() {
        let start = engine.now_us();
        // A bpchar column sorts without its trailing blanks (`bpcharcmp`).
        let bpchar: Vec<bool> = typed.types[root]
            .iter()
            .map(|t| matches!(t.ty, SqlType::Bpchar(_)))
            .collect();
        let key = |v: &Value, c: usize| match v {
            Value::Text(s) if bpchar.get(c) == Some(&true) => Value::text(s.trim_end_matches(' ')),
            other => other.clone(),
        };
        for row in &rows {
            super::aggregate::accumulate::check_sortable(order.iter().map(|&(c, ..)| &row[c]))?;
        }
        rows.sort_by(|a, b| {
            order
                .iter()
                .map(|&(c, o, nulls_first)| {
                    sql_order(&key(&a[c], c), &key(&b[c], c), o, nulls_first)
                })
                .find(|c| *c != Ordering::Equal)
                .unwrap_or(Ordering::Equal)
        });
        let n = rows.len().max(2) as f64;
        engine.advance_us(n * n.log2() * engine.cost().cpu_compare_us);
        node = PlanNode {
            title: "Sort".into(),
            rows: rows.len() as u64,
            loops: 1,
            first_us: engine.now_us() - start,
            last_us: engine.now_us() - start,
            children: vec![node],
            ..PlanNode::default()
        };
    }
    let node = apply_offset_limit(engine, node, &mut rows, q)?;
    Ok((
        node,
        QueryResult {
            columns: typed.names,
            rows,
        },
    ))
}

fn op_name(q: &Select) -> &'static str {
    q.set_operation.as_ref().map_or("UNION", |s| s.op.name())
}

/// An untyped literal read as `ty` (its type's input function, with its
/// errors: `invalid input syntax for type integer: "a"`).
fn cast<E: Executor>(engine: &mut E, v: Value, ty: SqlType) -> Result<Value, SqlError> {
    engine.eval_const(&Expr::Cast {
        expr: Box::new(Expr::Literal(v)),
        ty,
    })
}

/// A side's rows in the node's column types (integer to float8…).
fn coerce_rows<E: Executor>(
    engine: &mut E,
    mut rows: Vec<Vec<Value>>,
    from: &[ColumnType],
    to: &[ColumnType],
) -> Result<Vec<Vec<Value>>, SqlError> {
    for (c, (f, t)) in from.iter().zip(to).enumerate() {
        // Into bpchar without a common length: each value as it is.
        let into_bpchar = f.ty.is_text() && matches!(t.ty, SqlType::Bpchar(_));
        if (f.ty == t.ty || into_bpchar) && !f.unknown {
            continue;
        }
        if matches!(f.ty, SqlType::Bpchar(_)) && t.ty == SqlType::Text {
            // The bpchar-to-text cast drops the trailing blanks.
            for row in &mut rows {
                if let Value::Text(s) = &row[c] {
                    row[c] = Value::text(s.trim_end_matches(' '));
                }
            }
            continue;
        }
        for row in &mut rows {
            let v = std::mem::replace(&mut row[c], Value::Null);
            row[c] = if f.unknown {
                cast(engine, v, t.ty)?
            } else {
                crate::sql::eval::coerce(v, t.ty)?
            };
        }
    }
    Ok(rows)
}

/// One node's rows from its two sides' (nodeSetOp's counts). Columns of
/// type bpchar (`bpchar`) match without their trailing blanks (`bpchareq`).
fn combine(
    op: &SetOperation,
    mut left: Vec<Vec<Value>>,
    right: Vec<Vec<Value>>,
    bpchar: &[bool],
) -> Result<Vec<Vec<Value>>, SqlError> {
    if op.op == SetOp::Union && op.all {
        left.extend(right);
        return Ok(left);
    }
    // Matching rows needs json's missing equality operator.
    if left
        .iter()
        .chain(&right)
        .flatten()
        .any(|v| matches!(v, Value::Json(_)))
    {
        return Err(super::aggregate::accumulate::no_json_equality());
    }
    // Each distinct row with its count on the left and on the right, in the
    // order first seen.
    let mut index: BTreeMap<RowKey, usize> = BTreeMap::new();
    let mut groups: Vec<(Vec<Value>, u64, u64)> = Vec::new();
    for (row, from_left) in left
        .into_iter()
        .map(|r| (r, true))
        .chain(right.into_iter().map(|r| (r, false)))
    {
        let key = RowKey(matching_key(&row, bpchar));
        let g = match index.get(&key) {
            Some(&g) => g,
            // A row only on the right matters to UNION alone.
            None if !from_left && op.op != SetOp::Union => continue,
            None => {
                groups.push((row, 0, 0));
                index.insert(key, groups.len() - 1);
                groups.len() - 1
            }
        };
        if from_left {
            groups[g].1 += 1;
        } else {
            groups[g].2 += 1;
        }
    }
    let mut out = Vec::new();
    for (row, l, r) in groups {
        let times = match (op.op, op.all) {
            (SetOp::Union, _) => 1,
            (SetOp::Intersect, false) => u64::from(l > 0 && r > 0),
            (SetOp::Intersect, true) => l.min(r),
            (SetOp::Except, false) => u64::from(l > 0 && r == 0),
            (SetOp::Except, true) => l.saturating_sub(r),
        };
        for _ in 0..times {
            out.push(row.clone());
        }
    }
    Ok(out)
}

/// The row as set operations match it: bpchar columns without their
/// trailing blanks.
fn matching_key(row: &[Value], bpchar: &[bool]) -> Vec<Value> {
    row.iter()
        .zip(bpchar.iter().chain(std::iter::repeat(&false)))
        .map(|(v, &b)| match v {
            Value::Text(s) if b => Value::text(s.trim_end_matches(' ')),
            other => other.clone(),
        })
        .collect()
}

/// A row as a key: equal when every column is, NULL equal to NULL (and NaN
/// to NaN, as PostgreSQL's float equality has it).
struct RowKey(Vec<Value>);

impl Ord for RowKey {
    fn cmp(&self, other: &Self) -> Ordering {
        for (a, b) in self.0.iter().zip(&other.0) {
            let c = match (a, b) {
                (Value::Null, Value::Null) => Ordering::Equal,
                (Value::Null, _) => Ordering::Less,
                (_, Value::Null) => Ordering::Greater,
                _ => compare(a, b).unwrap_or_else(|| nan_last(a).cmp(&nan_last(b))),
            };
            if c != Ordering::Equal {
                return c;
            }
        }
        self.0.len().cmp(&other.0.len())
    }
}

/// Where a value sorts when `compare` has no answer: NaN after every number.
fn nan_last(v: &Value) -> u8 {
    match v {
        Value::Float(f) if f.is_nan() => 2,
        Value::Real(f) if f.is_nan() => 2,
        _ => 1,
    }
}

impl PartialOrd for RowKey {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl PartialEq for RowKey {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for RowKey {}

/// PostgreSQL's plan node for one set operation (what a DML statement's
/// source records; EXPLAIN of it is refused).
fn plan_node(op: &SetOperation, left: PlanNode, right: PlanNode, rows: u64) -> PlanNode {
    let append = PlanNode {
        title: "Append".into(),
        rows: left.rows + right.rows,
        loops: 1,
        children: vec![left, right],
        ..PlanNode::default()
    };
    let title = match (op.op, op.all) {
        (SetOp::Union, true) => return append,
        (SetOp::Union, false) => "HashAggregate".to_string(),
        (SetOp::Intersect, all) => format!("HashSetOp Intersect{}", if all { " All" } else { "" }),
        (SetOp::Except, all) => format!("HashSetOp Except{}", if all { " All" } else { "" }),
    };
    PlanNode {
        title,
        rows,
        loops: 1,
        children: vec![append],
        ..PlanNode::default()
    }
}

/// ORDER BY of a set operation: each item an output column, by name or by
/// position (`transformSetOperationStmt`), as (column, order, NULLs first).
fn order_columns(q: &Select, names: &[String]) -> Result<Vec<(usize, Order, bool)>, SqlError> {
    q.order_by
        .iter()
        .map(|o| {
            let column = match &o.expr {
                Expr::Literal(Value::Int(n)) => usize::try_from(*n)
                    .ok()
                    .and_then(|n| n.checked_sub(1))
                    .filter(|&i| i < names.len())
                    .ok_or_else(|| {
                        SqlError::new(
                            ErrorKind::Semantic,
                            format!("ORDER BY position {n} is not in select list"),
                        )
                    })?,
                Expr::Column { table: None, name } => {
                    let mut found = names.iter().enumerate().filter(|(_, n)| *n == name);
                    match (found.next(), found.next()) {
                        (Some((i, _)), None) => i,
                        (Some(_), Some(_)) => {
                            return Err(SqlError::new(
                                ErrorKind::Semantic,
                                format!("ORDER BY \"{name}\" is ambiguous"),
                            ))
                        }
                        _ => {
                            return Err(SqlError::new(
                                ErrorKind::Semantic,
                                format!("column \"{name}\" does not exist"),
                            )
                            .near(name))
                        }
                    }
                }
                Expr::Column { table: Some(t), .. } => {
                    return Err(SqlError::new(
                        ErrorKind::Semantic,
                        format!("missing FROM-clause entry for table \"{t}\""),
                    ))
                }
                _ => {
                    return Err(SqlError::new(
                        ErrorKind::Semantic,
                        "invalid UNION/INTERSECT/EXCEPT ORDER BY clause",
                    )
                    .with_hint(
                        "Add the expression/function to every SELECT, or move the UNION into a FROM clause.",
                    ))
                }
            };
            Ok((column, o.order, o.nulls_come_first()))
        })
        .collect()
}

fn explain_refused() -> SqlError {
    unsupported("EXPLAIN of a query with UNION, INTERSECT or EXCEPT")
}

/// EXPLAIN of `statement` is refused when it holds a set operation anywhere
/// (in a subquery or a WITH query too).
pub fn refuse_explain(statement: &Statement) -> Result<(), SqlError> {
    if in_statement(statement) {
        return Err(explain_refused());
    }
    Ok(())
}

/// Whether a statement holds a set operation anywhere.
pub fn in_statement(statement: &Statement) -> bool {
    match statement {
        Statement::Select(q) | Statement::Insert { source: q, .. } => in_query(q),
        Statement::Update {
            assignments,
            filter,
            ..
        } => assignments
            .iter()
            .map(|(_, e)| e)
            .chain(filter)
            .any(in_expr),
        Statement::Delete { filter, .. } => filter.iter().any(in_expr),
        _ => false,
    }
}

fn in_expr(e: &Expr) -> bool {
    let mut found = false;
    e.visit(&mut |x| {
        if let Expr::ScalarSubquery(s)
        | Expr::Exists { query: s, .. }
        | Expr::InSubquery { query: s, .. } = x
        {
            found |= in_query(s);
        }
    });
    found
}

/// Whether a query holds a set operation: itself, its WITH queries, or a
/// subquery of its own clauses (their nesting is bounded by the parser's).
fn in_query(q: &Select) -> bool {
    if q.set_operation.is_some() || q.with.iter().any(|(_, c)| in_query(c)) {
        return true;
    }
    q.items
        .iter()
        .filter_map(|i| match i {
            SelectItem::Expr { expr, .. } => Some(expr),
            SelectItem::Wildcard => None,
        })
        .chain(&q.filter)
        .chain(&q.having)
        .chain(q.order_by.iter().map(|o| &o.expr))
        .chain(q.joins.iter().filter_map(|j| j.on.as_ref()))
        .any(in_expr)
}
