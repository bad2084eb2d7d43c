//! CREATE TABLE, CREATE INDEX, DROP TABLE on the PostgreSQL profile.

use super::catalog::{key_column, Index, Table};
use super::engine::PgEngine;
use super::heap::{Heap, HeapConfig};
use super::relation_stats::RelStats;
use super::tid::Tid;
use crate::btree::{BTree, BTreeConfig};
use crate::buffer_pool::Fork;
use crate::exec::index_expression::{IndexExpression, FIRST_EXPRESSION};
use crate::exec::index_predicate::{row_in_index, IndexPredicate};
use crate::exec::schemas::bare;
use crate::exec::QueryEngine;
use crate::profile::{Outcome, StatementError};
use crate::sql::ast::{CreateIndex, CreateTable, Deferrable, Expr, KeyColumn, Order};
use crate::sql::error::{ErrorKind, SqlError};
use crate::value::SqlType;

/// What the pg profile says of YugabyteDB's `SPLIT AT VALUES`.
const SPLIT_AT_ON_PG: &str =
    "SPLIT AT VALUES is YugabyteDB syntax: PostgreSQL refuses it; the pg profile ignores it";

impl PgEngine {
    fn page_size(&self) -> u32 {
        self.io.pool.page_size()
    }

    pub(super) fn btree_config(&self) -> Result<BTreeConfig, SqlError> {
        let ff = |n: &str| -> Result<u8, SqlError> {
            let v = self.settings.get_int(n)?;
            Ok(v.clamp(10, 100) as u8)
        };
        Ok(BTreeConfig {
            page_size: self.page_size(),
            leaf_fillfactor: ff("leaf_fillfactor")?,
            internal_fillfactor: ff("internal_fillfactor")?,
        })
    }

    pub(super) fn create_table(&mut self, t: &CreateTable) -> Result<Outcome, SqlError> {
        let keys = t
            .primary_key
            .iter()
            .chain(t.unique.iter().map(|k| &k.columns));
        no_hash_group(keys.flatten())?;
        let t = self.catalog.schemas.table_in(t)?;
        let t = &*t;
        crate::exec::generated_column::check(&t.name, &t.columns)?;
        if self.catalog.name_taken(&t.name) {
            if t.if_not_exists {
                return Ok(Outcome::tag("CREATE TABLE").notice(format!(
                    "relation \"{}\" already exists, skipping",
                    bare(&t.name)
                )));
            }
            return Err(StatementError::DuplicateTable {
                name: t.name.clone(),
            }
            .into());
        }
        let (fillfactor, notices) = super::alter::table_options(&t.options)?;
        let fillfactor = match fillfactor {
            Some(ff) => ff,
            None => self.settings.get_int("heap_fillfactor")?.clamp(10, 100) as u8,
        };
        let heap = Heap::new(HeapConfig {
            page_size: self.page_size(),
            fillfactor,
        })?;
        let rel = self.io.add_relation(&t.name);
        let table = Table {
            name: t.name.clone(),
            rel,
            types: t.columns.iter().map(|c| c.ty).collect(),
            sequences: t.columns.iter().map(|c| c.serial.then_some(1)).collect(),
            columns: t.columns.clone(),
            heap,
            indexes: Vec::new(),
            vm_exists: false,
            fsm_blocks: 0,
            stats: RelStats::NEW,
            has_index: false,
            activity: Default::default(),
            column_stats: Vec::new(),
            dropped: Vec::new(),
            dropped_values: Default::default(),
        };
        self.catalog.tables.push(Some(table));
        let mut out = Outcome::tag("CREATE TABLE");
        out.notices.extend(notices);
        if let Some(n) = t.split_into {
            out.notices.push(format!(
                "SPLIT INTO {n} TABLETS is YugabyteDB syntax: PostgreSQL refuses it; the pg profile ignores it"
            ));
        }
        if t.split_at.is_some() {
            out.notices.push(SPLIT_AT_ON_PG.to_string());
        }
        if t.key_order_written {
            out.notices.push(
                "ASC and DESC in a PRIMARY KEY or UNIQUE constraint are YugabyteDB syntax: \
                 PostgreSQL refuses them; the pg profile ignores them (its key is an ascending B-tree)"
                    .to_string(),
            );
        }
        if let Some(pk) = &t.primary_key {
            let name = t
                .primary_key_name
                .clone()
                .unwrap_or_else(|| format!("{}_pkey", t.name));
            self.build_index(&name, &t.name, &ascending(pk), &[], true, None)?;
            self.mark_constraint(true, t.primary_key_deferrable);
        }
        for k in &t.unique {
            let names: Vec<String> = k.columns.iter().map(|c| c.name.clone()).collect();
            let name = match &k.name {
                Some(n) => n.clone(),
                None => self.catalog.default_index_name(&t.name, &names, "key"),
            };
            self.build_index(&name, &t.name, &ascending(&k.columns), &[], true, None)?;
            self.mark_constraint(false, k.deferrable);
        }
        Ok(out)
    }

