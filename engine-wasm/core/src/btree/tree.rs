//! The tree: creation, descent, insert with splits propagating upward, delete.
//!
//! Pages live in a vector indexed by page number; block 0 is the metapage, as in
//! PostgreSQL, and holds no items here (the root and height are fields). Pages are
//! only ever appended, so page numbers grow with allocation order, and never freed.

use super::config::BTreeConfig;
use super::error::BTreeError;
use super::page::{Page, Pivot, LINE_POINTER_BYTES};
use super::split::{choose_split, SplitInput, SplitItems};
use super::truncate::PivotLayout;
use crate::storage::{Access, PageAccess, PageNo};

/// The metapage (block 0): written when the root moves, never read on a descent
/// because PostgreSQL caches it in the relcache.
pub const META_PAGE: PageNo = 0;
/// The first root is a leaf at block 1.
const FIRST_ROOT: PageNo = 1;

/// One page split caused by an insert, for trace events.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SplitEvent {
    /// 0 for a leaf split.
    pub level: u8,
    /// The page that split; it keeps the lower half.
    pub left: PageNo,
    /// The newly allocated page holding the upper half.
    pub right: PageNo,
    /// The separator posted to the parent: after a leaf split, the first key
    /// moved right truncated to the key attributes that tell it from the last
    /// key left (see [`super::truncate`]); after an internal split, the first
    /// pivot moved right.
    pub separator: Vec<u8>,
    /// The separator's payload: 0 when its heap TID was truncated away, else
    /// the last left entry's heap TID + 1 (see [`super::truncate`]).
    pub separator_payload: u64,
    pub left_entries: u32,
    pub right_entries: u32,
    /// Set when the split page was the root: the new root page above both halves.
    pub new_root: Option<PageNo>,
    /// The page the separator was posted to (the new root after a root split).
    pub parent: Option<PageNo>,
    /// The split page was the rightmost of its level.
    pub rightmost: bool,
    /// The fillfactor (percent) the split point was chosen for.
    pub fillfactor: u8,
}

/// What an insert did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InsertOutcome {
    /// The leaf that now holds the entry.
    pub leaf: PageNo,
    /// Splits from the leaf upward (empty if the entry fitted).
    pub splits: Vec<SplitEvent>,
}

impl InsertOutcome {
    pub fn split(&self) -> bool {
        !self.splits.is_empty()
    }

    pub fn root_split(&self) -> bool {
        self.splits.iter().any(|s| s.new_root.is_some())
    }
}

/// A B+tree over (key bytes, u64 payload) entries, ordered by key then payload.
#[derive(Debug, Clone)]
pub struct BTree {
    pub(super) config: BTreeConfig,
    pub(super) usable: u32,
    max_tuple: u16,
    /// `pages[i]` is block `i + 1`.
    pub(super) pages: Vec<Page>,
    pub(super) root: PageNo,
    pub(super) height: u32,
    pub(super) entries: u64,
    /// Scratch stack of (internal page, chosen slot), reused so inserts do not allocate.
    path: Vec<(PageNo, usize)>,
    /// The arena a split compacts a page's keys into (see `Page::split_off`).
    spare_arena: Vec<u8>,
    /// The rightmost leaf cached for the insert fastpath (PostgreSQL's rd_targblock).
    fastpath: Option<PageNo>,
    /// A leaf holding LP_DEAD entries filled up and was split. PostgreSQL
    /// would have deleted those entries first (_bt_simpledel_pass) and maybe
    /// not split: from then on the tree's pages may differ from the database's.
    skipped_dead_deletion: bool,
    /// The key columns, for suffix truncation of leaf splits' pivots.
    layout: PivotLayout,
}

impl BTree {
    /// Creates an empty index: the metapage and a root leaf, both new pages.
    pub fn new(config: BTreeConfig, io: &mut dyn PageAccess) -> Result<Self, BTreeError> {
        config.validate()?;
        io.access(META_PAGE, Access::Extend);
        io.access(FIRST_ROOT, Access::Extend);
        Ok(BTree {
            config,
            usable: config.usable_bytes(),
            max_tuple: config.max_tuple_size(),
            pages: vec![Page::new(0)],
            root: FIRST_ROOT,
            height: 1,
            entries: 0,
            path: Vec::new(),
            spare_arena: Vec::new(),
            fastpath: None,
            skipped_dead_deletion: false,
            layout: PivotLayout::default(),
        })
    }

