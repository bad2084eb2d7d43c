//! INSERT's `ON CONFLICT` clause and the `RETURNING` list of INSERT, UPDATE
//! and DELETE, from sqlparser's tree into IndexLab's.

use super::super::ast::{ConflictAction, ConflictTarget, OnConflict, SelectItem};
use super::super::convert::{convert_expr, convert_select_item, ident_name, object_name};
use super::super::error::{unsupported, SqlError};
use sqlparser::ast as sp;

pub(super) fn convert(on: sp::OnInsert) -> Result<OnConflict, SqlError> {
    let c = match on {
        sp::OnInsert::OnConflict(c) => c,
        // MySQL's clause: PostgreSQL has no such syntax.
        other => return Err(unsupported(format!("INSERT … {other}"))),
    };
    let target = match &c.conflict_target {
        None => ConflictTarget::Any,
        Some(sp::ConflictTarget::Columns(cols)) => {
            ConflictTarget::Columns(cols.iter().map(ident_name).collect())
        }
        Some(sp::ConflictTarget::OnConstraint(name)) => {
            ConflictTarget::Constraint(object_name(name))
        }
    };
    let action = match &c.action {
        sp::OnConflictAction::DoNothing => ConflictAction::Nothing,
        sp::OnConflictAction::DoUpdate(u) => ConflictAction::Update {
            assignments: u
                .assignments
                .iter()
                .map(|a| {
                    let name = match &a.target {
                        sp::AssignmentTarget::ColumnName(n) => object_name(n),
                        other => return Err(unsupported(format!("assigning to {other}"))),
                    };
                    Ok((name, convert_expr(&a.value)?))
                })
                .collect::<Result<_, SqlError>>()?,
            filter: u.selection.as_ref().map(convert_expr).transpose()?,
        },
    };
    Ok(OnConflict { target, action })
}

/// A RETURNING list (empty when the statement has none).
pub(super) fn returning(items: Option<&[sp::SelectItem]>) -> Result<Vec<SelectItem>, SqlError> {
    items
        .unwrap_or_default()
        .iter()
        .map(convert_select_item)
        .collect()
}
