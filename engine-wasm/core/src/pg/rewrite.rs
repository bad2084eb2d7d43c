//! Statements that give a table or an index a new file: VACUUM FULL (the
//! table's live rows copied compactly, its indexes rebuilt), CLUSTER (the
//! same, in an index's order) and REINDEX (an index rebuilt from its table).
//! PostgreSQL writes the new files around the buffer pool, drops the old
//! ones' buffers, and records the new sizes in pg_class; the free space map
//! and the visibility map start over empty.

use super::engine::PgEngine;
use super::heap::rewrite::Reformed;
use super::relation_stats::RelStats;
use super::tid::Tid;
use super::tuple::heap_tuple_len_for_page;
use crate::btree::BTree;
use crate::buffer_pool::Fork;
use crate::exec::select::SelectExec;
use crate::profile::Outcome;
use crate::sql::ast::ReindexTarget;
use crate::sql::error::{ErrorKind, SqlError};
use crate::sql::eval::{bind, coerce, Scope};
use crate::value::Value;

impl PgEngine {
    /// `VACUUM FULL`: each table rewritten in its own order.
    pub(super) fn vacuum_full(&mut self, ids: &[usize]) -> Result<(), SqlError> {
        for &id in ids {
            self.rewrite_table(id, None)?;
        }
        Ok(())
    }

    /// `CLUSTER [table [USING index]]`: the named table by the named index
    /// (remembered for next time), by the index it was last clustered on,
    /// or every table that has one.
    pub(super) fn cluster(
        &mut self,
        table: Option<&str>,
        index: Option<&str>,
    ) -> Result<Outcome, SqlError> {
        let Some(table) = table else {
            let clustered: Vec<usize> = self.clustered_indexes().collect();
            for i in clustered {
                self.rewrite_table(self.catalog.index(i).table, Some(i))?;
            }
            return Ok(Outcome::tag("CLUSTER"));
        };
        let id = self.catalog.table_id(table)?;
        let index = match index {
            Some(name) => self.index_of(id, name)?,
            None => self
                .catalog
                .table(id)
                .indexes
                .iter()
                .copied()
                .find(|&i| self.catalog.index(i).clustered)
                .ok_or_else(|| {
                    semantic(format!(
                        "there is no previously clustered index for table \"{table}\""
                    ))
                })?,
        };
        if self.catalog.index(index).predicate.is_some() {
            return Err(semantic(format!(
                "cannot cluster on partial index \"{}\"",
                self.catalog.index(index).name
            )));
        }
        for &i in &self.catalog.table(id).indexes.clone() {
            self.catalog.index_mut(i).clustered = i == index;
        }
        self.rewrite_table(id, Some(index))?;
        Ok(Outcome::tag("CLUSTER"))
    }

    /// `REINDEX INDEX i` or `REINDEX TABLE t`.
    pub(super) fn reindex(
        &mut self,
        target: ReindexTarget,
        name: &str,
    ) -> Result<Outcome, SqlError> {
        let indexes = match target {
            ReindexTarget::Table => {
                let id = self.catalog.table_id(name)?;
                self.catalog.table(id).indexes.clone()
            }
            ReindexTarget::Index => vec![self.index_named(name)?],
        };
        for i in indexes {
            self.rebuild_index(i)?;
        }
        Ok(Outcome::tag("REINDEX"))
    }

