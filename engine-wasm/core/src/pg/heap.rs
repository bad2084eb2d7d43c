//! A PostgreSQL heap relation: rows stored in insertion order on 8 KiB pages, each
//! addressed by a [`Tid`], with single-session autocommit MVCC.
//!
//! Rows are generic values `T` stored with their on-page size (compute it with
//! [`heap_tuple_size`](super::tuple::heap_tuple_size)); the page accounting follows
//! bufpage.c / hio.c / heapam.c so page counts match PostgreSQL's:
//! - a page is a 24-byte header, 4-byte line pointers and MAXALIGN'd tuples, so a
//!   `(bigint, timestamptz)` row (40 bytes) gives 185 rows per page and 1 000 000
//!   rows fill 5406 pages;
//! - INSERT goes on the relation's current target page if it fits under the
//!   fillfactor, else on a page the free space map knows has room (after VACUUM),
//!   else on a new page appended to the relation;
//! - UPDATE writes a new version and marks the old one dead. The new version goes on
//!   the same page when it fits there (fillfactor does not apply, it exists for
//!   this); if the caller says no indexed column changed, that is a HOT update: no
//!   new index entries, and index scans reach the new version through the old TID;
//! - DELETE only marks the tuple dead; dead tuples keep their space until VACUUM
//!   (see [`vacuum`](Heap::vacuum_prune)).
//!
//! Every page touched is reported through [`PageAccess`]: `Read` when looked at,
//! `Write` when modified, `Extend` when added. Visibility map bits are cleared by
//! any modification of their page; outcomes name the VM page changed (so the caller
//! can report a `Write` on the VM fork, as `visibilitymap_clear` dirties it).
//!
//! Index-only scans and article 000: an Index Only Scan asks the visibility map for
//! each index entry's heap page; when the page is not all-visible it fetches the
//! tuple with [`Heap::fetch`], passing the [`HeldPage`] it keeps pinned. Consecutive
//! entries of a time-ordered index point at the same heap page, and PostgreSQL does
//! not count an access while the scan stays on the pinned page, so 50 000 heap
//! fetches over 185-row pages cost ≈270 buffer hits — 346 index pages + 270 heap
//! pages = 616. After VACUUM every page is all-visible: 0 heap fetches, 346 hits.

mod error;
mod geometry;
mod page;
mod placement;
mod prune;
mod prune_opt;
pub mod rewrite;
mod scan;
pub mod tuple_header;
mod vacuum;

#[cfg(test)]
mod invariants;
#[cfg(test)]
mod proptests;
#[cfg(test)]
mod tests;

pub use error::HeapError;

/// A transaction's id (`TransactionId`, 32 bits in a tuple's header).
pub type TransactionId = u32;
pub use geometry::{HeapConfig, HeapGeometry};
pub(crate) use page::{HeapTuple, LinePointer};
pub use scan::{HeapScanCursor, SeqScan};
pub use tuple_header::TupleHeader;
pub use vacuum::{Truncation, VacuumPrune, VacuumReport};

use super::free_space_map::FreeSpaceMap;
use super::held_page::HeldPage;
use super::tid::{OffsetNumber, Tid};
use super::visibility_map::VisibilityMap;
use crate::storage::{Access, PageAccess, PageNo};
use page::HeapPage;

/// Result of an INSERT.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct InsertOutcome {
    pub tid: Tid,
    /// A new page was added to the relation for it.
    pub extended: bool,
    /// The VM page whose bit for the target page was cleared, if any.
    pub vm_cleared: Option<PageNo>,
}

/// Result of an UPDATE.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct UpdateOutcome {
    pub old_tid: Tid,
    pub new_tid: Tid,
    /// The new version is on the old version's page.
    pub same_page: bool,
    /// Heap-only tuple: the caller must not add index entries for `new_tid`.
    pub hot: bool,
    pub extended: bool,
    /// VM pages whose bits were cleared (old page, new page).
    pub vm_cleared: [Option<PageNo>; 2],
}

/// Result of a DELETE.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DeleteOutcome {
    pub tid: Tid,
    pub vm_cleared: Option<PageNo>,
}

/// One page as the UI shows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HeapPageInfo {
    pub page: PageNo,
    /// Header + line pointers + tuples.
    pub used_bytes: u32,
    /// What INSERT could still use (`PageGetHeapFreeSpace`).
    pub free_bytes: u32,
    pub line_pointers: u32,
    pub live: u32,
    /// Dead tuples still holding their space.
    pub dead: u32,
    /// `LP_DEAD` pointers (pruned, waiting for index cleanup).
    pub dead_pointers: u32,
    pub redirects: u32,
    pub unused: u32,
    pub all_visible: bool,
}

