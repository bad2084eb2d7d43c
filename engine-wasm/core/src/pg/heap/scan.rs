//! Sequential scan: every page in block order, each reported once as a read, and the
//! live tuples of each page in line pointer order (heapam.c `heapgettup_pagemode`).
//!
//! Like PostgreSQL, the scan covers the pages the relation had when it started
//! (`rs_nblocks`), so pages added meanwhile are not visited. There are no snapshots
//! here: a version created during the scan on a page not yet visited would be
//! returned, so an UPDATE should collect the TIDs first and modify afterwards.

use super::super::tid::{OffsetNumber, Tid};
use super::page::LinePointer;
use super::{Heap, TransactionId};
use crate::storage::{Access, PageAccess, PageNo};

/// A scan position that does not borrow the heap, for executors that interleave
/// fetching rows with other work.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct HeapScanCursor {
    page: PageNo,
    /// Next line pointer to examine on `page` (0: the page was not read yet).
    next: OffsetNumber,
    /// Pages the relation had at the first call.
    end: Option<PageNo>,
    /// Check the visibility of each tuple of each page read, as the session
    /// whose running transaction is the one held (None: a caller that only
    /// wants rows, such as a test).
    checks: Option<Option<TransactionId>>,
}

impl HeapScanCursor {
    pub fn new() -> Self {
        HeapScanCursor::default()
    }

    /// A scan that checks each tuple's visibility as PostgreSQL's page-mode
    /// scan does, setting hint bits ([`Heap::check_page`]).
    pub fn checking(running: Option<TransactionId>) -> Self {
        HeapScanCursor {
            checks: Some(running),
            ..HeapScanCursor::default()
        }
    }

    /// The page the scan is on (or will read next).
    pub fn page(&self) -> PageNo {
        self.page
    }

    /// The next live row, reading a new page when the current one is exhausted.
    pub fn next<'h, T>(
        &mut self,
        heap: &'h Heap<T>,
        io: &mut dyn PageAccess,
    ) -> Option<(Tid, &'h T)> {
        let end = *self.end.get_or_insert(heap.page_count());
        while self.page < end.min(heap.page_count()) {
            if self.next == 0 {
                io.access(self.page, Access::Read);
                self.next = 1;
                if let Some(running) = self.checks {
                    heap.check_page(self.page, running, true);
                }
            }
            let items = &heap.pages[self.page as usize].items;
            while let Some(lp) = items.get(self.next as usize - 1) {
                let off = self.next;
                self.next += 1;
                if let LinePointer::Normal(t) = lp {
                    if t.live {
                        return Some((Tid::new(self.page, off), &t.row));
                    }
                }
            }
            self.page += 1;
            self.next = 0;
        }
        None
    }
}

impl<T> Heap<T> {
    /// One page of a sequential scan (`heapgetpage`): read once, each tuple's
    /// visibility checked (hint bits) as the session whose running
    /// transaction is `running`, and its live rows in line pointer order.
    pub fn page_checking<'h>(
        &'h self,
        page: PageNo,
        io: &mut dyn PageAccess,
        running: Option<TransactionId>,
    ) -> Vec<(Tid, &'h T)> {
        let Some(p) = self.pages.get(page as usize) else {
            return Vec::new();
        };
        io.access(page, Access::Read);
        self.check_page(page, running, true);
        let mut rows = Vec::new();
        for (i, lp) in p.items.iter().enumerate() {
            if let LinePointer::Normal(t) = lp {
                if t.live {
                    rows.push((Tid::new(page, i as OffsetNumber + 1), &t.row));
                }
            }
        }
        rows
    }
}

/// A sequential scan as an iterator over `(tid, row)` of live rows.
pub struct SeqScan<'h, 'io, T> {
    heap: &'h Heap<T>,
    io: &'io mut dyn PageAccess,
    cursor: HeapScanCursor,
}

impl<'h, 'io, T> SeqScan<'h, 'io, T> {
    pub(super) fn new(heap: &'h Heap<T>, io: &'io mut dyn PageAccess) -> Self {
        SeqScan {
            heap,
            io,
            cursor: HeapScanCursor::new(),
        }
    }

    /// A scan that sets hint bits as it goes ([`HeapScanCursor::checking`]).
    pub(super) fn checking(
        heap: &'h Heap<T>,
        io: &'io mut dyn PageAccess,
        running: Option<TransactionId>,
    ) -> Self {
        SeqScan {
            heap,
            io,
            cursor: HeapScanCursor::checking(running),
        }
    }
}

impl<'h, T> Iterator for SeqScan<'h, '_, T> {
    type Item = (Tid, &'h T);

    fn next(&mut self) -> Option<Self::Item> {
        self.cursor.next(self.heap, self.io)
    }
}
