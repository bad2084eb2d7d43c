//! What INSERT, UPDATE and DELETE write into a tuple's header besides its
//! row and transaction ids (see [`crate::pg::heap::TupleHeader`]): how many
//! columns and bytes it has, the command that wrote or deleted it, and
//! whether an update changed a key column.

use super::super::engine::PgEngine;
use super::super::heap::tuple_header::{HEAP_COMBOCID, HEAP_UPDATED};
use super::super::tid::Tid;
use crate::value::Value;

impl PgEngine {
    /// A version just written at `tid` of `table`: `len` bytes before
    /// MAXALIGN, the running command's id, `HEAP_UPDATED` if it replaces one.
    pub(in crate::pg) fn stamp_written(&mut self, table: usize, tid: Tid, len: u16, updated: bool) {
        let cid = self.xact.command_id();
        let t = self.catalog.table_mut(table);
        let natts = t.natts();
        if let Some(h) = t.heap.header_mut(tid) {
            h.natts = natts;
            h.len = len;
            h.cid = cid;
            if updated {
                h.infomask.set(h.infomask.get() | HEAP_UPDATED);
            }
        }
    }

    /// A version at `tid` just deleted or replaced: its `t_field3` becomes
    /// the deleting command's id, or a combo id for (cmin, cmax) when the
    /// same transaction inserted it (`HeapTupleHeaderAdjustCmax`).
    pub(in crate::pg) fn stamp_deleted(&mut self, table: usize, tid: Tid, keys_updated: bool) {
        let cmax = self.xact.command_id();
        let running = self.xact.current();
        let heap = &mut self.catalog.table_mut(table).heap;
        let xmin = heap.xids(tid).map(|(xmin, _)| xmin);
        let Some(cmin) = heap.header_mut(tid).map(|h| h.cid) else {
            return;
        };
        let combo = (xmin.is_some() && xmin == running).then(|| self.xact.combo(cmin, cmax));
        let heap = &mut self.catalog.table_mut(table).heap;
        if let Some(h) = heap.header_mut(tid) {
            h.keys_updated |= keys_updated;
            match combo {
                Some(id) => {
                    h.cid = id;
                    h.infomask.set(h.infomask.get() | HEAP_COMBOCID);
                }
                None => h.cid = cmax,
            }
        }
    }

    /// Whether an update from `old` to `new` changes a column of a unique
    /// key that a foreign key could reference (`INDEX_ATTR_BITMAP_KEY`: the
    /// key columns of unique indexes without expressions or a WHERE), which
    /// makes it lock the row as a delete would (`HEAP_KEYS_UPDATED`).
    pub(in crate::pg) fn changes_key(&self, table: usize, old: &[Value], new: &[Value]) -> bool {
        let t = self.catalog.table(table);
        t.indexes.iter().any(|&i| {
            let ix = self.catalog.index(i);
            let plain = ix.unique && ix.predicate.is_none() && ix.expressions.is_empty();
            plain
                && ix
                    .key
                    .iter()
                    .any(|&(c, _)| !super::same_datum(&old[c], &new[c]))
        })
    }
}
