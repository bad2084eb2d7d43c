//! INSERT, UPDATE, DELETE and VACUUM on the PostgreSQL profile.
//!
//! As in PostgreSQL: INSERT writes a heap tuple then one entry per index; UPDATE
//! writes a new tuple version (and new entries in every index unless it is HOT);
//! DELETE only marks; VACUUM removes dead tuples, their index entries, and sets the
//! visibility map.

mod headers;
mod on_conflict;

use super::catalog::Row;
use super::engine::PgEngine;
use super::held_page::HeldPage;
use super::index_entry::Prepared;
use super::snapshot::fill3;
use super::tid::Tid;
use super::tuple::{heap_tuple_len_for_page, maxalign};
use crate::btree::Direction;
use crate::buffer_pool::Fork;
use crate::exec::dml_join;
use crate::exec::index_predicate::{row_in_index, IndexPredicate};
use crate::exec::returning::{finish, project, Returning};
use crate::exec::row::{check as check_row, check_constants, complete, TableShape};
use crate::exec::{Executor, QueryEngine};
use crate::profile::{Outcome, StatementError};
use crate::sql::ast::{Expr, FromItem, Select, SelectItem};
use crate::sql::error::{ErrorKind, SqlError};
use crate::sql::eval::coerce;
use crate::storage::{Access, NoAccounting, PageAccess, PageNo};
use crate::trace::Event;
use crate::value::Value;
use std::collections::HashSet;
use std::ops::Bound;

impl PgEngine {
    /// Reports a visibility-map page change on the table's VM fork.
    /// A change to heap page `heap_page` cleared its all-visible bit on VM
    /// page `vm_page` (if any): the VM page is written, and the trace says
    /// the heap page is no longer all-visible.
    fn vm_write(
        &mut self,
        table: usize,
        heap_page: PageNo,
        vm_page: Option<PageNo>,
    ) -> Result<(), SqlError> {
        let t = self.catalog.table(table);
        let Some(page) = vm_page else {
            return Ok(());
        };
        let relation = self.io.names[t.rel as usize].clone();
        self.io.trace.push(Event::VisibilityChange {
            relation,
            page: heap_page,
            all_visible: false,
        });
        if !t.vm_exists {
            return Ok(());
        }
        let rel = t.rel;
        let ((), stats) = self
            .io
            .rel(rel, Fork::Vm, |io| io.access(page, Access::Write))?;
        self.count(rel, &stats);
        Ok(())
    }

    /// WAL for a change of heap page `page` carrying `payload` bytes.
    pub(super) fn log_heap(&mut self, table: usize, page: PageNo, payload: u64) {
        let t = self.catalog.table(table);
        let page_size = u64::from(self.io.pool.page_size());
        self.wal.log(t.rel, page, payload, || {
            t.heap
                .page_info(page)
                .map_or(page_size, |p| u64::from(p.used_bytes))
        });
    }

    /// Adds the entry of `row` (at heap `tid`) to index `index`, checking
    /// uniqueness first for a unique index.
    pub(super) fn index_insert(
        &mut self,
        index: usize,
        row: &[Value],
        tid: u64,
    ) -> Result<(), SqlError> {
        // One key buffer for the whole statement: this runs once per row and index.
        let mut key = std::mem::take(&mut self.key_buf);
        let prepared = self.prepare_entry(index, row, &mut key);
        let r = prepared.and_then(|p| self.insert_entry(index, &key, p, tid));
        self.key_buf = key;
        r
    }

    /// Copies the INCLUDE values of the row at `tid` into the entry just
    /// inserted for it (see [`Index::included`]).
    fn keep_included(&mut self, index: usize, tid: u64) -> Result<(), SqlError> {
        let ix = self.catalog.index(index);
        if ix.include.is_empty() {
            return Ok(());
        }
        let heap = &self.catalog.table(ix.table).heap;
        let Some(row) = heap.indexed_row(Tid::from_u64(tid)) else {
            return Ok(());
        };
        let values = ix
            .include
            .iter()
            .map(|&c| ix.value_at(row, c))
            .collect::<Result<Vec<_>, _>>()?;
        self.catalog.index_mut(index).included.insert(tid, values);
        Ok(())
    }

