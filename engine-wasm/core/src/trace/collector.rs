//! Collects a run's events under its detail budget, and the snapshots taken
//! between statements.

use super::budget::{StatementKind, TraceBudget};
use super::event::Event;
use super::snapshot::EngineSnapshot;
use serde::Serialize;

/// How much of a statement the trace holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum StatementDetail {
    /// Every step.
    Full { events: u64 },
    /// Only structural events: `dropped` detail events were made and not
    /// recorded, over a budget of `budget` (the run's, when `run_budget`).
    Summarized {
        dropped: u64,
        budget: u64,
        run_budget: bool,
    },
}

/// The engine's state just before event `at_event` (a statement's start, or
/// the end of the run).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Snapshot {
    pub at_event: usize,
    /// The statement about to start (the statement count at the end).
    pub statement: u32,
    pub state: EngineSnapshot,
}

/// A run's trace: events in order, snapshots, and what the budget dropped.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Trace {
    events: Vec<Event>,
    pub snapshots: Vec<Snapshot>,
    /// Detail events not recorded, in all (the UI says so instead of pretending).
    pub dropped: u64,
    #[serde(skip)]
    budget: TraceBudget,
    #[serde(skip)]
    state: Recording,
}

/// Where the collector is in the current statement.
#[derive(Debug, Clone, Default)]
struct Recording {
    /// Detail events this statement may record, and whether the run's budget set it.
    allowed: usize,
    by_run: bool,
    used: usize,
    /// Detail events recorded by finished statements: non-queries, queries.
    run_used: usize,
    query_used: usize,
    /// The current statement's kind: which run budget it spends.
    kind: Option<StatementKind>,
    /// Where the current statement's events start.
    statement_from: usize,
    /// The current statement went over its budget: it keeps only structural
    /// events (a half-recorded statement would mislead the player).
    over: bool,
    dropped_here: u64,
    /// The previous statement was summarized.
    previous_summarized: bool,
    /// A statement went over the run's budget of its kind: every later one
    /// of that kind is summarized.
    run_spent: bool,
    queries_spent: bool,
}

impl Recording {
    fn used_by(&self, kind: StatementKind) -> usize {
        match kind {
            StatementKind::Query => self.query_used,
            StatementKind::Other => self.run_used,
        }
    }

    fn spent(&self, kind: StatementKind) -> bool {
        match kind {
            StatementKind::Query => self.queries_spent,
            StatementKind::Other => self.run_spent,
        }
    }
}

impl Trace {
    pub fn new(budget: TraceBudget) -> Self {
        Trace {
            events: Vec::new(),
            snapshots: Vec::new(),
            dropped: 0,
            budget,
            state: Recording::default(),
        }
    }

    pub fn budget(&self) -> &TraceBudget {
        &self.budget
    }

    /// The budget for the statements from now on (a script's SET of a
    /// `trace_` setting takes effect at its next statement).
    pub fn set_budget(&mut self, budget: TraceBudget) {
        self.budget = budget;
    }

    /// Whether a snapshot belongs before statement `index`, of `kind` (see
    /// [`TraceBudget::snapshot_before`]).
    pub fn wants_snapshot_before(&self, index: u32, kind: StatementKind) -> bool {
        let s = &self.state;
        self.budget
            .snapshot_before(index, s.previous_summarized, s.spent(kind))
    }

    /// Records `state` as the engine before the next event.
    pub fn snapshot(&mut self, statement: u32, state: EngineSnapshot) {
        self.snapshots.push(Snapshot {
            at_event: self.events.len(),
            statement,
            state,
        });
    }

    /// Statement `index`, of `kind`, starts: its detail budget is set.
    pub fn start_statement(&mut self, index: u32, kind: StatementKind, sql: &str, at_us: f64) {
        let (allowed, by_run) = if self.state.spent(kind) && self.budget.full_detail != Some(index)
        {
            (0, true)
        } else {
            self.budget
                .for_statement(index, kind, self.state.used_by(kind))
        };
        self.state = Recording {
            allowed,
            by_run,
            kind: Some(kind),
            used: 0,
            statement_from: self.events.len(),
            over: false,
            dropped_here: 0,
            ..self.state
        };
        self.events.push(Event::StatementStart {
            index,
            sql: sql.to_string(),
            at_us,
        });
    }