    /// The table's live rows copied to a new heap, in `order_by`'s key order
    /// or its own; then every index rebuilt over it.
    fn rewrite_table(&mut self, id: usize, order_by: Option<usize>) -> Result<(), SqlError> {
        // The copy reads the old heap in one counted sequential scan.
        let (rows, _) = self.heap_rows(id)?;
        let t = self.catalog.table_mut(id);
        t.activity.pending.seq_scan += 1;
        t.activity.pending.seq_tup_read += rows.len() as i64;
        let mut order = t.heap.live_tids_checked();
        if let Some(index) = order_by {
            order = self.in_key_order(index, &rows)?;
        }
        let page_size = self.io.pool.page_size();
        let t = self.catalog.table_mut(id);
        let (types, natts) = (t.size_types(), t.natts());
        let reform = |row: &super::catalog::Row| Reformed {
            len: heap_tuple_len_for_page(row, &types, page_size),
            natts,
        };
        let heap = t.heap.rewritten(&order, &reform)?;
        let (rel, live) = (t.rel, heap.live_rows());
        let pages = heap.page_count();
        t.heap = heap;
        // The rewritten tuples hold NULL for a dropped column.
        t.dropped_values.clear();
        t.vm_exists = false;
        t.fsm_blocks = 0;
        t.stats = RelStats {
            pages,
            tuples: live as f32,
            all_visible: 0,
        };
        self.io.pool.drop_relation(rel);
        for i in self.catalog.table(id).indexes.clone() {
            self.rebuild_index(i)?;
        }
        Ok(())
    }

    /// ALTER TABLE … ADD COLUMN … GENERATED ALWAYS AS (…) STORED, the
    /// column just added: PostgreSQL rewrites the table (`ATRewriteTable`).
    /// One sequential scan reads the live rows; each, its generated values
    /// computed, is inserted anew into a new file by the ALTER's
    /// transaction; the indexes are rebuilt from it (`reindex_relation`),
    /// which also measures the table again for pg_class.
    pub(super) fn rewrite_with_generated_values(&mut self, id: usize) -> Result<(), SqlError> {
        self.rewrite_rows(id, &mut |_, _| Ok(()))
    }

    /// The same rewrite for ADD COLUMN with a volatile DEFAULT (`random()`,
    /// `clock_timestamp()`) or a serial: PostgreSQL evaluates it for each
    /// live row, in the order the scan reads them.
    pub(super) fn rewrite_with_defaults(
        &mut self,
        id: usize,
        position: usize,
    ) -> Result<(), SqlError> {
        let column = self.catalog.table(id).columns[position].clone();
        let default = column
            .default
            .as_ref()
            .map(|e| bind(e, &Scope::default()))
            .transpose()?;
        self.rewrite_rows(id, &mut |engine, row| {
            let t = engine.catalog.table_mut(id);
            if let Some(next) = t.sequences[position].as_mut() {
                row[position] = Value::Int(*next);
                *next += 1;
            } else if let Some(e) = &default {
                row[position] = coerce(engine.eval_bound(e, &[])?, column.ty)?;
            }
            Ok(())
        })
    }

    /// Rewrites table `id` as `ATRewriteTable` does, each live row first
    /// given its new values by `fill`, then its generated columns.
    fn rewrite_rows(
        &mut self,
        id: usize,
        fill: &mut dyn FnMut(&mut Self, &mut super::catalog::Row) -> Result<(), SqlError>,
    ) -> Result<(), SqlError> {
        let (rows, _) = self.heap_rows(id)?;
        let mut filled = Vec::with_capacity(rows.len());
        for (_, mut row) in rows {
            fill(self, &mut row)?;
            crate::exec::generated_column::fill(self.catalog.table(id).shape(), &mut row)?;
            filled.push(row);
        }
        let xid = self.xact.assign();
        let cid = self.xact.command_id();
        let page_size = self.io.pool.page_size();
        let t = self.catalog.table_mut(id);
        t.activity.pending.seq_scan += 1;
        t.activity.pending.seq_tup_read += filled.len() as i64;
        let (types, natts) = (t.size_types(), t.natts());
        let reform = |row: &super::catalog::Row| Reformed {
            len: heap_tuple_len_for_page(row, &types, page_size),
            natts,
        };
        t.heap = t.heap.refilled(filled, xid, cid, &reform)?;
        t.dropped_values.clear();
        t.vm_exists = false;
        t.fsm_blocks = 0;
        // RelationSetNewRelfilenode: unmeasured until an index build counts it.
        t.stats = RelStats::NEW;
        let rel = t.rel;
        self.io.pool.drop_relation(rel);
        for i in self.catalog.table(id).indexes.clone() {
            self.rebuild_index(i)?;
        }
        Ok(())
    }

