//! The free space map: where INSERT finds room after VACUUM freed some
//! (src/backend/storage/freespace/).
//!
//! PostgreSQL keeps one byte per heap page: the free space rounded *down* to a
//! category of `page size / 256` bytes (32 for 8 KiB); a request is rounded *up*, so
//! a page it returns always has at least the space asked for (if the map is current).
//! The map is a tree of max-heaps, so a search finds a page with enough room in
//! logarithmic time; searches start after the page last returned (`fp_next_slot`),
//! spreading concurrent inserters and making successive requests walk forward.
//! This is a single max segment tree over all pages with the same contract.
//!
//! The map is a hint: inserts do not update it as they fill a page. A page is
//! recorded when an insert finds it full (`RecordAndGetPageWithFreeSpace`) and when
//! VACUUM has cleaned it. The FSM fork's own page accesses are not counted.

use crate::storage::PageNo;

/// The free space map of one heap.
#[derive(Debug, Clone)]
pub struct FreeSpaceMap {
    /// Bytes per category (`FSM_CAT_STEP`).
    step: u32,
    /// `MaxFSMRequestSize`: the largest request; free space at least this is cat 255.
    max_request: u32,
    /// Pages covered.
    len: usize,
    /// Leaves in the tree (a power of two ≥ len).
    leaves: usize,
    /// Max segment tree: node i has children 2i and 2i+1, leaves at `leaves + page`.
    tree: Vec<u8>,
    /// Where the next search starts.
    next: usize,
}

impl FreeSpaceMap {
    /// An empty map for pages of `page_size` bytes.
    pub fn new(page_size: u32) -> Self {
        FreeSpaceMap {
            step: (page_size / 256).max(1),
            max_request: page_size.saturating_sub(32),
            len: 0,
            leaves: 1,
            tree: vec![0; 2],
            next: 0,
        }
    }

    /// `fsm_space_avail_to_cat`: free bytes → category, rounding down.
    pub fn avail_to_cat(&self, avail: u32) -> u8 {
        if avail >= self.max_request {
            return 255;
        }
        (avail / self.step).min(254) as u8
    }

    /// `fsm_space_needed_to_cat`: requested bytes → category, rounding up.
    pub fn needed_to_cat(&self, needed: u32) -> u8 {
        needed.div_ceil(self.step).clamp(1, 255) as u8
    }

    /// Pages covered by the map.
    pub fn len(&self) -> u32 {
        self.len as u32
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The recorded category of `page` (0 if unknown).
    pub fn category(&self, page: PageNo) -> u8 {
        if (page as usize) < self.len {
            self.tree[self.leaves + page as usize]
        } else {
            0
        }
    }

    /// The free space the map believes `page` has (lower bound, category × step).
    pub fn recorded_free_space(&self, page: PageNo) -> u32 {
        self.category(page) as u32 * self.step
    }

    /// `RecordPageWithFreeSpace`.
    pub fn record(&mut self, page: PageNo, avail: u32) {
        let page = page as usize;
        if page >= self.len {
            self.grow(page + 1);
        }
        let cat = self.avail_to_cat(avail);
        self.set_leaf(page, cat);
    }

    /// `GetPageWithFreeSpace`: a page whose recorded space is at least `needed`,
    /// searching from after the last page returned and wrapping around.
    pub fn search(&mut self, needed: u32) -> Option<PageNo> {
        let cat = self.needed_to_cat(needed);
        if self.tree[1] < cat {
            return None;
        }
        let start = if self.next < self.len { self.next } else { 0 };
        let found = self
            .first_at_least(1, 0, self.leaves, start, cat)
            .or_else(|| self.first_at_least(1, 0, self.leaves, 0, cat))
            .filter(|&p| p < self.len)?;
        self.next = found + 1;
        Some(found as PageNo)
    }

    /// `RecordAndGetPageWithFreeSpace`: records the page an insert found too full,
    /// then searches for another.
    pub fn record_and_search(&mut self, page: PageNo, avail: u32, needed: u32) -> Option<PageNo> {
        self.record(page, avail);
        self.search(needed)
    }

    /// Forgets pages `pages..` (the heap was truncated).
    pub fn truncate(&mut self, pages: PageNo) {
        let pages = pages as usize;
        for p in pages..self.len {
            self.set_leaf(p, 0);
        }
        self.len = self.len.min(pages);
        if self.next > self.len {
            self.next = 0;
        }
    }

    fn grow(&mut self, len: usize) {
        if len > self.leaves {
            let leaves = len.next_power_of_two();
            let mut tree = vec![0u8; 2 * leaves];
            tree[leaves..leaves + self.len]
                .copy_from_slice(&self.tree[self.leaves..self.leaves + self.len]);
            for i in (1..leaves).rev() {
                tree[i] = tree[2 * i].max(tree[2 * i + 1]);
            }
            self.tree = tree;
            self.leaves = leaves;
        }
        self.len = len;
    }

    fn set_leaf(&mut self, page: usize, cat: u8) {
        let mut i = self.leaves + page;
        self.tree[i] = cat;
        while i > 1 {
            i /= 2;
            let m = self.tree[2 * i].max(self.tree[2 * i + 1]);
            if self.tree[i] == m {
                break;
            }
            self.tree[i] = m;
        }
    }

    /// The first leaf ≥ `start` in node's range [lo, hi) with category ≥ `cat`.
    fn first_at_least(
        &self,
        node: usize,
        lo: usize,
        hi: usize,
        start: usize,
        cat: u8,
    ) -> Option<usize> {
        if hi <= start || self.tree[node] < cat {
            return None;
        }
        if hi - lo == 1 {
            return Some(lo);
        }
        let mid = (lo + hi) / 2;
        self.first_at_least(2 * node, lo, mid, start, cat)
            .or_else(|| self.first_at_least(2 * node + 1, mid, hi, start, cat))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn categories_round_down_for_space_and_up_for_requests() {
        let fsm = FreeSpaceMap::new(8192);
        assert_eq!(fsm.avail_to_cat(63), 1);
        assert_eq!(fsm.avail_to_cat(64), 2);
        assert_eq!(fsm.avail_to_cat(8160), 255);
        assert_eq!(fsm.needed_to_cat(40), 2);
        assert_eq!(fsm.needed_to_cat(64), 2);
        assert_eq!(fsm.needed_to_cat(65), 3);
    }

    #[test]
    fn search_walks_forward_and_wraps() {
        let mut fsm = FreeSpaceMap::new(8192);
        for p in 0..10 {
            fsm.record(p, if p % 3 == 0 { 4000 } else { 10 });
        }
        assert_eq!(fsm.search(100), Some(0));
        assert_eq!(fsm.search(100), Some(3));
        assert_eq!(fsm.search(100), Some(6));
        assert_eq!(fsm.search(100), Some(9));
        assert_eq!(fsm.search(100), Some(0), "wraps around");
        assert_eq!(fsm.search(5000), None);
        // A page found full is recorded and not returned again.
        assert_eq!(fsm.record_and_search(3, 0, 100), Some(6));
        assert_eq!(fsm.category(3), 0);
    }

    #[test]
    fn grows_and_truncates() {
        let mut fsm = FreeSpaceMap::new(8192);
        fsm.record(1000, 8000);
        assert_eq!(fsm.len(), 1001);
        assert_eq!(fsm.search(7000), Some(1000));
        assert_eq!(fsm.recorded_free_space(1000), 8000 / 32 * 32);
        fsm.truncate(500);
        assert_eq!(fsm.len(), 500);
        assert_eq!(fsm.search(40), None);
        assert!(!fsm.is_empty());
    }
}