    /// Statement `index` ends: the event says whether it was summarized.
    pub fn end_statement(&mut self, index: u32, at_us: f64) {
        let s = &mut self.state;
        let kind = s.kind.unwrap_or(StatementKind::Other);
        let detail = if s.over {
            match kind {
                StatementKind::Query => s.queries_spent |= s.by_run,
                StatementKind::Other => s.run_spent |= s.by_run,
            }
            StatementDetail::Summarized {
                dropped: s.dropped_here,
                budget: s.allowed as u64,
                run_budget: s.by_run,
            }
        } else {
            match kind {
                StatementKind::Query => s.query_used += s.used,
                StatementKind::Other => s.run_used += s.used,
            }
            StatementDetail::Full {
                events: s.used as u64,
            }
        };
        s.previous_summarized = s.over;
        self.events.push(Event::StatementEnd {
            index,
            at_us,
            detail,
        });
    }

    /// Records an event: structural ones always, detail ones within budget.
    pub fn push(&mut self, e: Event) {
        if e.is_structural() {
            self.events.push(e);
        } else {
            self.detail(|| e);
        }
    }

    /// Records a detail event, built only while the statement is within its
    /// budget. The event that goes over drops the statement's detail events
    /// recorded so far: a statement is traced in full or structurally only,
    /// which also keeps a long run's trace small.
    pub fn detail(&mut self, make: impl FnOnce() -> Event) {
        let s = &mut self.state;
        if s.over {
            s.dropped_here += 1;
            self.dropped += 1;
        } else if s.used < s.allowed {
            s.used += 1;
            self.events.push(make());
        } else {
            s.over = true;
            // Only this statement's events are looked at: its structural ones
            // move down, in order, over the detail ones.
            let before = self.events.len();
            let from = s.statement_from.min(before);
            let mut kept = from;
            for i in from..before {
                if self.events[i].is_structural() {
                    self.events.swap(kept, i);
                    kept += 1;
                }
            }
            self.events.truncate(kept);
            let dropped = (before - kept) as u64 + 1;
            s.dropped_here += dropped;
            self.dropped += dropped;
        }
    }

    /// Whether a detail event recorded now would be kept: an engine asks
    /// before gathering detail that costs something to collect (an
    /// iterator's steps).
    pub fn recording_detail(&self) -> bool {
        !self.state.over && self.state.used < self.state.allowed
    }

