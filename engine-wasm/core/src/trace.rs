//! The trace: an append-only list of typed events the UI replays (DESIGN §2 Trace).
//!
//! Events carry ids (relation names, page numbers), never pointers. Structural
//! events (splits, evictions, statement boundaries) are always kept; per-page and
//! per-row events only while the statement's row budget lasts, so a 1 000 000-row
//! load stays small while a 1 000-row example shows every step.

use crate::storage::PageNo;

/// A relation's name as events carry it: shared, so the millions of detail
/// events a big load builds (most then dropped over budget) copy a pointer, not
/// the text.
pub type RelName = std::rc::Rc<str>;

/// An SST as the player draws it: id, size, entries (tombstones among them)
/// and key range (hex).
#[derive(Debug, Clone, PartialEq)]
pub struct SstSummary {
    pub id: u64,
    pub bytes: u64,
    pub entries: u64,
    pub deletes: u64,
    pub smallest: String,
    pub largest: String,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Event {
    StatementStart {
        index: u32,
        sql: String,
        at_us: f64,
    },
    StatementEnd {
        index: u32,
        at_us: f64,
    },
    /// A buffer access to a main-fork page in buffer `frame`: `hit` false
    /// means it was read from storage into that frame.
    PageAccess {
        relation: RelName,
        page: PageNo,
        frame: u32,
        hit: bool,
        dirtied: bool,
    },
    /// A page (of fork `fork`: main, fsm, vm) left buffer `frame` to make
    /// room; `written` when it was dirty and written back first.
    PageEvict {
        relation: RelName,
        fork: &'static str,
        page: PageNo,
        frame: u32,
        written: bool,
    },
    /// B+tree page `page` at `level` (0: leaf) split: `new_page` is its new
    /// right sibling; a root split also made `new_root`, one level up.
    PageSplit {
        relation: RelName,
        page: PageNo,
        new_page: PageNo,
        level: u32,
        root_split: bool,
        new_root: Option<PageNo>,
        /// The key posted to the parent, as text: the left page's new high key.
        separator: String,
    },
    TupleInsert {
        relation: RelName,
        page: PageNo,
        offset: u16,
    },
    VisibilityChange {
        relation: RelName,
        page: PageNo,
        all_visible: bool,
    },
    /// An index cursor moved onto a leaf.
    CursorStep {
        relation: RelName,
        page: PageNo,
        backward: bool,
    },
    Checkpoint {
        pages_written: u32,
    },
    /// An entry went into a tablet's memtable (`bytes`: key and value).
    MemtableInsert {
        relation: RelName,
        tablet: u32,
        bytes: u64,
    },
    /// A tablet's memtable became immutable.
    MemtableSealed {
        relation: RelName,
        tablet: u32,
        entries: u64,
        bytes: u64,
    },
    /// An immutable memtable became SST `sst`.
    Flush {
        relation: RelName,
        tablet: u32,
        sst: SstSummary,
    },
    CompactionStart {
        relation: RelName,
        tablet: u32,
        id: u64,
        inputs: Vec<u64>,
        output_level: u32,
    },
    CompactionFinish {
        relation: RelName,
        tablet: u32,
        id: u64,
        inputs: Vec<u64>,
        outputs: Vec<SstSummary>,
        read_bytes: u64,
        write_bytes: u64,
        /// Versions no snapshot could read any more, and tombstones with
        /// nothing left below them to hide: what the merge threw away.
        dropped_versions: u64,
        dropped_tombstones: u64,
    },
    /// A tablet server's block cache holds `used` bytes now (recorded when it
    /// changed: reads fill it, compactions' deleted files leave it).
    BlockCache {
        tserver: u32,
        used: u64,
        capacity: u64,
    },
    /// One read request to a tablet: where it started, what it read.
    ReadRequest {
        relation: RelName,
        tablet: u32,
        seeks: u64,
        nexts: u64,
        prevs: u64,
        rows: u64,
        cache_hits: u64,
        cache_misses: u64,
    },
    /// A message between nodes (`from`/`to` as `ysql`, `tserver-N`): a read or
    /// write request, its response, or a Raft replication to a follower.
    Rpc {
        kind: &'static str,
        from: String,
        to: String,
        tablet: u32,
        ops: u32,
        rows: u64,
        bytes: u64,
        send_us: f64,
        arrive_us: f64,
    },
}

impl Event {
    /// Structural events are kept whatever the detail budget.
    pub fn is_structural(&self) -> bool {
        matches!(
            self,
            Event::StatementStart { .. }
                | Event::StatementEnd { .. }
                | Event::PageSplit { .. }
                | Event::PageEvict { written: true, .. }
                | Event::Checkpoint { .. }
                | Event::MemtableSealed { .. }
                | Event::Flush { .. }
                | Event::CompactionStart { .. }
                | Event::CompactionFinish { .. }
        )
    }
}

/// Collects events, dropping detail events beyond the per-statement budget.
#[derive(Debug, Clone)]
pub struct Trace {
    events: Vec<Event>,
    /// Detail events allowed per statement.
    budget: usize,
    used: usize,
    /// Where the current statement's events start.
    statement_from: usize,
    /// The current statement went over its budget: it keeps only structural
    /// events (a half-recorded statement would mislead the player).
    over: bool,
    /// Detail events dropped so far (the UI says so instead of pretending).
    pub dropped: u64,
    /// Pictures of the engine taken between statements (when asked for), so a
    /// player can jump without replaying from the start.
    pub snapshots: Vec<Snapshot>,
}

/// The engine's state just before event `at_event` (a statement's start).
#[derive(Debug, Clone, PartialEq)]
pub struct Snapshot {
    pub at_event: usize,
    pub statement: u32,
    pub state: serde_json::Value,
}

impl Trace {
    pub fn new(budget: usize) -> Self {
        Trace {
            events: Vec::new(),
            budget,
            used: 0,
            statement_from: 0,
            over: false,
            dropped: 0,
            snapshots: Vec::new(),
        }
    }

