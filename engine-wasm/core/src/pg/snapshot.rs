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

/// Runs of consecutive pages among `0..pages` for which `visible` holds.
fn visible_runs(pages: u32, visible: impl Fn(u32) -> bool) -> Vec<(u32, u32)> {
    let mut runs: Vec<(u32, u32)> = Vec::new();
    for p in (0..pages).filter(|&p| visible(p)) {
        match runs.last_mut() {
            Some((_, last)) if *last + 1 == p => *last = p,
            _ => runs.push((p, p)),
        }
    }
    runs
}

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
                all_visible: visible_runs(t.heap.page_count(), |p| {
                    t.heap.visibility_map().is_all_visible(p)
                }),
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

#[cfg(test)]
mod tests {
    use super::visible_runs;

    #[test]
    fn all_visible_pages_are_sent_as_runs() {
        let visible = [true, true, false, true, false, false, true, true, true];
        let runs = visible_runs(visible.len() as u32, |p| visible[p as usize]);
        assert_eq!(runs, vec![(0, 1), (3, 3), (6, 8)]);
        assert!(visible_runs(5, |_| false).is_empty());
    }
}