    pub(super) fn create_index(&mut self, i: &CreateIndex) -> Result<Outcome, SqlError> {
        no_hash_group(&i.columns)?;
        // The table must exist before anything else is checked, as in PostgreSQL.
        let table = self.catalog.table_id(&i.table)?;
        let i = &*crate::exec::schemas::index_in(i, &self.catalog.table(table).name);
        // PostgreSQL's default name lists every column, INCLUDE ones too
        // (ChooseIndexColumnNames).
        let cols: Vec<String> = i
            .columns
            .iter()
            .map(|c| c.name.clone())
            .chain(i.include.iter().cloned())
            .collect();
        let name = match &i.name {
            Some(n) => n.clone(),
            None => self.catalog.default_index_name(&i.table, &cols, "idx"),
        };
        if self.catalog.name_taken(&name) {
            if i.if_not_exists {
                return Ok(Outcome::tag("CREATE INDEX").notice(format!(
                    "relation \"{}\" already exists, skipping",
                    bare(&name)
                )));
            }
            return Err(StatementError::DuplicateTable {
                name: name.to_string(),
            }
            .into());
        }
        self.build_index(
            &name,
            &i.table,
            &i.columns,
            &i.include,
            i.unique,
            i.predicate.as_ref(),
        )?;
        let out = Outcome::tag("CREATE INDEX");
        Ok(match i.split_at {
            Some(_) => out.notice(SPLIT_AT_ON_PG),
            None => out,
        })
    }

    fn column_position(&self, table: usize, name: &str) -> Result<usize, SqlError> {
        let t = self.catalog.table(table);
        t.columns
            .iter()
            .position(|c| c.name == name)
            .ok_or_else(|| {
                StatementError::UndefinedKeyColumn {
                    column: name.to_string(),
                    table: t.name.clone(),
                }
                .into()
            })
    }

    /// Creates an index and fills it from the table's live rows, in heap order (a
    /// simplification of PostgreSQL's sorted bulk build: the tree's shape then
    /// follows the insert rules, which is what the lessons show).
    pub(super) fn build_index(
        &mut self,
        name: &str,
        table_name: &str,
        columns: &[KeyColumn],
        include: &[String],
        unique: bool,
        predicate: Option<&Expr>,
    ) -> Result<(), SqlError> {
        let table = self.catalog.table_id(table_name)?;
        let predicate = predicate
            .map(|p| IndexPredicate::new(p, &self.table_scope(table)))
            .transpose()?;
        // A key is a column, or an expression numbered from FIRST_EXPRESSION.
        let mut expressions = Vec::new();
        let mut key: Vec<(usize, Order)> = Vec::with_capacity(columns.len());
        for c in columns {
            let position = match &c.expr {
                Some(e) => {
                    expressions.push(IndexExpression::new(e, &self.table_scope(table))?);
                    FIRST_EXPRESSION + expressions.len() - 1
                }
                None => self.column_position(table, &c.name)?,
            };
            key.push((position, c.order));
        }
        let include: Vec<usize> = include
            .iter()
            .map(|c| self.column_position(table, c))
            .collect::<Result<_, _>>()?;
        let types = self.catalog.table(table).types.clone();
        let type_at = |c: usize| match c.checked_sub(FIRST_EXPRESSION) {
            Some(k) => expressions[k].ty,
            None => types[c],
        };
        let key_types: Vec<SqlType> = key.iter().map(|(c, _)| type_at(*c)).collect();
        crate::btree::check_key_types(unique, &key_types)?;
        let key_columns: Vec<crate::btree::KeyColumn> = key
            .iter()
            .map(|(c, o)| key_column(type_at(*c), *o))
            .collect();
        let stored_types: Vec<SqlType> = key
            .iter()
            .map(|(c, _)| type_at(*c))
            .chain(include.iter().map(|c| types[*c]))
            .collect();
        let config = self.btree_config()?;
        let rel = self.io.add_relation(name);
        let (tree, stats) = self.io.rel(rel, Fork::Main, |io| BTree::new(config, io))?;
        self.count(rel, &stats);
        let mut tree = tree?;
        tree.set_key_columns(key_columns.clone());
        let id = self.catalog.indexes.len();
        self.catalog.indexes.push(Some(Index {
            name: name.to_string(),
            rel,
            table,
            key,
            include,
            key_columns,
            stored_types,
            unique,
            constraint: false,
            primary: false,
            max_key: None,
            tree,
            stats: RelStats::NEW_INDEX,
            predicate,
            expressions,
            activity: Default::default(),
            clustered: false,
            included: Default::default(),
            deferrable: None,
            dedup_noticed: false,
            expression_stats: Vec::new(),
        }));
        self.catalog.table_mut(table).indexes.push(id);
        let (rows, entries) = match self.backfill(id) {
            Ok(counts) => counts,
            Err(e) => {
                // The build fails whole: no index is left behind.
                self.catalog.indexes[id] = None;
                self.catalog.table_mut(table).indexes.retain(|&i| i != id);
                self.io.pool.drop_relation(rel);
                return Err(build_error(e, name));
            }
        };
        self.index_update_stats(id, rows, entries);
        Ok(())
    }

