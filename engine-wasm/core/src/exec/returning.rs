//! `RETURNING` of INSERT, UPDATE and DELETE: each row the statement wrote
//! (the new version; for DELETE the row removed) projected like a select
//! list, so the statement returns rows as a SELECT does while its command tag
//! stays `INSERT 0 n` / `UPDATE n` / `DELETE n`.

use super::select::projection;
use super::Executor;
use crate::profile::Outcome;
use crate::sql::ast::SelectItem;
use crate::sql::error::{ErrorKind, SqlError};
use crate::sql::eval::{Bound, Scope};
use crate::value::Value;

/// A bound RETURNING list and the rows it has produced so far.
pub struct Returning {
    columns: Vec<String>,
    exprs: Vec<Bound>,
    rows: Vec<Vec<Value>>,
    /// The list names a system column (`ctid`, `xmin`, `xmax`): each row
    /// gets them, from the table written ([`super::QueryEngine::system_values`]).
    system: Option<usize>,
    row: Vec<Value>,
}

impl Returning {
    /// Binds `items` over the columns of table `table` (and its system
    /// columns: `RETURNING ctid` on pg); None when the statement has no
    /// RETURNING. Uncorrelated subqueries run once, first.
    pub fn bind<E: Executor>(
        engine: &mut E,
        items: &[SelectItem],
        table: usize,
    ) -> Result<Option<Returning>, SqlError> {
        if items.is_empty() {
            return Ok(None);
        }
        let info = engine.planner_info(table);
        let mut names_system = false;
        for item in items {
            if let SelectItem::Expr { expr, .. } = item {
                expr.visit(&mut |x| {
                    names_system |= matches!(x, crate::sql::ast::Expr::Column { name, .. }
                        if info.system.iter().any(|(c, _)| c == name));
                });
            }
        }
        let system = names_system.then_some(table);
        let mut scope: Scope = engine.table_scope(table);
        scope.columns.extend(
            info.system
                .into_iter()
                .map(|(c, ty)| (info.name.clone(), c, ty)),
        );
        if items.iter().any(|i| match i {
            SelectItem::Expr { expr, .. } => expr.has_aggregate(),
            SelectItem::Wildcard => false,
        }) {
            return Err(SqlError::new(
                ErrorKind::Semantic,
                "aggregate functions are not allowed in RETURNING",
            ));
        }
        // Uncorrelated subqueries run once, first, and their answer stands in
        // their place; the column keeps the subquery's name (`max`).
        let list = crate::sql::ast::Select {
            items: items.to_vec(),
            ..crate::sql::ast::Select::empty()
        };
        let resolved = super::subquery::resolve(engine, &list)?;
        let (columns, exprs) = projection(&resolved.items, &scope)?;
        Ok(Some(Returning {
            columns,
            exprs,
            rows: Vec::new(),
            system,
            row: Vec::new(),
        }))
    }

    /// Projects one written row, at heap TID `tid` (pg; yb has none).
    pub fn push<E: Executor>(
        &mut self,
        engine: &mut E,
        row: &[Value],
        tid: u64,
    ) -> Result<(), SqlError> {
        let row = if let Some(table) = self.system {
            self.row.clear();
            self.row.extend_from_slice(row);
            self.row.extend(engine.system_values(table, tid)?);
            &self.row[..]
        } else {
            row
        };
        let mut out = Vec::with_capacity(self.exprs.len());
        for e in &self.exprs {
            out.push(engine.eval_bound(e, row)?);
        }
        self.rows.push(out);
        Ok(())
    }

    /// The statement's result: its rows under the DML command tag.
    pub fn outcome(self, tag: String) -> Outcome {
        Outcome {
            tag,
            ..Outcome::rows(self.columns, &self.rows)
        }
    }
}

/// Projects `row` (at heap TID `tid`, pg) into `returning`, when the
/// statement has one.
pub fn project<E: Executor>(
    returning: &mut Option<Returning>,
    engine: &mut E,
    row: &[Value],
    tid: u64,
) -> Result<(), SqlError> {
    match returning {
        Some(r) => r.push(engine, row, tid),
        None => Ok(()),
    }
}

/// The statement's result: RETURNING's rows, or just the tag and count.
pub fn finish(returning: Option<Returning>, tag: String, count: u64) -> Outcome {
    match returning {
        Some(r) => r.outcome(tag),
        None => Outcome::tag(tag).with_count(count),
    }
}
