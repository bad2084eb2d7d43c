//! YugabyteDB's Batched Nested Loop (`yb_bnl_batch_size` > 1, article 001).
//!
//! A plain nested loop sends one inner lookup per outer row: on a distributed
//! database, one network round trip each. The batched form reads the outer
//! rows `batch` at a time and looks their join keys up in one inner scan with
//! `Index Cond: (id = ANY (ARRAY[a.id, $1, …]))`, so loops = ceil(outer rows /
//! batch), and the storage layer turns the array into one read operation per
//! value, sent `ysql_request_limit` at a time.
//!
//! The price is on the query node: the inner rows come back unordered with
//! respect to the batch, so the executor matches them again with the Join
//! Filter, each inner row against each outer row of its batch (YugabyteDB's
//! first implementation; a later one hashes the batch). That is batch² filter
//! evaluations a loop, N × batch for the whole join: the work that makes a huge
//! batch slower when round trips are cheap.

use super::nested_loop::{index_cond_shown, merge_loop, Loops, Side};
use super::row::Row;
use super::select::SelectExec;
use crate::sql::ast::Expr;
use crate::sql::deparse::deparse;
use crate::sql::error::SqlError;
use crate::sql::eval::{compare, Bound as BoundExpr};
use crate::sql::plan::{AccessPath, KeyCond, ScanDirection, ScanPlan};
use crate::trace::Event;
use crate::value::Value;
use std::cmp::Ordering;

/// How the inner side is looked up: its index, the outer expression giving the
/// key, the inner column it must equal, and the Index Cond as printed.
pub struct Lookup {
    pub index: usize,
    pub outer_key: BoundExpr,
    pub inner_col: usize,
    pub shown: String,
}

/// `(id = ANY (ARRAY[a.id, $1, $2]))` for a batch of 3, as YugabyteDB prints
/// it: the first element names the outer column, the others are parameters
/// (`$1, $2, $3, ..., $1023` for large batches).
pub fn any_array_shown(cond: &Expr, inner: &str, batch: usize) -> String {
    let (col, outer) = match index_cond_shown(cond, inner) {
        Expr::Binary { left, right, .. } => (deparse(&left), deparse(&right)),
        other => (deparse(&other), String::new()),
    };
    // YugabyteDB prints every parameter; past a dozen IndexLab elides the
    // middle so a 1024-row batch stays one readable line.
    let mut items = vec![outer];
    if batch <= 12 {
        items.extend((1..batch).map(|i| format!("${i}")));
    } else {
        items.extend((1..4).map(|i| format!("${i}")));
        items.push("...".into());
        items.push(format!("${}", batch - 1));
    }
    format!("({col} = ANY (ARRAY[{}]))", items.join(", "))
}

/// The batched loops of a join.
pub trait BatchedJoin: SelectExec {
    #[allow(clippy::too_many_arguments)]
    fn batched_loops(
        &mut self,
        outer_rows: &[&Row],
        batch: usize,
        lookup: &Lookup,
        inner: &Side,
        inner_filter: &[Expr],
        join_filter: &[BoundExpr],
        limit: Option<u64>,
        acc: &mut Loops,
    ) -> Result<(), SqlError> {
        for chunk in outer_rows.chunks(batch) {
            if limit.is_some_and(|l| acc.joined.len() as u64 >= l) {
                break;
            }
            let keys = chunk
                .iter()
                .map(|r| self.eval_bound(&lookup.outer_key, r))
                .collect::<Result<Vec<Value>, _>>()?;
            // `= ANY` never matches a NULL key.
            let values = keys
                .iter()
                .filter(|v| !v.is_null())
                .map(|v| Expr::Literal(v.clone()))
                .collect();
            let at_us = self.now_us();
            self.trace_detail(|| Event::JoinLoop {
                number: acc.loops as u32 + 1,
                keys: keys.len() as u32,
                first_key: keys.first().map(Value::pg_text).unwrap_or_default(),
                last_key: keys.last().map(Value::pg_text).unwrap_or_default(),
                at_us,
            });
            let plan = ScanPlan {
                access: AccessPath::Index {
                    index: lookup.index,
                    direction: ScanDirection::Forward,
                    only: false,
                    cond: Some(KeyCond::Points(values)),
                    cond_exprs: Vec::new(),
                },
                filter: inner_filter.to_vec(),
                ordered: false,
                system_columns: false,
                cost: None,
                why: None,
            };
            let out = self.run_scan(inner.table, &plan, None)?;
            acc.loops += 1;
            acc.inner_rows += out.rows.len() as u64;
            let mut evaluations = 0u64;
            for (_, irow) in &out.rows {
                let inner_key = &irow[lookup.inner_col];
                for (orow, key) in chunk.iter().zip(&keys) {
                    evaluations += 1;
                    if compare(key, inner_key) != Some(Ordering::Equal) {
                        continue;
                    }
                    let combined: Row = orow.iter().chain(irow.iter()).cloned().collect();
                    if self.passes(join_filter, &combined)? {
                        acc.joined.push(combined);
                    }
                }
            }
            let us = evaluations as f64 * self.cost().cpu_operator_us;
            self.advance_us(us);
            let mut node = out.node;
            node.details
                .insert(0, format!("Index Cond: {}", lookup.shown));
            merge_loop(&mut acc.inner_node, node);
        }
        Ok(())
    }
}

impl<E: SelectExec> BatchedJoin for E {}
