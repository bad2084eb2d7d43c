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
