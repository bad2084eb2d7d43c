//! The planner. On the pg profile it chooses as PostgreSQL 15 does, by cost,
//! read in this order: [`statistics`] (what it knows of a table),
//! [`selectivity`] (how many rows a condition keeps), [`cost`] (one file per
//! kind of path), [`choose`] (the cheapest scan of one table), then
//! [`join_selectivity`] and [`join`] (two tables: which is outer, and how the
//! inner side is found). [`order_keys`] drops ORDER BY keys a WHERE fixes.
//!
//! On the yb profile it chooses as YugabyteDB's planner does by default, by
//! its heuristic costs ([`yb_choose`]): a guess of the rows from which key
//! columns have a condition, ten times PostgreSQL's cost a row, a tenth more
//! for an index that must then read the table or a backward read.
//!
//! An index scan becomes Index Only when the index holds every column the query
//! touches. Profiles share this planner; each executes the plan on its own storage.

pub mod add_path;
pub mod bitmap_and;
pub mod bitmap_or;
pub mod choose;
pub mod composite;
pub mod cost;
pub mod grouping;
pub mod join;
pub mod join_selectivity;
pub mod merge_selectivity;
pub mod order_keys;
pub mod parallel;
pub mod selectivity;
pub mod statistics;
pub mod why;
pub mod yb_choose;

use super::ast::{BinOp, Expr, Order, OrderItem, Select, SelectItem};
use super::error::SqlError;
use crate::value::SqlType;
use std::ops::Bound;

/// What the planner needs to know about a table.
#[derive(Debug, Clone)]
pub struct TableInfo {
    pub name: String,
    pub columns: Vec<(String, SqlType)>,
    pub indexes: Vec<IndexInfo>,
    /// The system columns a query may name besides `columns` (pg: `ctid`),
    /// numbered after them. `*` never includes them; no index covers them.
    pub system: Vec<(String, SqlType)>,
    /// The expressions its indexes are on (`lower(v)`), numbered after the
    /// system columns: an index key may be one, and a query's condition or
    /// ORDER BY on the same expression can use it.
    pub expressions: Vec<Expr>,
    /// What the planner knows of its size and values, and the settings its
    /// costs read: given by a profile whose planner costs paths (pg), None
    /// for one that costs by its own heuristics (yb).
    pub stats: Option<PlannerStats>,
    /// The rows ANALYZE counted (`reltuples`), on a profile without
    /// statistics (yb): YugabyteDB's default planner reads only that.
    pub reltuples: Option<f64>,
}

/// The statistics and settings a cost-based plan reads.
#[derive(Debug, Clone)]
pub struct PlannerStats {
    pub relation: statistics::RelationStats,
    /// One per index of `TableInfo::indexes`, in the same order.
    pub indexes: Vec<statistics::IndexStats>,
    pub params: cost::CostParams,
}

#[derive(Debug, Clone)]
pub struct IndexInfo {
    pub name: String,
    /// Key columns as (column position in the table, order).
    pub key: Vec<(usize, Order)>,
    /// INCLUDE columns (stored, not ordered).
    pub include: Vec<usize>,
    /// Hash-sharded on its first column (YugabyteDB): only equality finds rows
    /// by it, and it gives no order.
    pub hash: bool,
    /// How many leading key columns are hashed together (YugabyteDB's
    /// `(a, b) HASH`; 0 for a range key): a `yb_hash_code()` of exactly
    /// these columns reads a range of the hash space.
    pub hash_columns: usize,
    /// Unique (a primary key is): an equality on every key column finds
    /// one row at most.
    pub unique: bool,
    /// A partial index's WHERE, as AND-ed parts (empty for a full index):
    /// only a query whose WHERE implies it may use the index.
    pub predicate: Vec<Expr>,
}

impl TableInfo {
    /// How many system columns every table has here: `ctid`, `xmin`, `xmax`.
    pub const SYSTEM_COLUMNS: usize = 3;

    /// The system columns a query may name, after the table's own: where the
    /// row is, and the transactions that wrote and deleted it (PostgreSQL's
    /// type `xid`, held here as a number).
    pub fn system_columns() -> Vec<(String, crate::value::SqlType)> {
        use crate::value::SqlType;
        vec![
            ("ctid".to_string(), SqlType::Tid),
            ("xmin".to_string(), SqlType::Int8),
            ("xmax".to_string(), SqlType::Int8),
        ]
    }

    /// A column's number: its own columns first, then the system columns.
    pub fn column_position(&self, name: &str) -> Option<usize> {
        self.columns
            .iter()
            .chain(&self.system)
            .position(|(c, _)| c == name)
    }
}

