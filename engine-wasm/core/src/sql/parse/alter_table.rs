//! ALTER TABLE: the actions experiments use (storage parameters, a column or a
//! key added, a column or a constraint dropped, a rename). Any other action is refused by
//! name, never applied halfway: the whole statement is read before any of it
//! runs, as PostgreSQL checks it before changing anything.

use super::create_table::convert_column;
use super::key_columns;
use crate::sql::ast::{AddKey, AlterAction, Deferrable, Statement};
use crate::sql::convert::{ident_name, object_name, relation_name};
use crate::sql::error::{unsupported, SqlError};
use sqlparser::ast as sp;

pub(super) fn convert_alter_table(a: sp::AlterTable) -> Result<Statement, SqlError> {
    let actions = a
        .operations
        .iter()
        .map(action)
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Statement::AlterTable {
        table: relation_name(&a.name),
        if_exists: a.if_exists,
        actions,
    })
}

fn action(op: &sp::AlterTableOperation) -> Result<AlterAction, SqlError> {
    use sp::AlterTableOperation as Op;
    Ok(match op {
        Op::SetOptionsParens { options } => {
            AlterAction::SetOptions(options.iter().map(option).collect::<Result<Vec<_>, _>>()?)
        }
        Op::AddColumn {
            if_not_exists,
            column_def,
            ..
        } => {
            let parsed = convert_column(column_def)?;
            if parsed.keys.len() > 1 {
                return Err(unsupported("two keys on one added column"));
            }
            AlterAction::AddColumn {
                column: parsed.def,
                if_not_exists: *if_not_exists,
                key: parsed.keys.into_iter().next(),
            }
        }
        Op::AddConstraint { constraint, .. } => AlterAction::AddKey(add_key(constraint)?),
        Op::DropConstraint {
            if_exists, name, ..
        } => AlterAction::DropConstraint {
            name: ident_name(name),
            if_exists: *if_exists,
        },
        Op::DropColumn {
            column_names,
            if_exists,
            drop_behavior,
            ..
        } => match column_names.as_slice() {
            [name] => AlterAction::DropColumn {
                name: ident_name(name),
                if_exists: *if_exists,
                cascade: matches!(drop_behavior, Some(sp::DropBehavior::Cascade)),
            },
            // PostgreSQL's grammar drops one column per action.
            names => {
                let second = ident_name(&names[1]);
                return Err(SqlError::new(
                    crate::sql::error::ErrorKind::Syntax,
                    format!("syntax error at or near \"{second}\""),
                )
                .near(second));
            }
        },
        Op::RenameColumn {
            old_column_name,
            new_column_name,
        } => AlterAction::RenameColumn {
            from: ident_name(old_column_name),
            to: ident_name(new_column_name),
        },
        Op::RenameTable { table_name } => AlterAction::RenameTable {
            to: match table_name {
                sp::RenameTableNameKind::To(n) | sp::RenameTableNameKind::As(n) => object_name(n),
            },
        },
        other => {
            let text = other.to_string();
            let words: Vec<&str> = text.split_whitespace().take(2).collect();
            return Err(unsupported(format!("ALTER TABLE … {}", words.join(" "))));
        }
    })
}

/// `name = value` of `SET (…)`, both as written (lower-case name).
pub(super) fn option(o: &sp::SqlOption) -> Result<(String, String), SqlError> {
    match o {
        sp::SqlOption::KeyValue { key, value } => Ok((
            ident_name(key),
            value.to_string().trim_matches('\'').to_ascii_lowercase(),
        )),
        other => Err(unsupported(format!("the storage parameter {other}"))),
    }
}

fn add_key(c: &sp::TableConstraint) -> Result<AddKey, SqlError> {
    let (name, columns, include, characteristics, primary) = match c {
        sp::TableConstraint::PrimaryKey(pk) => (
            &pk.name,
            &pk.columns,
            &pk.include,
            &pk.characteristics,
            true,
        ),
        sp::TableConstraint::Unique(u) => {
            (&u.name, &u.columns, &u.include, &u.characteristics, false)
        }
        other => return Err(unsupported(format!("the table constraint {other}"))),
    };
    if !include.is_empty() {
        return Err(unsupported("INCLUDE in a constraint added by ALTER TABLE"));
    }
    Ok(AddKey {
        name: name.as_ref().map(ident_name),
        columns: key_columns(columns)?,
        primary,
        deferrable: deferrable(characteristics)?,
    })
}

/// `DEFERRABLE [INITIALLY DEFERRED]`; INITIALLY DEFERRED alone implies
/// DEFERRABLE, as in PostgreSQL's grammar (`processCASbits`).
pub(super) fn deferrable(
    c: &Option<sp::ConstraintCharacteristics>,
) -> Result<Option<Deferrable>, SqlError> {
    let Some(c) = c else { return Ok(None) };
    let initially_deferred = c.initially == Some(sp::DeferrableInitial::Deferred);
    if initially_deferred && c.deferrable == Some(false) {
        return Err(SqlError::new(
            crate::sql::error::ErrorKind::Syntax,
            "constraint declared INITIALLY DEFERRED must be DEFERRABLE",
        )
        .near("not"));
    }
    Ok((c.deferrable == Some(true) || initially_deferred)
        .then_some(Deferrable { initially_deferred }))
}
