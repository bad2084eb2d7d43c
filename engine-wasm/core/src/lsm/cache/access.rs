//! The terms of one block read: which block, how the read may use the cache,
//! and what happened to it. The cache and its counters both speak them.

use crate::lsm::types::SstId;

/// Which kind of block.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum BlockKind {
    Data,
    Index,
    Filter,
}

/// A block's identity in the cache.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BlockId {
    pub owner: u32,
    pub sst: SstId,
    pub kind: BlockKind,
    pub block: u32,
}

/// How a read uses the cache.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum CacheMode {
    #[default]
    Fill,
    NoFill,
    Bypass,
}

/// What happened to one block read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CacheOutcome {
    Hit,
    /// Read from storage and inserted.
    MissAdded,
    /// Read from storage, not inserted (`NoFill`, disabled cache, or a block
    /// larger than the whole cache).
    Miss,
    /// Read from storage without looking at the cache.
    Bypassed,
}