    /// Encodes the index entry of `row` into `key` (before its heap tuple exists).
    fn prepare_entry(
        &self,
        index: usize,
        row: &[Value],
        key: &mut Vec<u8>,
    ) -> Result<Prepared, SqlError> {
        let ix = self.catalog.index(index);
        let size = ix.entry_of(row, key)?;
        Ok(Prepared {
            size,
            null_key: key_has_null(row, index, self),
            skip: !row_in_index(ix.predicate.as_ref(), row)?,
        })
    }

    /// Inserts a prepared entry pointing at heap `tid`.
    fn insert_entry(
        &mut self,
        index: usize,
        key: &[u8],
        p: Prepared,
        tid: u64,
    ) -> Result<(), SqlError> {
        if p.skip {
            return Ok(());
        }
        let ix = self.catalog.index(index);
        // A key above every key ever inserted cannot collide (the common case of a
        // serial primary key), so the probe is skipped, like nbtree's fastpath.
        // (Of a numeric key without a typmod, its lowest scale must be.)
        let above_all = ix.max_key.as_deref().is_none_or(|m| match ix.unique {
            true => ix.equal_range(key).0.as_slice() > m,
            false => key > m,
        });
        let deferrable = ix.deferrable.is_some();
        if ix.unique && !above_all && !p.null_key && !deferrable {
            self.check_unique(index, key)?;
        }
        let ix = self.catalog.index_mut(index);
        let (rel, tree) = (ix.rel, &mut ix.tree);
        let (outcome, stats) = self
            .io
            .rel(rel, Fork::Main, |io| tree.insert(key, tid, p.size, io))?;
        if above_all {
            let max = ix.max_key.get_or_insert_with(Vec::new);
            max.clear();
            max.extend_from_slice(key);
        }
        self.count(rel, &stats);
        let outcome = outcome?;
        self.keep_included(index, tid)?;
        if deferrable && !above_all && !p.null_key {
            self.queue_recheck(index, key, tid)?;
        }
        let ix = self.catalog.index(index);
        let page_size = u64::from(self.io.pool.page_size());
        self.wal.log(rel, outcome.leaf, u64::from(p.size), || {
            ix.tree
                .page_info(outcome.leaf)
                .map_or(page_size, |p| u64::from(p.used_bytes))
        });
        for s in &outcome.splits {
            // A split logs both halves whole (`xl_btree_split` carries the new page).
            self.wal.log(rel, s.right, page_size / 2, || 0);
        }
        let leaf_split = outcome.splits.first().filter(|s| s.level == 0);
        if let Some(s) = leaf_split {
            let ix = self.catalog.index_mut(index);
            let newitem = u32::from(p.size) + 4;
            let equal_keys = super::dedup_notice::would_deduplicate(ix, [s.left, s.right], newitem);
            if let Some(n) = equal_keys
                .then(|| super::dedup_notice::notice(ix))
                .flatten()
            {
                self.storage_notices.push(n);
            }
        }
        for s in &outcome.splits {
            let ix = self.catalog.index(index);
            // Fills after the insert: what the pages hold when the view draws them.
            let fill = |page: PageNo| {
                ix.tree.page_info(page).map_or(0.0, |p| {
                    fill3(f64::from(p.used_bytes) / f64::from(p.usable_bytes.max(1)))
                })
            };
            self.io.trace.push(Event::PageSplit {
                relation: self.io.names[ix.rel as usize].clone(),
                page: s.left,
                new_page: s.right,
                level: u32::from(s.level),
                root_split: s.new_root.is_some(),
                new_root: s.new_root,
                separator: ix.key_text(&s.separator),
                rightmost: s.rightmost,
                fillfactor: s.fillfactor,
                left_fill: fill(s.left),
                right_fill: fill(s.right),
                parent: s.parent,
                parent_fill: s.parent.map(fill),
            });
        }
        Ok(())
    }

    /// `_bt_check_unique`: any live row with an equal key is a violation. The probe
    /// of the index is not counted again (PostgreSQL does it on the leaf its insert
    /// descent already holds); the heap visits to check liveness are.
    fn check_unique(&mut self, index: usize, key: &[u8]) -> Result<(), SqlError> {
        let entries = self.equal_entries(index, key, false)?;
        if self.any_live(index, &entries, None)? {
            return Err(self.unique_violation(index, key));
        }
        Ok(())
    }

