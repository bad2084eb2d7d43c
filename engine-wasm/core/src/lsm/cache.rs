//! The block cache shared by the trees of a tablet server, and its counters.

mod access;
mod block_cache;
mod stats;

pub use access::{BlockId, BlockKind, CacheMode, CacheOutcome};
pub use block_cache::{BlockCache, CacheOccupancy};
pub use stats::{CacheStats, KindStats};
