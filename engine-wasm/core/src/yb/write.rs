//! INSERT, UPDATE and DELETE on the yb profile, as DocDB writes them.
//!
//! Every write is a new RocksDB entry keyed by document key + hybrid time: a
//! packed row (or, with `yb_enable_packed_row=off`, a liveness entry plus one entry
//! per column), a tombstone for a delete. Before writing, DocDB looks at the key:
//! one seek for conflict detection; an INSERT (a table row, or a unique index
//! entry) also reads the key to refuse a duplicate — a seek to the document and a
//! seek to its latest version. A non-unique index entry is a blind upsert. So a
//! row insert costs 3 seeks on the table, 3 on each unique index and 1 on each
//! non-unique index (article 004).

mod on_conflict;

use super::doc_key::{push_hybrid_time, push_suffix, COLUMN, LIVENESS};
use super::engine::{add_reads, rel_entry, tablet_entry, BufferPair, WriteBuffers, YbEngine};
use super::network::read_time_us;
use super::packing::{live_row, LIVENESS_VALUE, TOMBSTONE};
use crate::exec::dml_join;
use crate::exec::index_predicate::row_in_index;
use crate::exec::returning::{finish, project, Returning};
use crate::exec::row::{check as check_row, check_constants, complete, TableShape};
use crate::exec::{Executor, QueryEngine, Row};
use crate::profile::{Outcome, StatementError};
use crate::sql::ast::{Expr, FromItem, Select, SelectItem};
use crate::sql::error::{ErrorKind, SqlError};
use crate::sql::eval::coerce;
use crate::value::Value;

/// An entry to write: subkey (empty for a packed row) and value.
type Entry<'e> = (&'e [u8], &'e [u8]);

fn exec_error(e: impl std::fmt::Display) -> SqlError {
    SqlError::new(ErrorKind::Execution, e.to_string())
}

/// How a write treats an existing document.
#[derive(Clone, Copy, PartialEq)]
pub(super) enum WriteKind {
    /// Must not exist yet (table rows, unique index entries).
    Insert,
    /// Blind write (non-unique index entries, updates, tombstones).
    Upsert,
}

impl YbEngine {
    /// Does this statement's write span tablets (a distributed transaction)? Then
    /// DocDB applies it from intents and each value carries the intent's hybrid
    /// time in front.
    fn transactional(&self, table: usize) -> bool {
        let t = self.catalog.table(table);
        !t.indexes.is_empty() || t.tablets.ids.len() > 1
    }

    /// Looks at document `doc` in `tablet` before writing it; returns whether a
    /// live version exists (only read for [`WriteKind::Insert`]).
    fn probe(&mut self, tablet: usize, doc: &[u8], kind: WriteKind) -> bool {
        // The engine's fields one by one: the iterator borrows the tablet and
        // its server's cache while its counters go to the statement's, read
        // where the iterator keeps them (a copy of them out of it would be two
        // copies of a few hundred bytes, twice a row).
        let YbEngine {
            tablets,
            caches,
            write_bufs,
            per_tablet,
            stats,
            clock,
            cost,
            ..
        } = self;
        let t = &tablets[tablet];
        let (rel, tserver) = (t.rel, t.tserver);
        let opts = &mut write_bufs.probe;
        let bloom = opts.bloom_filter_key.get_or_insert_with(Vec::new);
        bloom.clear();
        bloom.extend_from_slice(doc);
        let exists = t.lsm.with_iter(&mut caches[tserver], opts, |it| {
            // Conflict detection.
            it.seek(doc);
            let mut exists = false;
            if kind == WriteKind::Insert {
                // Point read: the document, then its latest version. The seek
                // lands on the next document when this one is new: its entry's
                // prefix tells it apart, and its key bytes are not read.
                let found = it.seek(doc)
                    && it.key_starts_with(doc)
                    && super::doc_key::doc_key_of(it.key()) == doc;
                it.seek(doc);
                exists = found && live_row(it.value());
                if found && !exists {
                    exists = written_after_tombstone(it, doc);
                }
            }
            let read = it.stats();
            add_reads(tablet_entry(per_tablet, tablet), read);
            clock.advance_us(read_time_us(cost, read));
            rel_entry(stats, rel).read.merge(read);
            exists
        });
        // The existence check reads blocks: the cache may have filled.
        self.note_cache(tserver);
        exists
    }

