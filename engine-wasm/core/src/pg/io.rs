//! Where the PostgreSQL profile's page accesses go: the shared buffer pool, the
//! virtual clock (each hit, read and write-back costs time), and the trace.
//!
//! The structures (heap, B+tree) report accesses through a `PageAccess`; [`Io::rel`]
//! hands them one bound to a relation, and adds up what the accesses cost.

use crate::buffer_pool::{
    AccessKind, BufferEvent, BufferObserver, BufferPool, BufferStats, Fork, RelAccess, RelId,
};
use crate::clock::{Clock, CostModel};
use crate::sql::error::{ErrorKind, SqlError};
use crate::trace::{Event, RelName, Trace};

/// The buffer pool plus what every access must update.
pub struct Io {
    pub pool: BufferPool,
    pub clock: Clock,
    pub cost: CostModel,
    pub trace: Trace,
    /// Relation names by id, for trace events and per-relation metrics.
    pub names: Vec<RelName>,
}

/// Charges time and records trace events for each buffer access.
pub struct Observer<'a> {
    clock: &'a mut Clock,
    cost: &'a CostModel,
    trace: &'a mut Trace,
    names: &'a [RelName],
}

impl BufferObserver for Observer<'_> {
    #[inline]
    fn on_access(&mut self, e: &BufferEvent) {
        let o = &e.outcome;
        let us = match o.kind {
            AccessKind::Hit | AccessKind::Extend => self.cost.cache_hit_us,
            AccessKind::Read => self.cost.device_read_us,
        };
        self.clock.advance_us(us);
        let name = |rel: RelId| {
            self.names
                .get(rel as usize)
                .cloned()
                .unwrap_or_else(|| "?".into())
        };
        if let Some(ev) = o.evicted {
            if ev.written_back {
                self.clock.advance_us(self.cost.device_write_us);
            }
            let evict = || Event::PageEvict {
                relation: name(ev.tag.rel),
                fork: ev.tag.fork.name(),
                page: ev.tag.page,
                frame: o.frame,
                written: ev.written_back,
            };
            if ev.written_back {
                self.trace.push(evict());
            } else {
                self.trace.detail(evict);
            }
        }
        self.trace.detail(|| Event::PageAccess {
            relation: name(e.tag.rel),
            fork: e.tag.fork.name(),
            page: e.tag.page,
            frame: o.frame,
            hit: o.kind != AccessKind::Read,
            dirtied: o.dirtied,
        });
    }
}

impl Io {
    /// Runs `f` with a `PageAccess` bound to relation `rel` (main fork unless
    /// `fork` says otherwise) and returns what the accesses counted.
    pub fn rel<R>(
        &mut self,
        rel: RelId,
        fork: Fork,
        f: impl FnOnce(&mut RelAccess<'_, Observer<'_>>) -> R,
    ) -> Result<(R, BufferStats), SqlError> {
        let mut observer = Observer {
            clock: &mut self.clock,
            cost: &self.cost,
            trace: &mut self.trace,
            names: &self.names,
        };
        let mut access = RelAccess::new(&mut self.pool, rel)
            .with_fork(fork)
            .observe(&mut observer);
        let r = f(&mut access);
        let stats = access
            .finish()
            .map_err(|e| SqlError::new(ErrorKind::Execution, format!("buffer pool: {e}")))?;
        Ok((r, stats))
    }

    /// Registers a relation name and returns its id.
    pub fn add_relation(&mut self, name: &str) -> RelId {
        self.names.push(name.into());
        (self.names.len() - 1) as RelId
    }
}
