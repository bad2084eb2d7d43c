//! Pictures of an engine between statements, as the player's views draw them.
//! The player starts from the nearest one at or before its cursor, so any
//! position is one picture plus a few events away (ARCHITECTURE.md "The
//! player").

use super::event::SstSummary;
use crate::storage::PageNo;
use serde::Serialize;

#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(tag = "profile", rename_all = "snake_case")]
pub enum EngineSnapshot {
    Pg(PgSnapshot),
    Yb(YbSnapshot),
}

/// pg: every B+tree's shape, every heap's size, the buffer pool's frames.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct PgSnapshot {
    pub trees: Vec<TreeSnapshot>,
    pub heaps: Vec<HeapSnapshot>,
    pub pool: PoolSnapshot,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct TreeSnapshot {
    pub relation: String,
    pub root: PageNo,
    pub height: u32,
    pub entries: u64,
    /// Root level first, leaves last.
    pub levels: Vec<TreeLevelSnapshot>,
}

/// One level of a tree, its pages left to right (parallel lists: a 7 000-leaf
/// strip stays small).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct TreeLevelSnapshot {
    pub level: u32,
    pub pages: Vec<PageNo>,
    /// Used fraction of each page's space, to 3 decimals.
    pub fill: Vec<f64>,
    pub entries: Vec<u32>,
    /// Each page's high key as text (null: the rightmost page, no bound);
    /// absent for trees too big for keys to be worth their size.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub high: Option<Vec<Option<String>>>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct HeapSnapshot {
    pub relation: String,
    pub pages: u32,
    /// Runs of all-visible pages in the visibility map, `[first, last]`.
    pub all_visible: Vec<(PageNo, PageNo)>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct PoolSnapshot {
    pub capacity: u32,
    pub page_size: u32,
    /// Frames in use.
    pub frames: Vec<FrameSnapshot>,
}

/// A frame in use: `[frame, relation, fork, page, dirty]`, a tuple so 16 384
/// frames stay small.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct FrameSnapshot(pub u32, pub String, pub String, pub PageNo, pub bool);

/// yb: every tablet's LSM, every tablet server's block cache.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct YbSnapshot {
    pub tablets: Vec<TabletSnapshot>,
    pub caches: Vec<CacheSnapshot>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct TabletSnapshot {
    pub tablet: u32,
    pub relation: String,
    pub tserver: u32,
    /// The memtable's budget: when it holds this many bytes it is sealed.
    pub write_buffer_size: u64,
    pub memtable: MemtableSnapshot,
    /// Sealed memtables waiting for their flush.
    pub immutables: Vec<MemtableSnapshot>,
    pub levels: Vec<SstLevelSnapshot>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct MemtableSnapshot {
    pub id: u64,
    pub entries: u64,
    pub deletes: u64,
    pub bytes: u64,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct SstLevelSnapshot {
    pub level: u32,
    pub bytes: u64,
    /// L0 newest first; other levels in key order.
    pub ssts: Vec<SstSummary>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct CacheSnapshot {
    pub tserver: u32,
    pub capacity: u64,
    pub used: u64,
}