    /// Writes `entries` (suffix-less subkey, value) of document `doc`.
    fn put_doc(
        &mut self,
        tablet: usize,
        doc: &[u8],
        entries: &[Entry],
        txn: bool,
    ) -> Result<(), SqlError> {
        self.with_buffers(
            |b| &mut b.entry,
            |engine, (key, value)| engine.put_entries(tablet, doc, entries, txn, key, value),
        )?;
        let n = entries.len() as u64;
        let replicas = self.write_settings.replicas;
        let rel = self.tablets[tablet].rel;
        self.rel_stats(rel).inserts += n * replicas;
        self.count_inserts(tablet, n);
        let size: usize = entries
            .iter()
            .map(|(k, v)| doc.len() + k.len() + v.len())
            .sum();
        match self.written.iter_mut().find(|(t, ..)| *t == tablet) {
            Some((_, ops, bytes)) => {
                *ops += 1;
                *bytes += size as u64;
            }
            None => self.written.push((tablet, 1, size as u64)),
        }
        self.clock.advance_us(self.cost.cpu_row_us * n as f64);
        Ok(())
    }

    /// The document key of a table row (its primary key, or a new ybctid).
    pub(super) fn base_key(&mut self, table: usize, row: &[Value]) -> Result<Vec<u8>, SqlError> {
        let mut key = Vec::with_capacity(32);
        self.base_key_into(table, row, &mut key)?;
        Ok(key)
    }

    /// [`base_key`](Self::base_key) into a buffer.
    fn base_key_into(
        &self,
        table: usize,
        row: &[Value],
        key: &mut Vec<u8>,
    ) -> Result<(), SqlError> {
        match &self.catalog.table(table).key {
            Some(spec) => spec.encode(row, key),
            None => Err(exec_error("a row without primary key has no key to derive")),
        }
    }

    /// A generated ybctid for a row of a table without primary key.
    fn new_ybctid(&mut self, table: usize) -> Vec<u8> {
        let t = self.catalog.table_mut(table);
        t.next_ybctid += 1;
        let id = t.next_ybctid;
        let uuid = self.rng.next_u64() ^ id.rotate_left(32);
        let mut key = Vec::with_capacity(16);
        super::doc_key::doc_key(
            &[Value::Int(uuid as i64)],
            &[crate::btree::KeyColumn::asc(crate::value::SqlType::Int8)],
            &[],
            &[],
            &mut key,
        )
        .expect("an int8 always encodes");
        key
    }

    /// Puts each entry into the tablet's LSM, keyed by `doc`, the subkey and a
    /// new hybrid time (built in `key` and `value`).
    fn put_entries(
        &mut self,
        tablet: usize,
        doc: &[u8],
        entries: &[Entry],
        txn: bool,
        key: &mut Vec<u8>,
        value: &mut Vec<u8>,
    ) -> Result<(), SqlError> {
        for &(subkey, payload) in entries {
            let ht = self.next_ht();
            key.clear();
            key.extend_from_slice(doc);
            push_suffix(key, subkey, ht);
            value.clear();
            if txn {
                push_hybrid_time(value, ht);
            }
            value.extend_from_slice(payload);
            let result = self.tablets[tablet].lsm.put(key, value);
            if let Ok(seq) = result {
                self.provisional.record(tablet, seq);
            }
            let (rel, bytes) = (self.tablets[tablet].rel, (key.len() + value.len()) as u64);
            let charged = self.tablets[tablet].lsm.last_charge();
            self.trace.detail(|| crate::trace::Event::MemtableInsert {
                relation: self.names[rel].clone(),
                tablet: tablet as u32,
                bytes,
                charged,
            });
            if self.tablets[tablet].lsm.has_events() {
                self.drain_tablet(tablet);
            }
            result?;
        }
        Ok(())
    }

