//! CREATE TABLE, CREATE INDEX, DROP TABLE, `\flush` and `\compact` on the yb
//! profile: relations get tablets (hash-sharded over the tablet servers, or one
//! range tablet), each a fresh LSM tree.

use super::catalog::{KeySpec, Tablets, YbIndex, YbTable};
use super::engine::YbEngine;
use super::tablet::Tablet;
use crate::btree::encode_key_into;
use crate::exec::index_expression::{IndexExpression, FIRST_EXPRESSION};
use crate::exec::index_predicate::{row_in_index, IndexPredicate};
use crate::exec::relation_name::choose_relation_name;
use crate::exec::schemas::bare;
use crate::exec::QueryEngine;
use crate::lsm::Lsm;
use crate::profile::{Outcome, StatementError};
use crate::sql::ast::{CreateIndex, CreateTable, Expr, KeyColumn, Order};
use crate::sql::error::{ErrorKind, SqlError};
use crate::sql::eval::{bind, coerce, eval, Scope};

/// The most tablets one relation may have (as the `num_tablets` setting allows).
const MAX_TABLETS: u32 = 1024;

impl YbEngine {
    /// Tablets for a new relation: `split` of them if hash-sharded (default: one
    /// per tablet server, or `num_tablets`), one if range-sharded.
    fn new_tablets(
        &mut self,
        rel: usize,
        hash: bool,
        split: Option<u32>,
        bounds: Vec<Vec<u8>>,
    ) -> Result<Tablets, SqlError> {
        let servers = self.caches.len();
        let default = match self.settings.get_int("num_tablets")? {
            0 => servers,
            n => n as usize,
        };
        if let Some(s) = split.filter(|s| !(1..=MAX_TABLETS).contains(s)) {
            // Each tablet is a whole LSM: a forged count must not eat the memory.
            return Err(SqlError::new(
                ErrorKind::Limit,
                format!("SPLIT INTO {s} TABLETS: the number of tablets must be 1..={MAX_TABLETS}"),
            ));
        }
        let n = if hash {
            split.map_or(default, |s| s as usize)
        } else {
            bounds.len() + 1
        };
        let mut ids = Vec::with_capacity(n);
        for i in 0..n {
            let id = self.tablets.len();
            let lsm = Lsm::new(self.lsm_options(id as u32)?)?;
            // Leaders spread round-robin, continuing from the last relation's.
            let tserver = id % servers;
            self.tablets.push(Tablet {
                reported: *lsm.stats(),
                lsm,
                tserver,
                rel,
            });
            let _ = i;
            ids.push(id);
        }
        Ok(Tablets { ids, bounds })
    }

