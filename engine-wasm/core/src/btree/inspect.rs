//! A read-only view of one page in line-pointer order, for pageinspect's
//! `bt_page_items` and `bt_page_stats` and pgstattuple's `pgstatindex`
//! (`pg/inspect/btree.rs`). The tree keeps a page's high key apart from its
//! items and an internal page's downlinks beside them; PostgreSQL stores the
//! high key as item 1 of every page but the rightmost of its level, so this
//! view puts each back where the database has it.

use super::page::{Page, LINE_POINTER_BYTES};
use super::tree::BTree;
use crate::storage::PageNo;

/// What an item of a page is, which decides how pageinspect prints it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ItemKind {
    /// Item 1 of a page with a right sibling: its upper bound (a pivot).
    HighKey,
    /// The first data item of an internal page: a pivot with no key
    /// attributes, pointing at the leftmost child.
    MinusInfinity,
    /// A separator of an internal page, with its downlink.
    Pivot,
    /// A leaf entry pointing at a heap tuple.
    Leaf,
}

/// One line pointer's item.
#[derive(Debug, Clone, Copy)]
pub struct ItemView<'a> {
    pub kind: ItemKind,
    /// The memcmp-ordered key bytes (empty for minus infinity).
    pub key: &'a [u8],
    /// The packed heap TID the entry (or the separator copied from one) names.
    pub payload: u64,
    /// The MAXALIGN'd index tuple size (IndexTupleSize), line pointer excluded.
    pub size: u16,
    /// The child an internal item points at.
    pub downlink: Option<PageNo>,
    /// The LP_DEAD hint (only ever set on leaf entries).
    pub dead: bool,
    /// The heap TID of the entry a leaf's high key was built from (whose
    /// block its TID field keeps); the payload for other items.
    pub origin: u64,
}

/// A page as pageinspect reads it.
#[derive(Debug, Clone)]
pub struct PageView<'a> {
    /// btpo_level: 0 for leaves.
    pub level: u8,
    pub is_root: bool,
    pub prev: Option<PageNo>,
    pub next: Option<PageNo>,
    /// Bytes of items and their line pointers, high key included.
    pub used: u32,
    /// The page less its header and special space.
    pub usable: u32,
    /// The page size (BLCKSZ).
    pub page_size: u32,
    /// BTP_HAS_GARBAGE.
    pub has_garbage: bool,
    /// Items in line-pointer order (item 1 first).
    pub items: Vec<ItemView<'a>>,
}

impl PageView<'_> {
    /// PageGetFreeSpace: the gap between line pointers and tuples, less room
    /// for one more line pointer.
    pub fn free_space(&self) -> u32 {
        (self.usable - self.used).saturating_sub(LINE_POINTER_BYTES)
    }
}

impl BTree {
    /// Page `no` in line-pointer order; None for the metapage (block 0) and
    /// numbers past the end.
    pub fn page_view(&self, no: PageNo) -> Option<PageView<'_>> {
        let page = self.get_page(no)?;
        let mut items = Vec::with_capacity(page.len() + 1);
        if let Some(high) = page.high() {
            items.push(ItemView {
                kind: ItemKind::HighKey,
                key: &high.key,
                payload: high.payload,
                size: high.size,
                downlink: None,
                dead: false,
                origin: high.origin,
            });
        }
        items.extend((0..page.len()).map(|i| item(page, i)));
        Some(PageView {
            level: page.level,
            is_root: no == self.root,
            prev: page.prev,
            next: page.next,
            used: page.used(),
            usable: self.usable,
            page_size: self.config.page_size,
            has_garbage: page.has_garbage,
            items,
        })
    }
}

fn item(page: &Page, i: usize) -> ItemView<'_> {
    let kind = match (page.is_leaf(), i) {
        (true, _) => ItemKind::Leaf,
        (false, 0) => ItemKind::MinusInfinity,
        (false, _) => ItemKind::Pivot,
    };
    ItemView {
        kind,
        key: page.key(i),
        payload: page.payload(i),
        size: page.tuple_size(i),
        downlink: (!page.is_leaf()).then(|| page.child(i)),
        dead: page.is_dead(i),
        origin: page.payload(i),
    }
}