/// A line pointer as the UI shows it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum HeapItem<'a, T> {
    Unused,
    Live {
        size: u16,
        row: &'a T,
        heap_only: bool,
    },
    Dead {
        size: u16,
        row: &'a T,
        heap_only: bool,
    },
    Redirect(OffsetNumber),
    DeadPointer,
}

/// A heap relation holding rows of type `T`.
#[derive(Debug, Clone)]
pub struct Heap<T> {
    geom: HeapGeometry,
    pages: Vec<HeapPage<T>>,
    /// The page the last insert went to (the relcache's `rd_smgr->smgr_targblock`).
    target: Option<PageNo>,
    fsm: FreeSpaceMap,
    vm: VisibilityMap,
    live: u64,
    dead: u64,
}

impl<T> Heap<T> {
    pub fn new(config: HeapConfig) -> Result<Self, HeapError> {
        let geom = HeapGeometry::new(config)?;
        Ok(Heap {
            geom,
            pages: Vec::new(),
            target: None,
            fsm: FreeSpaceMap::new(geom.page_size),
            vm: VisibilityMap::new(geom.page_size),
            live: 0,
            dead: 0,
        })
    }

    /// INSERT by transaction `xid`: stores `row`, whose tuple is `size` bytes.
    pub fn insert(
        &mut self,
        row: T,
        size: u16,
        xid: TransactionId,
        io: &mut dyn PageAccess,
    ) -> Result<InsertOutcome, HeapError> {
        let len = self.check_size(size)?;
        let (page, extended) = self.place(len, io, None)?;
        let offset = self.pages[page as usize].add(new_tuple(row, len, false, xid));
        self.live += 1;
        Ok(InsertOutcome {
            tid: Tid::new(page, offset),
            extended,
            vm_cleared: self.clear_all_visible(page),
        })
    }

    /// UPDATE by transaction `xid` of the live tuple at `tid` to `row`.
    /// `hot_allowed`: no indexed column changes, so a same-page version may be
    /// heap-only (PostgreSQL decides HOT the same way in `heap_update`).
    pub fn update(
        &mut self,
        tid: Tid,
        row: T,
        size: u16,
        hot_allowed: bool,
        xid: TransactionId,
        io: &mut dyn PageAccess,
    ) -> Result<UpdateOutcome, HeapError> {
        let len = self.check_size(size)?;
        self.live_tuple(tid)?;
        io.access(tid.page, Access::Write);
        let old_vm = self.clear_all_visible(tid.page);
        let old_page = &mut self.pages[tid.page as usize];
        // Same page whenever it fits: `newtupsize <= PageGetHeapFreeSpace(page)`.
        if len <= old_page.heap_free_space(&self.geom) {
            let off = old_page.add(new_tuple(row, len, hot_allowed, xid));
            let new_tid = Tid::new(tid.page, off);
            old_page.kill(
                tid.offset,
                hot_allowed.then_some(off),
                Some(new_tid),
                xid,
                false,
            );
            self.dead += 1;
            return Ok(UpdateOutcome {
                old_tid: tid,
                new_tid: Tid::new(tid.page, off),
                same_page: true,
                hot: hot_allowed,
                extended: false,
                vm_cleared: [old_vm, None],
            });
        }
        let (page, extended) = self.place(len, io, Some(tid.page))?;
        let off = self.pages[page as usize].add(new_tuple(row, len, false, xid));
        let new_tid = Tid::new(page, off);
        self.pages[tid.page as usize].kill(tid.offset, None, Some(new_tid), xid, false);
        self.dead += 1;
        Ok(UpdateOutcome {
            old_tid: tid,
            new_tid: Tid::new(page, off),
            same_page: false,
            hot: false,
            extended,
            vm_cleared: [old_vm, self.clear_all_visible(page)],
        })
    }

    /// DELETE by transaction `xid`: marks the live tuple at `tid` dead. Its
    /// space stays used until VACUUM.
    pub fn delete(
        &mut self,
        tid: Tid,
        xid: TransactionId,
        io: &mut dyn PageAccess,
    ) -> Result<DeleteOutcome, HeapError> {
        self.live_tuple(tid)?;
        io.access(tid.page, Access::Write);
        // A delete counts as changing the key (`HEAP_KEYS_UPDATED`).
        self.pages[tid.page as usize].kill(tid.offset, None, None, xid, true);
        self.live -= 1;
        self.dead += 1;
        Ok(DeleteOutcome {
            tid,
            vm_cleared: self.clear_all_visible(tid.page),
        })
    }