    /// The entries of `index` whose key is `key`: (leaf page, heap TID).
    /// `counted`: the descent is a probe of its own, its pages counted.
    pub(super) fn equal_entries(
        &mut self,
        index: usize,
        key: &[u8],
        counted: bool,
    ) -> Result<Vec<(Option<PageNo>, u64)>, SqlError> {
        let ix = self.catalog.index(index);
        let (irel, tree) = (ix.rel, &ix.tree);
        let (lo, hi, probe) = ix.equal_range(key);
        let collect = |io: &mut dyn PageAccess| {
            let mut cursor = tree.seek(
                Bound::Included(&lo[..]),
                Bound::Included(&hi[..]),
                Direction::Forward,
                io,
            );
            let mut entries = Vec::new();
            while let Some(e) = cursor.next(tree, io) {
                if probe.as_ref().is_none_or(|p| ix.holds_values(e.key, p)) {
                    entries.push((cursor.page(), e.payload));
                }
            }
            entries
        };
        if !counted {
            return Ok(collect(&mut NoAccounting));
        }
        let (entries, stats) = self.io.rel(irel, Fork::Main, |io| collect(io))?;
        self.count(irel, &stats);
        Ok(entries)
    }

    /// Whether a row that an entry among `entries` names (other than
    /// `except`, the row being rechecked) is live or being written: a dirty
    /// snapshot's test. Entries whose rows are dead to all get the LP_DEAD
    /// hint, as `_bt_check_unique` sets it on the conflicts it rules out;
    /// its heap visits set hint bits as any other.
    pub(super) fn any_live(
        &mut self,
        index: usize,
        entries: &[(Option<PageNo>, u64)],
        except: Option<u64>,
    ) -> Result<bool, SqlError> {
        if entries.is_empty() {
            return Ok(false);
        }
        let table = self.catalog.index(index).table;
        let t = self.catalog.table(table);
        let (rel, heap) = (t.rel, &t.heap);
        let running = self.xact.current();
        let mut kills = Vec::new();
        let (live, stats) = self.io.rel(rel, Fork::Main, |io| {
            let mut held = HeldPage::new();
            entries
                .iter()
                .filter(|(_, payload)| Some(*payload) != except)
                .any(|&(leaf, payload)| {
                    let tid = Tid::from_u64(payload);
                    let live = heap.fetch(tid, &mut held, io).is_some();
                    heap.check_chain(tid, running);
                    if !live && heap.dead_to_all(tid, running) {
                        kills.extend(leaf.map(|leaf| (leaf, payload)));
                    }
                    live
                })
        })?;
        self.count(rel, &stats);
        let tree = &mut self.catalog.index_mut(index).tree;
        for (leaf, payload) in kills {
            tree.kill(leaf, payload, None);
        }
        Ok(live)
    }

    /// `duplicate key value violates unique constraint`, with PostgreSQL's
    /// DETAIL naming the key when its columns are plain columns.
    pub(super) fn unique_violation(&self, index: usize, key: &[u8]) -> SqlError {
        let ix = self.catalog.index(index);
        let err: SqlError = StatementError::UniqueViolation {
            constraint: ix.name.clone(),
        }
        .into();
        if !ix.expressions.is_empty() {
            return err;
        }
        let columns = &self.catalog.table(ix.table).columns;
        let names: Vec<&str> = ix
            .key
            .iter()
            .map(|(c, _)| columns[*c].name.as_str())
            .collect();
        err.with_detail(format!(
            "Key ({})={} already exists.",
            names.join(", "),
            ix.key_text(key)
        ))
    }

