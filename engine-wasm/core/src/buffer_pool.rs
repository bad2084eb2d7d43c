//! PostgreSQL's shared buffers: a fixed number of page frames shared by every
//! relation, with the counters `EXPLAIN (BUFFERS)` prints.
//!
//! What is modelled (src/backend/storage/buffer/bufmgr.c and freelist.c):
//! - `shared_buffers` bytes / page size frames (128 MB / 8 KiB = 16384 by default);
//!   a tag → frame hash table (buf_table.c); frames start on a free list.
//! - A lookup that finds the page is a *hit*; otherwise the page is *read* into a free
//!   frame or a victim chosen by clock sweep (or LRU, see [`ReplacementPolicy`]).
//!   A dirty victim is written back first — a modified page is never dropped.
//! - A write marks the buffer dirty; `shared_dirtied` counts clean → dirty transitions.
//!   Dirty buffers are written by eviction and by [`BufferPool::checkpoint`].
//! - Extending a relation allocates a frame without reading (the page is new). As in
//!   PostgreSQL 16 it is neither a hit nor a read; PostgreSQL counts the zero-filled
//!   page it appends to the file in `shared_blks_written`, and the caller then fills
//!   the page, which dirties it. An [`Access::Extend`] does both: `shared_written` +1
//!   (and `extends` +1) and `shared_dirtied` +1, leaving the buffer dirty.
//! - Pins: execution is single-threaded, so a pin only means "a scan is positioned on
//!   this page". Pinned frames are never victims, and re-accessing a page one holds
//!   pinned does not raise its usage count (`PinBuffer` only counts a new pin).
//!
//! The pool is pure: it holds no page contents (the structures keep their own data)
//! and emits no trace; every access returns an [`AccessOutcome`] saying what happened
//! (hit / read / extend, the victim evicted and whether it was written back) so the
//! caller can emit trace events. [`RelAccess`] adapts the pool to the structures'
//! [`PageAccess`](crate::storage::PageAccess) reports for one relation.
//!
//! Counters are kept as running totals and per relation ([`BufferStats`]); EXPLAIN
//! takes snapshots and diffs them (`stats.since(&before)`). A write-back caused by an
//! eviction is charged, in the per-relation counters, to the relation whose page was
//! written; in the totals it belongs to whoever was running, as in PostgreSQL.

mod error;
mod frame;
mod introspect;
mod page_table;
mod rel_access;
mod replacement;
mod stats;
mod tag;

#[cfg(test)]
mod proptests;
#[cfg(test)]
mod tests;

pub use error::BufferError;
pub use frame::{FrameId, FrameInfo, MAX_USAGE_COUNT};
pub use rel_access::{BufferEvent, BufferObserver, NoObserver, RelAccess};
pub use replacement::ReplacementPolicy;
pub use stats::BufferStats;
pub use tag::{BufferTag, Fork, RelId};

use crate::storage::{Access, PageNo};
use frame::Frame;
use page_table::PageTable;
use replacement::Replacer;

/// PostgreSQL's default `shared_buffers`: 128 MB.
pub const DEFAULT_SHARED_BUFFERS: u64 = 128 * 1024 * 1024;
/// PostgreSQL's default block size (`BLCKSZ`).
pub const DEFAULT_PAGE_SIZE: u32 = 8192;
/// Upper bound on frames, so a forged setting cannot allocate without limit
/// (2^24 frames of 8 KiB = 128 GB of simulated cache).
pub const MAX_FRAMES: usize = 1 << 24;
const NO_SLOT: u32 = u32::MAX;

/// How an access was served.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AccessKind {
    /// Found in the pool (`shared_hit`).
    Hit,
    /// Read from storage into a frame (`shared_read`).
    Read,
    /// A new page appended to the relation (counted as a write, not a read).
    Extend,
}

/// A page evicted to make room.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Eviction {
    pub tag: BufferTag,
    /// The page was dirty and was written to storage before the frame was reused.
    pub written_back: bool,
}

/// What one access did, for trace events.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AccessOutcome {
    pub frame: FrameId,
    pub kind: AccessKind,
    /// The access turned a clean buffer dirty (`shared_dirtied` +1).
    pub dirtied: bool,
    pub evicted: Option<Eviction>,
}