    /// Fills a new index from the table's live rows (those its WHERE holds
    /// for, when it is partial); returns how many rows, and how many entries.
    ///
    /// PostgreSQL's CREATE INDEX sorts the entries (key, then heap TID) and
    /// loads them in that order (nbtsort.c), filling each leaf to the
    /// fillfactor before starting the next. Inserting the sorted entries one
    /// by one does the same here: every insert goes to the rightmost leaf,
    /// whose splits leave the fillfactor behind, so a random key's index is
    /// as compact as a serial one's.
    pub(super) fn backfill(&mut self, index: usize) -> Result<(u64, u64), SqlError> {
        let table = self.catalog.index(index).table;
        self.prune_all_opt(table)?;
        let (rows, _) = self.heap_rows(table)?;
        let n = rows.len() as u64;
        // The build reads the table in one sequential scan that returns
        // every tuple with storage, dead ones too (`SnapshotAny`): pgstat
        // counts them all.
        let t = self.catalog.table_mut(table);
        let with_storage: u64 = (0..t.heap.page_count())
            .filter_map(|p| t.heap.page_info(p))
            .map(|p| u64::from(p.live + p.dead))
            .sum();
        t.activity.pending.seq_scan += 1;
        t.activity.pending.seq_tup_read += with_storage as i64;
        let mut entries = Vec::with_capacity(rows.len());
        for (tid, row) in rows {
            if !row_in_index(self.catalog.index(index).predicate.as_ref(), &row)? {
                continue;
            }
            let heap = &self.catalog.table(table).heap;
            let root = heap.root_of(Tid::from_u64(tid)).to_u64();
            let mut key = Vec::new();
            self.catalog.index(index).entry_of(&row, &mut key)?;
            entries.push((key, root, row));
        }
        entries.sort_by(|a, b| (&a.0, a.1).cmp(&(&b.0, b.1)));
        let indexed = entries.len() as u64;
        for (_, root, row) in entries {
            self.index_insert(index, &row, root)?;
        }
        Ok((n, indexed))
    }

    /// `index_update_stats`, for the table (its `rows` live rows) and then
    /// the index (its `entries`: fewer for a partial index).
    pub(super) fn index_update_stats(&mut self, index: usize, rows: u64, entries: u64) {
        let table = self.catalog.index(index).table;
        let t = self.catalog.table_mut(table);
        t.has_index = true;
        let (pages, visible) = (
            t.heap.page_count(),
            t.heap.visibility_map().all_visible_count(),
        );
        t.stats.after_index_build(rows, pages, visible);
        let ix = self.catalog.index_mut(index);
        let pages = ix.pages();
        ix.stats.after_index_build(entries, pages, 0);
    }

    /// The index just built belongs to a constraint (the primary key or not).
    pub(super) fn mark_constraint(&mut self, primary: bool, deferrable: Option<Deferrable>) {
        if let Some(Some(ix)) = self.catalog.indexes.last_mut() {
            ix.constraint = true;
            ix.primary = primary;
            ix.deferrable = deferrable;
        }
    }

    pub(super) fn drop_tables(
        &mut self,
        names: &[String],
        if_exists: bool,
    ) -> Result<Outcome, SqlError> {
        let mut out = Outcome::tag("DROP TABLE");
        let ids = crate::exec::utility::existing(
            names,
            if_exists,
            "table",
            |n| self.catalog.table_id(n).ok(),
            &mut out,
        )?;
        for id in ids {
            let Some(t) = self.catalog.tables[id].take() else {
                continue;
            };
            self.catalog.statistics.drop_table(id);
            self.io.pool.drop_relation(t.rel);
            for i in t.indexes {
                if let Some(ix) = self.catalog.indexes[i].take() {
                    self.io.pool.drop_relation(ix.rel);
                }
            }
        }
        Ok(out)
    }

