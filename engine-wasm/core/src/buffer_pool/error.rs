//! What can go wrong in the buffer pool.

use super::tag::BufferTag;
use std::fmt;

/// A buffer pool error. None of them panics: the caller reports them as SQL errors.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BufferError {
    /// Every frame is pinned, so no victim can be chosen. PostgreSQL raises the same
    /// error ("no unpinned buffers available", freelist.c) when the clock sweep has
    /// passed every buffer without finding an unpinned one.
    NoUnpinnedBuffers,
    /// `unpin` of a page that is not in the pool.
    NotResident(BufferTag),
    /// `unpin` of a page that is not pinned.
    NotPinned(BufferTag),
    /// A pool configuration that cannot work (zero frames, a bad page size).
    InvalidConfig(String),
}

impl fmt::Display for BufferError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BufferError::NoUnpinnedBuffers => write!(f, "no unpinned buffers available"),
            BufferError::NotResident(tag) => write!(f, "buffer for {tag} is not in the pool"),
            BufferError::NotPinned(tag) => write!(f, "buffer for {tag} is not pinned"),
            BufferError::InvalidConfig(why) => write!(f, "invalid buffer pool setting: {why}"),
        }
    }
}

impl std::error::Error for BufferError {}
