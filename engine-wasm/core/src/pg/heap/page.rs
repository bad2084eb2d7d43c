//! One heap page: a line pointer array growing from the header, tuples growing from
//! the end (bufpage.h). Only sizes are tracked; rows are kept as values.
//!
//! ```text
//! | header 24 | lp 1 | lp 2 | … → free space ← | tuple 2 | tuple 1 |
//!             ^ lower                          ^ upper
//! ```
//!
//! Line pointer states follow PostgreSQL (itemid.h): `LP_NORMAL` (a tuple with
//! storage, live or dead), `LP_REDIRECT` (root of a HOT chain whose first members
//! were pruned; index entries point here), `LP_DEAD` (tuple pruned, the pointer
//! stays until index entries pointing at it are gone) and `LP_UNUSED` (reusable).

use super::super::tid::OffsetNumber;
use super::super::tuple::{ITEM_ID_SIZE, PAGE_HEADER_SIZE};
use super::tuple_header::TupleHeader;
use super::{HeapGeometry, TransactionId};

/// A tuple with storage on the page.
#[derive(Debug, Clone)]
pub(crate) struct HeapTuple<T> {
    pub row: T,
    /// MAXALIGN'd size on the page.
    pub size: u16,
    /// Not deleted nor superseded (autocommit: every change is committed at once).
    pub live: bool,
    /// Created by a HOT update: no index entry points at it (`HEAP_ONLY_TUPLE`).
    pub heap_only: bool,
    /// Its successor version on the same page, if it was HOT-updated
    /// (`HEAP_HOT_UPDATED` + `t_ctid`).
    pub hot_next: Option<OffsetNumber>,
    /// The transaction that wrote this version (`t_xmin`).
    pub xmin: TransactionId,
    /// The transaction that deleted or replaced it (`t_xmax`), 0 if none.
    pub xmax: TransactionId,
    /// Where it starts on the page (`lp_off`).
    pub off: u16,
    /// The rest of its header ([`TupleHeader`]).
    pub header: TupleHeader,
}

/// A line pointer.
#[derive(Debug, Clone)]
pub(crate) enum LinePointer<T> {
    Unused,
    Normal(HeapTuple<T>),
    Redirect(OffsetNumber),
    Dead,
}

/// A heap page.
#[derive(Debug, Clone)]
pub(crate) struct HeapPage<T> {
    pub items: Vec<LinePointer<T>>,
    /// Bytes of tuple storage (sum of MAXALIGN'd sizes of `Normal` items).
    pub tuple_bytes: u32,
    pub live: u32,
    pub dead: u32,
    pub dead_pointers: u32,
    pub redirects: u32,
    pub unused: u32,
    /// `PD_ALL_VISIBLE`: mirrors the page's visibility map bit.
    pub all_visible: bool,
    /// Bytes per page (`BLCKSZ`): where tuple storage starts from.
    page_size: u32,
    /// `pd_prune_xid` is set: a delete or update left a tuple that pruning
    /// may remove once its deleter is over.
    pub prunable: bool,
}

impl<T> HeapPage<T> {
    pub fn new(capacity: usize, page_size: u32) -> Self {
        HeapPage {
            page_size,
            prunable: false,
            items: Vec::with_capacity(capacity),
            tuple_bytes: 0,
            live: 0,
            dead: 0,
            dead_pointers: 0,
            redirects: 0,
            unused: 0,
            all_visible: false,
        }
    }

    /// `pd_lower`: end of the line pointer array.
    pub fn lower(&self) -> u32 {
        PAGE_HEADER_SIZE + ITEM_ID_SIZE * self.items.len() as u32
    }

    /// `pd_upper`: start of tuple storage.
    pub fn upper(&self, g: &HeapGeometry) -> u32 {
        g.page_size - self.tuple_bytes
    }

    /// Bytes in use: header, line pointers and tuples.
    pub fn used_bytes(&self) -> u32 {
        self.lower() + self.tuple_bytes
    }

    /// `PageGetHeapFreeSpace`: the hole minus one line pointer, or 0 when the page
    /// already has `MaxHeapTuplesPerPage` line pointers and none is free.
    pub fn heap_free_space(&self, g: &HeapGeometry) -> u32 {
        let hole = self.upper(g).saturating_sub(self.lower());
        let space = hole.saturating_sub(ITEM_ID_SIZE);
        if self.items.len() as u32 >= g.max_tuples_per_page && self.unused == 0 {
            return 0;
        }
        space
    }

    pub fn get(&self, off: OffsetNumber) -> Option<&LinePointer<T>> {
        self.items.get((off as usize).checked_sub(1)?)
    }

