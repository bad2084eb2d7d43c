//! VACUUM (vacuumlazy.c), in PostgreSQL's order:
//!
//! 1. [`Heap::vacuum_prune`] scans the heap: each page is pruned (dead tuples lose
//!    their storage, chain roots become `LP_DEAD` or redirects), clean pages are
//!    marked all-visible, and the TIDs of `LP_DEAD` pointers are collected. Runs of
//!    at least 32 all-visible pages are skipped (`SKIP_PAGES_THRESHOLD`); the last
//!    page is always scanned.
//! 2. The caller removes the index entries pointing at those TIDs
//!    ([`VacuumPrune::is_dead`] answers for each entry: `ambulkdelete`).
//! 3. [`Heap::vacuum_finish`] marks those pointers unused (now reusable), marks the
//!    pages all-visible, records free space in the FSM, and truncates empty pages at
//!    the end of the heap when at least 1000 pages or 1/16 of the heap can go.
//!
//! Doing step 3 before step 2 would let a reused line pointer receive a new tuple
//! while an old index entry still points at it. A heap without indexes can use
//! [`Heap::vacuum_no_indexes`], which frees pointers during the scan (one pass).
//!
//! Not modelled: the all-frozen bit and freezing, the bypass of index cleanup when
//! few pages have dead items, VACUUM's ring buffer, FSM fork page accesses.

use super::super::tid::{OffsetNumber, Tid};
use super::super::visibility_map::VmPinTracker;
use super::page::LinePointer;
use super::prune::prune_page;
use super::Heap;
use crate::storage::{Access, PageAccess, PageNo};

/// `SKIP_PAGES_THRESHOLD`: shorter runs of all-visible pages are read anyway, to
/// keep the I/O sequential.
const SKIP_PAGES_THRESHOLD: u32 = 32;
/// `REL_TRUNCATE_MINIMUM` and `REL_TRUNCATE_FRACTION`.
const REL_TRUNCATE_MINIMUM: u32 = 1000;
const REL_TRUNCATE_FRACTION: u32 = 16;

/// The result of VACUUM's first pass.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct VacuumPrune {
    /// `LP_DEAD` pointers, sorted: index entries pointing at them must be removed.
    pub dead_tids: Vec<Tid>,
    pub pages_scanned: u32,
    pub pages_skipped: u32,
    /// Live tuples on the pages scanned (skipped pages are not counted:
    /// VACUUM then estimates reltuples, `vac_estimate_reltuples`).
    pub live_scanned: u64,
    /// Dead tuples whose space was reclaimed.
    pub tuples_removed: u64,
    /// Dead pointers already made unused (one-pass mode only).
    pub dead_pointers_removed: u64,
    pub pages_set_all_visible: u32,
    /// Accesses to the VM fork, for the caller to report (`Fork::Vm`).
    pub vm_accesses: Vec<(PageNo, Access)>,
}

impl VacuumPrune {
    /// Whether an index entry pointing at `tid` must be deleted.
    pub fn is_dead(&self, tid: Tid) -> bool {
        self.dead_tids.binary_search(&tid).is_ok()
    }
}

/// Pages given back by truncation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Truncation {
    /// Heap pages before and after. The caller drops the buffers of pages
    /// `to_pages..` (main fork) and of VM pages `vm_fork_pages..`.
    pub from_pages: PageNo,
    pub to_pages: PageNo,
    pub vm_fork_pages: PageNo,
}

/// What a whole VACUUM did (`VACUUM VERBOSE`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct VacuumReport {
    pub pages_scanned: u32,
    pub pages_skipped: u32,
    pub live_scanned: u64,
    pub tuples_removed: u64,
    /// `LP_DEAD` pointers made unused (= index entries that had to go).
    pub dead_pointers_removed: u64,
    pub pages_set_all_visible: u32,
    pub vm_accesses: Vec<(PageNo, Access)>,
    pub truncated: Option<Truncation>,
    pub live_rows: u64,
    pub pages: u32,
}

impl<T> Heap<T> {
    /// VACUUM's first pass (see the module documentation).
    pub fn vacuum_prune(&mut self, io: &mut dyn PageAccess) -> VacuumPrune {
        self.scan_and_prune(io, false)
    }

    /// VACUUM's last pass, after the caller removed the index entries of
    /// `prune.dead_tids`.
    pub fn vacuum_finish(&mut self, prune: VacuumPrune, io: &mut dyn PageAccess) -> VacuumReport {
        let mut vmt = VmPinTracker::default();
        let mut report = VacuumReport {
            pages_scanned: prune.pages_scanned,
            pages_skipped: prune.pages_skipped,
            live_scanned: prune.live_scanned,
            tuples_removed: prune.tuples_removed,
            dead_pointers_removed: prune.dead_pointers_removed,
            pages_set_all_visible: prune.pages_set_all_visible,
            vm_accesses: prune.vm_accesses,
            ..VacuumReport::default()
        };
        let mut tids = prune.dead_tids;
        tids.sort_unstable();
        tids.dedup();
        for group in tids.chunk_by(|a, b| a.page == b.page) {
            let offsets = group.iter().map(|t| t.offset);
            let (freed, visible) =
                self.vacuum_page_second_pass(group[0].page, offsets, io, &mut vmt);
            report.dead_pointers_removed += freed;
            report.pages_set_all_visible += visible as u32;
        }
        report.vm_accesses.extend(vmt.finish());
        report.truncated = self.truncate_empty_tail(io);
        // The relcache invalidation VACUUM sends forgets the insert target page, so
        // the next INSERT asks the free space map.
        self.target = None;
        report.live_rows = self.live;
        report.pages = self.page_count();
        report
    }