    /// Runs `f` with a pair of the write buffers lent out of `self` (so `f` may
    /// use `self` mutably), then puts them back for the next row.
    fn with_buffers<R>(
        &mut self,
        pair: fn(&mut WriteBuffers) -> &mut BufferPair,
        f: impl FnOnce(&mut Self, &mut BufferPair) -> R,
    ) -> R {
        let mut buffers = std::mem::take(pair(&mut self.write_bufs));
        let result = f(self, &mut buffers);
        *pair(&mut self.write_bufs) = buffers;
        result
    }

    /// Writes one table row (and its index entries), refusing a duplicate key.
    /// Its key and value are built in buffers kept between rows.
    pub(super) fn insert_row(&mut self, table: usize, row: &Row) -> Result<(), SqlError> {
        self.with_buffers(
            |b| &mut b.row,
            |engine, (doc, packed)| engine.insert_row_into(table, row, doc, packed),
        )
    }

    fn insert_row_into(
        &mut self,
        table: usize,
        row: &Row,
        doc: &mut Vec<u8>,
        packed: &mut Vec<u8>,
    ) -> Result<(), SqlError> {
        if self.catalog.table(table).key.is_some() {
            self.base_key_into(table, row, doc)?;
        } else {
            *doc = self.new_ybctid(table);
        }
        let tablet = self.catalog.table(table).tablets.for_key(doc);
        if self.probe(tablet, doc, WriteKind::Insert) {
            return Err(StatementError::UniqueViolation {
                constraint: self.catalog.table(table).pk_name.clone(),
            }
            .into());
        }
        let txn = self.transactional(table);
        self.put_row(table, tablet, doc, row, RowWrite::new(txn), packed)?;
        for k in 0..self.catalog.table(table).indexes.len() {
            let i = self.catalog.table(table).indexes[k];
            if self.in_index(i, row)? {
                self.write_index_entry(i, row, doc, RowWrite::new(txn))?;
            }
        }
        Ok(())
    }

    /// Writes a row's entries: one packed value (built in `packed`), or a
    /// liveness entry and one per column. A new row leaves its NULL columns
    /// out; a `replacing` write (UPDATE) gives each a tombstone, or the
    /// column's older value would still be read.
    fn put_row(
        &mut self,
        table: usize,
        tablet: usize,
        doc: &[u8],
        row: &[Value],
        write: RowWrite,
        packed: &mut Vec<u8>,
    ) -> Result<(), SqlError> {
        let t = self.catalog.table(table);
        let packing = t.packing();
        let txn = write.txn;
        if self.write_settings.packed_rows {
            packing.pack_into(row, packed)?;
            return self.put_doc(tablet, doc, &[(&[], packed)], txn);
        }
        let mut owned = vec![(vec![LIVENESS, 0], vec![LIVENESS_VALUE])];
        for (c, v) in packing.columns_of(row) {
            let id = t.column_ids[c];
            if !v.is_null() {
                owned.push((vec![COLUMN, id], packing.column_value(c, v)?));
            } else if write.replacing || !t.missing[c].is_null() {
                // A NULL written over a value (or over the default a row
                // from before ADD COLUMN reads) needs its tombstone.
                owned.push((vec![COLUMN, id], vec![TOMBSTONE]));
            }
        }
        let entries: Vec<Entry> = owned.iter().map(|(k, v)| (&k[..], &v[..])).collect();
        self.put_doc(tablet, doc, &entries, txn)
    }

