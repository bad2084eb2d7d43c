//! The glue between a structure's page reports and the buffer pool.
//!
//! `btree` and `pg::heap` report "I touch page N of myself, like this" through
//! [`PageAccess`]; they do not know their relation id or the pool. A [`RelAccess`]
//! is built for one relation (and fork) around the pool, forwards each report as a
//! buffer access, keeps the counters of the work it served (for EXPLAIN's per-node
//! `Buffers:` line) and can hand each outcome to an observer that emits trace events.
//!
//! `PageAccess::access` cannot return an error, so a pool error (every frame pinned)
//! is kept and returned by [`RelAccess::finish`]; the access that failed is not
//! counted, which is all the caller can observe before it checks.

use super::{AccessOutcome, BufferError, BufferPool, BufferStats, BufferTag, Fork, RelId};
use crate::storage::{Access, PageAccess, PageNo};

/// One buffer access, as an observer receives it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BufferEvent {
    pub tag: BufferTag,
    pub how: Access,
    pub outcome: AccessOutcome,
}

/// Receives every access a [`RelAccess`] performs (the trace layer implements it).
pub trait BufferObserver {
    fn on_access(&mut self, event: &BufferEvent);
}

/// Observes nothing: accesses are only counted.
#[derive(Debug, Default)]
pub struct NoObserver;

impl BufferObserver for NoObserver {
    #[inline]
    fn on_access(&mut self, _event: &BufferEvent) {}
}

/// Records events in order (tests, or a caller that turns them into trace events
/// afterwards; reuse the vector to avoid allocating per statement).
impl BufferObserver for Vec<BufferEvent> {
    fn on_access(&mut self, event: &BufferEvent) {
        self.push(*event);
    }
}

/// A [`PageAccess`] that sends one relation's page accesses to the buffer pool.
/// The observer's type is a parameter, not a trait object: every access of a
/// load calls it, and a static call can be inlined.
pub struct RelAccess<'a, O: BufferObserver + ?Sized = NoObserver> {
    pool: &'a mut BufferPool,
    rel: RelId,
    fork: Fork,
    slot: u32,
    stats: BufferStats,
    observer: Option<&'a mut O>,
    error: Option<BufferError>,
}

impl<'a> RelAccess<'a> {
    /// Accesses to the main fork of `rel`.
    pub fn new(pool: &'a mut BufferPool, rel: RelId) -> Self {
        let slot = pool.slot_for(rel);
        RelAccess {
            pool,
            rel,
            fork: Fork::Main,
            slot,
            stats: BufferStats::default(),
            observer: None,
            error: None,
        }
    }

    /// Sends every access's outcome to `observer` as well.
    pub fn observe<P: BufferObserver + ?Sized>(self, observer: &'a mut P) -> RelAccess<'a, P> {
        RelAccess {
            pool: self.pool,
            rel: self.rel,
            fork: self.fork,
            slot: self.slot,
            stats: self.stats,
            observer: Some(observer),
            error: self.error,
        }
    }
}

impl<O: BufferObserver + ?Sized> RelAccess<'_, O> {
    /// The same, for another fork (e.g. [`Fork::Vm`] for an index-only scan's
    /// visibility map probes).
    pub fn with_fork(mut self, fork: Fork) -> Self {
        self.fork = fork;
        self
    }

    /// Switches fork for the following accesses (one adapter for a heap and its VM).
    pub fn set_fork(&mut self, fork: Fork) {
        self.fork = fork;
    }

    pub fn rel(&self) -> RelId {
        self.rel
    }

    pub fn fork(&self) -> Fork {
        self.fork
    }

    /// Accesses a page and keeps it pinned (a scan positioned on it).
    pub fn access_pinned(
        &mut self,
        page: PageNo,
        how: Access,
    ) -> Result<AccessOutcome, BufferError> {
        self.forward(page, how, true)
    }

    /// Releases a pin taken by [`access_pinned`](Self::access_pinned).
    pub fn unpin(&mut self, page: PageNo) -> Result<(), BufferError> {
        self.pool.unpin(BufferTag::new(self.rel, self.fork, page))
    }

    /// What the accesses made through this adapter did, including write-backs of
    /// other relations' pages evicted to make room (PostgreSQL charges those to the
    /// backend that needed the frame, so they appear in its EXPLAIN node).
    pub fn stats(&self) -> BufferStats {
        self.stats
    }

    /// The first pool error met, if any.
    pub fn error(&self) -> Option<&BufferError> {
        self.error.as_ref()
    }

    /// Ends the adapter: its counters, or the first error met.
    pub fn finish(self) -> Result<BufferStats, BufferError> {
        match self.error {
            Some(e) => Err(e),
            None => Ok(self.stats),
        }
    }

    #[inline]
    fn forward(
        &mut self,
        page: PageNo,
        how: Access,
        pin: bool,
    ) -> Result<AccessOutcome, BufferError> {
        let tag = BufferTag::new(self.rel, self.fork, page);
        let outcome = self.pool.access_in_slot(self.slot, tag, how, pin)?;
        self.stats.record(&outcome, self.pool.page_size() as u64);
        if let Some(obs) = self.observer.as_deref_mut() {
            obs.on_access(&BufferEvent { tag, how, outcome });
        }
        Ok(outcome)
    }
}

impl<O: BufferObserver + ?Sized> PageAccess for RelAccess<'_, O> {
    fn access(&mut self, page: PageNo, how: Access) {
        if let Err(e) = self.forward(page, how, false) {
            self.error.get_or_insert(e);
        }
    }
}