    /// Inserts one full row: heap tuple, then every index entry. Keys are encoded
    /// first, so the row moves into the heap without a copy. Returns its TID.
    pub(super) fn insert_row(&mut self, table: usize, row: Row) -> Result<u64, SqlError> {
        let nindex = self.catalog.table(table).indexes.len();
        // Reused buffers (key bytes + sizes per index): nothing allocated per row.
        let mut keys = std::mem::take(&mut self.key_bufs);
        keys.resize_with(nindex.max(keys.len()), Default::default);
        for (k, (key, prepared)) in keys.iter_mut().enumerate().take(nindex) {
            let index = self.catalog.table(table).indexes[k];
            match self.prepare_entry(index, &row, key) {
                Ok(p) => *prepared = p,
                Err(e) => {
                    self.key_bufs = keys;
                    return Err(e);
                }
            }
        }
        let page_size = self.io.pool.page_size();
        let xid = self.xact.assign();
        let t = self.catalog.table_mut(table);
        let len = heap_tuple_len_for_page(&row, &t.size_types(), page_size);
        let size = aligned(len);
        let (rel, heap) = (t.rel, &mut t.heap);
        let (outcome, stats) = self
            .io
            .rel(rel, Fork::Main, |io| heap.insert(row, size, xid, io))?;
        self.count(rel, &stats);
        let outcome = outcome?;
        self.stamp_written(table, outcome.tid, len, false);
        self.catalog.table_mut(table).activity.pending.inserted += 1;
        self.log_heap(table, outcome.tid.page, u64::from(size));
        self.vm_write(table, outcome.tid.page, outcome.vm_cleared)?;
        let io = &mut self.io;
        io.trace.detail(|| Event::TupleInsert {
            relation: io.names[rel as usize].clone(),
            page: outcome.tid.page,
            offset: outcome.tid.offset,
        });
        let tid = outcome.tid.to_u64();
        let mut result = Ok(());
        for (k, (key, p)) in keys.iter().enumerate().take(nindex) {
            let index = self.catalog.table(table).indexes[k];
            result = self.insert_entry(index, key, *p, tid);
            if result.is_err() {
                break;
            }
        }
        self.key_bufs = keys;
        self.io.clock.advance_us(self.io.cost.cpu_row_us);
        result.map(|()| tid)
    }

    pub(super) fn insert(
        &mut self,
        table: &str,
        columns: Option<&[String]>,
        source: &Select,
        returning: &[SelectItem],
    ) -> Result<Outcome, SqlError> {
        let id = self.catalog.table_id(table)?;
        let targets: Vec<usize> = match columns {
            None => (0..self.catalog.table(id).columns.len()).collect(),
            Some(cols) => cols
                .iter()
                .map(|c| {
                    self.catalog
                        .table(id)
                        .columns
                        .iter()
                        .position(|d| &d.name == c)
                        .ok_or_else(|| {
                            SqlError::new(
                                ErrorKind::Semantic,
                                format!("column \"{c}\" of relation \"{table}\" does not exist"),
                            )
                        })
                })
                .collect::<Result<_, _>>()?,
        };
        let columns = self.catalog.table(id).columns.clone();
        let defaults = self.column_defaults(&columns)?;
        let volatile = self.volatile_defaults(&columns, &targets)?;
        let mut returning = Returning::bind(self, returning, id)?;
        let mut count = 0u64;
        self.produce(source, &mut |engine, values| {
            let row_defaults;
            let defaults = if volatile.is_empty() {
                &defaults
            } else {
                row_defaults = engine.row_defaults(&defaults, &volatile)?;
                &row_defaults
            };
            let t = engine.catalog.table_mut(id);
            let shape = TableShape {
                name: &t.name,
                columns: &t.columns,
                types: &t.types,
            };
            let row = complete(shape, &mut t.sequences, defaults, &targets, values)?;
            let returned = returning.is_some().then(|| row.clone());
            let tid = engine.insert_row(id, row)?;
            count += 1;
            if let Some(r) = returned {
                project(&mut returning, engine, &r, tid)?;
            }
            Ok(())
        })?;
        self.fsm_after_writes(id);
        Ok(finish(returning, format!("INSERT 0 {count}"), count))
    }