    /// Writes the entry of `row` (at base key `base`) into index `index`, built
    /// in buffers kept between rows. A `replacing` write rewrites the row's
    /// own entry (same key, new INCLUDE values): a unique index has nothing
    /// to check.
    pub(super) fn write_index_entry(
        &mut self,
        index: usize,
        row: &[Value],
        base: &[u8],
        write: RowWrite,
    ) -> Result<(), SqlError> {
        self.with_buffers(
            |b| &mut b.index,
            |engine, (doc, payload)| {
                engine.write_index_entry_into(index, row, base, write, doc, payload)
            },
        )
    }

    fn write_index_entry_into(
        &mut self,
        index: usize,
        row: &[Value],
        base: &[u8],
        write: RowWrite,
        doc: &mut Vec<u8>,
        payload: &mut Vec<u8>,
    ) -> Result<(), SqlError> {
        let ix = self.catalog.index(index);
        ix.entry(row, base, doc, payload)?;
        let (unique, tablet) = (ix.unique && !write.replacing, ix.tablets.for_key(doc));
        let kind = if unique {
            WriteKind::Insert
        } else {
            WriteKind::Upsert
        };
        let has_null = ix
            .key
            .iter()
            .any(|(c, _, _)| ix.value_at(row, *c).map_or(true, |v| v.is_null()));
        if self.probe(tablet, doc, kind) && !has_null {
            let name = self.catalog.index(index).name.clone();
            return Err(StatementError::UniqueViolation { constraint: name }.into());
        }
        self.put_doc(tablet, doc, &[(&[], payload)], write.txn)
    }

    /// A tombstone for document `doc` (and one probe for conflicts).
    fn tombstone(&mut self, tablet: usize, doc: &[u8]) -> Result<(), SqlError> {
        self.probe(tablet, doc, WriteKind::Upsert);
        self.put_doc(tablet, doc, &[(&[], &[TOMBSTONE])], true)
    }

    fn index_doc(
        &self,
        index: usize,
        row: &[Value],
        base: &[u8],
    ) -> Result<(usize, Vec<u8>), SqlError> {
        let ix = self.catalog.index(index);
        let mut doc = Vec::new();
        ix.entry(row, base, &mut doc, &mut Vec::new())?;
        Ok((ix.tablets.for_key(&doc), doc))
    }

