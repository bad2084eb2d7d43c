//! The block cache shared by the trees of a tablet server, and its counters.

mod block_cache;
mod stats;

pub use block_cache::{
    BlockCache, BlockId, BlockKind, CacheMode, CacheOccupancy, CacheOutcome, CacheStats, KindStats,
};