    pub(super) fn update(
        &mut self,
        table: &str,
        (alias, from): (Option<&str>, &[FromItem]),
        assignments: &[(String, Expr)],
        filter: Option<&Expr>,
        returning: &[SelectItem],
    ) -> Result<Outcome, SqlError> {
        let id = self.catalog.table_id(table)?;
        let join = dml_join::for_target(self, id, alias, from, filter)?;
        let filter = join.as_ref().map_or(filter, |j| j.target_filter());
        let scope = join
            .as_ref()
            .map_or_else(|| self.table_scope(id), |j| j.scope().clone());
        let mut returning = Returning::bind(self, returning, id)
            .map_err(|e| dml_join::returning_error(join.as_ref(), e))?;
        let sets = crate::exec::subplan::bind_sets(self, id, &scope, assignments)?;
        let planned = crate::exec::subplan::planned_sets(&sets);
        check_constants(self.catalog.table(id).shape(), &planned)?;
        let indexed = self.indexed_columns(id);
        let targets = self.scan_for_change(id, filter)?;
        let targets = self.in_heap_order(id, targets);
        let targets = dml_join::matched(join.as_ref(), self, targets)?;
        for (tid, old, input) in &targets {
            let mut row = old.clone();
            for (c, e) in &sets {
                let v = crate::exec::subplan::set_value(self, &scope, input, e)?;
                row[*c] = coerce(v, self.catalog.table(id).types[*c])?;
            }
            crate::exec::generated_column::fill(self.catalog.table(id).shape(), &mut row)?;
            check_row(self.catalog.table(id).shape(), &row)?;
            let returned = returning.is_some().then(|| row.clone());
            let hot_allowed = hot_allowed(&indexed, old, &row);
            let new_tid = self.update_row(id, *tid, row, hot_allowed)?;
            if let Some(r) = returned {
                project(&mut returning, self, &r, new_tid)?;
            }
        }
        let n = targets.len() as u64;
        self.fsm_after_writes(id);
        Ok(finish(returning, format!("UPDATE {n}"), n))
    }

    /// Writes `row` as the new version of the tuple at `tid` (and, unless
    /// HOT, its index entries); returns the new version's TID.
    fn update_row(
        &mut self,
        id: usize,
        tid: u64,
        row: Row,
        hot_allowed: bool,
    ) -> Result<u64, SqlError> {
        let page_size = self.io.pool.page_size();
        let xid = self.xact.assign();
        let old = self.catalog.table(id).heap.get(Tid::from_u64(tid));
        let keys_updated = old.is_some_and(|old| self.changes_key(id, old, &row));
        let t = self.catalog.table_mut(id);
        let len = heap_tuple_len_for_page(&row, &t.size_types(), page_size);
        let size = aligned(len);
        let (rel, heap) = (t.rel, &mut t.heap);
        let new_row = row.clone();
        let (out, stats) = self.io.rel(rel, Fork::Main, |io| {
            heap.update(Tid::from_u64(tid), row, size, hot_allowed, xid, io)
        })?;
        self.count(rel, &stats);
        let out = out?;
        self.stamp_written(id, out.new_tid, len, true);
        self.stamp_deleted(id, out.old_tid, keys_updated);
        let pending = &mut self.catalog.table_mut(id).activity.pending;
        pending.updated += 1;
        pending.hot_updated += out.hot as i64;
        self.log_heap(id, out.old_tid.page, 8);
        if !out.same_page {
            self.log_heap(id, out.new_tid.page, u64::from(size));
        }
        let [old_vm, new_vm] = out.vm_cleared;
        self.vm_write(id, out.old_tid.page, old_vm)?;
        self.vm_write(id, out.new_tid.page, new_vm)?;
        if !out.hot {
            for i in self.catalog.table(id).indexes.clone() {
                self.index_insert(i, &new_row, out.new_tid.to_u64())?;
            }
        }
        self.io.clock.advance_us(self.io.cost.cpu_row_us);
        Ok(out.new_tid.to_u64())
    }

