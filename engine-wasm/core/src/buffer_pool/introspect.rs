//! Read-only views of the pool: counters for EXPLAIN and the metrics panel, frame
//! contents for the UI's buffer pool view (what `pg_buffercache` shows).

use super::frame::FrameInfo;
#[cfg(test)]
use super::MAX_USAGE_COUNT;
use super::{BufferPool, BufferStats, BufferTag, FrameId, RelId, ReplacementPolicy};

impl BufferPool {
    /// Running totals since the pool was created (or [`reset_stats`](Self::reset_stats)).
    pub fn stats(&self) -> BufferStats {
        self.totals
    }

    /// Running totals of one relation (all forks); zero for a relation never seen.
    pub fn relation_stats(&self, rel: RelId) -> BufferStats {
        self.rel_slots
            .get(rel as usize)
            .filter(|&&s| s != super::NO_SLOT)
            .map(|&s| self.rel_stats[s as usize].1)
            .unwrap_or_default()
    }

    /// Every relation's totals, in order of first access.
    pub fn relations(&self) -> impl Iterator<Item = (RelId, BufferStats)> + '_ {
        self.rel_stats.iter().copied()
    }

    /// Zeroes every counter (like `pg_stat_statements_reset()`); the cache is kept.
    pub fn reset_stats(&mut self) {
        self.totals = BufferStats::default();
        for (_, s) in &mut self.rel_stats {
            *s = BufferStats::default();
        }
    }

    pub fn capacity(&self) -> usize {
        self.frames.len()
    }

    pub fn page_size(&self) -> u32 {
        self.page_size
    }

    pub fn policy(&self) -> ReplacementPolicy {
        self.replacer.policy()
    }

    /// Frames holding a page.
    pub fn used_frames(&self) -> usize {
        self.map.len()
    }

    /// Frames holding a modified page not yet written.
    pub fn dirty_frames(&self) -> usize {
        self.frames.iter().filter(|f| f.dirty).count()
    }

    /// Where the clock hand points (`None` under LRU): the next frame it examines.
    pub fn clock_hand(&self) -> Option<FrameId> {
        self.replacer.hand().map(|h| h as FrameId)
    }

    /// Every frame, in frame order, for the UI's buffer pool view.
    pub fn frames(&self) -> impl Iterator<Item = FrameInfo> + '_ {
        self.frames
            .iter()
            .enumerate()
            .map(|(i, f)| FrameInfo::of(i, f))
    }

    pub fn frame(&self, id: FrameId) -> Option<FrameInfo> {
        self.frames
            .get(id as usize)
            .map(|f| FrameInfo::of(id as usize, f))
    }

    /// The frame holding `tag`, if cached. Does not count as an access.
    pub fn lookup(&self, tag: BufferTag) -> Option<FrameInfo> {
        self.map.get(&tag).and_then(|id| self.frame(id))
    }

    /// Internal consistency, checked by the tests after every operation.
    #[cfg(test)]
    pub(crate) fn check_invariants(&self) {
        assert!(self.map.len() <= self.frames.len());
        assert_eq!(self.map.len() + self.free.len(), self.frames.len());
        for (tag, id) in self.map.iter() {
            let f = &self.frames[id as usize];
            assert_eq!(f.tag, Some(tag));
            assert!(f.usage_count <= MAX_USAGE_COUNT);
        }
        for &id in &self.free {
            assert!(self.frames[id as usize].tag.is_none());
        }
    }
}