    /// Tells the tree its key columns, so that a leaf split truncates the new
    /// pivot to the attributes it needs (`_bt_truncate`) and the split point
    /// weighs that (nbtsplitloc.c). Without them a key is one opaque attribute.
    pub fn set_key_columns(&mut self, columns: Vec<super::key::KeyColumn>) {
        self.layout = PivotLayout::new(columns);
    }

    /// Adds an entry. `tuple_size` is the on-page size of the index tuple (header
    /// included, MAXALIGN'd). Reports the descent (Read), the leaf (Write), and for
    /// each split the new page (Extend), the old right sibling and the parent (Write);
    /// a root split also extends the new root and writes the metapage. Ascending
    /// loads take PostgreSQL's fastpath and report only the rightmost leaf.
    pub fn insert(
        &mut self,
        key: &[u8],
        payload: u64,
        tuple_size: u16,
        io: &mut dyn PageAccess,
    ) -> Result<InsertOutcome, BTreeError> {
        self.check_tuple(key, tuple_size)?;
        let mut path = std::mem::take(&mut self.path);
        path.clear();
        let leaf = match self.fastpath_leaf(key, payload, tuple_size, io) {
            Some(leaf) => leaf,
            None => self.descend_exact(key, payload, io, &mut |no, slot| path.push((no, slot))),
        };
        let result = self.insert_into_leaf(leaf, key, payload, tuple_size, &mut path, io);
        self.path = path;
        result
    }

    /// Removes one entry (what VACUUM does to a dead index tuple); false if absent.
    /// An emptied leaf stays linked in place: PostgreSQL's page deletion is not
    /// modelled, so pages are never merged or freed.
    pub fn delete(&mut self, key: &[u8], payload: u64, io: &mut dyn PageAccess) -> bool {
        let leaf = self.descend_exact(key, payload, io, &mut |_, _| {});
        match self.page(leaf).search(key, payload) {
            Ok(i) => {
                io.access(leaf, Access::Write);
                self.page_mut(leaf).remove(i);
                self.entries -= 1;
                true
            }
            Err(_) => {
                io.access(leaf, Access::Read);
                false
            }
        }
    }

    /// Whether the exact entry is present (a descent and one leaf read).
    pub fn contains(&self, key: &[u8], payload: u64, io: &mut dyn PageAccess) -> bool {
        let leaf = self.descend_exact(key, payload, io, &mut |_, _| {});
        io.access(leaf, Access::Read);
        self.page(leaf).search(key, payload).is_ok()
    }

    /// PostgreSQL's insert fastpath (_bt_search_insert): when the entry sorts after
    /// the first item of the cached rightmost leaf and fits there without a split,
    /// the descent is skipped. A failed check still read the cached page.
    fn fastpath_leaf(
        &mut self,
        key: &[u8],
        payload: u64,
        size: u16,
        io: &mut dyn PageAccess,
    ) -> Option<PageNo> {
        let no = self.fastpath?;
        let page = self.page(no);
        // PageGetFreeSpace(page) > itemsz: free space net of one more line pointer.
        let room = page.used() + size as u32 + LINE_POINTER_BYTES < self.usable;
        let past_first = page.len() > 0 && page.search(key, payload).is_err_and(|i| i > 0);
        if page.is_leaf() && page.next.is_none() && room && past_first {
            return Some(no);
        }
        io.access(no, Access::Read);
        self.fastpath = None;
        None
    }

    /// Caches the rightmost leaf after an insert that did not split it, once the
    /// root is at level 2 or more (BTREE_FASTPATH_MIN_LEVEL), as _bt_insertonpg does.
    fn remember_fastpath(&mut self, leaf: PageNo) {
        let page = self.page(leaf);
        if page.next.is_none() && leaf != self.root && self.height >= 3 {
            self.fastpath = Some(leaf);
        }
    }

    /// Walks from the root to the leaf whose range holds (key, payload), reporting
    /// each internal page read; the caller reports the leaf, as Read or Write.
    pub(super) fn descend_exact(
        &self,
        key: &[u8],
        payload: u64,
        io: &mut dyn PageAccess,
        on_internal: &mut dyn FnMut(PageNo, usize),
    ) -> PageNo {
        let mut no = self.root;
        loop {
            let page = self.page(no);
            if page.is_leaf() {
                return no;
            }
            io.access(no, Access::Read);
            let slot = page.child_slot(key, payload);
            on_internal(no, slot);
            no = page.child(slot);
        }
    }

