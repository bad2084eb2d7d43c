//! Generated columns (`c type GENERATED ALWAYS AS (expr) STORED`): the
//! column's value is computed from the row's other columns whenever the row
//! is written (INSERT, UPDATE, ON CONFLICT DO UPDATE), stored like any value
//! (so an index may hold it), and never written by hand. Checked at CREATE
//! TABLE as PostgreSQL 15 checks one (`cookDefault`,
//! `check_nested_generated`).

use super::index_predicate::refuse_mutable_as;
use super::row::TableShape;
use crate::rng::Rng;
use crate::sql::ast::{ColumnDef, Expr};
use crate::sql::error::{ErrorKind, SqlError};
use crate::sql::eval::{bind, coerce, eval, EvalEnv, Scope};
use crate::value::Value;

/// Checks the generation expressions of a new table's `columns`.
pub fn check(table: &str, columns: &[ColumnDef]) -> Result<(), SqlError> {
    let scope = scope(table, columns);
    for c in columns {
        let Some(e) = &c.generated else { continue };
        let mut error = None;
        e.visit(&mut |x| {
            if error.is_some() {
                return;
            }
            error = match x {
                Expr::ScalarSubquery(_) | Expr::Exists { .. } | Expr::InSubquery { .. } => Some(
                    semantic("cannot use subquery in column generation expression"),
                ),
                Expr::Aggregate { .. } => Some(semantic(
                    "aggregate functions are not allowed in column generation expressions",
                )),
                Expr::Column { name, .. } => columns
                    .iter()
                    .find(|d| &d.name == name && d.generated.is_some())
                    .map(|d| {
                        semantic(format!(
                            "cannot use generated column \"{}\" in column generation expression",
                            d.name
                        ))
                        .with_hint("A generated column cannot reference another generated column.")
                    }),
                _ => None,
            };
        });
        if let Some(e) = error {
            return Err(e);
        }
        bind(e, &scope)?;
        refuse_mutable_as(e, "generation expression is not immutable")?;
    }
    Ok(())
}

/// Computes `row`'s generated columns from its other columns.
pub fn fill(table: TableShape, row: &mut [Value]) -> Result<(), SqlError> {
    if table.columns.iter().all(|c| c.generated.is_none()) {
        return Ok(());
    }
    let scope = scope(table.name, table.columns);
    let mut rng = Rng::new(0);
    for (i, c) in table.columns.iter().enumerate() {
        let Some(e) = &c.generated else { continue };
        // Immutable (checked at CREATE TABLE): the environment is a formality.
        let mut env = EvalEnv {
            statement_start_us: 0,
            clock_us: 0,
            rng: &mut rng,
            sequences: None,
        };
        let v = eval(&bind(e, &scope)?, row, &mut env)?;
        row[i] = coerce(v, table.types[i])?;
    }
    Ok(())
}

/// PostgreSQL's error for a value written into generated column `c`.
pub fn written(c: &ColumnDef, updated: bool) -> SqlError {
    let message = if updated {
        format!("column \"{}\" can only be updated to DEFAULT", c.name)
    } else {
        format!(
            "cannot insert a non-DEFAULT value into column \"{}\"",
            c.name
        )
    };
    semantic(message).with_hint(format!("Column \"{}\" is a generated column.", c.name))
}

fn scope(table: &str, columns: &[ColumnDef]) -> Scope {
    Scope {
        columns: columns
            .iter()
            .map(|c| (table.to_string(), c.name.clone(), c.ty))
            .collect(),
    }
}

fn semantic(message: impl Into<String>) -> SqlError {
    SqlError::new(ErrorKind::Semantic, message)
}
