//! The yb profile's state as the player's views draw it: per tablet, the LSM's
//! memtable, sealed memtables and levels of SSTs (ids, sizes, key ranges as
//! hex), and each tablet server's block cache occupancy. Taken between
//! statements, like pg's.

use super::ddl::sst_summary;
use super::engine::YbEngine;
use crate::trace_json::sst_json;
use serde_json::{json, Value};

impl YbEngine {
    pub fn snapshot(&self) -> Value {
        let tablets: Vec<Value> = self
            .tablets
            .iter()
            .enumerate()
            .map(|(id, t)| {
                let s = t.lsm.shape(None);
                let mem = |m: &crate::lsm::MemtableInfo| {
                    json!({"id": m.id, "entries": m.entries, "deletes": m.deletes, "bytes": m.bytes})
                };
                let levels: Vec<Value> = s
                    .levels
                    .iter()
                    .map(|l| {
                        let ssts: Vec<Value> = l
                            .ssts
                            .iter()
                            .map(|f| sst_json(&sst_summary(f)))
                            .collect();
                        json!({"level": l.level, "bytes": l.bytes, "ssts": ssts})
                    })
                    .collect();
                json!({
                    "tablet": id,
                    "relation": self.names.get(t.rel).map_or("?", |n| &**n),
                    "tserver": t.tserver,
                    "write_buffer_size": s.write_buffer_size,
                    "memtable": mem(&s.memtable),
                    "immutables": s.immutables.iter().map(mem).collect::<Vec<_>>(),
                    "levels": levels,
                })
            })
            .collect();
        let caches: Vec<Value> = self
            .caches
            .iter()
            .enumerate()
            .map(|(n, c)| json!({"tserver": n, "capacity": c.capacity(), "used": c.used()}))
            .collect();
        json!({"profile": "yb", "tablets": tablets, "caches": caches})
    }
}
