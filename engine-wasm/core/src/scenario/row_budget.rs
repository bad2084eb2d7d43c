//! Rows the whole run has produced or changed, against `max_rows`.
//!
//! `max_rows` bounds each statement before it runs (a `generate_series` too
//! long is refused up front); this bounds their sum, so that repeating a
//! statement (`\watch c=1000` of a million-row insert) or growing a table by
//! copying it into itself cannot run the page out of memory either.

use crate::settings::Settings;
use crate::sql::error::{ErrorKind, SqlError};

#[derive(Debug, Default)]
pub(super) struct RowBudget {
    total: u64,
}

impl RowBudget {
    /// Counts a statement run's rows; an error once the run is over budget
    /// (the statement itself ran: the error stops what follows).
    pub(super) fn add(&mut self, settings: &Settings, rows: u64) -> Result<(), SqlError> {
        self.total = self.total.saturating_add(rows);
        let max = settings.max_rows() as u64;
        if self.total <= max {
            return Ok(());
        }
        Err(SqlError::new(
            ErrorKind::Limit,
            format!(
                "the script has produced or changed {} rows by this statement, over \
                 max_rows={max} (which bounds a whole run as well as each statement)",
                self.total
            ),
        )
        .with_hint("raise it with SET max_rows, or --set max_rows=N (at most 10000000)"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_budget_is_the_sum_over_the_run() {
        let mut settings = Settings::new();
        settings.set("max_rows", "100").unwrap();
        let mut budget = RowBudget::default();
        assert!(budget.add(&settings, 60).is_ok());
        assert!(budget.add(&settings, 40).is_ok());
        let e = budget.add(&settings, 1).unwrap_err();
        assert_eq!(e.kind, ErrorKind::Limit);
        assert!(e.message.contains("101 rows"), "{}", e.message);
        assert!(e.message.contains("max_rows=100"), "{}", e.message);
    }
}
