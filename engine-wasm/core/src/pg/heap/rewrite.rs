//! VACUUM FULL's and CLUSTER's copy of a heap into a new file
//! (rewriteheap.c, `heapam_relation_copy_for_cluster`).
//!
//! Every tuple of the old heap gets a visibility check (hint bits set); the
//! live ones are copied, in the order asked (the old heap's for VACUUM FULL,
//! the index's for CLUSTER), onto new pages filled as INSERT would fill them
//! (down to the fillfactor), which are written around the buffer pool. A
//! copy keeps its xmin, xmax and command id and the transaction bits of its
//! `t_infomask`; it loses its HOT links (each copy is a plain tuple, its
//! `t_ctid` itself), and it is frozen — CLUSTER freezes with a minimum age
//! of 0, so every committed xmin is marked frozen (`HEAP_XMIN_FROZEN`),
//! while the number stays.

use super::page::LinePointer;
use super::tuple_header::{HEAP_XMAX_INVALID, HEAP_XMIN_COMMITTED, HEAP_XMIN_INVALID};
use super::{Heap, HeapConfig, HeapError, TransactionId};
use crate::pg::tid::Tid;
use crate::storage::NoAccounting;

/// `HEAP_XACT_MASK`: the `t_infomask` bits about transactions (hint bits,
/// `HEAP_UPDATED`, `HEAP_COMBOCID`, locks), which a copy keeps.
const HEAP_XACT_MASK: u16 = 0xFFF0;

/// What the caller knows of a row that the heap does not: its length
/// before MAXALIGN once re-formed with every current column, and that
/// column count.
pub struct Reformed {
    pub len: u16,
    pub natts: u16,
}

impl<T: Clone> Heap<T> {
    /// The live tuples, in line pointer order page by page (a sequential
    /// scan's order), after the visibility check that sets their hint bits.
    pub fn live_tids_checked(&self) -> Vec<Tid> {
        let mut out = Vec::new();
        for (p, page) in self.pages.iter().enumerate() {
            page.check_all(None);
            for (i, lp) in page.items.iter().enumerate() {
                if matches!(lp, LinePointer::Normal(t) if t.live) {
                    out.push(Tid::new(p as u32, (i + 1) as u16));
                }
            }
        }
        out
    }

    /// A new, empty heap of the same page size and fillfactor.
    fn empty_like(&self) -> Result<Heap<T>, HeapError> {
        Heap::new(HeapConfig {
            page_size: self.geom.page_size,
            fillfactor: self.geom.fillfactor,
        })
    }

    /// A new heap holding copies of the live tuples at `order`.
    pub fn rewritten(
        &self,
        order: &[Tid],
        reform: &dyn Fn(&T) -> Reformed,
    ) -> Result<Heap<T>, HeapError> {
        let mut new = self.empty_like()?;
        for &tid in order {
            let Some(old) = self.pages[tid.page as usize].tuple(tid.offset) else {
                continue;
            };
            let shape = reform(&old.row);
            let size = super::super::tuple::maxalign(u32::from(shape.len)) as u16;
            let at = new
                .insert(old.row.clone(), size, old.xmin, &mut NoAccounting)?
                .tid;
            let page = &mut new.pages[at.page as usize];
            if let Some(LinePointer::Normal(copy)) = page.items.get_mut(at.offset as usize - 1) {
                copy.xmax = old.xmax;
                let h = &mut copy.header;
                h.len = shape.len;
                h.natts = shape.natts;
                h.cid = old.header.cid;
                h.xmin_aborted = old.header.xmin_aborted;
                h.xmax_aborted = old.header.xmax_aborted;
                let kept = old.header.infomask.get() & HEAP_XACT_MASK;
                h.infomask.set(frozen(kept, &mut copy.xmax, h.xmax_aborted));
            }
        }
        Ok(new)
    }

    /// ALTER TABLE's rewrite (`ATRewriteTable`): `rows`, re-formed with
    /// their new columns, inserted anew into a new heap by transaction
    /// `xid` (command `cid`), as INSERT fills pages (down to the
    /// fillfactor). Unlike VACUUM FULL's copies they are new tuples: the
    /// ALTER's xmin, no hint bits yet.
    pub fn refilled(
        &self,
        rows: Vec<T>,
        xid: TransactionId,
        cid: u32,
        reform: &dyn Fn(&T) -> Reformed,
    ) -> Result<Heap<T>, HeapError> {
        let mut new = self.empty_like()?;
        for row in rows {
            let shape = reform(&row);
            let size = super::super::tuple::maxalign(u32::from(shape.len)) as u16;
            let at = new.insert(row, size, xid, &mut NoAccounting)?.tid;
            if let Some(h) = new.header_mut(at) {
                h.len = shape.len;
                h.natts = shape.natts;
                h.cid = cid;
            }
        }
        Ok(new)
    }
}

impl<T> Heap<T> {
    /// VACUUM FREEZE's freezing (a minimum age of 0): every live tuple's
    /// committed xmin is marked frozen and an aborted xmax cleared.
    pub fn freeze_all(&mut self) {
        for page in &mut self.pages {
            page.check_all(None);
            for lp in &mut page.items {
                if let LinePointer::Normal(t) = lp {
                    if t.live {
                        let bits =
                            frozen(t.header.infomask.get(), &mut t.xmax, t.header.xmax_aborted);
                        t.header.infomask.set(bits);
                    }
                }
            }
        }
    }
}

/// `heap_freeze_tuple` with a cutoff past every finished transaction: a
/// committed xmin is marked frozen, an aborted xmax is cleared.
fn frozen(infomask: u16, xmax: &mut TransactionId, xmax_aborted: bool) -> u16 {
    let mut bits = infomask;
    if bits & HEAP_XMIN_COMMITTED != 0 {
        bits |= HEAP_XMIN_COMMITTED | HEAP_XMIN_INVALID;
    }
    if *xmax != 0 && xmax_aborted {
        *xmax = 0;
        bits |= HEAP_XMAX_INVALID;
    }
    bits
}
