//! The yb profile's state as the player's views draw it: per tablet, the LSM's
//! memtable, sealed memtables and levels of SSTs (ids, sizes, key ranges as
//! hex), and each tablet server's block cache occupancy. Taken between
//! statements, like pg's.

use super::ddl::sst_summary;
use super::engine::YbEngine;
use crate::lsm::MemtableInfo;
use crate::trace::{CacheSnapshot, MemtableSnapshot, SstLevelSnapshot, TabletSnapshot, YbSnapshot};

fn memtable(m: &MemtableInfo) -> MemtableSnapshot {
    MemtableSnapshot {
        id: m.id,
        entries: m.entries,
        deletes: m.deletes,
        bytes: m.bytes,
    }
}

impl YbEngine {
    pub fn snapshot(&self) -> YbSnapshot {
        let tablets = self
            .tablets
            .iter()
            .enumerate()
            .map(|(id, t)| {
                let s = t.lsm.shape(None);
                TabletSnapshot {
                    tablet: id as u32,
                    relation: self.names.get(t.rel).map_or("?", |n| &**n).to_string(),
                    tserver: t.tserver as u32,
                    write_buffer_size: s.write_buffer_size,
                    memtable: memtable(&s.memtable),
                    immutables: s.immutables.iter().map(memtable).collect(),
                    levels: s
                        .levels
                        .iter()
                        .map(|l| SstLevelSnapshot {
                            level: l.level,
                            bytes: l.bytes,
                            ssts: l.ssts.iter().map(sst_summary).collect(),
                        })
                        .collect(),
                }
            })
            .collect();
        let caches = self
            .caches
            .iter()
            .enumerate()
            .map(|(n, c)| CacheSnapshot {
                tserver: n as u32,
                capacity: c.capacity(),
                used: c.used(),
            })
            .collect();
        YbSnapshot { tablets, caches }
    }
}