    /// Sets the LP_DEAD hint on the entry of `leaf` naming `payload`
    /// (_bt_killitems, or _bt_check_unique finding a conflicting row dead).
    /// A plain index scan has dropped its pin, so it passes the page version
    /// it read the entry at: a page changed since then is left alone, as
    /// PostgreSQL does when the page LSN moved. Returns whether it marked.
    pub fn kill(&mut self, leaf: PageNo, payload: u64, read_at: Option<u32>) -> bool {
        let Some(page) = (leaf as usize)
            .checked_sub(1)
            .and_then(|i| self.pages.get_mut(i))
        else {
            return false;
        };
        if !page.is_leaf() || read_at.is_some_and(|v| v != page.version) {
            return false;
        }
        match (0..page.len()).find(|&i| page.payload(i) == payload) {
            Some(i) => {
                page.mark_dead(i);
                true
            }
            None => false,
        }
    }

    /// The version of page `no` (bumped whenever its items move), for [`BTree::kill`].
    pub fn page_version(&self, no: PageNo) -> Option<u32> {
        self.get_page(no).map(|p| p.version)
    }

    /// Whether a leaf with LP_DEAD entries was split (see the field).
    pub fn skipped_dead_deletion(&self) -> bool {
        self.skipped_dead_deletion
    }

    pub(super) fn page(&self, no: PageNo) -> &Page {
        &self.pages[no as usize - 1]
    }

    /// The page, or None for the metapage or a number past the end.
    pub(super) fn get_page(&self, no: PageNo) -> Option<&Page> {
        (no as usize).checked_sub(1).and_then(|i| self.pages.get(i))
    }

    fn page_mut(&mut self, no: PageNo) -> &mut Page {
        &mut self.pages[no as usize - 1]
    }

    fn check_tuple(&self, key: &[u8], size: u16) -> Result<(), BTreeError> {
        if size > self.max_tuple {
            return Err(BTreeError::TupleTooLarge {
                size,
                max: self.max_tuple,
            });
        }
        if size < 8 || size & 7 != 0 {
            return Err(BTreeError::TupleSizeInvalid { size });
        }
        if key.len() > u16::MAX as usize {
            return Err(BTreeError::KeyTooLong { len: key.len() });
        }
        Ok(())
    }

    fn insert_into_leaf(
        &mut self,
        leaf: PageNo,
        key: &[u8],
        payload: u64,
        size: u16,
        path: &mut Vec<(PageNo, usize)>,
        io: &mut dyn PageAccess,
    ) -> Result<InsertOutcome, BTreeError> {
        let pos = match self.page(leaf).search(key, payload) {
            Ok(_) => {
                io.access(leaf, Access::Read);
                return Err(BTreeError::DuplicateEntry { payload });
            }
            Err(pos) => pos,
        };
        io.access(leaf, Access::Write);
        self.page_mut(leaf).insert_at(pos, key, payload, size, None);
        self.entries += 1;
        let mut outcome = InsertOutcome {
            leaf,
            splits: Vec::new(),
        };
        if self.page(leaf).used() <= self.usable {
            self.remember_fastpath(leaf);
        } else {
            self.skipped_dead_deletion |= self.page(leaf).has_dead();
            // The item is placed first and the overfull page split after: the same
            // result as _bt_split's placing the new item while it distributes.
            let (right, k, sep) = self.split(leaf, pos, io);
            if pos >= k {
                outcome.leaf = right;
            }
            self.propagate(leaf, right, sep, path, &mut outcome, io);
        }
        Ok(outcome)
    }