    pub fn events(&self) -> &[Event] {
        &self.events
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn access(page: u32) -> Event {
        Event::PageAccess {
            relation: "t".into(),
            fork: "main",
            page,
            frame: 0,
            hit: true,
            dirtied: false,
        }
    }

    fn budget(statement_events: usize, run_events: usize) -> TraceBudget {
        TraceBudget {
            statement_events,
            run_events,
            ..TraceBudget::NONE
        }
    }

    fn ends(t: &Trace) -> Vec<StatementDetail> {
        t.events()
            .iter()
            .filter_map(|e| match e {
                Event::StatementEnd { detail, .. } => Some(*detail),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn a_statement_over_its_budget_keeps_only_structural_events() {
        let mut t = Trace::new(budget(2, 100));
        t.start_statement(0, StatementKind::Other, "x", 0.0);
        for p in 0..5 {
            t.detail(|| access(p));
        }
        t.push(Event::Checkpoint { pages_written: 1 });
        t.end_statement(0, 1.0);
        // Start, checkpoint, end: the five accesses are gone.
        assert_eq!(t.events().len(), 3);
        assert_eq!(t.dropped, 5);
        t.start_statement(1, StatementKind::Other, "y", 1.0);
        t.detail(|| access(9));
        t.push(access(10));
        t.end_statement(1, 2.0);
        assert_eq!(t.events()[4], access(9));
        assert_eq!(
            ends(&t),
            vec![
                StatementDetail::Summarized {
                    dropped: 5,
                    budget: 2,
                    run_budget: false
                },
                StatementDetail::Full { events: 2 }
            ]
        );
    }

    /// Going over keeps the earlier statements whole and this statement's
    /// structural events in their order, wherever they fell among its detail.
    #[test]
    fn going_over_the_budget_keeps_structure_in_order() {
        let checkpoint = |pages_written| Event::Checkpoint { pages_written };
        let mut t = Trace::new(budget(3, 100));
        t.start_statement(0, StatementKind::Other, "s", 0.0);
        t.detail(|| access(1));
        t.end_statement(0, 0.0);
        t.start_statement(1, StatementKind::Other, "s", 0.0);
        t.detail(|| access(2));
        t.push(checkpoint(1));
        t.detail(|| access(3));
        t.push(checkpoint(2));
        t.detail(|| access(4));
        assert_eq!(t.events().len(), 9, "within the budget: all kept");
        t.detail(|| access(5));
        assert!(matches!(
            t.events()[3],
            Event::StatementStart { index: 1, .. }
        ));
        assert_eq!(&t.events()[4..], &[checkpoint(1), checkpoint(2)]);
        assert_eq!(t.events()[1], access(1));
        assert_eq!(t.dropped, 4);
    }

    /// The run's budget spent, every later statement is summarized, and no
    /// snapshot is asked for after each of them (only every 16th).
    #[test]
    fn the_run_budget_summarizes_the_rest_of_the_run() {
        let mut t = Trace::new(TraceBudget {
            snapshots: true,
            ..budget(10, 15)
        });
        let statement = |t: &mut Trace, index: u32, events: u32| {
            t.start_statement(index, StatementKind::Other, "insert", 0.0);
            for p in 0..events {
                t.detail(|| access(p));
            }
            t.end_statement(index, 0.0);
        };
        statement(&mut t, 0, 8); // full: 8 of the run's 15
        statement(&mut t, 1, 8); // only 7 left: summarized by the run
        assert!(
            !t.wants_snapshot_before(17, StatementKind::Other),
            "run spent: no snapshot after each"
        );
        assert!(t.wants_snapshot_before(32, StatementKind::Other));
        statement(&mut t, 2, 1); // would fit, but the run is spent
        assert_eq!(
            ends(&t),
            vec![
                StatementDetail::Full { events: 8 },
                StatementDetail::Summarized {
                    dropped: 8,
                    budget: 7,
                    run_budget: true
                },
                StatementDetail::Summarized {
                    dropped: 1,
                    budget: 0,
                    run_budget: true
                },
            ]
        );
    }

    /// A statement over its own budget (not the run's) is followed by a
    /// snapshot, so the next detailed statement starts from a true picture.
    #[test]
    fn a_snapshot_follows_a_summarized_statement() {
        let mut t = Trace::new(TraceBudget {
            snapshots: true,
            ..budget(2, 1000)
        });
        t.start_statement(20, StatementKind::Other, "big", 0.0);
        for p in 0..5 {
            t.detail(|| access(p));
        }
        t.end_statement(20, 0.0);
        assert!(t.wants_snapshot_before(21, StatementKind::Other));
        t.start_statement(21, StatementKind::Other, "small", 0.0);
        t.end_statement(21, 0.0);
        assert!(!t.wants_snapshot_before(22, StatementKind::Other));
    }

    /// The statement asked for at full detail records past both budgets.
    #[test]
    fn full_detail_lifts_the_budgets_for_one_statement() {
        let mut t = Trace::new(TraceBudget {
            full_detail: Some(1),
            ..budget(2, 2)
        });
        for index in 0..3 {
            t.start_statement(index, StatementKind::Other, "s", 0.0);
            for p in 0..5 {
                t.detail(|| access(p));
            }
            t.end_statement(index, 0.0);
        }
        let kinds: Vec<bool> = ends(&t)
            .iter()
            .map(|d| matches!(d, StatementDetail::Full { .. }))
            .collect();
        assert_eq!(kinds, vec![false, true, false]);
    }

    /// Queries spend a run budget of their own: a load that spent the run's
    /// leaves the query after it recorded, with a snapshot before it.
    #[test]
    fn a_long_load_does_not_starve_the_query_after_it() {
        let mut t = Trace::new(TraceBudget {
            snapshots: true,
            query_events: 10,
            ..budget(10, 15)
        });
        let statement = |t: &mut Trace, index: u32, kind: StatementKind, events: u32| {
            t.start_statement(index, kind, "s", 0.0);
            for p in 0..events {
                t.detail(|| access(p));
            }
            t.end_statement(index, 0.0);
        };
        statement(&mut t, 20, StatementKind::Other, 8);
        statement(&mut t, 21, StatementKind::Other, 8); // the run's budget spent
        assert!(!t.wants_snapshot_before(22, StatementKind::Other));
        assert!(t.wants_snapshot_before(22, StatementKind::Query));
        statement(&mut t, 22, StatementKind::Query, 6);
        statement(&mut t, 23, StatementKind::Other, 1);
        statement(&mut t, 24, StatementKind::Query, 6); // only 4 of the queries' 10 left
        let full: Vec<bool> = ends(&t)
            .iter()
            .map(|d| matches!(d, StatementDetail::Full { .. }))
            .collect();
        assert_eq!(full, vec![true, false, true, false, false]);
    }
}
