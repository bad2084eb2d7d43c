//! What a heap tuple's header records beyond its row (htup_details.h), as
//! pageinspect's `heap_page_items()` shows it: the command that wrote it
//! (`t_field3`), where its next version is (`t_ctid`), and the flag bits of
//! `t_infomask` / `t_infomask2`.
//!
//! Hint bits: whether a tuple's inserting (and deleting) transaction committed
//! is written in its header the first time a visibility check finds out
//! (`SetHintBits` in heapam_visibility.c), so later checks need not ask the
//! commit log. A check by the transaction that wrote the tuple, while it
//! runs, learns nothing; any later check sets `HEAP_XMIN_COMMITTED` (or
//! `HEAP_XMIN_INVALID` when that transaction aborted), then the same for
//! `xmax`. The bits live in a [`Cell`]: like PostgreSQL, which sets them
//! holding only a shared lock, a reader sets them.

use super::super::tid::Tid;
use super::TransactionId;
use std::cell::Cell;

pub const HEAP_HASNULL: u16 = 0x0001;
pub const HEAP_HASVARWIDTH: u16 = 0x0002;
pub const HEAP_HASEXTERNAL: u16 = 0x0004;
pub const HEAP_COMBOCID: u16 = 0x0020;
pub const HEAP_XMIN_COMMITTED: u16 = 0x0100;
pub const HEAP_XMIN_INVALID: u16 = 0x0200;
pub const HEAP_XMAX_COMMITTED: u16 = 0x0400;
pub const HEAP_XMAX_INVALID: u16 = 0x0800;
pub const HEAP_UPDATED: u16 = 0x2000;
/// `t_infomask2`: the update changed a key column, or it is a delete.
pub const HEAP_KEYS_UPDATED: u16 = 0x2000;
pub const HEAP_HOT_UPDATED: u16 = 0x4000;
pub const HEAP_ONLY_TUPLE: u16 = 0x8000;

/// The header state of one tuple (its xmin and xmax are on [`super::page::HeapTuple`]).
#[derive(Debug, Clone, Default)]
pub struct TupleHeader {
    /// Columns stored (`HeapTupleHeaderGetNatts`): a column added later is
    /// not in older tuples.
    pub natts: u16,
    /// The tuple's length before MAXALIGN (`lp_len`).
    pub len: u16,
    /// `t_field3`: the command id that wrote it, then the one that deleted
    /// it, or a combo command id when one transaction did both.
    pub cid: u32,
    /// `t_ctid` once replaced: the next version's address.
    pub successor: Option<Tid>,
    /// The state bits of `t_infomask`: hint bits, `HEAP_UPDATED`, `HEAP_COMBOCID`.
    pub infomask: Cell<u16>,
    /// `HEAP_KEYS_UPDATED`.
    pub keys_updated: bool,
    /// Its inserting / deleting transaction aborted (the commit log's answer,
    /// which a visibility check turns into a hint bit).
    pub xmin_aborted: bool,
    pub xmax_aborted: bool,
}

impl TupleHeader {
    /// A new version: no deleter yet (`HEAP_XMAX_INVALID`, set by
    /// `heap_prepare_insert`), `HEAP_UPDATED` when it replaces another.
    pub fn new(updated: bool) -> Self {
        let mut bits = HEAP_XMAX_INVALID;
        if updated {
            bits |= HEAP_UPDATED;
        }
        TupleHeader {
            infomask: Cell::new(bits),
            ..TupleHeader::default()
        }
    }

    /// Deleted or replaced by `xmax`: its xmax bits start over.
    pub fn set_deleter(&mut self, keys_updated: bool) {
        let bits = self.infomask.get() & !(HEAP_XMAX_COMMITTED | HEAP_XMAX_INVALID);
        self.infomask.set(bits);
        self.keys_updated = keys_updated;
        self.xmax_aborted = false;
    }

    /// A visibility check (`HeapTupleSatisfiesMVCC` and its siblings) by a
    /// session whose running transaction is `running`: the fate of xmin, then
    /// of xmax, written down once known. Returns whether the check got past
    /// xmin (the tuple was inserted by a transaction that did not abort).
    pub fn check(&self, xmin: TransactionId, xmax: TransactionId, running: Option<TransactionId>) {
        let mut bits = self.infomask.get();
        if bits & (HEAP_XMIN_COMMITTED | HEAP_XMIN_INVALID) == 0 {
            if Some(xmin) == running {
                return;
            }
            if self.xmin_aborted {
                self.infomask.set(bits | HEAP_XMIN_INVALID);
                return;
            }
            bits |= HEAP_XMIN_COMMITTED;
        } else if bits & HEAP_XMIN_COMMITTED == 0 {
            // Known aborted: invisible, nothing more to learn.
            return;
        }
        if bits & (HEAP_XMAX_INVALID | HEAP_XMAX_COMMITTED) == 0
            && xmax != 0
            && Some(xmax) != running
        {
            bits |= if self.xmax_aborted {
                HEAP_XMAX_INVALID
            } else {
                HEAP_XMAX_COMMITTED
            };
        }
        self.infomask.set(bits);
    }
}
