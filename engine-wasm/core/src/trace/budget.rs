//! How much of a run the trace records in full.
//!
//! Every step of a 1 000 000-row load would be millions of events (article
//! 000's pg load makes ~70 000 per 10 000-row statement), too many for a
//! browser tab. So detail is budgeted in *events*, per statement and per run:
//! a statement whose detail events fit in both is recorded in full; one that
//! does not is *summarized*: it keeps only its structural events (splits,
//! flushes, compactions), and the player shows the snapshots around it
//! instead of a half-recorded, wrong picture. Any one statement can be asked
//! for at full detail (`trace_full_detail_statement`): the engine is
//! deterministic, so a re-run gives the same report with that statement's
//! every step.
//!
//! Queries (a SELECT, or an EXPLAIN of one) spend a run budget of their own
//! (`trace_query_events`): an article-scale script loads a million rows and
//! then asks the one query a lesson is about, and the load must not leave
//! that query unrecorded.

use crate::settings::Settings;

/// The most detail events one statement asked for at full detail may record
/// (a 1 000 000-row load would make ~7 000 000 on pg: still summarized).
pub const FULL_DETAIL_EVENTS: usize = 2_000_000;

/// Which of the run's two budgets a statement spends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StatementKind {
    /// A SELECT, or an EXPLAIN of one: what a lesson's views look at.
    Query,
    /// Everything else (loads, DDL, VACUUM, meta-commands).
    Other,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TraceBudget {
    /// Detail events one statement may record (`trace_statement_events`).
    pub statement_events: usize,
    /// Detail events the whole run's non-query statements may record
    /// (`trace_run_events`): once spent, later ones are summarized.
    pub run_events: usize,
    /// Detail events the whole run's queries may record
    /// (`trace_query_events`), apart from `run_events`.
    pub query_events: usize,
    /// The statement (0-based, the report's index) recorded at full detail
    /// whatever the budgets, with snapshots around it.
    pub full_detail: Option<u32>,
    /// Whether snapshots are taken at all (`trace_snapshots`).
    pub snapshots: bool,
}

impl TraceBudget {
    /// No detail at all (a budget of zero events) and no snapshots.
    pub const NONE: TraceBudget = TraceBudget {
        statement_events: 0,
        run_events: 0,
        query_events: 0,
        full_detail: None,
        snapshots: false,
    };

    /// The budget the settings ask for.
    pub fn from_settings(settings: &Settings) -> TraceBudget {
        // The registry's bounds keep these at 0 or more.
        let statement = settings.trace_full_detail_statement();
        TraceBudget {
            statement_events: settings.trace_statement_events() as usize,
            run_events: settings.trace_run_events() as usize,
            query_events: settings.trace_query_events() as usize,
            // The setting counts from 1, as the player numbers statements.
            full_detail: (statement > 0).then(|| (statement - 1) as u32),
            snapshots: settings.trace_snapshots(),
        }
    }

    /// The run budget statements of `kind` share.
    pub fn run_events_for(&self, kind: StatementKind) -> usize {
        match kind {
            StatementKind::Query => self.query_events,
            StatementKind::Other => self.run_events,
        }
    }

    /// Detail events statement `index` may record, `run_used` having been
    /// recorded by the statements of its kind before it, and whether the
    /// run's budget (rather than the statement's own) is what limits it.
    pub fn for_statement(&self, index: u32, kind: StatementKind, run_used: usize) -> (usize, bool) {
        if self.full_detail == Some(index) {
            return (FULL_DETAIL_EVENTS, false);
        }
        let left = self.run_events_for(kind).saturating_sub(run_used);
        (
            self.statement_events.min(left),
            left < self.statement_events,
        )
    }

    /// Whether a snapshot is taken just before statement `index`, given
    /// whether the statement before it was summarized and whether the run's
    /// budget is spent.
    ///
    /// - before each of the first 16 statements, then before every 16th (a
    ///   1 000 000-row load is ~100 statements), so a jump replays at most 16
    ///   statements' events;
    /// - after a summarized statement, unless this one will be summarized
    ///   too (the run budget of its kind is spent): the next detailed
    ///   statement starts from a true picture;
    /// - around the statement asked for at full detail.
    pub fn snapshot_before(&self, index: u32, previous_summarized: bool, spent: bool) -> bool {
        if !self.snapshots {
            return false;
        }
        let around_full = self
            .full_detail
            .is_some_and(|f| index == f || index == f + 1);
        index < 16 || index.is_multiple_of(16) || (previous_summarized && !spent) || around_full
    }
}