    /// An index scan's heap fetch: the live version reached from `tid` (following a
    /// HOT chain from its root, as `heap_hot_search_buffer` does), or `None` when the
    /// row version the index entry names is dead. Reports a read of the page unless
    /// it is the page `held` (the scan keeps the last page pinned).
    pub fn fetch(
        &self,
        tid: Tid,
        held: &mut HeldPage,
        io: &mut dyn PageAccess,
    ) -> Option<(Tid, &T)> {
        self.pages.get(tid.page as usize)?;
        held.switch_to(tid.page, io);
        self.resolve(tid)
    }

    /// The live version reached from `tid` along its HOT chain, without
    /// accounting: what an index entry names once its page is all-visible (an
    /// index-only scan then reads no heap page, but the row is still the chain's
    /// live member, not the root the entry points at).
    pub fn resolve(&self, tid: Tid) -> Option<(Tid, &T)> {
        let page = self.pages.get(tid.page as usize)?;
        let mut off = tid.offset;
        for _ in 0..=page.items.len() {
            match page.get(off)? {
                LinePointer::Redirect(to) => off = *to,
                LinePointer::Normal(t) if t.live => return Some((Tid::new(tid.page, off), &t.row)),
                LinePointer::Normal(t) => off = t.hot_next?,
                LinePointer::Dead | LinePointer::Unused => return None,
            }
        }
        None
    }

    /// Whether every version on the HOT chain from `tid` is dead to every
    /// transaction (heap_hot_search_buffer's `all_dead`): none is live and
    /// none was written or deleted by the transaction still running (the one
    /// session has no other). An index entry naming such a chain gets the
    /// LP_DEAD hint from the index scan or uniqueness check that finds it.
    pub fn dead_to_all(&self, tid: Tid, running: Option<TransactionId>) -> bool {
        let Some(page) = self.pages.get(tid.page as usize) else {
            return true;
        };
        let mut off = tid.offset;
        for _ in 0..=page.items.len() {
            match page.get(off) {
                Some(LinePointer::Redirect(to)) => off = *to,
                Some(LinePointer::Normal(t)) => {
                    if t.live || running.is_some_and(|x| x == t.xmin || x == t.xmax) {
                        return false;
                    }
                    match t.hot_next {
                        Some(next) => off = next,
                        None => return true,
                    }
                }
                _ => return true,
            }
        }
        true
    }

    /// The row of the version at `tid` (or the first along its HOT chain),
    /// live or dead, while its storage is on the page: the versions of a
    /// chain share their indexed values, so this is what an index entry
    /// naming `tid` was made from (pageinspect shows it).
    pub fn indexed_row(&self, tid: Tid) -> Option<&T> {
        let page = self.pages.get(tid.page as usize)?;
        let mut off = tid.offset;
        for _ in 0..=page.items.len() {
            match page.get(off)? {
                LinePointer::Redirect(to) => off = *to,
                LinePointer::Normal(t) => return Some(&t.row),
                _ => return None,
            }
        }
        None
    }

    /// The tid an index entry for the tuple at `tid` names: the root of its HOT
    /// chain (`heap_get_root_tuples`). CREATE INDEX must index a heap-only
    /// tuple by its root, or VACUUM, freeing the superseded members, would
    /// leave the entry pointing at nothing.
    pub fn root_of(&self, tid: Tid) -> Tid {
        let Some(page) = self.pages.get(tid.page as usize) else {
            return tid;
        };
        if !page.tuple(tid.offset).is_some_and(|t| t.heap_only) {
            return tid;
        }
        let is_root = |p: &LinePointer<T>| match p {
            LinePointer::Redirect(_) => true,
            LinePointer::Normal(t) => !t.heap_only,
            _ => false,
        };
        for (i, item) in page.items.iter().enumerate() {
            let root = (i + 1) as OffsetNumber;
            if !is_root(item) {
                continue;
            }
            let mut off = root;
            for _ in 0..=page.items.len() {
                if off == tid.offset {
                    return Tid::new(tid.page, root);
                }
                match page.get(off) {
                    Some(LinePointer::Redirect(to)) => off = *to,
                    Some(LinePointer::Normal(t)) => match t.hot_next {
                        Some(next) => off = next,
                        None => break,
                    },
                    _ => break,
                }
            }
        }
        tid
    }