    pub(super) fn delete(
        &mut self,
        table: &str,
        (alias, using): (Option<&str>, &[FromItem]),
        filter: Option<&Expr>,
        returning: &[SelectItem],
    ) -> Result<Outcome, SqlError> {
        let id = self.catalog.table_id(table)?;
        let join = dml_join::for_target(self, id, alias, using, filter)?;
        let filter = join.as_ref().map_or(filter, |j| j.target_filter());
        let mut returning = Returning::bind(self, returning, id)
            .map_err(|e| dml_join::returning_error(join.as_ref(), e))?;
        let targets = self.scan_for_change(id, filter)?;
        let targets = dml_join::matched(join.as_ref(), self, targets)?;
        for (tid, old, _) in &targets {
            let xid = self.xact.assign();
            let t = self.catalog.table_mut(id);
            let (rel, heap) = (t.rel, &mut t.heap);
            let (out, stats) = self.io.rel(rel, Fork::Main, |io| {
                heap.delete(Tid::from_u64(*tid), xid, io)
            })?;
            self.count(rel, &stats);
            let out = out?;
            self.stamp_deleted(id, out.tid, true);
            self.catalog.table_mut(id).activity.pending.deleted += 1;
            self.log_heap(id, out.tid.page, 8);
            self.vm_write(id, out.tid.page, out.vm_cleared)?;
            self.io.clock.advance_us(self.io.cost.cpu_row_us);
            project(&mut returning, self, old, *tid)?;
        }
        let n = targets.len() as u64;
        Ok(finish(returning, format!("DELETE {n}"), n))
    }

    /// The rows an UPDATE found through an index, put in heap order (of
    /// their HOT chains' roots, as index entries name them). PostgreSQL reads
    /// such rows with a Bitmap Heap Scan (or a Seq Scan) unless the index's
    /// order matches the heap's anyway, and the order the rows change in
    /// decides where their new versions go. IndexLab's rule-based planner
    /// picks an Index Scan here, and its EXPLAIN says so: only the order of
    /// the changes follows PostgreSQL's plans until the planner costs them.
    fn in_heap_order(&self, id: usize, mut targets: Vec<(u64, Row)>) -> Vec<(u64, Row)> {
        let via_index = self
            .dml_source
            .as_ref()
            .is_some_and(|n| n.title.starts_with("Index"));
        if via_index {
            let heap = &self.catalog.table(id).heap;
            targets.sort_by_key(|(tid, _)| heap.root_of(Tid::from_u64(*tid)).to_u64());
        }
        targets
    }

    /// The columns an UPDATE must leave alone to be HOT: every index's
    /// stored columns, and the columns a partial index's WHERE reads
    /// (`RelationGetIndexAttrBitmap`), since the new version may belong in
    /// an index the old one was not in.
    pub(super) fn indexed_columns(&self, table: usize) -> HashSet<usize> {
        let t = self.catalog.table(table);
        t.indexes
            .iter()
            .flat_map(|&i| {
                let ix = self.catalog.index(i);
                let mut cols: Vec<usize> =
                    ix.stored_columns().flat_map(|c| ix.columns_at(c)).collect();
                cols.extend(ix.predicate.iter().flat_map(|p| p.columns()));
                cols
            })
            .collect()
    }

    /// VACUUM: prune the heap, remove index entries of dead tuples, finish the heap
    /// pass (line pointers freed, visibility map set).
    /// The tables named (all checked first), or every table when none is.
    pub(super) fn tables_named(&self, names: &[String]) -> Result<Vec<usize>, SqlError> {
        crate::exec::utility::tables_named(self, names, || {
            (0..self.catalog.tables.len())
                .filter(|i| self.catalog.tables[*i].is_some())
                .collect()
        })
    }

    /// `VACUUM [(ANALYZE, FREEZE, VERBOSE)] [table, …]`.
    pub(super) fn vacuum(&mut self, v: &crate::sql::ast::Vacuum) -> Result<Outcome, SqlError> {
        let ids = self.tables_named(&v.tables)?;
        if v.full {
            // FULL freezes whatever it copies, FREEZE or not.
            self.vacuum_full(&ids)?;
        } else {
            for &id in &ids {
                self.vacuum_table(id, v.freeze)?;
            }
        }
        let mut out = Outcome::tag("VACUUM");
        if v.verbose {
            out.notices.push(
                "VACUUM VERBOSE's report is not printed by IndexLab; the counters show what it did"
                    .into(),
            );
        }
        if v.analyze {
            crate::exec::utility::analyze(self, &ids)?;
        }
        Ok(out)
    }