/// `WHERE ctid = '(0,1)'` (or `<`, `IN`…) is a Tid Scan or Tid Range Scan in
/// PostgreSQL, which reads only the pages named; IndexLab would read the
/// whole table instead, so it says so rather than show other buffers.
fn refuse_tid_scan(table: &TableInfo, parts: &[Expr]) -> Result<(), SqlError> {
    let is_system = |e: &Expr| {
        matches!(e, Expr::Column { name, .. }
            if table.system.iter().any(|(c, _)| c == name))
    };
    let is_value = |e: &Expr| {
        let mut columns = false;
        e.visit(&mut |x| columns |= matches!(x, Expr::Column { .. }));
        !columns
    };
    for p in parts {
        let tid_condition = match p {
            Expr::Binary { op, left, right } if op.is_comparison() => {
                (is_system(left) && is_value(right)) || (is_system(right) && is_value(left))
            }
            Expr::InList { expr, .. } => is_system(expr),
            _ => false,
        };
        if tid_condition {
            return Err(super::error::unsupported(
                "a condition on ctid (PostgreSQL reads it with a Tid Scan)",
            )
            .near("ctid"));
        }
    }
    Ok(())
}

impl IndexInfo {
    /// Whether the index holds column `col` (as a key or INCLUDE column).
    pub fn covers(&self, col: usize) -> bool {
        self.key.iter().any(|(c, _)| *c == col) || self.include.contains(&col)
    }
}

/// One condition on the index's first column, still as expressions: `now()` is
/// evaluated when the scan starts, as PostgreSQL does for stable functions.
#[derive(Debug, Clone, PartialEq)]
pub enum KeyCond {
    Range {
        lower: Bound<Expr>,
        upper: Bound<Expr>,
    },
    /// `= ANY`: one descent per value.
    Points(Vec<Expr>),
    /// An equality on every column of a key hashed on several columns
    /// (YugabyteDB's `(a, b) HASH`), in key order: the hash of them all
    /// finds the rows.
    HashKey(Vec<Expr>),
    /// `yb_hash_code(hash columns) <op> n` on a hash-sharded key
    /// (YugabyteDB): the rows whose hash lies in the range, which are
    /// contiguous in DocDB (a document key starts with its hash).
    HashCode {
        lower: Bound<Expr>,
        upper: Bound<Expr>,
    },
    /// `col IS NULL` (pg): the entries whose value is NULL, which a B-tree
    /// keeps together at one end of the column's order.
    IsNull,
    /// A condition on each of a composite index's first columns (pg), in
    /// key order: an equality or IN list on every one but the last, then any
    /// condition on the last. The B-tree descends to each combination of the
    /// leading values, as nbtree's scan keys do (`_bt_first`), so the later
    /// columns narrow the leaves read instead of filtering rows afterwards.
    Columns(Vec<KeyCond>),
    /// Conditions on key columns that do not bound the scan (after a
    /// range, or with none on a column before them), by key position, and
    /// the bound the scan has, if any (pg). nbtree checks them on each entry
    /// it reads (`_bt_checkkeys`): an entry failing one is passed over
    /// without a visit to the heap.
    Checked {
        bound: Option<Box<KeyCond>>,
        checks: Vec<(usize, KeyCond)>,
    },
}

