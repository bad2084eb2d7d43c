//! ALTER TABLE on the PostgreSQL profile. Every action is checked before any
//! is applied, so a refused statement changes nothing (PostgreSQL runs it in
//! one transaction). What each action does to storage follows PostgreSQL 15:
//! ADD COLUMN with a constant default rewrites nothing (old tuples read the
//! column as "missing"), a key builds its index as CREATE INDEX does, SET
//! (fillfactor) applies to later inserts only.

use super::ddl::ascending;
use super::engine::PgEngine;
use crate::exec::alter_checks as checks;
use crate::exec::drop_column;
use crate::exec::{Executor, QueryEngine};
use crate::profile::Outcome;
use crate::sql::ast::{AddKey, AlterAction, ColumnDef};
use crate::sql::error::{unsupported, ErrorKind, SqlError};
use crate::value::Value;

impl PgEngine {
    pub(super) fn alter_table(
        &mut self,
        table: &str,
        if_exists: bool,
        actions: &[AlterAction],
    ) -> Result<Outcome, SqlError> {
        let id = match self.catalog.table_id(table) {
            Ok(id) => id,
            Err(_) if if_exists => {
                return Ok(Outcome::tag("ALTER TABLE")
                    .notice(format!("relation \"{table}\" does not exist, skipping")))
            }
            Err(e) => return Err(e),
        };
        let mut out = Outcome::tag("ALTER TABLE");
        for a in actions {
            self.check_action(id, a)?;
        }
        let t = self.catalog.table(id);
        drop_column::keeps_a_column(t.columns.len(), columns_dropped(&t.columns, actions))?;
        for a in actions {
            self.apply_action(id, a, &mut out)?;
        }
        Ok(out)
    }

    /// What would make `a` fail, found before anything changes.
    fn check_action(&mut self, id: usize, a: &AlterAction) -> Result<(), SqlError> {
        let t = self.catalog.table(id);
        match a {
            AlterAction::SetOptions(options) => options
                .iter()
                .try_for_each(|(k, v)| storage_parameter(k, v).map(|_| ())),
            AlterAction::AddColumn {
                column,
                if_not_exists,
                key,
            } => {
                let rows = t.heap.live_rows() + t.heap.dead_tuples();
                let counts = (rows as usize, t.heap.live_rows() as usize);
                let (columns, name) = (&t.columns, &t.name);
                let flags = (*if_not_exists, key.is_some(), true);
                checks::add_column(columns, name, column, flags, counts).map(|_| ())
            }
            AlterAction::AddKey(k) => self.check_key(id, k),
            AlterAction::DropConstraint { name, if_exists } => {
                match (self.constraint_index(id, name), if_exists) {
                    (Some(_), _) | (None, true) => Ok(()),
                    (None, false) => Err(checks::no_constraint(name, &t.name)),
                }
            }
            AlterAction::DropColumn {
                name,
                if_exists,
                cascade,
            } => drop_column::plan(&t.name, &t.columns, name, *if_exists, *cascade).map(|_| ()),
            AlterAction::RenameColumn { from, to } => {
                checks::rename_column(&t.columns, &t.name, from, to)
            }
            AlterAction::RenameTable { to } => {
                checks::rename_table(self.catalog.name_taken(to), to)
            }
        }
    }

    /// A key's columns exist, the primary key is the only one, no row holds
    /// a NULL (primary key) or a duplicate in them.
    fn check_key(&mut self, id: usize, k: &AddKey) -> Result<(), SqlError> {
        let t = self.catalog.table(id);
        let (table, columns) = (t.name.clone(), t.columns.clone());
        checks::key_positions(&columns, k)?;
        if k.primary && t.indexes.iter().any(|&i| self.catalog.index(i).primary) {
            return Err(SqlError::new(
                ErrorKind::Semantic,
                format!("multiple primary keys for table \"{table}\" are not allowed"),
            ));
        }
        let name = self.key_name(id, k);
        checks::rename_table(self.catalog.name_taken(&name), &name)?;
        let (rows, _) = self.heap_rows(id)?;
        checks::rows_fit_key(rows.iter().map(|(_, r)| r), &columns, &table, k, &name)
    }

    fn key_name(&self, id: usize, k: &AddKey) -> String {
        let table = &self.catalog.table(id).name;
        match (&k.name, k.primary) {
            (Some(n), _) => n.clone(),
            (None, true) => format!("{table}_pkey"),
            (None, false) => {
                let cols: Vec<String> = k.columns.iter().map(|c| c.name.clone()).collect();
                self.catalog.default_index_name(table, &cols, "key")
            }
        }
    }

    /// The index of constraint `name` on table `id`.
    fn constraint_index(&self, id: usize, name: &str) -> Option<usize> {
        self.catalog.table(id).indexes.iter().copied().find(|&i| {
            let ix = self.catalog.index(i);
            ix.constraint && crate::exec::schemas::bare(&ix.name) == name
        })
    }

