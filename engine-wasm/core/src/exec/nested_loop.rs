//! The parts of a nested loop both its forms share (one lookup per outer row,
//! or per batch of them): the two sides, what the loops produced, the inner
//! scan's node summed over loops, and the Index Cond as PostgreSQL prints it.

use super::plan_node::{add_named, PlanNode};
use super::row::Row;
use crate::sql::ast::Expr;
use crate::sql::error::{ErrorKind, SqlError};
use crate::sql::rewrite::unqualify;

/// One side of the join: its table and the name the query uses for it.
#[derive(Clone)]
pub struct Side {
    pub(super) table: usize,
    pub(super) name: String,
    /// A subquery in FROM, run once: its rows stand for a table's (then
    /// `table` means nothing).
    pub(super) derived: Option<std::sync::Arc<super::derived::Rows>>,
    /// A LATERAL item: run again for each row of the sides before it (its
    /// `derived` then holds only its columns).
    pub(super) lateral: Option<std::sync::Arc<crate::sql::ast::Select>>,
}

impl Side {
    /// The side's columns and their types.
    pub fn columns<E: super::engine::QueryEngine>(
        &self,
        engine: &E,
    ) -> Vec<(String, crate::value::SqlType)> {
        match &self.derived {
            Some(d) => d.columns.clone(),
            None => engine.planner_info(self.table).columns,
        }
    }
}

/// What the loops of a nested loop produced.
#[derive(Default)]
pub struct Loops {
    pub joined: Vec<Row>,
    /// The inner scan's node, summed over loops.
    pub inner_node: Option<PlanNode>,
    pub inner_rows: u64,
    pub loops: u64,
    /// Outer rows the loops took (fewer than the outer side has once a
    /// LIMIT is reached).
    pub outer_taken: u64,
}

/// The outer side's rows, before the loops run: read by its scan, or (see
/// [`outer_read`]) peeked at, its scan run afterwards only as far as the
/// loops took rows.
pub struct OuterRead {
    pub rows: Vec<Row>,
    /// The scan, when it has run already.
    pub out: Option<super::engine::ScanOutput>,
}

/// The outer side of a nested loop. PostgreSQL pulls outer rows one at a
/// time, so under a LIMIT the outer scan stops at the row that completed
/// it. IndexLab's scans run whole, so for a Seq Scan outer under a LIMIT
/// the rows are first peeked at (read without the buffer pool or any
/// counter), and [`outer_ran`] runs the scan once the loops know how many
/// rows they took.
pub fn outer_read<E: super::engine::QueryEngine>(
    engine: &mut E,
    table: usize,
    plan: &crate::sql::plan::ScanPlan,
    (execute, limit, batch): (bool, Option<u64>, usize),
) -> Result<OuterRead, SqlError> {
    let pulled = execute && limit.is_some() && batch == 1;
    if pulled && matches!(plan.access, crate::sql::plan::AccessPath::Seq) {
        if let Some(rows) = engine.peek_rows(table, &plan.filter)? {
            return Ok(OuterRead { rows, out: None });
        }
    }
    let out = engine.run_scan(table, plan, (!execute).then_some(0))?;
    let rows = out.rows.iter().map(|(_, r)| r.clone()).collect();
    Ok(OuterRead {
        rows,
        out: Some(out),
    })
}

/// The outer scan as it ran: already, or now up to the `taken` rows the
/// loops took when the LIMIT was `reached` (to its end otherwise).
pub fn outer_ran<E: super::engine::QueryEngine>(
    engine: &mut E,
    table: usize,
    plan: &crate::sql::plan::ScanPlan,
    read: OuterRead,
    (reached, taken): (bool, u64),
) -> Result<super::engine::ScanOutput, SqlError> {
    match read.out {
        Some(out) => Ok(out),
        None => engine.run_scan(table, plan, reached.then_some(taken)),
    }
}

impl Loops {
    /// Counts one loop's inner rows within `max_rows`: a nested loop with no
    /// index to look rows up by reads the whole inner table once per outer
    /// row (two 100 000-row tables: 10^10 rows), so the page would hang.
    pub fn add_inner_rows(&mut self, n: u64, max_rows: u64) -> Result<(), SqlError> {
        self.inner_rows += n;
        if self.inner_rows > max_rows {
            return Err(SqlError::new(
                ErrorKind::Limit,
                format!(
                    "the join reads more than max_rows={max_rows} rows of its inner side; \
                     an index on the inner join column (or a larger max_rows) lets it finish"
                ),
            ));
        }
        Ok(())
    }
}

/// The Index Cond as PostgreSQL prints it: the inner column unqualified.
pub(super) fn index_cond_shown(cond: &Expr, inner: &str) -> Expr {
    let Expr::Binary { op, left, right } = cond else {
        return cond.clone();
    };
    let is_inner = |e: &Expr| matches!(e, Expr::Column { table: Some(t), .. } if t == inner);
    let (l, r) = if is_inner(right) {
        (right, left)
    } else {
        (left, right)
    };
    Expr::Binary {
        op: *op,
        left: Box::new(unqualify(l)),
        right: r.clone(),
    }
}

/// Adds one loop's inner-scan node into the running total.
pub(super) fn merge_loop(total: &mut Option<PlanNode>, one: PlanNode) {
    match total {
        None => *total = Some(one),
        Some(t) => {
            t.buffers.add(&one.buffers);
            add_named(&mut t.dist, &one.dist);
            add_named(&mut t.debug, &one.debug);
            t.last_us = t.last_us.max(one.last_us);
        }
    }
}