impl KeyCond {
    /// `col = x` or `col IN (…)`: what a hash-sharded key can find.
    pub fn is_equality(&self) -> bool {
        match self {
            KeyCond::Points(_) | KeyCond::HashKey(_) => true,
            KeyCond::Range {
                lower: Bound::Included(a),
                upper: Bound::Included(b),
            } => a == b,
            // PostgreSQL's costs count IS NULL as an equality, but it finds
            // no single value to look a unique key up by or to prefix the
            // next column with here.
            KeyCond::Range { .. } | KeyCond::HashCode { .. } | KeyCond::IsNull => false,
            KeyCond::Columns(conds) => conds.iter().all(KeyCond::is_equality),
            KeyCond::Checked { .. } => false,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScanDirection {
    Forward,
    Backward,
}

#[derive(Debug, Clone, PartialEq)]
pub enum AccessPath {
    Seq,
    Index {
        index: usize,
        direction: ScanDirection,
        only: bool,
        cond: Option<KeyCond>,
        /// The conjuncts turned into `cond`, for EXPLAIN's `Index Cond`.
        cond_exprs: Vec<Expr>,
    },
    /// A Bitmap Heap Scan over a Bitmap Index Scan of `index`: every entry
    /// the condition finds is collected first, then each heap page holding
    /// one is read once, in page order (`Recheck Cond` is `cond_exprs`).
    Bitmap {
        index: usize,
        cond: Option<KeyCond>,
        cond_exprs: Vec<Expr>,
        /// More Bitmap Index Scans whose bitmaps are ANDed with the first's
        /// (a BitmapAnd): only rows every index marks are read; or, with
        /// `or`, ORed (a BitmapOr): rows any of them marks.
        and: Vec<BitmapArm>,
        /// The arms' bitmaps are ORed: each arm of an `OR` found by an index.
        or: bool,
    },
}

/// One Bitmap Index Scan of a BitmapAnd after the first.
#[derive(Debug, Clone, PartialEq)]
pub struct BitmapArm {
    pub index: usize,
    pub cond: Option<KeyCond>,
    /// Its conditions (its `Index Cond`).
    pub cond_exprs: Vec<Expr>,
    /// Its node's estimate.
    pub cost: Option<cost::Cost>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct ScanPlan {
    pub access: AccessPath,
    /// Conjuncts not used as index conditions (EXPLAIN's `Filter`).
    pub filter: Vec<Expr>,
    /// True when the scan already returns rows in ORDER BY order.
    pub ordered: bool,
    /// Whether the query names a system column: the scan then appends the
    /// table's system columns to each row (after its own columns).
    pub system_columns: bool,
    /// PostgreSQL's estimates for the chosen path (EXPLAIN's `cost=…
    /// rows=… width=…`), when the profile's planner costs its paths.
    pub cost: Option<choose::PlanCost>,
    /// Why the planner chose it, in one sentence with the estimates it
    /// beat (a cost-based choice only).
    pub why: Option<String>,
}

/// Splits a WHERE clause into its AND-ed parts.
pub fn conjuncts(e: &Expr, out: &mut Vec<Expr>) {
    match e {
        Expr::Binary {
            op: BinOp::And,
            left,
            right,
        } => {
            conjuncts(left, out);
            conjuncts(right, out);
        }
        other => out.push(other.clone()),
    }
}

/// The column (or indexed expression) `e` is, by its number.
pub fn column_index(table: &TableInfo, e: &Expr) -> Option<usize> {
    match e {
        Expr::Column { name, .. } => table.columns.iter().position(|(c, _)| c == name),
        _ if table.expressions.is_empty() => None,
        _ => {
            let e = unqualified(e);
            let k = table.expressions.iter().position(|x| unqualified(x) == e)?;
            Some(table.columns.len() + table.system.len() + k)
        }
    }
}

/// `e` with its columns' table names dropped: `lower(t.v)` is `lower(v)`
/// when the query reads one table.
pub fn unqualified(e: &Expr) -> Expr {
    e.map(&mut |x| match x {
        Expr::Column {
            table: Some(_),
            name,
        } => Some(Expr::Column {
            table: None,
            name: name.clone(),
        }),
        _ => None,
    })
}

/// True for expressions with no column reference (literals, now(), arithmetic).
pub fn is_constant(e: &Expr) -> bool {
    match e {
        Expr::Column { .. } => false,
        Expr::Literal(_) | Expr::Call(_) | Expr::Param(_) => true,
        Expr::Aggregate { .. } | Expr::InSubquery { .. } => false,
        Expr::ScalarSubquery(_) | Expr::Exists { .. } => false,
        Expr::Function { args, .. } => args.iter().all(is_constant),
        Expr::Case { .. } | Expr::Like { .. } => {
            let mut columns = false;
            e.visit(&mut |x| columns |= matches!(x, Expr::Column { .. } | Expr::Aggregate { .. }));
            !columns
        }
        Expr::Unary { expr, .. } | Expr::Cast { expr, .. } => is_constant(expr),
        Expr::Binary { left, right, .. } => is_constant(left) && is_constant(right),
        Expr::IsNull { expr, .. } => is_constant(expr),
        Expr::InList { expr, list, .. } => is_constant(expr) && list.iter().all(is_constant),
        Expr::Between {
            expr, low, high, ..
        } => is_constant(expr) && is_constant(low) && is_constant(high),
    }
}

fn flip(op: BinOp) -> BinOp {
    match op {
        BinOp::Lt => BinOp::Gt,
        BinOp::LtEq => BinOp::GtEq,
        BinOp::Gt => BinOp::Lt,
        BinOp::GtEq => BinOp::LtEq,
        other => other,
    }
}

/// The condition a conjunct puts on column `col`, if it is of a usable form.
fn key_cond(table: &TableInfo, col: usize, e: &Expr) -> Option<KeyCond> {
    let cond = key_cond_of_any_type(table, col, e)?;
    let ty = table.columns.get(col).map(|c| c.1);
    let exact = |x: &Expr| super::datetime::exact_key_constant(ty, x);
    let all_exact = match &cond {
        KeyCond::Range { lower, upper } => [lower, upper].iter().all(|b| match b {
            Bound::Included(x) | Bound::Excluded(x) => exact(x),
            Bound::Unbounded => true,
        }),
        KeyCond::Points(list) => list.iter().all(exact),
        KeyCond::HashCode { .. }
        | KeyCond::HashKey(_)
        | KeyCond::Columns(_)
        | KeyCond::Checked { .. }
        | KeyCond::IsNull => true,
    };
    all_exact.then_some(cond)
}

fn key_cond_of_any_type(table: &TableInfo, col: usize, e: &Expr) -> Option<KeyCond> {
    let on_col = |x: &Expr| column_index(table, x) == Some(col);
    // An integer column compared with a numeric is compared as a numeric
    // (PostgreSQL casts the column), so its index cannot serve: `id > 1.5`
    // must not become `id > 2` in the key's own type.
    let integer_column = matches!(
        table.columns.get(col).map(|c| c.1),
        Some(SqlType::Int2 | SqlType::Int4 | SqlType::Int8)
    );
    let mut numeric_constant = false;
    e.visit(&mut |x| numeric_constant |= crate::sql::numeric::looks_numeric(x));
    if integer_column && numeric_constant {
        return None;
    }
    match e {
        Expr::InList {
            expr,
            list,
            negated: false,
        } if on_col(expr) && list.iter().all(is_constant) => Some(KeyCond::Points(list.clone())),
        // pg reads the NULL entries of a B-tree (yb's reads are not modelled
        // for it).
        Expr::IsNull {
            expr,
            negated: false,
        } if on_col(expr) && table.stats.is_some() => Some(KeyCond::IsNull),
        // IS NOT NULL: every value, the NULL entries left out (as any range
        // leaves them out).
        Expr::IsNull {
            expr,
            negated: true,
        } if on_col(expr) && table.stats.is_some() => Some(KeyCond::Range {
            lower: Bound::Unbounded,
            upper: Bound::Unbounded,
        }),
        _ => bounds_of(e, &on_col).map(|(lower, upper)| KeyCond::Range { lower, upper }),
    }
}

/// The bounds a comparison (`=`, `<`, `<=`, `>`, `>=`, BETWEEN) of `target`
/// with constants puts on it, whichever side `target` is written on.
fn bounds_of(e: &Expr, target: &dyn Fn(&Expr) -> bool) -> Option<(Bound<Expr>, Bound<Expr>)> {
    let (op, c) = match e {
        Expr::Binary { op, left, right } if op.is_comparison() && *op != BinOp::NotEq => {
            if target(left) && is_constant(right) {
                (*op, (**right).clone())
            } else if target(right) && is_constant(left) {
                (flip(*op), (**left).clone())
            } else {
                return None;
            }
        }
        Expr::Between {
            expr,
            low,
            high,
            negated: false,
        } if target(expr) && is_constant(low) && is_constant(high) => {
            return Some((
                Bound::Included((**low).clone()),
                Bound::Included((**high).clone()),
            ))
        }
        _ => return None,
    };
    Some(match op {
        BinOp::Eq => (Bound::Included(c.clone()), Bound::Included(c)),
        BinOp::Lt => (Bound::Unbounded, Bound::Excluded(c)),
        BinOp::LtEq => (Bound::Unbounded, Bound::Included(c)),
        BinOp::Gt => (Bound::Excluded(c), Bound::Unbounded),
        _ => (Bound::Included(c), Bound::Unbounded),
    })
}

/// A comparison of `yb_hash_code(…)` of exactly `index`'s hash columns, in
/// order, with a constant: a range of the hash space (YugabyteDB pushes it
/// down as an index condition). `yb_hash_code(y, x)` or of fewer columns
/// is not: it is not the hash the rows are stored by.
fn hash_code_cond(table: &TableInfo, index: &IndexInfo, e: &Expr) -> Option<KeyCond> {
    use super::functions::ScalarFunc;
    let of_key = |x: &Expr| match x {
        Expr::Function {
            func: ScalarFunc::YbHashCode,
            args,
        } => {
            args.len() == index.hash_columns
                && args.iter().zip(&index.key).all(|(a, (col, _))| match a {
                    Expr::Function {
                        func: ScalarFunc::YbHashKey(_),
                        args,
                    } => column_index(table, &args[0]) == Some(*col),
                    _ => false,
                })
        }
        _ => false,
    };
    // Compared with a numeric (`< 512.5`), the hash is a numeric: no range
    // of whole hashes stands for it.
    let mut numeric_constant = false;
    e.visit(&mut |x| numeric_constant |= crate::sql::numeric::looks_numeric(x));
    if numeric_constant {
        return None;
    }
    bounds_of(e, &of_key).map(|(lower, upper)| KeyCond::HashCode { lower, upper })
}

/// An equality on each column of a key hashed on several columns, with the
/// parts that give them.
fn hash_key_cond(
    table: &TableInfo,
    index: &IndexInfo,
    parts: &[Expr],
) -> (Option<KeyCond>, Vec<Expr>) {
    if index.hash_columns < 2 {
        return (None, Vec::new());
    }
    let (mut values, mut used) = (Vec::new(), Vec::new());
    for (col, _) in &index.key[..index.hash_columns] {
        let found = parts.iter().find_map(|p| match key_cond(table, *col, p)? {
            KeyCond::Range {
                lower: Bound::Included(a),
                upper: Bound::Included(b),
            } if a == b => Some((a, p)),
            _ => None,
        });
        let Some((value, part)) = found else {
            return (None, Vec::new());
        };
        values.push(value);
        used.push(part.clone());
    }
    (Some(KeyCond::HashKey(values)), used)
}

/// The hash-code conditions of `parts` on `index`, merged as far as one
/// bound per side allows: the condition and the parts it used.
fn hash_code_conds(
    table: &TableInfo,
    index: &IndexInfo,
    parts: &[Expr],
) -> (Option<KeyCond>, Vec<Expr>) {
    let (mut cond, mut used) = (None::<KeyCond>, Vec::new());
    for p in parts {
        let Some(c) = hash_code_cond(table, index, p) else {
            continue;
        };
        let merged = match cond.clone() {
            None => Some(c),
            Some(prev) => merge(prev, c),
        };
        if let Some(m) = merged {
            cond = Some(m);
            used.push(p.clone());
        }
    }
    (cond, used)
}

/// Merges two range conditions on the same column (e.g. `x > 1 and x < 9`).
fn merge(a: KeyCond, b: KeyCond) -> Option<KeyCond> {
    let hash = |c: KeyCond| match c {
        KeyCond::HashCode { lower, upper } => KeyCond::Range { lower, upper },
        other => other,
    };
    if let (KeyCond::HashCode { .. }, KeyCond::HashCode { .. }) = (&a, &b) {
        return match merge(hash(a), hash(b))? {
            KeyCond::Range { lower, upper } => Some(KeyCond::HashCode { lower, upper }),
            _ => None,
        };
    }
    match (a, b) {
        (
            KeyCond::Range {
                lower: l1,
                upper: u1,
            },
            KeyCond::Range {
                lower: l2,
                upper: u2,
            },
        ) => {
            // Two bounds on one side (`x < 10 and x < 2`) can't both be the scan's
            // bound without comparing their values, which are only known when the
            // scan starts: the second stays a filter (None), so neither is lost.
            let one_side = |a: &Bound<Expr>, b: &Bound<Expr>| {
                matches!(a, Bound::Unbounded) || matches!(b, Bound::Unbounded)
            };
            if !one_side(&l1, &l2) || !one_side(&u1, &u2) {
                return None;
            }
            let lower = if matches!(l1, Bound::Unbounded) {
                l2
            } else {
                l1
            };
            let upper = if matches!(u1, Bound::Unbounded) {
                u2
            } else {
                u1
            };
            Some(KeyCond::Range { lower, upper })
        }
        _ => None,
    }
}

/// Every table column the query references (select list, WHERE, ORDER BY).
fn referenced_columns(table: &TableInfo, q: &Select) -> Result<Vec<usize>, SqlError> {
    let mut cols = Vec::new();
    for item in &q.items {
        match item {
            SelectItem::Wildcard => cols.extend(0..table.columns.len()),
            SelectItem::Expr { expr, .. } => collect_columns(table, expr, &mut cols)?,
        }
    }
    if let Some(f) = &q.filter {
        collect_columns(table, f, &mut cols)?;
    }
    for o in &q.order_by {
        collect_columns(table, &o.expr, &mut cols)?;
    }
    Ok(cols)
}

fn collect_columns(table: &TableInfo, e: &Expr, out: &mut Vec<usize>) -> Result<(), SqlError> {
    match e {
        Expr::Column { name, .. } => match table.column_position(name) {
            Some(i) => out.push(i),
            None => return Err(super::eval::no_such_column(name, name)),
        },
        Expr::Literal(_) | Expr::Call(_) | Expr::Param(_) => {}
        Expr::Unary { expr, .. } | Expr::Cast { expr, .. } | Expr::IsNull { expr, .. } => {
            collect_columns(table, expr, out)?
        }
        Expr::ScalarSubquery(_) | Expr::Exists { .. } => {}
        // An aggregate reads its argument's and FILTER's columns.
        Expr::Function { .. }
        | Expr::Case { .. }
        | Expr::Like { .. }
        | Expr::InSubquery { .. }
        | Expr::Aggregate { .. } => {
            let mut parts = Vec::new();
            e.visit(&mut |x| {
                if matches!(x, Expr::Column { .. }) {
                    parts.push(x.clone());
                }
            });
            for p in &parts {
                collect_columns(table, p, out)?;
            }
        }
        Expr::Binary { left, right, .. } => {
            collect_columns(table, left, out)?;
            collect_columns(table, right, out)?;
        }
        Expr::InList { expr, list, .. } => {
            collect_columns(table, expr, out)?;
            for x in list {
                collect_columns(table, x, out)?;
            }
        }
        Expr::Between {
            expr, low, high, ..
        } => {
            collect_columns(table, expr, out)?;
            collect_columns(table, low, out)?;
            collect_columns(table, high, out)?;
        }
    }
    Ok(())
}

/// The direction in which `index` returns rows in `order_by` order, if it does.
fn order_direction(
    table: &TableInfo,
    index: &IndexInfo,
    order_by: &[OrderItem],
    fixed: &[usize],
) -> Option<ScanDirection> {
    // A fixed key column the ORDER BY does not name is skipped; one it
    // names (a grouping's key) still matches it.
    let named = |c: usize| {
        order_by
            .iter()
            .any(|o| column_index(table, &o.expr) == Some(c))
    };
    let key: Vec<&(usize, Order)> = index
        .key
        .iter()
        .filter(|(c, _)| !fixed.contains(c) || named(*c))
        .collect();
    if order_by.is_empty() || order_by.len() > key.len() {
        return None;
    }
    let mut dir = None;
    for (item, (col, order)) in order_by.iter().zip(key) {
        if column_index(table, &item.expr) != Some(*col) {
            return None;
        }
        let d = if item.order == *order {
            ScanDirection::Forward
        } else {
            ScanDirection::Backward
        };
        // The index keeps NULLs where its column's default puts them (last for
        // ASC, first for DESC); read backward, they come out at the other end.
        let index_nulls_first = (*order == Order::Desc) == (d == ScanDirection::Forward);
        if item.nulls_come_first() != index_nulls_first {
            return None;
        }
        if dir.is_some_and(|x| x != d) {
            return None;
        }
        dir = Some(d);
    }
    dir
}

/// How `index` could serve the query: the condition it would use, the
/// conjuncts left to check, the order it gives and whether it covers the
/// query. None when it cannot be used at all (a partial index whose
/// predicate the query does not imply).
#[derive(Debug, Clone)]
pub struct IndexCandidate {
    pub index: usize,
    pub cond: Option<KeyCond>,
    /// The conjuncts `cond` came from (EXPLAIN's `Index Cond`), those that
    /// bound the scan first.
    pub used: Vec<Expr>,
    /// How many of `used` bound the scan (the rest are checked on each
    /// entry: `KeyCond::Checked`).
    pub bound_parts: usize,
    /// The conjuncts left as a filter.
    pub rest: Vec<Expr>,
    /// The direction that gives the ORDER BY, if one does.
    pub direction: Option<ScanDirection>,
    pub only: bool,
    pub partial: bool,
}

fn index_candidate(
    table: &TableInfo,
    i: usize,
    q: &Select,
    parts: &[Expr],
    referenced: &[usize],
) -> Result<Option<IndexCandidate>, SqlError> {
    let index = &table.indexes[i];
    let partial = !index.predicate.is_empty();
    let Some(index_parts) = partial_index_parts(index, parts) else {
        return Ok(None);
    };
    let first = index.key[0].0;
    let (mut cond, mut used, mut rest) = (None::<KeyCond>, Vec::new(), Vec::new());
    for p in &index_parts {
        match (key_cond(table, first, p), cond.clone()) {
            (Some(c), None) => {
                cond = Some(c);
                used.push(p.clone());
            }
            (Some(c), Some(prev)) => match merge(prev, c) {
                Some(m) => {
                    cond = Some(m);
                    used.push(p.clone());
                }
                None => rest.push(p.clone()),
            },
            (None, _) => rest.push(p.clone()),
        }
    }
    // A key column the WHERE fixes to one value orders nothing, so an index
    // on (a, b) read for `a = 1` returns its rows in b's order. A hash
    // column orders nothing either; with each one fixed, the rows of that
    // one hash come in the order of the range columns after it.
    let fixed = order_keys::fixed_columns(table, parts);
    let hash_fixed = index.key[..index.hash_columns]
        .iter()
        .all(|(c, _)| fixed.contains(c));
    let direction =
        order_direction(table, index, &q.order_by, &fixed).filter(|_| !index.hash || hash_fixed);
    // The columns after the first bound the scan too (see `composite`); on
    // yb after one hash column or none. An IN list on a later column would
    // cost the scan its order (its values are read one after another), so
    // where the index gives the ORDER BY, YugabyteDB's planner keeps the
    // ordered path, the list checked on each row (`build_index_paths`
    // skips lower-order ScalarArrayOpExprs for it).
    let cost_based = table.stats.is_some() && !index.hash;
    let yb_prefix = table.stats.is_none() && index.hash_columns <= 1;
    if cost_based || yb_prefix {
        let later_lists = cost_based || direction.is_none();
        cond = cond.map(|c| composite::extend(table, index, c, later_lists, &mut used, &mut rest));
    }
    let bound_parts = used.len();
    if cost_based {
        cond = composite::checked(table, index, cond, &mut used, &mut rest);
    } else if table.stats.is_none() {
        cond = composite::skip(table, index, cond, &mut used, &mut rest);
    }
    // A hash-sharded key finds rows only by the hash of all its hash
    // columns: an equality on each, or a range of hashes.
    let hash_found = match &cond {
        Some(KeyCond::Columns(conds)) => conds[0].is_equality(),
        c => c.as_ref().is_some_and(KeyCond::is_equality),
    };
    if index.hash && (index.hash_columns > 1 || !hash_found) {
        rest.append(&mut used);
        cond = None;
        let (hash_cond, hash_used) = match hash_key_cond(table, index, &rest) {
            (Some(c), used) => (Some(c), used),
            _ => hash_code_conds(table, index, &rest),
        };
        if hash_cond.is_some() {
            rest.retain(|p| !hash_used.contains(p));
            cond = hash_cond;
            used = hash_used;
        }
    }
    let only = if partial {
        // Columns read only by clauses the predicate makes redundant are
        // not needed from the index (`check_index_only`).
        let narrowed = Select {
            filter: and_all(&index_parts),
            ..q.clone()
        };
        referenced_columns(table, &narrowed)?
            .iter()
            .all(|c| index.covers(*c))
    } else {
        referenced.iter().all(|c| index.covers(*c))
    };
    Ok(Some(IndexCandidate {
        index: i,
        cond,
        used,
        bound_parts,
        rest: order_keys::restriction_order(table, &rest),
        direction,
        only,
        partial,
    }))
}

impl IndexCandidate {
    /// The scan this candidate makes, in `direction`.
    fn plan(&self, q: &Select, system_columns: bool) -> ScanPlan {
        ScanPlan {
            access: AccessPath::Index {
                index: self.index,
                direction: self.direction.unwrap_or(ScanDirection::Forward),
                only: self.only,
                cond: self.cond.clone(),
                cond_exprs: self.used.clone(),
            },
            filter: self.rest.clone(),
            ordered: self.direction.is_some() || q.order_by.is_empty(),
            system_columns,
            cost: None,
            why: None,
        }
    }
}

/// Chooses the access path for a single-table SELECT (or the row source of an
/// UPDATE/DELETE, with an empty select list and no ORDER BY): by
/// PostgreSQL's costs when the profile gives statistics ([`choose`]), else
/// by YugabyteDB's heuristic costs (yb).
pub fn plan_scan(table: &TableInfo, q: &Select) -> Result<ScanPlan, SqlError> {
    best_of(plan_scans(table, q, false)?)
}

/// [`plan_scan`] for a statement's own top-level query that
/// [`parallel::gatherable`] accepted: it may also be read in parallel under
/// a Gather when that is cheaper.
pub fn plan_top_scan(table: &TableInfo, q: &Select) -> Result<ScanPlan, SqlError> {
    best_of(plan_scans(table, q, true)?)
}

/// The cheapest partial scan of `table` for `q`'s rows (a Parallel Seq,
/// Index or Index Only Scan), costed per process with its Gather
/// (`PlanCost::gather`), for an aggregate computed in parts; None when the
/// table is too small for a worker. `q` reads what a gatherable query reads.
pub fn plan_partial_scan(table: &TableInfo, q: &Select) -> Result<Option<ScanPlan>, SqlError> {
    let Some(stats) = &table.stats else {
        return Ok(None);
    };
    let inputs = scan_inputs(table, q)?;
    let query = choose::Query {
        table,
        stats,
        select: q,
        parts: &inputs.parts,
        ors: &inputs.ors,
        system_columns: inputs.system_columns,
        parallel: true,
    };
    Ok(choose::partial(&query, &inputs.candidates))
}

/// What every plan of a query over one table starts from.
struct ScanInputs {
    /// The WHERE's conjuncts.
    parts: Vec<Expr>,
    /// The indexes that could serve them.
    candidates: Vec<IndexCandidate>,
    /// The ORs whose every arm an index finds (a cost-based planner's).
    ors: Vec<bitmap_or::OrGroup>,
    /// The query reads a system column.
    system_columns: bool,
}

/// [`ScanInputs`] of `q` over `table`, refusing a condition on `ctid`
/// when the query reads a system column (it needs a TID scan).
fn scan_inputs(table: &TableInfo, q: &Select) -> Result<ScanInputs, SqlError> {
    let mut parts = Vec::new();
    if let Some(f) = &q.filter {
        conjuncts(f, &mut parts);
    }
    let referenced = referenced_columns(table, q)?;
    let system_columns = referenced.iter().any(|&c| c >= table.columns.len());
    if system_columns {
        refuse_tid_scan(table, &parts)?;
    }
    let mut candidates = Vec::new();
    for i in 0..table.indexes.len() {
        candidates.extend(index_candidate(table, i, q, &parts, &referenced)?);
    }
    let ors = match table.stats {
        Some(_) => bitmap_or::groups(table, q, &parts, &referenced)?,
        None => Vec::new(),
    };
    Ok(ScanInputs {
        parts,
        candidates,
        ors,
        system_columns,
    })
}

fn best_of(mut all: Vec<ScanPlan>) -> Result<ScanPlan, SqlError> {
    if all.len() == 1 {
        return Ok(all.remove(0));
    }
    // `add_path` over the finished plans (each gives the ORDER BY): one
    // within 1 % of another's total that returns its first row sooner
    // drops it; of those left the cheapest in total wins.
    let finished: Vec<(cost::Cost, bool)> = all
        .iter()
        .map(|p| (choose::finished_cost(p), true))
        .collect();
    let limited = all
        .first()
        .and_then(|p| p.cost)
        .and_then(|c| c.limit)
        .is_some();
    let kept = add_path::survivors(&finished, limited);
    let cheapest = (0..all.len())
        .reduce(|best, i| {
            if finished[i].0.total < finished[best].0.total {
                i
            } else {
                best
            }
        })
        .expect("at least one plan");
    let best = kept
        .iter()
        .copied()
        .reduce(|best, i| {
            if finished[i].0.total < finished[best].0.total {
                i
            } else {
                best
            }
        })
        .expect("a plan survives");
    let mut plan = all.swap_remove(best);
    if best != cheapest {
        // The cheapest in total lost to one as cheap within 1 % that starts sooner.
        plan.why = plan.why.map(|w| format!("{w}{}", why::SOONER));
    }
    Ok(plan)
}

/// Every finished plan the cost-based planner keeps for `q`
/// ([`choose::finalists`]); YugabyteDB's choice otherwise.
pub fn plan_scans(
    table: &TableInfo,
    q: &Select,
    parallel: bool,
) -> Result<Vec<ScanPlan>, SqlError> {
    let inputs = scan_inputs(table, q)?;
    if let Some(stats) = &table.stats {
        let query = choose::Query {
            table,
            stats,
            select: q,
            parts: &inputs.parts,
            ors: &inputs.ors,
            system_columns: inputs.system_columns,
            parallel,
        };
        return Ok(choose::finalists(&query, &inputs.candidates));
    }
    Ok(vec![yb_read(table, q, inputs).plan])
}

/// YugabyteDB's choice of a read of `table` (a profile without statistics)
/// for `q`, with the estimates a join's costs read; None on a profile whose
/// planner reads statistics.
pub fn plan_yb_read(table: &TableInfo, q: &Select) -> Result<Option<yb_choose::YbRead>, SqlError> {
    if table.stats.is_some() {
        return Ok(None);
    }
    Ok(Some(yb_read(table, q, scan_inputs(table, q)?)))
}

fn yb_read(table: &TableInfo, q: &Select, inputs: ScanInputs) -> yb_choose::YbRead {
    let ScanInputs {
        parts,
        candidates,
        system_columns,
        ..
    } = inputs;
    let tuples = yb_choose::tuples(table);
    yb_choose::choose_read(table, q, parts, &candidates, system_columns, tuples)
}

/// The parts of a WHERE clause a scan of `index` must still check, or `None`
/// when the index is partial and the WHERE clause does not imply its
/// predicate (the index may lack rows the query wants). A part the
/// predicate implies is true of every row in the index: PostgreSQL neither
/// uses it as an index condition nor checks it (`check_index_predicates`).
fn partial_index_parts(index: &IndexInfo, parts: &[Expr]) -> Option<Vec<Expr>> {
    if index.predicate.is_empty() {
        return Some(parts.to_vec());
    }
    if !super::predtest::implied_by(&index.predicate, parts) {
        return None;
    }
    Some(
        parts
            .iter()
            .filter(|p| !super::predtest::implies_clause(&index.predicate, p))
            .cloned()
            .collect(),
    )
}

/// The AND of `parts` (None for none).
pub fn and_all(parts: &[Expr]) -> Option<Expr> {
    parts.iter().cloned().reduce(|l, r| Expr::Binary {
        op: BinOp::And,
        left: Box::new(l),
        right: Box::new(r),
    })
}