    fn new_rel(&mut self, name: &str) -> usize {
        self.names.push(name.into());
        self.names.len() - 1
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

    fn key_of(
        &self,
        table: usize,
        cols: &[KeyColumn],
    ) -> Result<Vec<(usize, Order, bool)>, SqlError> {
        cols.iter()
            .map(|c| Ok((self.column_position(table, &c.name)?, c.order, c.hash)))
            .collect()
    }

    /// `SPLIT AT VALUES`: where each tablet after the first begins, each
    /// row's values read as the key's first columns and encoded as the
    /// documents' keys are, in the key's order (YugabyteDB refuses them out of
    /// order, and on a hash-sharded key).
    fn split_points(
        &mut self,
        spec: &KeySpec,
        rows: &[Vec<Expr>],
    ) -> Result<Vec<Vec<u8>>, SqlError> {
        if spec.is_hash() {
            return Err(split_needs_range_key());
        }
        if rows.len() + 1 > MAX_TABLETS as usize {
            return Err(SqlError::new(
                ErrorKind::Limit,
                format!("SPLIT AT VALUES: at most {} split points", MAX_TABLETS - 1),
            ));
        }
        let mut points = Vec::with_capacity(rows.len());
        for row in rows {
            if row.is_empty() || row.len() > spec.range_columns.len() {
                return Err(SqlError::new(
                    ErrorKind::Semantic,
                    format!(
                        "SPLIT AT VALUES: each split point has 1 to {} values, one per key column",
                        spec.range_columns.len()
                    ),
                ));
            }
            let mut values = Vec::with_capacity(row.len());
            for (e, col) in row.iter().zip(&spec.range_columns) {
                let v = eval(&bind(e, &Scope::default())?, &[], &mut self.env())?;
                values.push(coerce(v, col.ty)?);
            }
            let mut key = Vec::new();
            encode_key_into(&values, &spec.range_columns[..values.len()], &mut key)?;
            points.push(key);
        }
        if points.windows(2).any(|w| w[0] >= w[1]) {
            return Err(SqlError::new(
                ErrorKind::Semantic,
                "SPLIT AT VALUES: the split points must be distinct and in the key's order",
            ));
        }
        Ok(points)
    }

    pub(super) fn create_table(&mut self, t: &CreateTable) -> Result<Outcome, SqlError> {
        let t = self.catalog.schemas.table_in(t)?;
        let t = &*t;
        crate::exec::generated_column::check(&t.name, &t.columns)?;
        crate::sql::numeric::check_table_keys(t)?;
        if t.primary_key_deferrable.is_some() || t.unique.iter().any(|k| k.deferrable.is_some()) {
            return Err(super::alter::deferrable_refused());
        }
        let notices = super::alter::storage_notices(&t.options, true)?;
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
        let rel = self.new_rel(&t.name);
        let id = self.catalog.tables.len();
        self.catalog.tables.push(Some(YbTable {
            name: t.name.clone(),
            types: t.columns.iter().map(|c| c.ty).collect(),
            sequences: t.columns.iter().map(|c| c.serial.then_some(1)).collect(),
            columns: t.columns.clone(),
            key: None,
            pk_name: t
                .primary_key_name
                .clone()
                .unwrap_or_else(|| format!("{}_pkey", t.name)),
            indexes: Vec::new(),
            tablets: Tablets::default(),
            rel,
            next_ybctid: 0,
            packings: Vec::new(),
            column_ids: (0..t.columns.len() as u8).collect(),
            next_column_id: t.columns.len() as u8,
            missing: vec![crate::value::Value::Null; t.columns.len()],
            reltuples: None,
        }));
        let key = match &t.primary_key {
            Some(pk) => {
                let key = self.key_of(id, pk)?;
                let types = &self.catalog.table(id).types;
                let key_types: Vec<_> = key.iter().map(|(c, _, _)| types[*c]).collect();
                crate::btree::check_key_types(true, &key_types)?;
                Some(KeySpec::new(&self.catalog.table(id).types, &key))
            }
            None => None,
        };
        // Without a primary key, rows are hash-sharded on a generated ybctid.
        let hash = key.as_ref().is_none_or(KeySpec::is_hash);
        let bounds = match (&t.split_at, &key) {
            (None, _) => Vec::new(),
            (Some(rows), Some(spec)) => self.split_points(spec, rows)?,
            (Some(_), None) => return Err(split_needs_range_key()),
        };
        let tablets = self.new_tablets(rel, hash, t.split_into, bounds)?;
        let table = self.catalog.table_mut(id);
        table.key = key;
        table.tablets = tablets;
        table.packings = vec![std::rc::Rc::new(table.value_packing())];
        for k in &t.unique {
            let columns = &k.columns;
            let names: Vec<String> = columns.iter().map(|c| c.name.clone()).collect();
            let name = match &k.name {
                Some(n) => n.clone(),
                None => {
                    choose_relation_name(&t.name, &names, "key", |n| self.catalog.name_taken(n))
                }
            };
            self.create_index(&CreateIndex {
                name: Some(name),
                table: t.name.clone(),
                columns: columns.clone(),
                include: Vec::new(),
                unique: true,
                if_not_exists: false,
                predicate: None,
                split_at: None,
            })?;
            if let Some(Some(ix)) = self.catalog.indexes.last_mut() {
                ix.constraint = true;
            }
        }
        let mut out = Outcome::tag("CREATE TABLE");
        out.notices = notices;
        Ok(out)
    }

    pub(super) fn create_index(&mut self, i: &CreateIndex) -> Result<Outcome, SqlError> {
        let table = self.catalog.table_id(&i.table)?;
        let i = &*crate::exec::schemas::index_in(i, &self.catalog.table(table).name);
        // PostgreSQL's default name lists every column, INCLUDE ones too.
        let cols: Vec<String> = i
            .columns
            .iter()
            .map(|c| c.name.clone())
            .chain(i.include.iter().cloned())
            .collect();
        let name = match &i.name {
            Some(n) => n.clone(),
            None => choose_relation_name(&i.table, &cols, "idx", |n| self.catalog.name_taken(n)),
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
        // A key is a column, or an expression numbered from FIRST_EXPRESSION.
        let mut expressions = Vec::new();
        let mut key = Vec::with_capacity(i.columns.len());
        for c in &i.columns {
            let position = match &c.expr {
                Some(e) => {
                    expressions.push(IndexExpression::new(e, &self.table_scope(table))?);
                    FIRST_EXPRESSION + expressions.len() - 1
                }
                None => self.column_position(table, &c.name)?,
            };
            key.push((position, c.order, c.hash));
        }
        let predicate = i
            .predicate
            .as_ref()
            .map(|p| IndexPredicate::new(p, &self.table_scope(table)))
            .transpose()?;
        let include = i
            .include
            .iter()
            .map(|c| self.column_position(table, c))
            .collect::<Result<Vec<_>, _>>()?;
        let types = self.catalog.table(table).types.clone();
        let include_types = include
            .iter()
            .map(|c| crate::btree::KeyColumn::asc(types[*c]))
            .collect();
        let key_types: Vec<_> = key
            .iter()
            .map(|(c, _, _)| match c.checked_sub(FIRST_EXPRESSION) {
                Some(k) => expressions[k].ty,
                None => types[*c],
            })
            .collect();
        crate::btree::check_key_types(i.unique, &key_types)?;
        // The index row's own key: its columns 0..n, with the same order and hashing.
        let own: Vec<(usize, Order, bool)> = key
            .iter()
            .enumerate()
            .map(|(n, (_, o, h))| (n, *o, *h))
            .collect();
        for (ty, (_, _, hashed)) in key_types.iter().zip(&own) {
            crate::sql::numeric::check_key_column(*ty, *hashed, i.unique)?;
        }
        let spec = KeySpec::new(&key_types, &own);
        let rel = self.new_rel(&name);
        let bounds = match &i.split_at {
            None => Vec::new(),
            Some(rows) => self.split_points(&spec, rows)?,
        };
        let tablets = self.new_tablets(rel, spec.is_hash(), None, bounds)?;
        let id = self.catalog.indexes.len();
        self.catalog.indexes.push(Some(YbIndex {
            name,
            table,
            key,
            include,
            unique: i.unique,
            constraint: false,
            spec,
            include_columns: include_types,
            tablets,
            rel,
            predicate,
            expressions,
        }));
        self.catalog.table_mut(table).indexes.push(id);
        self.backfill(id)?;
        Ok(Outcome::tag("CREATE INDEX"))
    }

    /// Writes the index entries of the rows already in the table.
    fn backfill(&mut self, index: usize) -> Result<(), SqlError> {
        let table = self.catalog.index(index).table;
        // Each row with its document key: its primary key, or the ybctid it
        // was given (which can't be derived from the row again).
        for (base, row) in self.rows_for_change(table, None)? {
            if !row_in_index(self.catalog.index(index).predicate.as_ref(), &row)? {
                continue;
            }
            self.write_index_entry(index, &row, &base, super::write::RowWrite::new(false))?;
        }
        Ok(())
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
            self.catalog.statistics.drop_table(id);
            if let Some(t) = self.catalog.tables[id].take() {
                for i in t.indexes {
                    self.catalog.indexes[i] = None;
                }
            }
        }
        Ok(out)
    }

    /// `DROP INDEX`: the index leaves the catalog (its tablets are no longer
    /// written or read). A constraint's index, or the primary key (the table's
    /// own key in DocDB), is refused as PostgreSQL refuses it.
    pub(super) fn drop_indexes(
        &mut self,
        names: &[String],
        if_exists: bool,
    ) -> Result<Outcome, SqlError> {
        let mut out = Outcome::tag("DROP INDEX");
        for name in names {
            let owner = self
                .catalog
                .tables
                .iter()
                .flatten()
                .find(|t| t.key.is_some() && t.pk_name == *name);
            if let Some(t) = owner {
                return Err(crate::exec::utility::constraint_index(name, &t.name));
            }
            if let Some(ix) = self
                .catalog
                .index_named(name)
                .map(|i| self.catalog.index(i))
            {
                if ix.constraint {
                    return Err(crate::exec::utility::constraint_index(
                        name,
                        &self.catalog.table(ix.table).name,
                    ));
                }
            }
        }
        let ids = crate::exec::utility::existing(
            names,
            if_exists,
            "index",
            |n| self.catalog.index_named(n),
            &mut out,
        )?;
        for id in ids {
            if let Some(ix) = self.catalog.indexes[id].take() {
                self.catalog
                    .table_mut(ix.table)
                    .indexes
                    .retain(|&i| i != id);
            }
        }
        Ok(out)
    }

    /// The tablets of `table` and its indexes, or of every relation.
    fn tablets_of(&self, table: Option<&str>) -> Result<Vec<usize>, SqlError> {
        let ids: Vec<usize> = match table {
            Some(name) => vec![self.catalog.table_id(name)?],
            None => (0..self.catalog.tables.len())
                .filter(|i| self.catalog.tables[*i].is_some())
                .collect(),
        };
        let mut out = Vec::new();
        for id in ids {
            let t = self.catalog.table(id);
            out.extend(&t.tablets.ids);
            for &i in &t.indexes {
                out.extend(&self.catalog.index(i).tablets.ids);
            }
        }
        Ok(out)
    }

    /// `\flush [table]`: memtables to new SSTs (`yb-ts-cli flush_tablet`).
    pub fn flush(&mut self, table: Option<&str>) -> Result<Outcome, SqlError> {
        for t in self.tablets_of(table)? {
            self.tablets[t].lsm.flush()?;
        }
        self.drain_events();
        Ok(Outcome::tag("FLUSH"))
    }

    /// `\compact [table]`: flush, then one sorted run per tablet
    /// (`yb-ts-cli compact_all_tablets`, as article 000 does).
    pub fn compact(&mut self, table: Option<&str>) -> Result<Outcome, SqlError> {
        for t in self.tablets_of(table)? {
            self.tablets[t].lsm.compact_all()?;
        }
        self.drain_events();
        Ok(Outcome::tag("COMPACT"))
    }
}

/// Keys as the trace and the snapshots show them.
pub(super) fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

impl YbEngine {
    /// Moves the tablets' structural LSM events into the trace.
    pub(super) fn drain_events(&mut self) {
        for id in 0..self.tablets.len() {
            if self.tablets[id].lsm.has_events() {
                self.drain_tablet(id);
            }
        }
        for tserver in 0..self.caches.len() {
            self.note_cache(tserver);
        }
    }

