//! The visibility map: one "all-visible" bit per heap page (visibilitymap.c).
//!
//! A set bit promises that every tuple on the heap page is visible to every
//! transaction. VACUUM sets it on the pages it leaves clean; any INSERT, UPDATE or
//! DELETE touching the page clears it. An Index Only Scan trusts the bit: on an
//! all-visible page it returns the values from the index entry alone; otherwise it
//! must fetch the heap tuple to check visibility (`Heap Fetches` in EXPLAIN).
//!
//! The map is a relation fork of its own. PostgreSQL stores two bits per heap page
//! (all-visible and all-frozen; freezing is not modelled here), so one VM page covers
//! `(page size − 24) × 4` heap pages — 32 672 for 8 KiB — and [`vm_page_for`] says
//! which VM page a heap page's bit lives on. The fork does not exist until VACUUM
//! first sets a bit: before that, probes find no VM page and cost no buffer access.
//!
//! [`vm_page_for`]: VisibilityMap::vm_page_for

use super::held_page::HeldPage;
use super::tuple::PAGE_HEADER_SIZE;
use crate::storage::{Access, PageAccess, PageNo};

/// Heap pages per VM byte: two bits each (`HEAPBLOCKS_PER_BYTE`).
const HEAP_PAGES_PER_BYTE: u32 = 4;

/// The visibility map of one heap.
#[derive(Debug, Clone)]
pub struct VisibilityMap {
    bits: Vec<u64>,
    per_vm_page: u32,
    /// Pages of the VM fork that exist (created by VACUUM, never by clearing).
    fork_pages: u32,
    set_count: u32,
}

impl VisibilityMap {
    pub fn new(page_size: u32) -> Self {
        VisibilityMap {
            bits: Vec::new(),
            per_vm_page: Self::heap_pages_per_vm_page(page_size),
            fork_pages: 0,
            set_count: 0,
        }
    }

    /// `HEAPBLOCKS_PER_PAGE`: `(page size − MAXALIGN(page header)) × 4`.
    pub fn heap_pages_per_vm_page(page_size: u32) -> u32 {
        (page_size.saturating_sub(PAGE_HEADER_SIZE) * HEAP_PAGES_PER_BYTE).max(1)
    }

    /// The VM page holding `heap_page`'s bit (`HEAPBLK_TO_MAPBLOCK`).
    pub fn vm_page_for(&self, heap_page: PageNo) -> PageNo {
        heap_page / self.per_vm_page
    }

    pub fn is_all_visible(&self, heap_page: PageNo) -> bool {
        let (w, b) = Self::pos(heap_page);
        self.bits.get(w).is_some_and(|word| word & (1 << b) != 0)
    }

    /// Sets the bit (VACUUM). Creates the VM fork pages up to the one needed, as
    /// `vm_extend` does. Returns whether the bit was newly set.
    pub fn set(&mut self, heap_page: PageNo) -> bool {
        let (w, b) = Self::pos(heap_page);
        if w >= self.bits.len() {
            self.bits.resize(w + 1, 0);
        }
        self.fork_pages = self.fork_pages.max(self.vm_page_for(heap_page) + 1);
        let was = self.bits[w] & (1 << b) != 0;
        self.bits[w] |= 1 << b;
        self.set_count += !was as u32;
        !was
    }

    /// Clears the bit (a modification of the heap page). Returns whether it was set,
    /// i.e. whether the VM page had to be modified.
    pub fn clear(&mut self, heap_page: PageNo) -> bool {
        let (w, b) = Self::pos(heap_page);
        let Some(word) = self.bits.get_mut(w) else {
            return false;
        };
        let was = *word & (1 << b) != 0;
        *word &= !(1 << b);
        self.set_count -= was as u32;
        was
    }

    /// The Index Only Scan probe (`VM_ALL_VISIBLE`): reads the VM page covering
    /// `heap_page` unless `held` is already that page, and answers from it. When the
    /// fork has no such page the answer is "not all-visible" at no buffer cost.
    pub fn check(
        &self,
        heap_page: PageNo,
        held: &mut HeldPage,
        vm_io: &mut dyn PageAccess,
    ) -> bool {
        let vm_page = self.vm_page_for(heap_page);
        if vm_page >= self.fork_pages {
            held.release();
            return false;
        }
        held.switch_to(vm_page, vm_io);
        self.is_all_visible(heap_page)
    }

    /// Heap pages whose bit is set (`visibilitymap_count`, pg_class.relallvisible).
    pub fn all_visible_count(&self) -> u32 {
        self.set_count
    }

    /// Pages of the VM fork.
    pub fn fork_pages(&self) -> u32 {
        self.fork_pages
    }

    /// The heap now has `heap_pages` pages: clears the bits beyond and shrinks the
    /// fork to the pages still needed (`visibilitymap_prepare_truncate`).
    pub fn truncate(&mut self, heap_pages: PageNo) {
        let (w, b) = Self::pos(heap_pages);
        if w < self.bits.len() {
            self.bits[w] &= (1u64 << b) - 1;
            self.bits.truncate(w + 1);
        }
        self.set_count = self.bits.iter().map(|w| w.count_ones()).sum();
        let needed = heap_pages.div_ceil(self.per_vm_page);
        self.fork_pages = self.fork_pages.min(needed);
    }

    fn pos(heap_page: PageNo) -> (usize, u32) {
        ((heap_page / 64) as usize, heap_page % 64)
    }
}

