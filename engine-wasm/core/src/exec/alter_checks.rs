//! The checks ALTER TABLE makes the same way on both profiles, with
//! PostgreSQL's errors: a rename's names, a key's columns and the rows that
//! would break it. Each profile's `alter.rs` runs them before changing
//! anything.

use super::row::Row;
use crate::sql::ast::{AddKey, ColumnDef};
use crate::sql::error::{unsupported, ErrorKind, SqlError};
use crate::value::Value;

/// `RENAME COLUMN from TO to`: `from` exists, `to` is free.
pub fn rename_column(
    columns: &[ColumnDef],
    table: &str,
    from: &str,
    to: &str,
) -> Result<(), SqlError> {
    let has = |n: &str| columns.iter().any(|c| c.name == n);
    if !has(from) {
        return Err(SqlError::new(
            ErrorKind::Semantic,
            format!("column \"{from}\" does not exist"),
        )
        .near(from));
    }
    if has(to) || crate::sql::eval::is_system_column(to) {
        return Err(column_exists(to, table));
    }
    Ok(())
}

/// `ADD COLUMN column` on a table holding `rows` tuples, `live` of them
/// visible: what PostgreSQL refuses, and, unless the profile `rewrites`
/// the table as PostgreSQL does, a volatile default over rows. Ok(false):
/// the column exists and IF NOT EXISTS skips it.
pub fn add_column(
    columns: &[ColumnDef],
    table: &str,
    column: &ColumnDef,
    (if_not_exists, has_key, rewrites): (bool, bool, bool),
    (rows, live): (usize, usize),
) -> Result<bool, SqlError> {
    if columns.iter().any(|c| c.name == column.name) {
        return match if_not_exists {
            true => Ok(false),
            false => Err(column_exists(&column.name, table)),
        };
    }
    if column.generated.is_some() {
        let mut all = columns.to_vec();
        all.push(column.clone());
        super::generated_column::check(table, &all)?;
    }
    let volatile = column.serial
        || column
            .default
            .as_ref()
            .is_some_and(super::executor::is_volatile);
    if volatile && rows > 0 && !rewrites {
        return Err(unsupported(
            "ADD COLUMN with a volatile default or a sequence on a table with rows on \
             YugabyteDB (it rewrites the table)",
        ));
    }
    // A serial's sequence fills every row; a NOT NULL column without one
    // or a default would leave them NULL.
    if column.not_null && column.default.is_none() && !column.serial && live > 0 {
        return Err(contains_nulls(&column.name, table));
    }
    if has_key && live > 0 {
        // Every existing row would get the same default: a duplicate (or a
        // NULL for a primary key).
        return Err(unsupported(
            "ADD COLUMN … PRIMARY KEY or UNIQUE on a table with rows",
        ));
    }
    Ok(true)
}

/// ADD COLUMN IF NOT EXISTS of a column the table has: the notice that it
/// is skipped (the check made sure IF NOT EXISTS was written).
pub fn column_skipped(columns: &[ColumnDef], table: &str, column: &ColumnDef) -> Option<String> {
    columns.iter().any(|c| c.name == column.name).then(|| {
        format!(
            "column \"{}\" of relation \"{table}\" already exists, skipping",
            column.name
        )
    })
}

/// `RENAME TO to`: no relation has that name yet.
pub fn rename_table(taken: bool, to: &str) -> Result<(), SqlError> {
    match taken {
        true => Err(SqlError::new(
            ErrorKind::Semantic,
            format!("relation \"{to}\" already exists"),
        )),
        false => Ok(()),
    }
}

pub fn column_exists(column: &str, table: &str) -> SqlError {
    SqlError::new(
        ErrorKind::Semantic,
        format!("column \"{column}\" of relation \"{table}\" already exists"),
    )
}

pub fn no_constraint(name: &str, table: &str) -> SqlError {
    SqlError::new(
        ErrorKind::Semantic,
        format!("constraint \"{name}\" of relation \"{table}\" does not exist"),
    )
}

pub fn contains_nulls(column: &str, table: &str) -> SqlError {
    SqlError::new(
        ErrorKind::Execution,
        format!("column \"{column}\" of relation \"{table}\" contains null values"),
    )
}

/// The positions of a key's columns in the table.
pub fn key_positions(columns: &[ColumnDef], k: &AddKey) -> Result<Vec<usize>, SqlError> {
    k.columns
        .iter()
        .map(|c| {
            columns
                .iter()
                .position(|d| d.name == c.name)
                .ok_or_else(|| {
                    SqlError::new(
                        ErrorKind::Semantic,
                        format!("column \"{}\" named in key does not exist", c.name),
                    )
                    .near(&c.name)
                })
        })
        .collect()
}

/// A value's text as equality sees it: a numeric without the trailing
/// zeros of its scale (`2.50` is `2.5`).
fn equality_text(v: &Value) -> String {
    let text = v.pg_text();
    match v {
        Value::Numeric(_) if text.contains('.') => {
            text.trim_end_matches('0').trim_end_matches('.').to_string()
        }
        _ => text,
    }
}

/// The table's rows can take key `k` (index `name`): no NULL in a primary
/// key's columns, no two rows with the same non-NULL key.
pub fn rows_fit_key<'a>(
    rows: impl Iterator<Item = &'a Row>,
    columns: &[ColumnDef],
    table: &str,
    k: &AddKey,
    name: &str,
) -> Result<(), SqlError> {
    let positions = key_positions(columns, k)?;
    let mut seen = std::collections::HashSet::new();
    for row in rows {
        if let Some(&n) = positions.iter().find(|&&i| row[i].is_null()) {
            if k.primary {
                return Err(contains_nulls(&columns[n].name, table));
            }
            continue; // NULLs never collide in a unique index
        }
        let key: Vec<String> = positions.iter().map(|&i| equality_text(&row[i])).collect();
        if !seen.insert(key.clone()) {
            let cols: Vec<&str> = k.columns.iter().map(|c| c.name.as_str()).collect();
            return Err(SqlError::new(
                ErrorKind::Execution,
                format!("could not create unique index \"{name}\""),
            )
            .with_detail(format!(
                "Key ({})=({}) is duplicated.",
                cols.join(", "),
                key.join(", ")
            )));
        }
    }
    Ok(())
}

/// PostgreSQL's error for a table storage parameter it does not have
/// (YugabyteDB's `colocation` on PostgreSQL, a typo), or None for one of its
/// own. PostgreSQL names the parameter without its `toast.` namespace.
pub fn unrecognized_parameter(name: &str) -> Option<SqlError> {
    let bare = name.trim_start_matches("toast.");
    if bare.starts_with("autovacuum_") || bare == "fillfactor" {
        return None;
    }
    if KNOWN_TABLE_PARAMETERS.contains(&bare) {
        return None;
    }
    Some(SqlError::new(
        ErrorKind::Semantic,
        format!("unrecognized parameter \"{bare}\""),
    ))
}

/// The other storage parameters PostgreSQL 15 has for a table (reloptions.c's
/// heap options), valid there and without effect in IndexLab's model yet.
const KNOWN_TABLE_PARAMETERS: &[&str] = &[
    "toast_tuple_target",
    "parallel_workers",
    "vacuum_index_cleanup",
    "vacuum_truncate",
    "user_catalog_table",
    "log_autovacuum_min_duration",
];
