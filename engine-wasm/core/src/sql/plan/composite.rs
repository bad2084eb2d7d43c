//! Conditions on a composite index's later columns (pg). nbtree turns every
//! condition on an index's columns into a scan key; those on the first
//! columns up to the first one that is not an equality bound the scan
//! (`_bt_first` descends to them and the scan stops when they fail). So
//! with an index on (a, b), `a = 1 AND b > 5` descends straight to (1, 5)
//! and reads only the leaves holding a = 1, b > 5, where a condition on `a`
//! alone would read every entry of a = 1 and filter b on the heap's rows.
//!
//! DocDB does the same with a composite LSM key (yb): an equality on the
//! first columns and a condition on the next make one seek to their
//! prefix; IN lists make one seek per combination of their values
//! (YugabyteDB's hybrid scan).

use super::{key_cond, merge, IndexInfo, KeyCond, TableInfo};
use crate::sql::ast::Expr;
use crate::value::SqlType;

/// `first` (the condition on the index's first column) extended over the
/// columns after it while each one before has an equality or an IN list,
/// taking the parts it uses out of `rest` into `used` in key order. IN
/// lists on the later columns extend it only if `later_lists` (they cost
/// the scan its order).
pub(super) fn extend(
    table: &TableInfo,
    index: &IndexInfo,
    first: KeyCond,
    later_lists: bool,
    used: &mut Vec<Expr>,
    rest: &mut Vec<Expr>,
) -> KeyCond {
    let mut conds = vec![first];
    for pair in index.key.windows(2) {
        let (before, col) = (pair[0].0, pair[1].0);
        let last = conds.last().expect("starts with the first column's");
        // IS NULL fixes the column too (`eqQualHere`), and NULL's key is
        // one byte whatever the type.
        let equality = last.is_equality();
        let fixed = (equality && exact_prefix(table, before)) || matches!(last, KeyCond::IsNull);
        if !fixed {
            break;
        }
        let Some(cond) = take_cond(table, col, used, rest, later_lists) else {
            break;
        };
        conds.push(cond);
    }
    if conds.len() == 1 {
        conds.remove(0)
    } else {
        KeyCond::Columns(conds)
    }
}

/// `bound` with the conditions of `rest` on the key columns it does not
/// bound added as checks on each entry (`KeyCond::Checked`), taking their
/// parts into `used` in key order. With an index on (a, b), `a > 1 AND
/// b = 2` reads every entry of a > 1 but fetches from the heap only those
/// with b = 2; `b = 2` alone reads the whole index that way, which can pay
/// when the index is much smaller than the table.
pub(super) fn checked(
    table: &TableInfo,
    index: &IndexInfo,
    bound: Option<KeyCond>,
    used: &mut Vec<Expr>,
    rest: &mut Vec<Expr>,
) -> Option<KeyCond> {
    let bounded = match &bound {
        None => 0,
        Some(KeyCond::Columns(conds)) => conds.len(),
        Some(_) => 1,
    };
    // The first column's conditions that did not merge stay a Filter.
    let first_checked = bounded.max(1);
    let mut checks = Vec::new();
    for (k, (col, _)) in index.key.iter().enumerate().skip(first_checked) {
        // An IN list is left out: PostgreSQL 15 would make it a scan per
        // value (an array key), which this does not model.
        if let Some(cond) = take_cond(table, *col, used, rest, false) {
            checks.push((k, cond));
        }
    }
    if checks.is_empty() {
        return bound;
    }
    Some(KeyCond::Checked {
        bound: bound.map(Box::new),
        checks,
    })
}

/// `bound` (None, or a range on the first column) with a condition of
/// `rest` on the index's second column as a check DocDB skips by (yb): it
/// seeks to that column's bound under each value of the first, and past
/// the rest of that value once beyond it (`HybridScanChoices`, a skip
/// scan). A range-sharded index only: a hash key is found by its hash.
pub(super) fn skip(
    table: &TableInfo,
    index: &IndexInfo,
    bound: Option<KeyCond>,
    used: &mut Vec<Expr>,
    rest: &mut Vec<Expr>,
) -> Option<KeyCond> {
    let ranged = matches!(bound, None | Some(KeyCond::Range { .. }));
    if index.hash_columns > 0 || index.key.len() < 2 || !ranged {
        return bound;
    }
    match take_cond(table, index.key[1].0, used, rest, false) {
        Some(check @ KeyCond::Range { .. }) => Some(KeyCond::Checked {
            bound: bound.map(Box::new),
            checks: vec![(1, check)],
        }),
        _ => bound,
    }
}

/// The conditions of `rest` on `col` (IN lists only if `lists`), merged as
/// far as one bound per side allows; the parts merged move to `used`.
fn take_cond(
    table: &TableInfo,
    col: usize,
    used: &mut Vec<Expr>,
    rest: &mut Vec<Expr>,
    lists: bool,
) -> Option<KeyCond> {
    let mut cond: Option<KeyCond> = None;
    let mut kept = Vec::new();
    for p in rest.drain(..) {
        let found =
            key_cond(table, col, &p).filter(|c| lists || matches!(c, KeyCond::Range { .. }));
        let merged = found.and_then(|c| match cond.clone() {
            None => Some(c),
            Some(prev) => merge(prev, c),
        });
        match merged {
            Some(m) => {
                cond = Some(m);
                used.push(p);
            }
            None => kept.push(p),
        }
    }
    *rest = kept;
    cond
}

/// Whether an equal value of the column always has the same key bytes, so
/// the next column's bound can follow it. A numeric without a scale stores
/// `2.5` and `2.50` apart (its bound is a prefix of both), a float has two
/// zeros, a char(n) compares without its padding: those stay last.
fn exact_prefix(table: &TableInfo, col: usize) -> bool {
    matches!(
        table.columns.get(col).map(|c| c.1),
        Some(
            SqlType::Int2
                | SqlType::Int4
                | SqlType::Int8
                | SqlType::Text
                | SqlType::Bool
                | SqlType::Uuid
                | SqlType::Date
                | SqlType::Timestamp
                | SqlType::Timestamptz
                | SqlType::Numeric(Some(_))
        )
    )
}

/// How many descents a condition makes: one per combination of its IN
/// lists' values (`num_sa_scans`).
pub fn descents(cond: &KeyCond) -> f64 {
    match cond {
        KeyCond::Points(values) => values.len() as f64,
        KeyCond::Columns(conds) => conds.iter().map(descents).product(),
        KeyCond::Checked { bound, .. } => bound.as_deref().map_or(1.0, descents),
        _ => 1.0,
    }
}