    /// The tuple at `off` if it has storage.
    pub fn tuple(&self, off: OffsetNumber) -> Option<&HeapTuple<T>> {
        match self.get(off)? {
            LinePointer::Normal(t) => Some(t),
            _ => None,
        }
    }

    /// `PageAddItem`: reuses the first unused line pointer, else appends one.
    /// The caller has checked the space.
    pub fn add(&mut self, mut tuple: HeapTuple<T>) -> OffsetNumber {
        // The tuple goes at the top of the free space (`pd_upper`).
        tuple.off = (self.page_size() - self.tuple_bytes - u32::from(tuple.size)) as u16;
        let lp = LinePointer::Normal(tuple);
        self.tally(&lp, true);
        if self.unused > 0 {
            if let Some(i) = self
                .items
                .iter()
                .position(|l| matches!(l, LinePointer::Unused))
            {
                self.unused -= 1;
                self.items[i] = lp;
                return (i + 1) as OffsetNumber;
            }
        }
        self.items.push(lp);
        self.items.len() as OffsetNumber
    }

    /// Replaces the line pointer at `off` (which must exist), keeping the counters.
    pub fn set(&mut self, off: OffsetNumber, lp: LinePointer<T>) -> LinePointer<T> {
        let i = off as usize - 1;
        self.tally(&lp, true);
        let old = std::mem::replace(&mut self.items[i], lp);
        self.tally(&old, false);
        if matches!(old, LinePointer::Normal(_)) && !matches!(self.items[i], LinePointer::Normal(_))
        {
            self.compact();
        }
        old
    }

    /// `PageRepairFragmentation`'s `compactify_tuples`: the tuples left are
    /// moved together at the end of the page, in line pointer order (line
    /// pointer 1 last on the page), closing the holes freed ones left.
    fn compact(&mut self) {
        let mut upper = self.page_size();
        for lp in &mut self.items {
            if let LinePointer::Normal(t) = lp {
                upper -= u32::from(t.size);
                t.off = upper as u16;
            }
        }
    }

    /// Where tuple storage ends (`pd_special`: a heap page has no special space).
    fn page_size(&self) -> u32 {
        self.page_size
    }

    /// Marks the live tuple at `off` dead by transaction `xmax` (committed at
    /// once), optionally linking its HOT successor. Returns false if there is
    /// no live tuple there.
    pub fn kill(
        &mut self,
        off: OffsetNumber,
        hot_next: Option<OffsetNumber>,
        successor: Option<super::super::tid::Tid>,
        xmax: TransactionId,
        keys_updated: bool,
    ) -> bool {
        let Some(LinePointer::Normal(t)) = self.items.get_mut((off as usize).wrapping_sub(1))
        else {
            return false;
        };
        if !t.live {
            return false;
        }
        t.live = false;
        t.hot_next = hot_next;
        t.xmax = xmax;
        t.header.successor = successor;
        t.header.set_deleter(keys_updated);
        self.prunable = true;
        self.live -= 1;
        self.dead += 1;
        true
    }

    /// A visibility check of every tuple on the page ([`TupleHeader::check`]).
    pub fn check_all(&self, running: Option<TransactionId>) {
        for lp in &self.items {
            if let LinePointer::Normal(t) = lp {
                t.header.check(t.xmin, t.xmax, running);
            }
        }
    }

    /// `PageTruncateLinePointerArray`: drops unused line pointers at the end, so an
    /// emptied page gets its line pointer space back.
    pub fn truncate_unused_tail(&mut self) {
        while matches!(self.items.last(), Some(LinePointer::Unused)) {
            self.items.pop();
            self.unused -= 1;
        }
    }

    /// No line pointer in use: VACUUM may truncate the page away.
    pub fn is_empty(&self) -> bool {
        self.items.len() as u32 == self.unused
    }

    /// Whether VACUUM may mark the page all-visible: no dead tuple or dead pointer.
    pub fn is_clean(&self) -> bool {
        self.dead == 0 && self.dead_pointers == 0
    }

    fn tally(&mut self, lp: &LinePointer<T>, add: bool) {
        let (counter, bytes) = match lp {
            LinePointer::Unused => (&mut self.unused, 0),
            LinePointer::Redirect(_) => (&mut self.redirects, 0),
            LinePointer::Dead => (&mut self.dead_pointers, 0),
            LinePointer::Normal(t) if t.live => (&mut self.live, t.size as u32),
            LinePointer::Normal(t) => (&mut self.dead, t.size as u32),
        };
        if add {
            *counter += 1;
            self.tuple_bytes += bytes;
        } else {
            *counter -= 1;
            self.tuple_bytes -= bytes;
        }
    }
}
