//! Consistency checks used by the tests after every operation.

use super::page::LinePointer;
use super::Heap;

impl<T> Heap<T> {
    /// Recomputes every page's counters from its line pointers and checks the page
    /// limits: bytes used within the page, line pointers within
    /// `MaxHeapTuplesPerPage`, PD_ALL_VISIBLE equal to the VM bit.
    pub(crate) fn check_invariants(&self) {
        let g = &self.geom;
        let (mut live, mut dead) = (0u64, 0u64);
        for (p, page) in self.pages.iter().enumerate() {
            let mut counts = [0u32; 5];
            let mut bytes = 0;
            for lp in &page.items {
                let i = match lp {
                    LinePointer::Unused => 0,
                    LinePointer::Redirect(_) => 1,
                    LinePointer::Dead => 2,
                    LinePointer::Normal(t) if t.live => 3,
                    LinePointer::Normal(_) => 4,
                };
                counts[i] += 1;
                if let LinePointer::Normal(t) = lp {
                    bytes += t.size as u32;
                }
            }
            let expected = [
                page.unused,
                page.redirects,
                page.dead_pointers,
                page.live,
                page.dead,
            ];
            assert_eq!(counts, expected, "page {p} counters");
            assert_eq!(bytes, page.tuple_bytes, "page {p} bytes");
            assert!(page.used_bytes() <= g.page_size, "page {p} overflows");
            assert!(
                page.items.len() as u32 <= g.max_tuples_per_page,
                "page {p} line pointers"
            );
            assert_eq!(
                page.all_visible,
                self.vm.is_all_visible(p as u32),
                "page {p} VM bit"
            );
            if page.all_visible {
                assert!(page.is_clean(), "all-visible page {p} has dead tuples");
            }
            live += page.live as u64;
            dead += page.dead as u64;
        }
        assert_eq!((live, dead), (self.live, self.dead));
    }
}
