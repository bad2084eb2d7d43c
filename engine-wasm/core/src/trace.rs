//! The trace: what the engines did, as typed events in order, for the page's
//! player (DESIGN §2 Trace, ARCHITECTURE.md "The trace").
//!
//! - [`Event`]: one thing that happened (a page split, a flush, an RPC…);
//!   events carry ids (relation names, page numbers), never pointers, and the
//!   facts a view needs to draw them (a split's fill on both sides).
//! - [`Trace`]: collects events under a detail budget (see [`TraceBudget`]):
//!   a statement is recorded in full or summarized (structural events only).
//! - [`EngineSnapshot`]: a picture of an engine between statements, so the
//!   player starts anywhere from a picture and never replays a summarized
//!   statement's missing steps.
//!
//! These types are the schema of both languages: they derive `Serialize`, and
//! the page's TypeScript types are generated from them (`npm run schema`).

mod budget;
mod collector;
mod event;
pub mod schema;
mod snapshot;

pub use budget::{StatementKind, TraceBudget};
pub use collector::{Snapshot, StatementDetail, Trace};
pub use event::{Event, KeyComparisons, RelName, SstSummary, TopNHeap};
pub use snapshot::{
    CacheSnapshot, EngineSnapshot, FrameSnapshot, HeapSnapshot, MemtableSnapshot, PgSnapshot,
    PoolSnapshot, SstLevelSnapshot, TabletSnapshot, TreeLevelSnapshot, TreeSnapshot, YbSnapshot,
};