    fn apply_action(
        &mut self,
        id: usize,
        a: &AlterAction,
        out: &mut Outcome,
    ) -> Result<(), SqlError> {
        match a {
            AlterAction::SetOptions(options) => {
                for (k, v) in options {
                    match storage_parameter(k, v)? {
                        Parameter::Fillfactor(ff) => self
                            .catalog
                            .table_mut(id)
                            .heap
                            .set_fillfactor(ff)
                            .map_err(|e| SqlError::new(ErrorKind::Semantic, e.to_string()))?,
                        Parameter::Autovacuum => out.notices.push(AUTOVACUUM_NOTE.into()),
                    }
                }
            }
            AlterAction::AddColumn { column, key, .. } => {
                let t = self.catalog.table(id);
                if let Some(notice) = checks::column_skipped(&t.columns, &t.name, column) {
                    out.notices.push(notice);
                    return Ok(());
                }
                self.add_column(id, column)?;
                let volatile = column.serial
                    || column
                        .default
                        .as_ref()
                        .is_some_and(crate::exec::executor::is_volatile);
                let t = self.catalog.table(id);
                let rows = t.heap.live_rows() + t.heap.dead_tuples();
                if volatile && rows > 0 {
                    self.rewrite_with_defaults(id, t.columns.len() - 1)?;
                } else if column.generated.is_some() {
                    self.rewrite_with_generated_values(id)?;
                }
                if let Some(k) = key {
                    self.add_key(id, k)?;
                }
            }
            AlterAction::AddKey(k) => self.add_key(id, k)?,
            AlterAction::DropConstraint { name, .. } => match self.constraint_index(id, name) {
                Some(i) => {
                    if let Some(ix) = self.catalog.indexes[i].take() {
                        self.io.pool.drop_relation(ix.rel);
                        self.catalog.table_mut(id).indexes.retain(|&x| x != i);
                    }
                }
                None => out.notices.push(format!(
                    "constraint \"{name}\" of relation \"{}\" does not exist, skipping",
                    self.catalog.table(id).name
                )),
            },
            AlterAction::DropColumn {
                name,
                if_exists,
                cascade,
            } => {
                let t = self.catalog.table(id);
                let drop = drop_column::plan(&t.name, &t.columns, name, *if_exists, *cascade)?;
                out.notices.extend(drop.notices);
                for position in drop.positions {
                    self.drop_column(id, position)?;
                }
            }
            AlterAction::RenameColumn { from, to } => {
                let t = self.catalog.table_mut(id);
                if let Some(c) = t.columns.iter_mut().find(|c| &c.name == from) {
                    c.name = to.clone();
                }
            }
            AlterAction::RenameTable { to } => {
                let t = self.catalog.table_mut(id);
                t.name = to.clone();
                let rel = t.rel as usize;
                if let Some(n) = self.io.names.get_mut(rel) {
                    *n = to.as_str().into();
                }
            }
        }
        Ok(())
    }

    /// The column joins the table; each stored row reads its default (or
    /// NULL), with no tuple rewritten.
    fn add_column(&mut self, id: usize, column: &ColumnDef) -> Result<(), SqlError> {
        let value = match self.column_defaults(std::slice::from_ref(column))?.pop() {
            Some(Some(v)) => v,
            _ => Value::Null,
        };
        let t = self.catalog.table_mut(id);
        t.columns.push(column.clone());
        t.types.push(column.ty);
        t.sequences.push(column.serial.then_some(1));
        t.heap.for_each_row_mut(|row| row.push(value.clone()));
        Ok(())
    }

    /// Column `position` leaves the table. As in PostgreSQL, the tuples
    /// keep their bytes (and their size on the page); the indexes and
    /// statistics objects holding the column go, and the others read the
    /// columns' new positions.
    fn drop_column(&mut self, id: usize, position: usize) -> Result<(), SqlError> {
        let name = self.catalog.table(id).columns[position].name.clone();
        let indexes = self.catalog.table(id).indexes.clone();
        for &i in &indexes {
            if index_uses(self.catalog.index(i), position, &name) {
                if let Some(ix) = self.catalog.indexes[i].take() {
                    self.io.pool.drop_relation(ix.rel);
                }
                self.catalog.table_mut(id).indexes.retain(|&x| x != i);
            }
        }
        self.catalog.statistics.drop_column(id, position);
        let t = self.catalog.table_mut(id);
        let attnum = t.attnum(position);
        // The tuples keep the value's bytes: remembered for pageinspect.
        let mut kept = Vec::new();
        for page in 0..t.heap.page_count() {
            for (i, lp) in t.heap.raw_items(page).unwrap_or(&[]).iter().enumerate() {
                if let super::heap::LinePointer::Normal(tuple) = lp {
                    if let Some(v) = tuple.row.get(position).filter(|v| !v.is_null()) {
                        let tid = (u64::from(page) << 16) | (i as u64 + 1);
                        kept.push(((tid, tuple.xmin), v.clone()));
                    }
                }
            }
        }
        for (key, v) in kept {
            t.dropped_values.entry(key).or_default().push((attnum, v));
        }
        t.columns.remove(position);
        let ty = t.types.remove(position);
        t.dropped.push((attnum, ty));
        t.sequences.remove(position);
        if position < t.column_stats.len() {
            t.column_stats.remove(position);
        }
        t.heap.for_each_row_mut(|row| {
            if position < row.len() {
                row.remove(position);
            }
        });
        let scope = self.table_scope(id);
        for i in self.catalog.table(id).indexes.clone() {
            let ix = self.catalog.indexes[i]
                .as_mut()
                .expect("a table's index exists");
            let positions = ix
                .key
                .iter_mut()
                .map(|(c, _)| c)
                .chain(ix.include.iter_mut());
            let (expressions, predicate) = (&mut ix.expressions, &mut ix.predicate);
            drop_column::renumber_index(positions, expressions, predicate, position, &scope)?;
        }
        Ok(())
    }