    /// Records a tablet server's block cache occupancy when it changed since
    /// it was last recorded.
    pub(super) fn note_cache(&mut self, tserver: usize) {
        let (used, capacity) = (self.caches[tserver].used(), self.caches[tserver].capacity());
        if self.cache_seen[tserver] != used {
            self.cache_seen[tserver] = used;
            self.trace.detail(|| crate::trace::Event::BlockCache {
                tserver: tserver as u32,
                used,
                capacity,
            });
        }
    }

    /// Moves one tablet's structural LSM events into the trace (right after the
    /// write that caused them, so the trace keeps their place among the inserts).
    pub(super) fn drain_tablet(&mut self, id: usize) {
        use crate::lsm::LsmEvent;
        use crate::trace::Event;
        {
            let t = &mut self.tablets[id];
            let relation = self.names[t.rel].clone();
            let tablet = id as u32;
            for e in t.lsm.take_events() {
                self.trace.push(match e {
                    LsmEvent::MemtableSealed { entries, bytes, .. } => Event::MemtableSealed {
                        relation: relation.clone(),
                        tablet,
                        entries,
                        bytes,
                    },
                    LsmEvent::Flush { sst, .. } => Event::Flush {
                        relation: relation.clone(),
                        tablet,
                        sst: sst_summary(&sst),
                    },
                    LsmEvent::CompactionStart {
                        id,
                        inputs,
                        output_level,
                        ..
                    } => Event::CompactionStart {
                        relation: relation.clone(),
                        tablet,
                        id,
                        inputs: inputs.iter().flat_map(|l| l.ssts.iter().copied()).collect(),
                        output_level,
                    },
                    LsmEvent::CompactionFinish {
                        id,
                        inputs,
                        outputs,
                        read_bytes,
                        write_bytes,
                        dropped_versions,
                        dropped_tombstones,
                    } => Event::CompactionFinish {
                        relation: relation.clone(),
                        tablet,
                        id,
                        inputs,
                        outputs: outputs.iter().map(sst_summary).collect(),
                        read_bytes,
                        write_bytes,
                        dropped_versions,
                        dropped_tombstones,
                    },
                });
            }
        }
    }
}

/// An SST as the trace and the snapshots describe it (keys as hex).
pub(super) fn sst_summary(s: &crate::lsm::SstInfo) -> crate::trace::SstSummary {
    crate::trace::SstSummary {
        id: s.id,
        bytes: s.file_size,
        entries: s.entries,
        deletes: s.deletes,
        smallest: hex(&s.smallest),
        largest: hex(&s.largest),
    }
}

impl YbEngine {
    /// The tables named (all checked first), or every table when none is.
    fn tables_named(&self, names: &[String]) -> Result<Vec<usize>, SqlError> {
        crate::exec::utility::tables_named(self, names, || {
            (0..self.catalog.tables.len())
                .filter(|i| self.catalog.tables[*i].is_some())
                .collect()
        })
    }