    /// Splits an overfull page; returns the new right page, how many items stayed
    /// left, and the separator to post to the parent.
    fn split(
        &mut self,
        no: PageNo,
        new_item: usize,
        io: &mut dyn PageAccess,
    ) -> (PageNo, usize, Pivot) {
        let page = self.page(no);
        let input = SplitInput {
            new_item,
            key_atts: self.layout.key_atts(),
            usable: self.usable,
            old_high: page.high().map_or(0, Pivot::item_bytes),
            leaf: page.is_leaf(),
            rightmost: page.next.is_none(),
            fillfactor: if page.is_leaf() {
                self.config.leaf_fillfactor
            } else {
                self.config.internal_fillfactor
            },
        };
        // A split point always exists under the one-third limit (see choose_split);
        // the middle is only a fallback that keeps the tree well-formed.
        let items = PageItems {
            page,
            layout: &self.layout,
            new_item,
        };
        let k = choose_split(&input, page.len(), &items).unwrap_or(page.len() / 2);
        let sep = page.is_leaf().then(|| {
            let t = self.layout.truncate(
                (page.key(k - 1), page.payload(k - 1)),
                (page.key(k), page.payload(k), page.tuple_size(k)),
            );
            Pivot {
                key: t.key,
                payload: t.payload,
                size: t.size,
                origin: page.payload(k),
            }
        });
        let old_next = page.next;
        let right_no = self.pages.len() as PageNo + 1;
        let mut spare = std::mem::take(&mut self.spare_arena);
        let (mut right, sep) = self
            .page_mut(no)
            .split_off(k, input.rightmost, &mut spare, sep);
        self.spare_arena = spare;
        right.prev = Some(no);
        right.next = old_next;
        self.page_mut(no).next = Some(right_no);
        self.pages.push(right);
        io.access(right_no, Access::Extend);
        if let Some(sibling) = old_next {
            io.access(sibling, Access::Write);
            self.page_mut(sibling).set_prev(right_no);
        }
        (right_no, k, sep)
    }

    /// Posts separators upward (_bt_insert_parent) until one fits or a new root is made.
    fn propagate(
        &mut self,
        mut left: PageNo,
        mut right: PageNo,
        mut sep: Pivot,
        path: &mut Vec<(PageNo, usize)>,
        outcome: &mut InsertOutcome,
        io: &mut dyn PageAccess,
    ) {
        let usable = self.usable;
        loop {
            let mut event = self.split_event(left, right, &sep);
            let Some((parent, slot)) = path.pop() else {
                let root = self.new_root(left, right, &sep, io);
                event.new_root = Some(root);
                event.parent = Some(root);
                outcome.splits.push(event);
                return;
            };
            event.parent = Some(parent);
            outcome.splits.push(event);
            io.access(parent, Access::Write);
            let page = self.page_mut(parent);
            page.insert_at(slot + 1, &sep.key, sep.payload, sep.size, Some(right));
            if page.used() <= usable {
                return;
            }
            let (new_right, _, new_sep) = self.split(parent, slot + 1, io);
            (left, right, sep) = (parent, new_right, new_sep);
        }
    }

    fn split_event(&self, left: PageNo, right: PageNo, sep: &Pivot) -> SplitEvent {
        let page = self.page(left);
        SplitEvent {
            rightmost: self.page(right).next.is_none(),
            fillfactor: if page.is_leaf() {
                self.config.leaf_fillfactor
            } else {
                self.config.internal_fillfactor
            },
            parent: None,
            level: self.page(left).level,
            left,
            right,
            separator: sep.key.clone(),
            separator_payload: sep.payload,
            left_entries: self.page(left).len() as u32,
            right_entries: self.page(right).len() as u32,
            new_root: None,
        }
    }

    /// Adds a level (_bt_newroot): a new root page and a metapage update.
    fn new_root(
        &mut self,
        left: PageNo,
        right: PageNo,
        sep: &Pivot,
        io: &mut dyn PageAccess,
    ) -> PageNo {
        // Unreachable in practice: 255 levels would need more than 3^255 entries.
        let level = self.page(left).level.saturating_add(1);
        self.pages.push(Page::new_root(level, left, sep, right));
        let no = self.pages.len() as PageNo;
        io.access(no, Access::Extend);
        io.access(META_PAGE, Access::Write);
        self.root = no;
        self.height += 1;
        no
    }
}

/// The items of an overfull page, as the split rule asks about them.
struct PageItems<'a> {
    page: &'a Page,
    layout: &'a PivotLayout,
    new_item: usize,
}

impl SplitItems for PageItems<'_> {
    fn bytes(&self, i: usize) -> u32 {
        self.page.item_bytes(i)
    }

    fn keep_natts(&self, a: usize, b: usize) -> usize {
        self.layout.keep_natts(self.page.key(a), self.page.key(b))
    }

    fn heap_tid(&self, i: usize) -> u64 {
        self.page.payload(i)
    }

    fn high_keep_natts(&self) -> usize {
        match self.page.high() {
            Some(h) => self.layout.keep_natts(&h.key, self.page.key(self.new_item)),
            None => self.layout.key_atts() + 1,
        }
    }
}