    /// The header of the tuple at `tid`, for the caller to record what the
    /// heap does not know: how many columns and bytes it has, which command
    /// wrote it, whether an update changed its key.
    pub fn header_mut(&mut self, tid: Tid) -> Option<&mut TupleHeader> {
        let page = self.pages.get_mut(tid.page as usize)?;
        match page.items.get_mut((tid.offset as usize).checked_sub(1)?)? {
            LinePointer::Normal(t) => Some(&mut t.header),
            _ => None,
        }
    }

    /// Every tuple on `page` goes through a visibility check (a sequential
    /// scan's `heapgetpage`, VACUUM's and pruning's
    /// `HeapTupleSatisfiesVacuum`): hint bits are set where the fate of its
    /// transactions is known. An all-visible page is not checked by scans
    /// (`all_visible` is passed as true to skip it).
    pub fn check_page(&self, page: PageNo, running: Option<TransactionId>, skip_all_visible: bool) {
        let Some(p) = self.pages.get(page as usize) else {
            return;
        };
        if !(skip_all_visible && p.all_visible) {
            p.check_all(running);
        }
    }

    /// An index scan's visibility checks along the HOT chain from `tid`
    /// (`heap_hot_search_buffer`): each version until the visible one.
    pub fn check_chain(&self, tid: Tid, running: Option<TransactionId>) {
        let Some(page) = self.pages.get(tid.page as usize) else {
            return;
        };
        let mut off = tid.offset;
        for _ in 0..=page.items.len() {
            match page.get(off) {
                Some(LinePointer::Redirect(to)) => off = *to,
                Some(LinePointer::Normal(t)) => {
                    t.header.check(t.xmin, t.xmax, running);
                    match t.hot_next {
                        Some(next) if !t.live => off = next,
                        _ => return,
                    }
                }
                _ => return,
            }
        }
    }

    /// Transaction `xid` aborted: the versions it wrote are dead to everyone
    /// (their space stays until pruning or VACUUM, their index entries until
    /// VACUUM), and the versions it deleted or replaced are live again, still
    /// naming it as xmax (a later check marks that xmax invalid).
    pub fn abort(&mut self, xid: TransactionId) {
        for page in &mut self.pages {
            let (mut died, mut revived) = (0, 0);
            for lp in &mut page.items {
                let LinePointer::Normal(t) = lp else { continue };
                if t.xmin == xid {
                    t.header.xmin_aborted = true;
                    if t.live {
                        t.live = false;
                        died += 1;
                    }
                } else if t.xmax == xid && !t.live {
                    t.header.xmax_aborted = true;
                    t.live = true;
                    revived += 1;
                }
            }
            page.live = page.live + revived - died;
            page.dead = page.dead + died - revived;
            self.live = self.live + revived as u64 - died as u64;
            self.dead = self.dead + died as u64 - revived as u64;
        }
    }

    /// The line pointers of a page with their tuples' headers, for
    /// pageinspect's `heap_page_items()`.
    pub(crate) fn raw_items(&self, page: PageNo) -> Option<&[LinePointer<T>]> {
        self.pages.get(page as usize).map(|p| p.items.as_slice())
    }

    /// The live row exactly at `tid`, without accounting (tests, the UI).
    /// The transactions that wrote and (if any) deleted the tuple at `tid`:
    /// its `xmin` and `xmax` system columns.
    pub fn xids(&self, tid: Tid) -> Option<(TransactionId, TransactionId)> {
        let t = self.pages.get(tid.page as usize)?.tuple(tid.offset)?;
        Some((t.xmin, t.xmax))
    }

    pub fn get(&self, tid: Tid) -> Option<&T> {
        let t = self.pages.get(tid.page as usize)?.tuple(tid.offset)?;
        t.live.then_some(&t.row)
    }

    /// A sequential scan of live rows, page by page (each page reported once).
    pub fn scan<'h, 'io>(&'h self, io: &'io mut dyn PageAccess) -> SeqScan<'h, 'io, T> {
        SeqScan::new(self, io)
    }

    /// A sequential scan by a session whose running transaction is
    /// `running`: each page's tuples get their visibility checked (hint bits).
    pub fn scan_checking<'h, 'io>(
        &'h self,
        io: &'io mut dyn PageAccess,
        running: Option<TransactionId>,
    ) -> SeqScan<'h, 'io, T> {
        SeqScan::checking(self, io, running)
    }