    /// An insert that found its page full recorded that page in the free
    /// space map, creating the fork as far as it.
    fn fsm_after_writes(&mut self, id: usize) {
        let page_size = self.io.pool.page_size();
        let t = self.catalog.table_mut(id);
        let pages = t.heap.page_count();
        if pages >= 2 {
            t.fsm_blocks = t.fsm_blocks.max(super::free_space_fork::blocks_to_cover(
                pages - 2,
                page_size,
            ));
        }
    }

    fn vacuum_table(&mut self, id: usize, freeze: bool) -> Result<(), SqlError> {
        let page_size = self.io.pool.page_size();
        let t = self.catalog.table_mut(id);
        t.vm_exists = true;
        // VACUUM records every page it scans in the free space map.
        if let Some(last) = t.heap.page_count().checked_sub(1) {
            t.fsm_blocks = t
                .fsm_blocks
                .max(super::free_space_fork::blocks_to_cover(last, page_size));
        }
        let (rel, name, heap) = (t.rel, self.io.names[t.rel as usize].clone(), &mut t.heap);
        let (prune, stats) = self.io.rel(rel, Fork::Main, |io| heap.vacuum_prune(io))?;
        self.count(rel, &stats);
        self.vm_accesses(rel, &prune.vm_accesses)?;
        let dead: HashSet<u64> = prune.dead_tids.iter().map(|t| t.to_u64()).collect();
        for i in self.catalog.table(id).indexes.clone() {
            let ix = self.catalog.index_mut(i);
            let (irel, tree) = (ix.rel, &mut ix.tree);
            let (_, stats) = self.io.rel(irel, Fork::Main, |io| {
                tree.bulk_delete(|_, payload| dead.contains(&payload), io)
            })?;
            self.count(irel, &stats);
        }
        let removed_entries = !prune.dead_tids.is_empty();
        let heap = &mut self.catalog.table_mut(id).heap;
        let (report, stats) = self
            .io
            .rel(rel, Fork::Main, |io| heap.vacuum_finish(prune, io))?;
        self.count(rel, &stats);
        self.vacuum_update_stats(id, &report, removed_entries);
        self.vm_accesses(rel, &report.vm_accesses)?;
        for p in 0..self.catalog.table(id).heap.page_count() {
            if self
                .catalog
                .table(id)
                .heap
                .visibility_map()
                .is_all_visible(p)
            {
                self.io.trace.push(Event::VisibilityChange {
                    relation: name.clone(),
                    page: p,
                    all_visible: true,
                });
            }
        }
        // Truncated empty pages at the end leave the map too.
        let t = self.catalog.table_mut(id);
        if freeze {
            t.heap.freeze_all();
        }
        if t.fsm_blocks > 0 {
            let kept =
                super::free_space_fork::blocks_after_truncation(t.heap.page_count(), page_size);
            t.fsm_blocks = t.fsm_blocks.min(kept);
        }
        Ok(())
    }

    /// What VACUUM writes in pg_class (`heap_vacuum_rel`): the table's pages
    /// after truncation, its live tuples (estimated for the pages it skipped),
    /// its all-visible pages; an index only when VACUUM removed entries from
    /// it (`btvacuumcleanup` skips an index no entry left, and its figures stay).
    fn vacuum_update_stats(
        &mut self,
        id: usize,
        report: &super::heap::VacuumReport,
        removed_entries: bool,
    ) {
        let t = self.catalog.table_mut(id);
        let total = report.truncated.map_or(report.pages, |tr| tr.from_pages);
        let tuples = t
            .stats
            .vacuum_estimate(total, report.pages_scanned, report.live_scanned);
        let visible = t
            .heap
            .visibility_map()
            .all_visible_count()
            .min(report.pages);
        t.stats = super::relation_stats::RelStats {
            pages: report.pages,
            tuples: tuples as f32,
            all_visible: visible,
        };
        t.activity
            .vacuumed(tuples as i64, self.io.clock.timestamp());
        t.has_index = !t.indexes.is_empty();
        if !removed_entries {
            return;
        }
        for i in self.catalog.table(id).indexes.clone() {
            let ix = self.catalog.index_mut(i);
            ix.stats = super::relation_stats::RelStats {
                pages: ix.pages(),
                tuples: ix.tree.len() as f32,
                all_visible: 0,
            };
        }
    }