    /// The live rows' tids (`rows`, in the old heap's order) in index
    /// `index`'s key order, as CLUSTER's tuplesort leaves them: its key
    /// columns compared, rows with equal keys where PostgreSQL's quicksort
    /// puts them ([`crate::sort`]).
    fn in_key_order(
        &self,
        index: usize,
        rows: &[(u64, super::catalog::Row)],
    ) -> Result<Vec<Tid>, SqlError> {
        let ix = self.catalog.index(index);
        let mut keyed = Vec::with_capacity(rows.len());
        for (tid, row) in rows {
            let values = ix
                .key
                .iter()
                .map(|&(c, _)| ix.value_at(row, c))
                .collect::<Result<Vec<_>, _>>()?;
            let mut key = Vec::new();
            crate::btree::encode_key_into(&values, &ix.key_columns, &mut key)
                .map_err(|e| SqlError::new(ErrorKind::Execution, e.to_string()))?;
            keyed.push((key, *tid));
        }
        crate::sort::pg_qsort(&mut keyed, &mut |a, b| a.0.cmp(&b.0));
        Ok(keyed.into_iter().map(|(_, t)| Tid::from_u64(t)).collect())
    }

    /// An index rebuilt into a new file from its table's live rows, as
    /// CREATE INDEX builds one (sorted, leaves filled to the fillfactor).
    fn rebuild_index(&mut self, index: usize) -> Result<(), SqlError> {
        self.new_index_file(index)?;
        // RelationSetNewRelfilenode: a new file is unmeasured (0 pages, -1
        // tuples), and an empty build leaves it so (index_update_stats).
        self.catalog.index_mut(index).stats = RelStats::NEW;
        let (rows, entries) = self.backfill(index)?;
        self.index_update_stats(index, rows, entries);
        Ok(())
    }

    /// An empty B-tree in a new file for `index` (the old file's buffers
    /// dropped), as TRUNCATE and a rebuild start from.
    pub(super) fn new_index_file(&mut self, index: usize) -> Result<(), SqlError> {
        let config = self.btree_config()?;
        let irel = self.catalog.index(index).rel;
        self.io.pool.drop_relation(irel);
        let (tree, stats) = self.io.rel(irel, Fork::Main, |io| BTree::new(config, io))?;
        self.count(irel, &stats);
        let ix = self.catalog.index_mut(index);
        ix.tree = tree?;
        // Its pivots are truncated to the key columns that tell keys apart.
        ix.tree.set_key_columns(ix.key_columns.clone());
        ix.max_key = None;
        ix.included.clear();
        Ok(())
    }

    fn clustered_indexes(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.catalog.indexes.len())
            .filter(|&i| matches!(&self.catalog.indexes[i], Some(ix) if ix.clustered))
    }

    /// Index `name`, which must be one of table `id`'s.
    fn index_of(&self, id: usize, name: &str) -> Result<usize, SqlError> {
        let table = &self.catalog.table(id).name;
        // An unqualified index name is looked for in the table's schema.
        let key = match name.contains('.') {
            true => name.to_string(),
            false => crate::exec::schemas::qualify(crate::exec::schemas::schema_of(table), name),
        };
        let i = self.index_named(&key).map_err(|_| {
            semantic(format!(
                "index \"{name}\" for table \"{table}\" does not exist"
            ))
        })?;
        if self.catalog.index(i).table != id {
            return Err(semantic(format!(
                "\"{name}\" is not an index for table \"{}\"",
                self.catalog.table(id).name
            )));
        }
        Ok(i)
    }

    fn index_named(&self, name: &str) -> Result<usize, SqlError> {
        self.catalog
            .index_named(name)
            .ok_or_else(|| semantic(format!("relation \"{name}\" does not exist")))
    }
}

fn semantic(message: String) -> SqlError {
    SqlError::new(ErrorKind::Semantic, message)
}
