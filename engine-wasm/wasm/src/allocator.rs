//! The heap the engine runs on as wasm (in a page or in Node): dlmalloc — the
//! allocator Rust's standard library uses on wasm32 — over a linear memory that
//! grows in large steps.
//!
//! The standard library's copy grows memory by what the current request needs,
//! 64 KiB at a time: a 1 000 000-row load reaching ~250 MB grows it thousands of
//! times. In Node every grow costs a buffer resize and external-memory
//! accounting that triggers garbage collections, enough to make a fresh
//! instance's first run of that load several times slower than a second run
//! that reuses the memory. Growing by a quarter of the memory already there (at
//! least 1 MiB) makes it a few dozen grows. Chromium does not charge a grow that
//! way, so in the browser this changes nothing measurable; other engines may
//! differ, and fewer grows cannot hurt.
//!
//! Only for wasm32-unknown-unknown without threads (WASI targets have their own
//! heap): one caller at a time, as in the worker that
//! runs the engine (std makes the same assumption there). Elsewhere (native
//! tests) only the growth rule is compiled, to be tested.
#![cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]

const PAGE: usize = 64 * 1024;
/// The smallest grow: 1 MiB.
const MIN_GROW_PAGES: usize = 16;
/// Grow by at least 1/GROWTH_DIVISOR of the pages already there.
const GROWTH_DIVISOR: usize = 4;

/// Pages to ask for when `need` pages are needed and `have` exist: geometric
/// growth, never less than asked.
fn pages_to_grow(need: usize, have: usize) -> usize {
    need.max(have / GROWTH_DIVISOR).max(MIN_GROW_PAGES)
}

#[cfg(all(
    target_arch = "wasm32",
    target_os = "unknown",
    not(target_feature = "atomics")
))]
mod heap {
    use super::{pages_to_grow, PAGE};
    use core::alloc::{GlobalAlloc, Layout};
    use core::arch::wasm32;
    use core::cell::UnsafeCell;
    use core::ptr;
    use dlmalloc::{Allocator, Dlmalloc};

    /// Linear memory as dlmalloc's system allocator: never returned, zeroed when new.
    struct GrowingMemory;

    unsafe impl Allocator for GrowingMemory {
        fn alloc(&self, size: usize) -> (*mut u8, usize, u32) {
            let need = size.div_ceil(PAGE);
            let generous = pages_to_grow(need, wasm32::memory_size(0));
            // Near the 4 GiB limit the generous step may not fit where the exact one does.
            for pages in [generous, need] {
                let prev = wasm32::memory_grow(0, pages);
                if prev != usize::MAX {
                    let base = prev * PAGE;
                    // The region must not end at address 0 (wrapping): keep 16 bytes out,
                    // as dlmalloc's own wasm system allocator does.
                    let len = if base.wrapping_add(pages * PAGE) == 0 {
                        pages * PAGE - 16
                    } else {
                        pages * PAGE
                    };
                    return (base as *mut u8, len, 0);
                }
            }
            (ptr::null_mut(), 0, 0)
        }

        fn remap(&self, _ptr: *mut u8, _old: usize, _new: usize, _can_move: bool) -> *mut u8 {
            ptr::null_mut()
        }

        fn free_part(&self, _ptr: *mut u8, _old: usize, _new: usize) -> bool {
            false
        }

        fn free(&self, _ptr: *mut u8, _size: usize) -> bool {
            false
        }

        fn can_release_part(&self, _flags: u32) -> bool {
            false
        }

        fn allocates_zeros(&self) -> bool {
            true
        }

        fn page_size(&self) -> usize {
            PAGE
        }
    }

    struct Heap(UnsafeCell<Dlmalloc<GrowingMemory>>);

    // SAFETY: wasm32 without the atomics feature has one thread; no call overlaps.
    unsafe impl Sync for Heap {}

    // Not inlined: with LTO every drop would otherwise carry its own copy of the
    // free path (std keeps its allocator behind a call too); ~10 KB of wasm.
    unsafe impl GlobalAlloc for Heap {
        #[inline(never)]
        unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
            (*self.0.get()).malloc(layout.size(), layout.align())
        }

        #[inline(never)]
        unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
            (*self.0.get()).calloc(layout.size(), layout.align())
        }

        #[inline(never)]
        unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
            (*self.0.get()).free(ptr, layout.size(), layout.align())
        }

        #[inline(never)]
        unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
            (*self.0.get()).realloc(ptr, layout.size(), layout.align(), new_size)
        }
    }

    #[global_allocator]
    static HEAP: Heap = Heap(UnsafeCell::new(Dlmalloc::new_with_allocator(GrowingMemory)));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grows_by_a_quarter_at_least_one_mib_never_less_than_asked() {
        assert_eq!(pages_to_grow(1, 0), MIN_GROW_PAGES);
        assert_eq!(pages_to_grow(1, 4000), 1000);
        assert_eq!(pages_to_grow(3000, 4000), 3000);
        // 250 MB reached from nothing in a few dozen grows, not thousands.
        let (mut have, mut grows) = (0, 0);
        while have * PAGE < 250_000_000 {
            have += pages_to_grow(1, have);
            grows += 1;
        }
        assert!(grows < 40, "{grows} grows");
    }
}
