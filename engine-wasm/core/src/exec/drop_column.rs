//! ALTER TABLE … DROP COLUMN, as PostgreSQL 15 decides what goes with the
//! column (tablecmds.c `ATExecDropColumn`, then dependency.c's walk of
//! `pg_depend`):
//! - an index or constraint holding the column, in its key, its INCLUDE,
//!   an expression or its WHERE, is dropped silently (an automatic
//!   dependency), and so is every statistics object naming the column;
//! - a generated column computed from it is a normal dependency: without
//!   CASCADE the statement fails and names it, with CASCADE it is dropped
//!   too and a notice says so.
//!
//! PostgreSQL leaves the column's bytes in the tuples already written (it
//! only marks the attribute dropped); the engines keep each tuple's size and
//! count the dropped attribute in the tuples written later, as a NULL.

use super::index_expression::IndexExpression;
use super::index_predicate::IndexPredicate;
use crate::sql::ast::{ColumnDef, Expr};
use crate::sql::error::{unsupported, ErrorKind, SqlError};
use crate::sql::eval::Scope;

/// What one DROP COLUMN removes.
#[derive(Debug, Default, PartialEq)]
pub struct ColumnDrop {
    /// Positions of the columns that go, highest first (so removing them in
    /// turn keeps the others' positions valid). Empty: nothing to do.
    pub positions: Vec<usize>,
    pub notices: Vec<String>,
}

/// What dropping column `name` of `table` takes with it, or PostgreSQL's
/// error.
pub fn plan(
    table: &str,
    columns: &[ColumnDef],
    name: &str,
    if_exists: bool,
    cascade: bool,
) -> Result<ColumnDrop, SqlError> {
    if crate::sql::eval::is_system_column(name) {
        return Err(SqlError::new(
            ErrorKind::Semantic,
            format!("cannot drop system column \"{name}\""),
        )
        .near(name));
    }
    let Some(pos) = columns.iter().position(|c| c.name == name) else {
        let message = format!("column \"{name}\" of relation \"{table}\" does not exist");
        return match if_exists {
            true => Ok(ColumnDrop {
                positions: Vec::new(),
                notices: vec![format!("{message}, skipping")],
            }),
            false => Err(SqlError::new(ErrorKind::Semantic, message).near(name)),
        };
    };
    let dependents: Vec<usize> = (0..columns.len())
        .filter(|&i| i != pos && columns[i].generated.as_ref().is_some_and(|e| uses(e, name)))
        .collect();
    let describe = |i: usize| format!("column {} of table {table}", columns[i].name);
    let mut drop = ColumnDrop {
        positions: vec![pos],
        notices: Vec::new(),
    };
    if !dependents.is_empty() {
        if !cascade {
            let detail: Vec<String> = dependents
                .iter()
                .map(|&i| format!("{} depends on column {name} of table {table}", describe(i)))
                .collect();
            return Err(SqlError::new(
                ErrorKind::Semantic,
                format!(
                    "cannot drop column {name} of table {table} because other objects depend on it"
                ),
            )
            .with_detail(detail.join("\n"))
            .with_hint("Use DROP ... CASCADE to drop the dependent objects too."));
        }
        drop.notices.push(cascade_notice(
            &dependents.iter().map(|&i| describe(i)).collect::<Vec<_>>(),
        ));
        drop.positions.extend(dependents);
    }
    drop.positions.sort_unstable_by(|a, b| b.cmp(a));
    Ok(drop)
}

/// PostgreSQL allows a table without columns; IndexLab's rows need one.
/// `dropped` counts the columns the statement's DROP COLUMNs remove.
pub fn keeps_a_column(columns: usize, dropped: usize) -> Result<(), SqlError> {
    match dropped >= columns {
        true => Err(unsupported(
            "dropping every column of a table (IndexLab has no table without columns)",
        )),
        false => Ok(()),
    }
}

/// dependency.c's `reportDependentObjects` notice: one object by name, more
/// as a count with each named below.
pub fn cascade_notice(objects: &[String]) -> String {
    match objects {
        [one] => format!("drop cascades to {one}"),
        many => {
            let lines: Vec<String> = many
                .iter()
                .map(|o| format!("drop cascades to {o}"))
                .collect();
            format!(
                "drop cascades to {} other objects\nDETAIL:  {}",
                many.len(),
                lines.join("\n")
            )
        }
    }
}

/// Whether expression `e` reads column `name`.
pub fn uses(e: &Expr, name: &str) -> bool {
    let mut found = false;
    e.visit(&mut |x| {
        if let Expr::Column { name: n, .. } = x {
            found |= n == name;
        }
    });
    found
}

/// An index's columns once column `dropped` is gone: its key and INCLUDE
/// positions move down past it, and its expressions and WHERE are bound
/// again over the table's new columns (`scope`).
pub fn renumber_index<'a>(
    positions: impl Iterator<Item = &'a mut usize>,
    expressions: &mut [IndexExpression],
    predicate: &mut Option<IndexPredicate>,
    dropped: usize,
    scope: &Scope,
) -> Result<(), SqlError> {
    for c in positions {
        *c = shifted(*c, dropped);
    }
    for e in expressions.iter_mut() {
        *e = IndexExpression::new(&e.expr, scope)?;
    }
    if let Some(p) = predicate {
        *p = IndexPredicate::new(&p.expr, scope)?;
    }
    Ok(())
}

/// A key or INCLUDE position once column `dropped` is gone: later columns
/// move down one; an expression's position (`FIRST_EXPRESSION + k`) stays.
pub fn shifted(position: usize, dropped: usize) -> usize {
    if position > dropped && position < super::index_expression::FIRST_EXPRESSION {
        position - 1
    } else {
        position
    }
}
