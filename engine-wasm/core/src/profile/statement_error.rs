//! What either profile refuses a statement for, in PostgreSQL's words. Both
//! profiles run the same DDL and enforce the same unique constraints, so each
//! message is written once here, and `?` turns it into the [`SqlError`] the
//! scenario reports.

use crate::exec::schemas::bare;
use std::fmt;

use crate::sql::error::{ErrorKind, SqlError};

/// Named after PostgreSQL's conditions (SQLSTATE 42P07, 42P01, 42703, 23505).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StatementError {
    /// CREATE of a relation whose name is taken (`duplicate_table`).
    DuplicateTable { name: String },
    /// A relation that does not exist (`undefined_table`).
    UndefinedTable { name: String },
    /// A key naming a column its table does not have (`undefined_column`).
    UndefinedKeyColumn { column: String, table: String },
    /// A second row with the same key in a unique index (`unique_violation`).
    UniqueViolation { constraint: String },
}

impl StatementError {
    /// A constraint is checked while the statement runs; the others are
    /// found before it touches a row.
    fn kind(&self) -> ErrorKind {
        match self {
            StatementError::UniqueViolation { .. } => ErrorKind::Execution,
            _ => ErrorKind::Semantic,
        }
    }
}

impl fmt::Display for StatementError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            // PostgreSQL names the relation without its schema here.
            StatementError::DuplicateTable { name } => {
                write!(f, "relation \"{}\" already exists", bare(name))
            }
            StatementError::UndefinedTable { name } => {
                write!(f, "relation \"{name}\" does not exist")
            }
            StatementError::UndefinedKeyColumn { column, table } => write!(
                f,
                "column \"{column}\" named in key does not exist in table \"{table}\""
            ),
            StatementError::UniqueViolation { constraint } => write!(
                f,
                "duplicate key value violates unique constraint \"{}\"",
                bare(constraint)
            ),
        }
    }
}

impl std::error::Error for StatementError {}

impl From<StatementError> for SqlError {
    fn from(e: StatementError) -> SqlError {
        let near = match &e {
            StatementError::DuplicateTable { name } => Some(bare(name).to_string()),
            StatementError::UndefinedTable { name } => Some(name.clone()),
            StatementError::UndefinedKeyColumn { column, .. } => Some(column.clone()),
            _ => None,
        };
        let err = SqlError::new(e.kind(), e.to_string());
        match near {
            Some(n) => err.near(n),
            None => err,
        }
    }
}