    /// `ALTER TABLE … SET (fillfactor = n)`: later inserts leave that room;
    /// pages already filled stay as they are.
    pub fn set_fillfactor(&mut self, fillfactor: u8) -> Result<(), HeapError> {
        self.geom = HeapGeometry::new(HeapConfig {
            page_size: self.geom.page_size,
            fillfactor,
        })?;
        Ok(())
    }

    /// `ALTER TABLE … ADD COLUMN`: every stored row, live or dead, gets the
    /// new column's value from `f`. Its tuple keeps its size: PostgreSQL
    /// reads a column added later as "missing" (its default), without
    /// rewriting the tuple.
    pub fn for_each_row_mut(&mut self, mut f: impl FnMut(&mut T)) {
        for page in &mut self.pages {
            for lp in &mut page.items {
                if let LinePointer::Normal(t) = lp {
                    f(&mut t.row);
                }
            }
        }
    }

    pub fn geometry(&self) -> &HeapGeometry {
        &self.geom
    }

    pub fn page_count(&self) -> u32 {
        self.pages.len() as u32
    }

    pub fn live_rows(&self) -> u64 {
        self.live
    }

    /// Dead tuples still occupying space (`n_dead_tup`).
    pub fn dead_tuples(&self) -> u64 {
        self.dead
    }

    pub fn visibility_map(&self) -> &VisibilityMap {
        &self.vm
    }

    pub fn free_space_map(&self) -> &FreeSpaceMap {
        &self.fsm
    }

    /// The page the next INSERT tries first.
    pub fn target_page(&self) -> Option<PageNo> {
        self.target
    }

    pub fn page_info(&self, page: PageNo) -> Option<HeapPageInfo> {
        let p = self.pages.get(page as usize)?;
        Some(HeapPageInfo {
            page,
            used_bytes: p.used_bytes(),
            free_bytes: p.heap_free_space(&self.geom),
            line_pointers: p.items.len() as u32,
            live: p.live,
            dead: p.dead,
            dead_pointers: p.dead_pointers,
            redirects: p.redirects,
            unused: p.unused,
            all_visible: p.all_visible,
        })
    }

    /// The line pointers of a page, in offset order (offset = index + 1).
    pub fn items(&self, page: PageNo) -> impl Iterator<Item = HeapItem<'_, T>> + '_ {
        let items = self.pages.get(page as usize).map(|p| p.items.as_slice());
        items.unwrap_or(&[]).iter().map(|lp| match lp {
            LinePointer::Unused => HeapItem::Unused,
            LinePointer::Redirect(to) => HeapItem::Redirect(*to),
            LinePointer::Dead => HeapItem::DeadPointer,
            LinePointer::Normal(t) if t.live => HeapItem::Live {
                size: t.size,
                row: &t.row,
                heap_only: t.heap_only,
            },
            LinePointer::Normal(t) => HeapItem::Dead {
                size: t.size,
                row: &t.row,
                heap_only: t.heap_only,
            },
        })
    }

    fn check_size(&self, size: u16) -> Result<u32, HeapError> {
        let len = super::tuple::maxalign(size as u32);
        if len > self.geom.max_tuple_size {
            return Err(HeapError::TupleTooLarge {
                size: len,
                max: self.geom.max_tuple_size,
            });
        }
        Ok(len)
    }

    fn live_tuple(&self, tid: Tid) -> Result<(), HeapError> {
        let page = self
            .pages
            .get(tid.page as usize)
            .ok_or(HeapError::InvalidTid(tid))?;
        match page.get(tid.offset) {
            None => Err(HeapError::InvalidTid(tid)),
            Some(LinePointer::Normal(t)) if t.live => Ok(()),
            Some(_) => Err(HeapError::NotLive(tid)),
        }
    }

    /// Clears `PD_ALL_VISIBLE` and the VM bit; returns the VM page if it changed.
    fn clear_all_visible(&mut self, page: PageNo) -> Option<PageNo> {
        self.pages[page as usize].all_visible = false;
        self.vm.clear(page).then(|| self.vm.vm_page_for(page))
    }
}

fn new_tuple<T>(row: T, len: u32, heap_only: bool, xmin: TransactionId) -> HeapTuple<T> {
    HeapTuple {
        row,
        size: len as u16,
        live: true,
        heap_only,
        hot_next: None,
        xmin,
        xmax: 0,
        off: 0,
        header: TupleHeader::new(false),
    }
}