    /// What ANALYZE writes in pg_class (`do_analyze_rel`): the table's pages,
    /// live rows and all-visible pages; its indexes' pages, with the table's
    /// rows as their tuples (PostgreSQL 15 writes them even after VACUUM
    /// ANALYZE's VACUUM counted the index's own entries).
    pub(super) fn analyze_update_stats(&mut self, id: usize, live_rows: u64) {
        let now = self.io.clock.timestamp();
        let t = self.catalog.table_mut(id);
        // ANALYZE samples with its own scan type, which pgstat does not
        // count; the shared row reader counted a sequential scan: take it back.
        t.activity.pending.seq_scan -= 1;
        t.activity.pending.seq_tup_read -= live_rows as i64;
        let dead = (0..t.heap.page_count())
            .filter_map(|p| t.heap.page_info(p))
            .map(|p| i64::from(p.dead + p.dead_pointers))
            .sum();
        t.activity.analyzed(live_rows as i64, dead, now);
        t.stats = super::relation_stats::RelStats {
            pages: t.heap.page_count(),
            tuples: live_rows as f32,
            all_visible: t.heap.visibility_map().all_visible_count(),
        };
        t.has_index = !t.indexes.is_empty();
        for i in self.catalog.table(id).indexes.clone() {
            let tuples = match &self.catalog.index(i).predicate {
                None => live_rows,
                Some(p) => self.rows_matching(id, p),
            };
            let ix = self.catalog.index_mut(i);
            ix.stats = super::relation_stats::RelStats {
                pages: ix.pages(),
                tuples: tuples as f32,
                all_visible: 0,
            };
        }
    }

    /// How many live rows of table `id` a partial index's WHERE holds for:
    /// ANALYZE's `tupleFract` of the table's rows, with every row sampled.
    /// The rows were just read by ANALYZE, so they are not counted again.
    fn rows_matching(&self, id: usize, p: &IndexPredicate) -> u64 {
        let heap = &self.catalog.table(id).heap;
        heap.scan(&mut NoAccounting)
            .filter(|(_, row)| p.holds(row).unwrap_or(false))
            .count() as u64
    }

    fn vm_accesses(&mut self, rel: u32, accesses: &[(PageNo, Access)]) -> Result<(), SqlError> {
        let ((), stats) = self.io.rel(rel, Fork::Vm, |io| {
            for (p, how) in accesses {
                io.access(*p, *how);
            }
        })?;
        self.count(rel, &stats);
        Ok(())
    }
}

/// Whether the new version `new` of `old` may be HOT: heap_update compares
/// each column an index stores (HeapDetermineModifiedColumns), so a SET
/// that leaves an indexed column's value as it was (`SET c = c`, DO UPDATE
/// `SET c = excluded.c` with the same value) does not block HOT.
pub(super) fn hot_allowed(indexed: &HashSet<usize>, old: &[Value], new: &[Value]) -> bool {
    indexed.iter().all(|&c| same_datum(&old[c], &new[c]))
}

fn key_has_null(row: &[Value], index: usize, engine: &PgEngine) -> bool {
    let ix = engine.catalog.index(index);
    ix.key
        .iter()
        .any(|(c, _)| ix.value_at(row, *c).map_or(true, |v| v.is_null()))
}

/// `heap_attr_equals`: the same stored bytes (two NULLs are equal; a float
/// compares by its bits, so -0 and 0 differ as they do on disk).
fn same_datum(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Float(x), Value::Float(y)) => x.to_bits() == y.to_bits(),
        (Value::Real(x), Value::Real(y)) => x.to_bits() == y.to_bits(),
        // 1.5 and 1.50 are equal numerics stored in different bytes.
        (Value::Numeric(x), Value::Numeric(y)) => x == y && x.scale() == y.scale(),
        _ => a == b,
    }
}

/// The MAXALIGN'd size a tuple of `len` bytes takes on a page.
fn aligned(len: u16) -> u16 {
    u16::try_from(maxalign(u32::from(len))).unwrap_or(u16::MAX)
}
