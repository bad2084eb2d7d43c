//! The pg profile's state as the player's views draw it: every B+tree's shape
//! (pages per level with their fill; leaves as a fill strip) and heap size, and
//! the buffer pool's frames. Taken between statements so a jump anywhere in a
//! trace starts from a picture, not from a replay of everything before it.

use super::engine::PgEngine;
use serde_json::{json, Value};

/// Fill fractions are sent with 3 decimals: enough for a bar, and a 7000-leaf
/// strip stays small.
fn fill3(f: f64) -> f64 {
    (f * 1000.0).round() / 1000.0
}

/// Trees up to this many pages send every page's high key (a zoomed-in view
/// shows them); a bigger tree's keys would dominate the snapshots' size.
const HIGH_KEYS_UP_TO: usize = 2000;

impl PgEngine {
    pub fn snapshot(&self) -> Value {
        let mut trees = Vec::new();
        for ix in self.catalog.indexes.iter().flatten() {
            let shape = ix.tree.shape();
            let pages: usize = shape.levels.iter().map(|l| l.pages.len()).sum();
            let levels: Vec<Value> = shape
                .levels
                .iter()
                .map(|l| {
                    let mut level = json!({
                        "level": l.level,
                        "pages": l.pages.iter().map(|p| p.page).collect::<Vec<_>>(),
                        "fill": l.pages.iter().map(|p| fill3(p.fill)).collect::<Vec<_>>(),
                        "entries": l.pages.iter().map(|p| p.entries).collect::<Vec<_>>(),
                    });
                    if pages <= HIGH_KEYS_UP_TO {
                        let high: Vec<Option<String>> = l
                            .pages
                            .iter()
                            .map(|p| p.high_key.as_deref().map(|k| ix.key_text(k)))
                            .collect();
                        level["high"] = json!(high);
                    }
                    level
                })
                .collect();
            trees.push(json!({
                "relation": ix.name,
                "root": shape.root,
                "height": shape.height,
                "entries": shape.entries,
                "levels": levels,
            }));
        }
        let heaps: Vec<Value> = self
            .catalog
            .tables
            .iter()
            .flatten()
            .map(|t| json!({"relation": t.name, "pages": t.heap.page_count()}))
            .collect();
        let pool = &self.io.pool;
        // Frames in use as [frame, relation, fork, page, dirty]: a flat list the
        // view indexes, small enough to send between statements.
        let frames: Vec<Value> = pool
            .frames()
            .filter_map(|f| {
                let tag = f.tag?;
                let rel = self.io.names.get(tag.rel as usize).map_or("?", |n| &**n);
                Some(json!([f.frame, rel, tag.fork.name(), tag.page, f.dirty]))
            })
            .collect();
        json!({
            "profile": "pg",
            "trees": trees,
            "heaps": heaps,
            "pool": {"capacity": pool.capacity(), "page_size": pool.page_size(), "frames": frames},
        })
    }
}
