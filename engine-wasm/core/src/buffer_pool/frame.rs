//! One buffer frame: a slot of the pool that holds one page (PostgreSQL's
//! `BufferDesc` minus the locks, since IndexLab executes on one thread).

use super::tag::BufferTag;

/// A frame's index in the pool (PostgreSQL's `buf_id`).
pub type FrameId = u32;

/// PostgreSQL's `BM_MAX_USAGE_COUNT`: a buffer's popularity saturates at 5, so a page
/// used a million times survives at most five passes of the clock hand once it stops
/// being used.
pub const MAX_USAGE_COUNT: u8 = 5;

/// A frame's state.
#[derive(Debug, Clone, Copy)]
pub(super) struct Frame {
    /// The page held, or `None` for a free frame.
    pub tag: Option<BufferTag>,
    /// Modified since it was read or last written back.
    pub dirty: bool,
    /// Clock-sweep popularity, 0..=MAX_USAGE_COUNT.
    pub usage_count: u8,
    /// Pins held; a pinned frame is never chosen as a victim.
    pub pins: u32,
    /// Index of the per-relation counters of the page's relation (for write-backs).
    pub rel_slot: u32,
}

impl Frame {
    pub const EMPTY: Frame = Frame {
        tag: None,
        dirty: false,
        usage_count: 0,
        pins: 0,
        rel_slot: 0,
    };
}

/// A frame as the UI's buffer pool view shows it (what `pg_buffercache` shows).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FrameInfo {
    pub frame: FrameId,
    pub tag: Option<BufferTag>,
    pub dirty: bool,
    pub usage_count: u8,
    pub pins: u32,
}

impl FrameInfo {
    pub(super) fn of(id: usize, f: &Frame) -> Self {
        FrameInfo {
            frame: id as FrameId,
            tag: f.tag,
            dirty: f.dirty,
            usage_count: f.usage_count,
            pins: f.pins,
        }
    }
}
