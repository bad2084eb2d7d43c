//! Introspection for the UI and the tests: sizes, fill, chains and a snapshot of the
//! tree's shape. Everything refers to pages by number, never by pointer.

use super::config::BTreeConfig;
use super::tree::BTree;
use crate::storage::PageNo;

/// One page as the UI shows it.
#[derive(Debug, Clone, PartialEq)]
pub struct PageInfo {
    pub page: PageNo,
    /// 0 for leaves.
    pub level: u8,
    /// Items on the page (on an internal page, downlinks, minus infinity included).
    pub entries: usize,
    /// Bytes of items, line pointers and high key.
    pub used_bytes: u32,
    /// Page size less header and special space.
    pub usable_bytes: u32,
    pub prev: Option<PageNo>,
    pub next: Option<PageNo>,
    pub high_key: Option<Vec<u8>>,
}

impl PageInfo {
    /// Used bytes over usable bytes, in 0..=1.
    pub fn fill(&self) -> f64 {
        self.used_bytes as f64 / self.usable_bytes as f64
    }
}

/// A page in a [`Shape`]: its fill and the first and last keys it holds (on an
/// internal page, its first and last separators after minus infinity).
#[derive(Debug, Clone, PartialEq)]
pub struct PageShape {
    pub page: PageNo,
    pub entries: u32,
    pub fill: f64,
    pub first_key: Option<Vec<u8>>,
    pub last_key: Option<Vec<u8>>,
    /// The page's upper bound (none on the rightmost page of a level).
    pub high_key: Option<Vec<u8>>,
}

/// The pages of one level, left to right.
#[derive(Debug, Clone, PartialEq)]
pub struct LevelShape {
    pub level: u8,
    pub pages: Vec<PageShape>,
}

/// A snapshot of the whole tree, root level first.
#[derive(Debug, Clone, PartialEq)]
pub struct Shape {
    pub root: PageNo,
    pub height: u32,
    pub entries: u64,
    pub levels: Vec<LevelShape>,
}

impl BTree {
    pub fn config(&self) -> &BTreeConfig {
        &self.config
    }

    /// Entries in the tree.
    pub fn len(&self) -> u64 {
        self.entries
    }

    pub fn is_empty(&self) -> bool {
        self.entries == 0
    }

    /// Levels from root to leaves (1 while the root is a leaf).
    pub fn height(&self) -> u32 {
        self.height
    }

    pub fn root(&self) -> PageNo {
        self.root
    }

    /// Blocks in the relation, the metapage included.
    pub fn page_count(&self) -> u32 {
        self.pages.len() as u32 + 1
    }

    /// Page count per level; index 0 is the leaf level.
    pub fn pages_per_level(&self) -> Vec<u32> {
        let mut counts = vec![0u32; self.height as usize];
        for page in &self.pages {
            counts[page.level as usize] += 1;
        }
        counts
    }

    pub fn leaf_count(&self) -> u32 {
        self.pages.iter().filter(|p| p.is_leaf()).count() as u32
    }

    /// None for the metapage and for numbers past the end.
    pub fn page_info(&self, no: PageNo) -> Option<PageInfo> {
        let page = self.get_page(no)?;
        Some(PageInfo {
            page: no,
            level: page.level,
            entries: page.len(),
            used_bytes: page.used(),
            usable_bytes: self.usable,
            prev: page.prev,
            next: page.next,
            high_key: page.high().map(|h| h.key.clone()),
        })
    }

    /// The pages of a level in key order, following the right-links from the
    /// leftmost page (empty for a level the tree does not have).
    pub fn level_chain(&self, level: u8) -> Vec<PageNo> {
        let mut chain = Vec::new();
        let mut no = self.root;
        let mut page = self.page(no);
        if level > page.level {
            return chain;
        }
        while page.level > level {
            no = page.child(0);
            page = self.page(no);
        }
        let mut cur = Some(no);
        while let Some(n) = cur {
            chain.push(n);
            cur = self.page(n).next;
        }
        chain
    }

    pub fn leaf_chain(&self) -> Vec<PageNo> {
        self.level_chain(0)
    }

    /// Mean fill of the leaves, in 0..=1.
    pub fn mean_leaf_fill(&self) -> f64 {
        let leaves = self.pages.iter().filter(|p| p.is_leaf());
        let used: f64 = leaves.clone().map(|p| p.used() as f64).sum();
        used / (leaves.count() as f64 * self.usable as f64)
    }

    pub fn shape(&self) -> Shape {
        let levels = (0..self.height as u8)
            .rev()
            .map(|level| LevelShape {
                level,
                pages: self
                    .level_chain(level)
                    .into_iter()
                    .map(|no| self.page_shape(no))
                    .collect(),
            })
            .collect();
        Shape {
            root: self.root,
            height: self.height,
            entries: self.entries,
            levels,
        }
    }

    fn page_shape(&self, no: PageNo) -> PageShape {
        let page = self.page(no);
        let first = if page.is_leaf() { 0 } else { 1 };
        let key_at = |i: usize| (i >= first && i < page.len()).then(|| page.key(i).to_vec());
        PageShape {
            page: no,
            entries: page.len() as u32,
            fill: page.used() as f64 / self.usable as f64,
            first_key: key_at(first),
            last_key: page.len().checked_sub(1).and_then(key_at),
            high_key: page.high().map(|h| h.key.clone()),
        }
    }
}