/// The shared buffer pool.
#[derive(Debug, Clone)]
pub struct BufferPool {
    frames: Vec<Frame>,
    map: PageTable,
    /// Frames holding no page, used before any eviction (freelist.c's free list:
    /// `StrategyFreeBuffer` pushes at the head, `StrategyGetBuffer` pops the head).
    free: Vec<FrameId>,
    replacer: Replacer,
    page_size: u32,
    totals: BufferStats,
    /// Counter slot per relation id (`NO_SLOT` until first use).
    rel_slots: Vec<u32>,
    rel_stats: Vec<(RelId, BufferStats)>,
}

impl BufferPool {
    /// A pool of `frames` frames of `page_size` bytes.
    pub fn new(
        frames: usize,
        page_size: u32,
        policy: ReplacementPolicy,
    ) -> Result<Self, BufferError> {
        if frames == 0 || frames > MAX_FRAMES {
            return Err(BufferError::InvalidConfig(format!(
                "{frames} buffers (must be 1..={MAX_FRAMES})"
            )));
        }
        if !page_size.is_power_of_two() || !(256..=65536).contains(&page_size) {
            return Err(BufferError::InvalidConfig(format!(
                "page size {page_size} (must be a power of two, 256..=65536)"
            )));
        }
        Ok(BufferPool {
            frames: vec![Frame::EMPTY; frames],
            map: PageTable::default(),
            free: (0..frames as FrameId).rev().collect(),
            replacer: Replacer::new(policy, frames),
            page_size,
            totals: BufferStats::default(),
            rel_slots: Vec::new(),
            rel_stats: Vec::new(),
        })
    }

    /// A pool sized like PostgreSQL's `shared_buffers` setting (bytes).
    pub fn with_shared_buffers(
        bytes: u64,
        page_size: u32,
        policy: ReplacementPolicy,
    ) -> Result<Self, BufferError> {
        BufferPool::new(Self::frames_for(bytes, page_size), page_size, policy)
    }

    /// How many frames `shared_buffers = bytes` gives.
    pub fn frames_for(bytes: u64, page_size: u32) -> usize {
        let frames = bytes / page_size.max(1) as u64;
        usize::try_from(frames).unwrap_or(usize::MAX)
    }

    /// Looks up (or loads) a page and releases it at once: `ReadBuffer` + `ReleaseBuffer`.
    pub fn access(&mut self, tag: BufferTag, how: Access) -> Result<AccessOutcome, BufferError> {
        let slot = self.slot_for(tag.rel);
        self.access_in_slot(slot, tag, how, false)
    }

    /// Like [`access`](Self::access) but keeps a pin until [`unpin`](Self::unpin).
    pub fn access_pinned(
        &mut self,
        tag: BufferTag,
        how: Access,
    ) -> Result<AccessOutcome, BufferError> {
        let slot = self.slot_for(tag.rel);
        self.access_in_slot(slot, tag, how, true)
    }

    /// Releases one pin taken by [`access_pinned`](Self::access_pinned).
    pub fn unpin(&mut self, tag: BufferTag) -> Result<(), BufferError> {
        let id = self.map.get(&tag).ok_or(BufferError::NotResident(tag))?;
        let f = &mut self.frames[id as usize];
        if f.pins == 0 {
            return Err(BufferError::NotPinned(tag));
        }
        f.pins -= 1;
        Ok(())
    }

    /// The per-relation counter slot of `rel`, created on first use.
    pub(crate) fn slot_for(&mut self, rel: RelId) -> u32 {
        let r = rel as usize;
        if let Some(&slot) = self.rel_slots.get(r).filter(|&&s| s != NO_SLOT) {
            return slot;
        }
        let slot = self.rel_stats.len() as u32;
        self.rel_stats.push((rel, BufferStats::default()));
        if self.rel_slots.len() <= r {
            self.rel_slots.resize(r + 1, NO_SLOT);
        }
        self.rel_slots[r] = slot;
        slot
    }

    /// The access path. `slot` must be `slot_for(tag.rel)`.
    #[inline]
    pub(crate) fn access_in_slot(
        &mut self,
        slot: u32,
        tag: BufferTag,
        how: Access,
        pin: bool,
    ) -> Result<AccessOutcome, BufferError> {
        let (id, kind, evicted) = match self.map.get(&tag) {
            Some(id) => {
                self.replacer.on_hit(&mut self.frames, id as usize);
                (id as usize, hit_kind(how), None)
            }
            None => {
                let (id, evicted) = self.claim_frame()?;
                self.install(id, tag, slot);
                (id, miss_kind(how), evicted)
            }
        };
        self.count_access(slot, kind);
        let frame = &mut self.frames[id];
        let dirtied = how != Access::Read && !frame.dirty;
        frame.dirty |= dirtied;
        if pin {
            frame.pins += 1;
        }
        if dirtied {
            self.totals.shared_dirtied += 1;
            self.rel_stats[slot as usize].1.shared_dirtied += 1;
        }
        Ok(AccessOutcome {
            frame: id as FrameId,
            kind,
            dirtied,
            evicted,
        })
    }

