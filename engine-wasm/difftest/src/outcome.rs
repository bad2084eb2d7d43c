//! What one statement produced, in a form both databases' results convert to.

use indexlab_engine::scenario::{Outcome as EngineOutcome, MAX_ROWS_SHOWN};

/// One value as text (psql's output format), or NULL.
pub type Cell = Option<String>;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// A query's rows (IndexLab keeps the first [`MAX_ROWS_SHOWN`]; `count` is exact).
    Rows { rows: Vec<Vec<Cell>>, count: u64 },
    /// INSERT, UPDATE or DELETE: how many rows it touched.
    Count(u64),
    /// Any other statement that succeeded.
    Done,
    /// The statement failed; IndexLab and PostgreSQL word errors differently, so
    /// only the fact is compared (the message is kept for the report).
    Error(String),
    /// IndexLab panicked: always a finding.
    Panic(String),
}

impl Outcome {
    pub fn is_error(&self) -> bool {
        matches!(self, Outcome::Error(_) | Outcome::Panic(_))
    }

    /// A short description for reports.
    pub fn describe(&self) -> String {
        match self {
            Outcome::Rows { rows, count } => {
                let shown: Vec<String> = rows.iter().take(8).map(|r| row_text(r)).collect();
                let more = if rows.len() > 8 { ", …" } else { "" };
                format!("{count} rows: [{}{more}]", shown.join("; "))
            }
            Outcome::Count(n) => format!("{n} rows affected"),
            Outcome::Done => "ok".into(),
            Outcome::Error(m) => format!("ERROR: {m}"),
            Outcome::Panic(m) => format!("PANIC: {m}"),
        }
    }
}

/// A row as sqllogictest writes it: values separated by spaces, NULL as `NULL`.
pub fn row_text(row: &[Cell]) -> String {
    let cells: Vec<&str> = row
        .iter()
        .map(|c| match c {
            None => "NULL",
            Some(s) if s.is_empty() => "(empty)",
            Some(s) => s,
        })
        .collect();
    cells.join(" ")
}

/// IndexLab's outcome of a statement (its report keeps NULL apart from '').
pub fn from_indexlab(o: &EngineOutcome) -> Outcome {
    let tag = o.tag.as_str();
    let count = || tag.rsplit(' ').next().and_then(|n| n.parse().ok());
    // CREATE TABLE AS and SELECT INTO: a count of rows written, no columns.
    if tag.starts_with("SELECT ") && o.columns.is_empty() && o.rows.is_empty() {
        if let Some(n) = count() {
            return Outcome::Count(n);
        }
    }
    if tag.starts_with("SELECT") {
        let rows = o.rows.clone();
        return Outcome::Rows {
            rows,
            count: o.row_count,
        };
    }
    let dml = ["INSERT", "UPDATE", "DELETE"]
        .iter()
        .any(|t| tag.starts_with(t));
    // RETURNING: the rows written, as PostgreSQL sends them.
    if dml && !o.columns.is_empty() {
        return Outcome::Rows {
            rows: o.rows.clone(),
            count: o.row_count,
        };
    }
    if dml {
        if let Some(n) = count() {
            return Outcome::Count(n);
        }
    }
    Outcome::Done
}

/// How many rows IndexLab keeps in a report.
pub const ROWS_KEPT: usize = MAX_ROWS_SHOWN;
