//! A picture of the tree for the UI: memtables, levels with their SSTs, counters,
//! and (optionally) how much of a block cache this tree occupies.

use super::cache::{BlockCache, CacheOccupancy};
use super::db::{sst_info, Lsm};
use super::events::SstInfo;
use super::memtable::Memtable;
use super::stats::LsmStats;
use super::types::SeqNo;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MemtableInfo {
    pub id: u64,
    pub entries: u64,
    pub deletes: u64,
    pub bytes: u64,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LevelInfo {
    pub level: u32,
    pub bytes: u64,
    /// L0 newest first; other levels in key order.
    pub ssts: Vec<SstInfo>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct LsmShape {
    pub memtable: MemtableInfo,
    /// Sealed memtables, oldest first.
    pub immutables: Vec<MemtableInfo>,
    pub levels: Vec<LevelInfo>,
    pub last_sequence: SeqNo,
    pub live_snapshots: usize,
    pub stats: LsmStats,
    pub write_buffer_size: u64,
    /// This tree's blocks in the cache, when one was given.
    pub cache: Option<CacheOccupancy>,
}

fn memtable_info(m: &Memtable) -> MemtableInfo {
    MemtableInfo {
        id: m.id(),
        entries: m.len() as u64,
        deletes: m.num_deletes(),
        bytes: m.approximate_bytes(),
    }
}

impl Lsm {
    pub fn shape(&self, cache: Option<&BlockCache>) -> LsmShape {
        let levels = self
            .levels
            .levels
            .iter()
            .enumerate()
            .map(|(l, files)| LevelInfo {
                level: l as u32,
                bytes: self.levels.level_bytes(l),
                ssts: files
                    .iter()
                    .filter_map(|f| self.ssts.get(&f.id))
                    .map(|s| sst_info(s, l as u32))
                    .collect(),
            })
            .collect();
        LsmShape {
            memtable: memtable_info(&self.mem),
            immutables: self.imm.iter().map(memtable_info).collect(),
            levels,
            last_sequence: self.last_seq,
            live_snapshots: self.live_snapshot_count(),
            stats: self.stats,
            write_buffer_size: self.opts.write_buffer_size,
            cache: cache.map(|c| c.occupancy(Some(self.opts.owner))),
        }
    }
}