    pub(super) fn insert(
        &mut self,
        table: &str,
        columns: Option<&[String]>,
        source: &Select,
        returning: &[SelectItem],
    ) -> Result<Outcome, SqlError> {
        let id = self.catalog.table_id(table)?;
        let targets = super::row::targets(self.catalog.table(id), columns)?;
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
            engine.insert_row(id, &row)?;
            count += 1;
            project(&mut returning, engine, &row, 0)
        })?;
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
        let targets = self.rows_for_change(id, filter)?;
        let targets = dml_join::matched(join.as_ref(), self, targets)?;
        for (base, old, input) in &targets {
            let mut row = old.to_vec();
            for (c, e) in &sets {
                let v = crate::exec::subplan::set_value(self, &scope, input, e)?;
                row[*c] = coerce(v, self.catalog.table(id).types[*c])?;
            }
            crate::exec::generated_column::fill(self.catalog.table(id).shape(), &mut row)?;
            check_row(self.catalog.table(id).shape(), &row)?;
            let row = Row::from_vec(row);
            self.update_row(id, base, old, &row)?;
            project(&mut returning, self, &row, 0)?;
        }
        let n = targets.len() as u64;
        Ok(finish(returning, format!("UPDATE {n}"), n))
    }

    /// Writes `row` over the row `old` at document `base`; returns the
    /// document the row now has (a new one when its primary key changed).
    fn update_row(
        &mut self,
        id: usize,
        base: &[u8],
        old: &[Value],
        row: &Row,
    ) -> Result<Vec<u8>, SqlError> {
        let txn = self.transactional(id);
        let key_changed = self.catalog.table(id).key.is_some() && self.base_key(id, row)? != *base;
        if key_changed {
            // A new primary key is a new document: YugabyteDB deletes the
            // row and inserts it under its new key (checking that key).
            self.delete_row(id, base, old)?;
            self.insert_row(id, row)?;
            return self.base_key(id, row);
        }
        let tablet = self.catalog.table(id).tablets.for_key(base);
        self.probe(tablet, base, WriteKind::Upsert);
        self.put_row(
            id,
            tablet,
            base,
            row,
            RowWrite::replacing(txn),
            &mut Vec::new(),
        )?;
        for i in self.catalog.table(id).indexes.clone() {
            let (old_tablet, old_doc) = self.index_doc(i, old, base)?;
            let (_, new_doc) = self.index_doc(i, row, base)?;
            // A partial index: the row may enter or leave it.
            match (self.in_index(i, old)?, self.in_index(i, row)?) {
                (false, false) => continue,
                (true, false) => {
                    self.tombstone(old_tablet, &old_doc)?;
                    continue;
                }
                (false, true) => {
                    self.write_index_entry(i, row, base, RowWrite::new(txn))?;
                    continue;
                }
                (true, true) => {}
            }
            if old_doc != new_doc {
                self.tombstone(old_tablet, &old_doc)?;
                self.write_index_entry(i, row, base, RowWrite::new(txn))?;
            } else if self
                .catalog
                .index(i)
                .include
                .iter()
                .any(|&c| old[c] != row[c])
            {
                // Same key, new INCLUDE values: the entry is written again
                // (an upsert of its document), or an index-only scan would
                // read the old values.
                self.write_index_entry(i, row, base, RowWrite::replacing(txn))?;
            }
        }
        Ok(base.to_vec())
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
        let targets = self.rows_for_change(id, filter)?;
        let targets = dml_join::matched(join.as_ref(), self, targets)?;
        for (base, row, _) in &targets {
            self.delete_row(id, base, row)?;
            project(&mut returning, self, row, 0)?;
        }
        let n = targets.len() as u64;
        Ok(finish(returning, format!("DELETE {n}"), n))
    }

    /// Tombstones for a row's document and each of its index entries.
    fn delete_row(&mut self, id: usize, base: &[u8], row: &[Value]) -> Result<(), SqlError> {
        let tablet = self.catalog.table(id).tablets.for_key(base);
        self.tombstone(tablet, base)?;
        for i in self.catalog.table(id).indexes.clone() {
            if !self.in_index(i, row)? {
                continue;
            }
            let (t, doc) = self.index_doc(i, row, base)?;
            self.tombstone(t, &doc)?;
        }
        Ok(())
    }

    /// Whether `row` has an entry in index `index` (a partial index holds
    /// only the rows its WHERE is true for).
    fn in_index(&self, index: usize, row: &[Value]) -> Result<bool, SqlError> {
        row_in_index(self.catalog.index(index).predicate.as_ref(), row)
    }
}

/// How a row (or its index entry) is written: in a transaction (intents
/// first), and whether it replaces what the row had written before.
#[derive(Debug, Clone, Copy)]
pub(super) struct RowWrite {
    txn: bool,
    replacing: bool,
}

impl RowWrite {
    /// A new row's write.
    pub(super) fn new(txn: bool) -> RowWrite {
        RowWrite {
            txn,
            replacing: false,
        }
    }

    /// An UPDATE's write over the row's own entries.
    pub(super) fn replacing(txn: bool) -> RowWrite {
        RowWrite {
            txn,
            replacing: true,
        }
    }
}

/// Under a document tombstone (the iterator is on it), whether the document
/// has entries written after it: a row deleted, then inserted again as column
/// entries (packed rows off), exists.
fn written_after_tombstone(it: &mut crate::lsm::DbIter<'_>, doc: &[u8]) -> bool {
    let tombstone = it.key().to_vec();
    while it.next() && super::doc_key::doc_key_of(it.key()) == doc {
        if super::doc_key::written_after(it.key(), &tombstone) && live_row(it.value()) {
            return true;
        }
    }
    false
}
