//! BitmapOr: a condition `a OR b` that no single index can find may still
//! be found by several, one per arm. Each arm's index builds a bitmap of
//! the rows it matches, the bitmaps are ORed, and the heap pages holding
//! any marked row are read once each, in page order
//! (`generate_bitmap_or_paths`; costed by `cost_bitmap_or_node`).
//!
//! IndexLab takes an arm when one index finds exactly its conditions (its
//! Index Cond is the whole arm), so the ORed bitmap holds exactly the rows
//! the OR keeps; arms it cannot find that way leave the OR to the other
//! paths.

use super::{conjuncts, index_candidate, IndexCandidate, TableInfo};
use crate::sql::ast::{BinOp, Expr, Select};
use crate::sql::error::SqlError;

/// An `OR` of the WHERE (one of its conjuncts) and, for each of its arms,
/// the indexes that find that arm.
#[derive(Debug, Clone)]
pub struct OrGroup {
    /// Its place among the WHERE's conjuncts.
    pub part: usize,
    pub arms: Vec<Vec<IndexCandidate>>,
}

/// The OR groups of `parts` whose every arm some index finds.
pub fn groups(
    table: &TableInfo,
    q: &Select,
    parts: &[Expr],
    referenced: &[usize],
) -> Result<Vec<OrGroup>, SqlError> {
    let mut out = Vec::new();
    for (part, e) in parts.iter().enumerate() {
        let mut arms = Vec::new();
        or_arms(e, &mut arms);
        if arms.len() < 2 {
            continue;
        }
        let mut found = Vec::new();
        for arm in &arms {
            let candidates = arm_candidates(table, q, arm, referenced)?;
            if candidates.is_empty() {
                break;
            }
            found.push(candidates);
        }
        if found.len() == arms.len() {
            out.push(OrGroup { part, arms: found });
        }
    }
    Ok(out)
}

/// The arms of `a OR b OR c`, nested ORs flattened; `e` itself otherwise.
fn or_arms(e: &Expr, out: &mut Vec<Expr>) {
    match e {
        Expr::Binary {
            op: BinOp::Or,
            left,
            right,
        } => {
            or_arms(left, out);
            or_arms(right, out);
        }
        _ => out.push(e.clone()),
    }
}

/// The indexes whose conditions are exactly `arm`'s.
fn arm_candidates(
    table: &TableInfo,
    q: &Select,
    arm: &Expr,
    referenced: &[usize],
) -> Result<Vec<IndexCandidate>, SqlError> {
    let mut parts = Vec::new();
    conjuncts(arm, &mut parts);
    let mut out = Vec::new();
    for i in 0..table.indexes.len() {
        if table.indexes[i].hash {
            continue;
        }
        let Some(c) = index_candidate(table, i, q, &parts, referenced)? else {
            continue;
        };
        if c.cond.is_some() && c.rest.is_empty() {
            out.push(c);
        }
    }
    Ok(out)
}