    /// `DROP INDEX`: the index's pages leave the buffer pool and the catalog,
    /// so no later statement maintains or reads it. A constraint's index is
    /// refused as PostgreSQL refuses it.
    pub(super) fn drop_indexes(
        &mut self,
        names: &[String],
        if_exists: bool,
    ) -> Result<Outcome, SqlError> {
        let mut out = Outcome::tag("DROP INDEX");
        let find = |catalog: &super::catalog::Catalog, n: &str| catalog.index_named(n);
        for name in names {
            if let Some(id) = find(&self.catalog, name) {
                let ix = self.catalog.index(id);
                if ix.constraint {
                    let table = self.catalog.table(ix.table).name.clone();
                    return Err(crate::exec::utility::constraint_index(name, &table));
                }
            }
        }
        let ids = crate::exec::utility::existing(
            names,
            if_exists,
            "index",
            |n| find(&self.catalog, n),
            &mut out,
        )?;
        for id in ids {
            if let Some(ix) = self.catalog.indexes[id].take() {
                self.io.pool.drop_relation(ix.rel);
                self.catalog
                    .table_mut(ix.table)
                    .indexes
                    .retain(|&i| i != id);
            }
        }
        Ok(out)
    }
}

/// A key constraint's columns as PostgreSQL builds them: its grammar has no
/// ASC or DESC there (a `CREATE INDEX` has, and keeps them), so a constraint's
/// index is always ascending.
pub(super) fn ascending(columns: &[KeyColumn]) -> Vec<KeyColumn> {
    columns
        .iter()
        .map(|c| KeyColumn {
            order: Order::Asc,
            ..c.clone()
        })
        .collect()
}

impl PgEngine {
    /// `TRUNCATE`: each table gets a new, empty heap and its indexes new,
    /// empty B-trees, as PostgreSQL gives them new files; the old pages leave
    /// the buffer pool, and the free space and visibility maps go with them.
    pub(super) fn truncate(
        &mut self,
        names: &[String],
        restart: bool,
    ) -> Result<Outcome, SqlError> {
        let ids = names
            .iter()
            .map(|n| self.catalog.table_id(n))
            .collect::<Result<Vec<_>, _>>()?;
        for id in ids {
            // The new file keeps the table's storage parameters (its
            // fillfactor from CREATE TABLE … WITH or ALTER TABLE … SET).
            let heap = Heap::new(HeapConfig {
                page_size: self.page_size(),
                fillfactor: self.catalog.table(id).heap.geometry().fillfactor,
            })?;
            let t = self.catalog.table_mut(id);
            let rel = t.rel;
            t.heap = heap;
            t.dropped_values.clear();
            t.vm_exists = false;
            t.fsm_blocks = 0;
            // A new file: pg_class forgets what it measured (the index
            // builds that follow find nothing, and leave it unmeasured).
            t.stats = RelStats::NEW;
            if restart {
                for s in t.sequences.iter_mut().flatten() {
                    *s = 1;
                }
            }
            self.io.pool.drop_relation(rel);
            let t = self.catalog.table_mut(id);
            t.activity.pending.truncated = true;
            // Each index is rebuilt over the empty file: one counted scan each.
            t.activity.pending.seq_scan += t.indexes.len() as i64;
            for i in self.catalog.table(id).indexes.clone() {
                self.new_index_file(i)?;
                self.catalog.index_mut(i).stats = RelStats::NEW;
            }
        }
        Ok(Outcome::tag("TRUNCATE TABLE"))
    }
}

/// A unique index's build meeting two equal keys fails as PostgreSQL's
/// (`_bt_load`'s tuplesort check): "could not create unique index", the key
/// "is duplicated".
fn build_error(e: SqlError, index: &str) -> SqlError {
    if !e
        .message
        .starts_with("duplicate key value violates unique constraint")
    {
        return e;
    }
    let err = SqlError::new(
        ErrorKind::Execution,
        format!("could not create unique index \"{index}\""),
    );
    match &e.detail {
        Some(d) => err.with_detail(d.replace(" already exists.", " is duplicated.")),
        None => err,
    }
}

/// YugabyteDB's `(a, b) HASH` key group: PostgreSQL's grammar has no
/// parenthesised list of key columns, and stops at its comma.
fn no_hash_group<'a>(
    columns: impl IntoIterator<Item = &'a crate::sql::ast::KeyColumn>,
) -> Result<(), SqlError> {
    if columns.into_iter().any(|c| c.hash_group) {
        return Err(SqlError::new(
            crate::sql::error::ErrorKind::Syntax,
            "syntax error at or near \",\"",
        )
        .near(","));
    }
    Ok(())
}