    /// Records `state` as the engine before the next event.
    pub fn snapshot(&mut self, statement: u32, state: serde_json::Value) {
        self.snapshots.push(Snapshot {
            at_event: self.events.len(),
            statement,
            state,
        });
    }

    pub fn push(&mut self, e: Event) {
        if matches!(e, Event::StatementStart { .. }) {
            self.used = 0;
            self.over = false;
            self.statement_from = self.events.len();
        }
        if e.is_structural() {
            self.events.push(e);
        } else {
            self.detail(|| e);
        }
    }

    /// Records a detail event, built only while the statement is within its
    /// budget. The event that goes over drops the statement's detail events
    /// recorded so far: a statement is traced in full or structurally only,
    /// which also keeps a long run's trace small (a 1 000 000-row load is 100
    /// statements of 10 000 rows, each over the budget).
    pub fn detail(&mut self, make: impl FnOnce() -> Event) {
        if self.over {
            self.dropped += 1;
        } else if self.used < self.budget {
            self.used += 1;
            self.events.push(make());
        } else {
            self.over = true;
            // Only this statement's events are looked at (a `retain` walked the
            // whole trace for every statement over its budget): its structural
            // ones move down, in order, over the detail ones.
            let before = self.events.len();
            let from = self.statement_from.min(before);
            let mut kept = from;
            for i in from..before {
                if self.events[i].is_structural() {
                    self.events.swap(kept, i);
                    kept += 1;
                }
            }
            self.events.truncate(kept);
            self.dropped += (before - kept) as u64 + 1;
        }
    }

    pub fn events(&self) -> &[Event] {
        &self.events
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn access(page: PageNo) -> Event {
        Event::PageAccess {
            relation: "t".into(),
            page,
            frame: 0,
            hit: true,
            dirtied: false,
        }
    }

    #[test]
    fn detail_is_budgeted_per_statement_structure_is_not() {
        let mut t = Trace::new(2);
        t.push(Event::StatementStart {
            index: 0,
            sql: "x".into(),
            at_us: 0.0,
        });
        for p in 0..5 {
            t.detail(|| access(p));
        }
        t.push(Event::Checkpoint { pages_written: 1 });
        // Over budget: the statement keeps only its structural events.
        assert_eq!(t.events().len(), 2);
        assert_eq!(t.dropped, 5);
        t.push(Event::StatementStart {
            index: 1,
            sql: "y".into(),
            at_us: 1.0,
        });
        t.detail(|| access(9));
        t.push(access(10));
        assert_eq!(t.events().len(), 5);
        assert_eq!(t.events()[4], access(10));
    }

    /// Going over the budget keeps the earlier statements whole and this
    /// statement's structural events in their order, wherever they fell among
    /// its detail events.
    #[test]
    fn going_over_the_budget_keeps_structure_in_order() {
        let start = |index| Event::StatementStart {
            index,
            sql: "s".into(),
            at_us: 0.0,
        };
        let checkpoint = |pages_written| Event::Checkpoint { pages_written };
        let mut t = Trace::new(3);
        t.push(start(0));
        t.detail(|| access(1));
        t.push(start(1));
        t.detail(|| access(2));
        t.push(checkpoint(1));
        t.detail(|| access(3));
        t.push(checkpoint(2));
        t.detail(|| access(4));
        assert_eq!(t.events().len(), 8, "within the budget: all kept");
        t.detail(|| access(5));
        assert_eq!(
            t.events(),
            &[start(0), access(1), start(1), checkpoint(1), checkpoint(2)]
        );
        assert_eq!(t.dropped, 4);
    }
}
