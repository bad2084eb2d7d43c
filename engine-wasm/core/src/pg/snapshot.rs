//! The pg profile's state as the player's views draw it: every B+tree's shape
//! (pages per level with their fill; leaves as a fill strip) and heap size, and
//! the buffer pool's frames. Taken between statements so a jump anywhere in a
//! trace starts from a picture, not from a replay of everything before it.

use super::engine::PgEngine;
use crate::trace::{
    FrameSnapshot, HeapSnapshot, PgSnapshot, PoolSnapshot, TreeLevelSnapshot, TreeSnapshot,
};

/// Fill fractions are sent with 3 decimals: enough for a bar, and a 7000-leaf
/// strip stays small.
pub fn fill3(f: f64) -> f64 {
    (f * 1000.0).round() / 1000.0
}

/// Trees up to this many pages send every page's high key (a zoomed-in view
/// shows them); a bigger tree's keys would dominate the snapshots' size.
const HIGH_KEYS_UP_TO: usize = 2000;

impl PgEngine {
    pub fn snapshot(&self) -> PgSnapshot {
        let trees = self
            .catalog
            .indexes
            .iter()
            .flatten()
            .map(|ix| {
                let shape = ix.tree.shape();
                let pages: usize = shape.levels.iter().map(|l| l.pages.len()).sum();
                let levels = shape
                    .levels
                    .iter()
                    .map(|l| TreeLevelSnapshot {
                        level: u32::from(l.level),
                        pages: l.pages.iter().map(|p| p.page).collect(),
                        fill: l.pages.iter().map(|p| fill3(p.fill)).collect(),
                        entries: l.pages.iter().map(|p| p.entries).collect(),
                        high: (pages <= HIGH_KEYS_UP_TO).then(|| {
                            l.pages
                                .iter()
                                .map(|p| p.high_key.as_deref().map(|k| ix.key_text(k)))
                                .collect()
                        }),
                    })
                    .collect();
                TreeSnapshot {
                    relation: ix.name.clone(),
                    root: shape.root,
                    height: shape.height,
                    entries: shape.entries,
                    levels,
                }
            })
            .collect();
        let heaps = self
            .catalog
            .tables
            .iter()
            .flatten()
            .map(|t| HeapSnapshot {
                relation: t.name.clone(),
                pages: t.heap.page_count(),
            })
            .collect();
        let pool = &self.io.pool;
        let frames = pool
            .frames()
            .filter_map(|f| {
                let tag = f.tag?;
                let rel = self.io.names.get(tag.rel as usize).map_or("?", |n| &**n);
                Some(FrameSnapshot(
                    f.frame,
                    rel.to_string(),
                    tag.fork.name().to_string(),
                    tag.page,
                    f.dirty,
                ))
            })
            .collect();
        PgSnapshot {
            trees,
            heaps,
            pool: PoolSnapshot {
                capacity: pool.capacity() as u32,
                page_size: pool.page_size(),
                frames,
            },
        }
    }
}