/// Counts VM buffer accesses of a pass that walks heap pages in order and keeps the
/// current VM page pinned (VACUUM's `vmbuffer`): one access per VM page visited —
/// Read if nothing was set, Write if a bit was set, Extend for a page it created.
#[derive(Debug, Default, Clone)]
pub struct VmPinTracker {
    current: Option<(PageNo, Option<Access>)>,
    accesses: Vec<(PageNo, Access)>,
}

impl VmPinTracker {
    /// The pass looks at `heap_page`'s bit (the VM page is read if it exists).
    pub fn visit(&mut self, vm: &VisibilityMap, heap_page: PageNo) {
        let vm_page = vm.vm_page_for(heap_page);
        let exists = vm_page < vm.fork_pages();
        self.pin(vm_page, exists.then_some(Access::Read));
    }

    /// The pass sets `heap_page`'s bit.
    pub fn set(&mut self, vm: &mut VisibilityMap, heap_page: PageNo) {
        let vm_page = vm.vm_page_for(heap_page);
        let before = vm.fork_pages();
        if !vm.set(heap_page) {
            return;
        }
        if self.current.is_some_and(|(p, _)| p != vm_page) {
            self.flush();
        }
        self.accesses
            .extend((before..vm_page).map(|p| (p, Access::Extend)));
        let how = if vm_page >= before {
            Access::Extend
        } else {
            Access::Write
        };
        self.pin(vm_page, Some(how));
    }

    /// The accesses, in order.
    pub fn finish(mut self) -> Vec<(PageNo, Access)> {
        self.flush();
        self.accesses
    }

    fn pin(&mut self, vm_page: PageNo, how: Option<Access>) {
        if self.current.is_some_and(|(p, _)| p != vm_page) {
            self.flush();
        }
        let cur = self.current.get_or_insert((vm_page, None));
        cur.1 = strongest(cur.1, how);
    }

    fn flush(&mut self) {
        if let Some((page, Some(how))) = self.current.take() {
            self.accesses.push((page, how));
        }
    }
}

/// Extend > Write > Read: an access that created or modified the page subsumes a read.
fn strongest(a: Option<Access>, b: Option<Access>) -> Option<Access> {
    let rank = |x: Option<Access>| match x {
        None => 0,
        Some(Access::Read) => 1,
        Some(Access::Write) => 2,
        Some(Access::Extend) => 3,
    };
    if rank(b) > rank(a) {
        b
    } else {
        a
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::storage::AccessLog;

    #[test]
    fn one_vm_page_covers_32672_heap_pages() {
        let vm = VisibilityMap::new(8192);
        assert_eq!(VisibilityMap::heap_pages_per_vm_page(8192), 32672);
        assert_eq!(vm.vm_page_for(32671), 0);
        assert_eq!(vm.vm_page_for(32672), 1);
    }

    #[test]
    fn set_and_clear() {
        let mut vm = VisibilityMap::new(8192);
        assert!(!vm.clear(5), "clearing an unset bit touches nothing");
        assert!(vm.set(5));
        assert!(!vm.set(5));
        assert!(vm.is_all_visible(5) && !vm.is_all_visible(4));
        assert_eq!(vm.all_visible_count(), 1);
        assert!(vm.clear(5));
        assert!(!vm.is_all_visible(5));
        assert_eq!(vm.all_visible_count(), 0);
        assert_eq!(vm.fork_pages(), 1, "the fork stays once created");
    }

    #[test]
    fn probe_counts_the_vm_page_once_while_held() {
        let mut vm = VisibilityMap::new(8192);
        let mut log = AccessLog::default();
        let mut held = HeldPage::new();
        assert!(!vm.check(0, &mut held, &mut log));
        assert!(log.0.is_empty(), "no VM fork yet: no buffer access");
        for p in 0..200 {
            vm.set(p);
        }
        for p in 0..300 {
            assert_eq!(vm.check(p, &mut held, &mut log), p < 200);
        }
        assert_eq!(log.0, vec![(0, Access::Read)]);
    }

    #[test]
    fn truncate_clears_bits_beyond() {
        let mut vm = VisibilityMap::new(1024);
        let per = VisibilityMap::heap_pages_per_vm_page(1024);
        for p in [1, 70, per + 3] {
            vm.set(p);
        }
        assert_eq!(vm.fork_pages(), 2);
        vm.truncate(65);
        assert!(vm.is_all_visible(1) && !vm.is_all_visible(70));
        assert_eq!(vm.all_visible_count(), 1);
        assert_eq!(vm.fork_pages(), 1);
    }

    #[test]
    fn tracker_reports_one_access_per_vm_page() {
        let mut vm = VisibilityMap::new(1024);
        let per = VisibilityMap::heap_pages_per_vm_page(1024);
        let mut t = VmPinTracker::default();
        t.visit(&vm, 0); // no fork yet: nothing to read
        t.set(&mut vm, 0);
        t.set(&mut vm, 1);
        t.set(&mut vm, 2 * per); // creates VM pages 1 and 2
        assert_eq!(
            t.finish(),
            vec![
                (0, Access::Extend),
                (1, Access::Extend),
                (2, Access::Extend)
            ]
        );
        let mut t = VmPinTracker::default();
        t.visit(&vm, 5);
        t.set(&mut vm, 6);
        t.visit(&vm, per);
        assert_eq!(t.finish(), vec![(0, Access::Write), (1, Access::Read)]);
    }
}