    /// VACUUM has nothing to do on DocDB (old versions go at compaction), but
    /// its tables must exist, and its ANALYZE runs.
    pub(super) fn vacuum(&mut self, v: &crate::sql::ast::Vacuum) -> Result<Outcome, SqlError> {
        let ids = self.tables_named(&v.tables)?;
        let mut out = Outcome::tag("VACUUM")
            .notice("YugabyteDB needs no VACUUM: old versions go at compaction");
        if v.analyze {
            crate::exec::utility::analyze(self, &ids)?;
            out.notices
                .push(crate::exec::utility::YB_ANALYZE_NOTE.into());
        }
        Ok(out)
    }

    /// ANALYZE: YugabyteDB samples a table by reading it from DocDB.
    pub(super) fn analyze(&mut self, names: &[String]) -> Result<Outcome, SqlError> {
        let ids = self.tables_named(names)?;
        crate::exec::utility::analyze(self, &ids)?;
        Ok(Outcome::tag("ANALYZE").notice(crate::exec::utility::YB_ANALYZE_NOTE))
    }
}

impl YbEngine {
    /// `TRUNCATE`: each tablet of the tables and their indexes starts a new,
    /// empty LSM (YugabyteDB drops the tablets' RocksDB files).
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
            let mut tablets = self.catalog.table(id).tablets.ids.clone();
            for &i in &self.catalog.table(id).indexes {
                tablets.extend(&self.catalog.index(i).tablets.ids);
            }
            for t in tablets {
                let lsm = Lsm::new(self.lsm_options(t as u32)?)?;
                self.tablets[t].reported = *lsm.stats();
                self.tablets[t].lsm = lsm;
            }
            if restart {
                for s in self.catalog.table_mut(id).sequences.iter_mut().flatten() {
                    *s = 1;
                }
            }
        }
        Ok(Outcome::tag("TRUNCATE TABLE"))
    }
}

/// SPLIT AT VALUES cuts a key's range: a hash-sharded key has none.
fn split_needs_range_key() -> SqlError {
    SqlError::new(
        ErrorKind::Semantic,
        "SPLIT AT VALUES needs a range-sharded key (its first column ASC or DESC); \
         a hash-sharded table or index is split with SPLIT INTO n TABLETS",
    )
}