    /// A key's index, built as CREATE INDEX builds one; a primary key's
    /// columns become NOT NULL.
    fn add_key(&mut self, id: usize, k: &AddKey) -> Result<(), SqlError> {
        let name = self.key_name(id, k);
        let table = self.catalog.table(id).name.clone();
        if k.primary {
            let t = self.catalog.table_mut(id);
            for c in t.columns.iter_mut() {
                if k.columns.iter().any(|k| k.name == c.name) {
                    c.not_null = true;
                }
            }
        }
        self.build_index(&name, &table, &ascending(&k.columns), &[], true, None)?;
        self.mark_constraint(k.primary, k.deferrable);
        Ok(())
    }
}

/// Whether index `ix` holds column `position` (named `name`): in its key,
/// its INCLUDE, an expression or its WHERE.
fn index_uses(ix: &super::catalog::Index, position: usize, name: &str) -> bool {
    ix.key.iter().any(|&(c, _)| c == position)
        || ix.include.contains(&position)
        || ix
            .expressions
            .iter()
            .any(|e| drop_column::uses(&e.expr, name))
        || ix
            .predicate
            .as_ref()
            .is_some_and(|p| drop_column::uses(&p.expr, name))
}

/// How many columns the statement's DROP COLUMNs remove from `columns`
/// (a generated column computed from one goes with it under CASCADE).
fn columns_dropped(columns: &[ColumnDef], actions: &[AlterAction]) -> usize {
    let mut gone: Vec<usize> = Vec::new();
    for a in actions {
        if let AlterAction::DropColumn { name, cascade, .. } = a {
            let table = "";
            if let Ok(d) = drop_column::plan(table, columns, name, true, *cascade) {
                gone.extend(d.positions);
            }
        }
    }
    gone.sort_unstable();
    gone.dedup();
    gone.len()
}

/// CREATE TABLE's `WITH (…)`: the fillfactor it sets, and the notices of
/// what IndexLab accepts without effect.
pub(super) fn table_options(
    options: &[(String, String)],
) -> Result<(Option<u8>, Vec<String>), SqlError> {
    let mut fillfactor = None;
    let mut notices = Vec::new();
    for (k, v) in options {
        match storage_parameter(k, v)? {
            Parameter::Fillfactor(ff) => fillfactor = Some(ff),
            Parameter::Autovacuum => notices.push(AUTOVACUUM_NOTE.to_string()),
        }
    }
    notices.dedup();
    Ok((fillfactor, notices))
}

enum Parameter {
    Fillfactor(u8),
    Autovacuum,
}

const AUTOVACUUM_NOTE: &str =
    "IndexLab runs no autovacuum: a table is vacuumed when the script says VACUUM";

/// A storage parameter of `SET (…)` that IndexLab applies or may ignore.
fn storage_parameter(name: &str, value: &str) -> Result<Parameter, SqlError> {
    let name = name.to_ascii_lowercase();
    if name == "fillfactor" {
        let n: i64 = value.parse().map_err(|_| {
            SqlError::new(
                ErrorKind::Semantic,
                format!("invalid value for integer option \"fillfactor\": {value}"),
            )
        })?;
        return match u8::try_from(n) {
            Ok(ff) if (10..=100).contains(&ff) => Ok(Parameter::Fillfactor(ff)),
            _ => Err(SqlError::new(
                ErrorKind::Semantic,
                format!("value {value} out of bounds for option \"fillfactor\""),
            )
            .with_hint("Valid values are between \"10\" and \"100\".")),
        };
    }
    if name.starts_with("autovacuum_") || name.starts_with("toast.autovacuum_") {
        return Ok(Parameter::Autovacuum);
    }
    if let Some(e) = crate::exec::alter_checks::unrecognized_parameter(&name) {
        return Err(e);
    }
    Err(unsupported(format!("the storage parameter {name}")).near(name))
}
