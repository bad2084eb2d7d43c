//! The pg profile's writes for `INSERT … ON CONFLICT` (the statement itself
//! runs in [`crate::exec::on_conflict`]).
//!
//! As execIndexing.c's `ExecCheckIndexConstraints`: each arbiter index is
//! searched for the proposed key (a counted descent), and each entry found is
//! checked against the heap for a live row. A conflict-free row is inserted
//! as any INSERT row; DO UPDATE first locks the existing tuple (PostgreSQL's
//! `heap_lock_tuple` logs that) and then writes its new version exactly as
//! UPDATE does, HOT under the same rule.

use super::super::engine::PgEngine;
use super::super::held_page::HeldPage;
use super::super::tid::Tid;
use super::Row;
use crate::btree::Direction;
use crate::buffer_pool::Fork;
use crate::exec::on_conflict::{ConflictWrites, UniqueKey};
use crate::exec::row::{complete, TableShape};
use crate::sql::ast::ColumnDef;
use crate::sql::error::SqlError;
use crate::storage::{Access, PageAccess, PageNo};
use crate::value::Value;
use std::ops::Bound;

impl PgEngine {
    /// One buffer access to heap page `page` of `table`.
    fn touch_heap_page(&mut self, table: usize, page: PageNo, how: Access) -> Result<(), SqlError> {
        let rel = self.catalog.table(table).rel;
        let ((), stats) = self.io.rel(rel, Fork::Main, |io| io.access(page, how))?;
        self.count(rel, &stats);
        Ok(())
    }
}

impl ConflictWrites for PgEngine {
    type Loc = u64;

    fn tid(loc: &u64) -> u64 {
        *loc
    }

    fn column_defs(&self, table: usize) -> Vec<ColumnDef> {
        self.catalog.table(table).columns.clone()
    }

    fn shape(&self, table: usize) -> TableShape<'_> {
        self.catalog.table(table).shape()
    }

    fn unique_keys(&self, table: usize) -> Vec<UniqueKey> {
        self.catalog
            .table(table)
            .indexes
            .iter()
            .map(|&i| (i, self.catalog.index(i)))
            .filter(|(_, ix)| ix.unique)
            .map(|(i, ix)| UniqueKey {
                name: ix.name.to_string(),
                // A partial index is inferred only from a target with its
                // WHERE, which IndexLab does not read: no columns match it
                // (a bare DO NOTHING still checks it).
                columns: match ix.predicate {
                    Some(_) => Vec::new(),
                    None => ix.key.iter().map(|(c, _)| *c).collect(),
                },
                constraint: ix.constraint,
                deferrable: ix.deferrable.is_some(),
                index: Some(i),
            })
            .collect()
    }

    fn complete_row(
        &mut self,
        table: usize,
        defaults: &[Option<Value>],
        targets: &[usize],
        values: &[Value],
    ) -> Result<Row, SqlError> {
        let t = self.catalog.table_mut(table);
        let shape = TableShape {
            name: &t.name,
            columns: &t.columns,
            types: &t.types,
        };
        complete(shape, &mut t.sequences, defaults, targets, values)
    }

    fn find_conflict(
        &mut self,
        table: usize,
        arbiters: &[UniqueKey],
        row: &[Value],
    ) -> Result<Option<(u64, Row)>, SqlError> {
        let mut key = Vec::new();
        for a in arbiters {
            let Some(index) = a.index else { continue };
            let prepared = self.prepare_entry(index, row, &mut key)?;
            // A NULL in the key never equals anything, and a row outside a
            // partial index cannot conflict in it: no conflict.
            if prepared.null_key || prepared.skip || self.catalog.index(index).max_key.is_none() {
                continue;
            }
            let ix = self.catalog.index(index);
            let (irel, tree) = (ix.rel, &ix.tree);
            let (lo, hi, probe) = ix.equal_range(&key);
            let (tids, stats) = self.io.rel(irel, Fork::Main, |io| {
                let mut cursor = tree.seek(
                    Bound::Included(&lo[..]),
                    Bound::Included(&hi[..]),
                    Direction::Forward,
                    io,
                );
                cursor.drop_pins();
                let mut tids = Vec::new();
                while let Some(e) = cursor.next(tree, io) {
                    if probe.as_ref().is_none_or(|p| ix.holds_values(e.key, p)) {
                        tids.push(e.payload);
                    }
                }
                tids
            })?;
            self.count(irel, &stats);
            if tids.is_empty() {
                continue;
            }
            let t = self.catalog.table(table);
            let (rel, heap) = (t.rel, &t.heap);
            let running = self.xact.current();
            let (live, stats) = self.io.rel(rel, Fork::Main, |io| {
                let mut held = HeldPage::new();
                tids.iter().find_map(|&tid| {
                    let tid = Tid::from_u64(tid);
                    let found = heap
                        .fetch(tid, &mut held, io)
                        .map(|(t, r)| (t.to_u64(), r.clone()));
                    heap.check_chain(tid, running);
                    found
                })
            })?;
            self.count(rel, &stats);
            if live.is_some() {
                return Ok(live);
            }
        }
        Ok(None)
    }

    fn insert_new(&mut self, table: usize, row: Row) -> Result<u64, SqlError> {
        let tid = self.insert_row(table, row)?;
        // The insertion was speculative: heap_finish_speculative reads the
        // tuple's page again and logs its confirmation (XLOG_HEAP_CONFIRM).
        let page = Tid::from_u64(tid).page;
        self.touch_heap_page(table, page, Access::Write)?;
        self.log_heap(table, page, 0);
        Ok(tid)
    }

    fn update_existing(
        &mut self,
        table: usize,
        loc: &u64,
        old: &[Value],
        new: Row,
    ) -> Result<u64, SqlError> {
        // heap_lock_tuple reads the tuple's page and logs the lock
        // (XLOG_HEAP_LOCK) before the update.
        let page = Tid::from_u64(*loc).page;
        self.touch_heap_page(table, page, Access::Write)?;
        self.log_heap(table, page, 8);
        let hot = super::hot_allowed(&self.indexed_columns(table), old, &new);
        self.update_row(table, *loc, new, hot)
    }

    fn writes_done(&mut self, table: usize) {
        self.fsm_after_writes(table);
    }
}