    /// VACUUM of a heap with no index: one pass, dead pointers freed at once.
    pub fn vacuum_no_indexes(&mut self, io: &mut dyn PageAccess) -> VacuumReport {
        let prune = self.scan_and_prune(io, true);
        self.vacuum_finish(prune, io)
    }

    fn scan_and_prune(&mut self, io: &mut dyn PageAccess, one_pass: bool) -> VacuumPrune {
        let mut out = VacuumPrune::default();
        let mut vmt = VmPinTracker::default();
        let n = self.page_count();
        let mut page = 0;
        while page < n {
            let run = self.all_visible_run(page, n);
            if run >= SKIP_PAGES_THRESHOLD {
                out.pages_skipped += run;
                page += run;
                continue;
            }
            for p in page..page + run.max(1) {
                self.vacuum_page_first_pass(p, one_pass, io, &mut vmt, &mut out);
            }
            page += run.max(1);
        }
        out.vm_accesses = vmt.finish();
        out
    }

    /// All-visible pages from `page` on, never counting the last page.
    fn all_visible_run(&self, page: PageNo, n: PageNo) -> u32 {
        let last = n.saturating_sub(1);
        (page..last)
            .take_while(|&p| self.pages[p as usize].all_visible)
            .count() as u32
    }

    fn vacuum_page_first_pass(
        &mut self,
        p: PageNo,
        one_pass: bool,
        io: &mut dyn PageAccess,
        vmt: &mut VmPinTracker,
        out: &mut VacuumPrune,
    ) {
        vmt.visit(&self.vm, p);
        let page = &mut self.pages[p as usize];
        let dead_before = page.dead as u64;
        // HeapTupleSatisfiesVacuum on every tuple: VACUUM runs outside any
        // transaction, so every writer's fate is known.
        page.check_all(None);
        let mut changed = prune_page(page).changed;
        let removed = dead_before - page.dead as u64;
        out.tuples_removed += removed;
        self.dead -= removed;
        for off in 1..=page.items.len() as OffsetNumber {
            if matches!(page.get(off), Some(LinePointer::Dead)) {
                if one_pass {
                    page.set(off, LinePointer::Unused);
                    out.dead_pointers_removed += 1;
                    changed = true;
                } else {
                    out.dead_tids.push(Tid::new(p, off));
                }
            }
        }
        if one_pass {
            page.truncate_unused_tail();
        }
        if page.is_clean() && !page.all_visible {
            page.all_visible = true;
            changed = true;
            vmt.set(&mut self.vm, p);
            out.pages_set_all_visible += 1;
        }
        io.access(p, if changed { Access::Write } else { Access::Read });
        self.fsm.record(p, page.heap_free_space(&self.geom));
        out.pages_scanned += 1;
        out.live_scanned += u64::from(page.live);
    }

    /// Marks the listed `LP_DEAD` pointers of page `p` unused. Returns how many were
    /// freed and whether the page became all-visible.
    fn vacuum_page_second_pass(
        &mut self,
        p: PageNo,
        offsets: impl Iterator<Item = OffsetNumber>,
        io: &mut dyn PageAccess,
        vmt: &mut VmPinTracker,
    ) -> (u64, bool) {
        let Some(page) = self.pages.get_mut(p as usize) else {
            return (0, false);
        };
        vmt.visit(&self.vm, p);
        let mut freed = 0;
        for off in offsets {
            if matches!(page.get(off), Some(LinePointer::Dead)) {
                page.set(off, LinePointer::Unused);
                freed += 1;
            }
        }
        page.truncate_unused_tail();
        io.access(p, Access::Write);
        let visible = page.is_clean() && !page.all_visible;
        if visible {
            page.all_visible = true;
            vmt.set(&mut self.vm, p);
        }
        self.fsm.record(p, page.heap_free_space(&self.geom));
        (freed, visible)
    }

    /// `lazy_truncate_heap`: gives back empty pages at the end of the heap. The
    /// candidates are read backwards to confirm they are empty.
    fn truncate_empty_tail(&mut self, io: &mut dyn PageAccess) -> Option<Truncation> {
        let n = self.page_count();
        let nonempty = self
            .pages
            .iter()
            .rposition(|p| !p.is_empty())
            .map_or(0, |i| i + 1) as PageNo;
        let freeable = n - nonempty;
        if freeable == 0
            || (freeable < REL_TRUNCATE_MINIMUM && freeable < n / REL_TRUNCATE_FRACTION)
        {
            return None;
        }
        for p in (nonempty..n).rev() {
            io.access(p, Access::Read);
        }
        self.pages.truncate(nonempty as usize);
        self.fsm.truncate(nonempty);
        self.vm.truncate(nonempty);
        Some(Truncation {
            from_pages: n,
            to_pages: nonempty,
            vm_fork_pages: self.vm.fork_pages(),
        })
    }
}