    fn count_access(&mut self, slot: u32, kind: AccessKind) {
        let ps = self.page_size as u64;
        let rel = &mut self.rel_stats[slot as usize].1;
        match kind {
            AccessKind::Hit => {
                self.totals.count_hit();
                rel.count_hit();
            }
            AccessKind::Read => {
                self.totals.count_read(ps);
                rel.count_read(ps);
            }
            AccessKind::Extend => {
                self.totals.count_extend(ps);
                rel.count_extend(ps);
            }
        }
    }

    /// A frame to load a page into: a free one, else a victim (written back if dirty).
    fn claim_frame(&mut self) -> Result<(usize, Option<Eviction>), BufferError> {
        if let Some(id) = self.free.pop() {
            return Ok((id as usize, None));
        }
        let id = self.replacer.victim(&mut self.frames)?;
        let old = self.frames[id];
        let evicted = old.tag.map(|tag| {
            self.map.remove(&tag);
            let ps = self.page_size as u64;
            let rel = &mut self.rel_stats[old.rel_slot as usize].1;
            rel.evictions += 1;
            self.totals.evictions += 1;
            if old.dirty {
                // FlushBuffer before reuse: the modified page reaches storage.
                rel.count_write(ps);
                self.totals.count_write(ps);
            }
            Eviction {
                tag,
                written_back: old.dirty,
            }
        });
        Ok((id, evicted))
    }

    fn install(&mut self, id: usize, tag: BufferTag, slot: u32) {
        self.frames[id] = Frame {
            tag: Some(tag),
            rel_slot: slot,
            ..Frame::EMPTY
        };
        self.map.insert(tag, id as FrameId);
        self.replacer.on_load(&mut self.frames, id);
    }

    /// Writes every dirty buffer (PostgreSQL's `BufferSync`, which sorts them by tag
    /// so the writes are sequential per file). Returns the pages written, in order.
    /// Usage counts and pins are untouched: a checkpoint does not make pages popular.
    pub fn checkpoint(&mut self) -> Vec<BufferTag> {
        let mut dirty: Vec<(BufferTag, usize)> = self
            .frames
            .iter()
            .enumerate()
            .filter(|(_, f)| f.dirty)
            .filter_map(|(i, f)| f.tag.map(|t| (t, i)))
            .collect();
        dirty.sort_unstable();
        let ps = self.page_size as u64;
        for &(_, id) in &dirty {
            let f = &mut self.frames[id];
            f.dirty = false;
            self.rel_stats[f.rel_slot as usize].1.count_write(ps);
            self.totals.count_write(ps);
        }
        dirty.into_iter().map(|(t, _)| t).collect()
    }

    /// Discards every buffer of `rel` (all forks) without writing it: the relation's
    /// files are being removed (DROP TABLE / DROP INDEX; bufmgr.c `DropRelationBuffers`).
    /// Returns how many frames were freed.
    pub fn drop_relation(&mut self, rel: RelId) -> usize {
        self.invalidate_where(|t| t.rel == rel)
    }

    /// Discards the buffers of pages `keep_pages..` of one fork, without writing them:
    /// the fork was truncated (VACUUM giving back empty pages at the end of a table).
    pub fn truncate_relation(&mut self, rel: RelId, fork: Fork, keep_pages: PageNo) -> usize {
        self.invalidate_where(|t| t.rel == rel && t.fork == fork && t.page >= keep_pages)
    }

    fn invalidate_where(&mut self, doomed: impl Fn(&BufferTag) -> bool) -> usize {
        let mut freed = 0;
        for id in 0..self.frames.len() {
            let Some(tag) = self.frames[id].tag else {
                continue;
            };
            if doomed(&tag) {
                self.map.remove(&tag);
                self.frames[id] = Frame::EMPTY;
                self.replacer.on_invalidate(id);
                self.free.push(id as FrameId);
                freed += 1;
            }
        }
        freed
    }
}

fn hit_kind(how: Access) -> AccessKind {
    match how {
        Access::Extend => AccessKind::Extend,
        Access::Read | Access::Write => AccessKind::Hit,
    }
}

fn miss_kind(how: Access) -> AccessKind {
    match how {
        Access::Extend => AccessKind::Extend,
        Access::Read | Access::Write => AccessKind::Read,
    }
}
