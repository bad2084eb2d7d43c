//! ALTER TABLE on the YugabyteDB profile: storage parameters, a UNIQUE
//! constraint added or dropped (a unique secondary index, built as CREATE
//! INDEX builds one), renames. A column or a primary key added is refused by
//! name: YugabyteDB rewrites a table for a new primary key (its rows are
//! stored by it), and IndexLab's rows keep the column layout they were
//! written with.

use super::engine::YbEngine;
use crate::exec::alter_checks as checks;
use crate::exec::drop_column;
use crate::exec::executor::is_volatile;
use crate::exec::{Executor, QueryEngine};
use crate::profile::Outcome;
use crate::sql::ast::{AddKey, AlterAction, ColumnDef, CreateIndex};
use crate::sql::error::{unsupported, ErrorKind, SqlError};
use crate::value::Value;
use std::rc::Rc;

/// Storage parameters (CREATE TABLE's `WITH`, ALTER TABLE's `SET`): the
/// ones YugabyteDB accepts change nothing here, and say so.
pub(super) fn storage_notices(
    options: &[(String, String)],
    creating: bool,
) -> Result<Vec<String>, SqlError> {
    let mut notices = Vec::new();
    for (k, v) in options {
        let note = if creating && (k == "colocation" || k == "colocated") {
            colocation(k, v)?
        } else if k == "fillfactor" {
            "fillfactor changes nothing on YugabyteDB: its rows live in DocDB's SST files, \
             not on heap pages"
                .to_string()
        } else if k.starts_with("autovacuum_") || k.starts_with("toast.autovacuum_") {
            format!(
                "{k}: IndexLab runs no autovacuum (and YugabyteDB needs none: compaction \
                 removes old versions)"
            )
        } else if let Some(e) = checks::unrecognized_parameter(k) {
            return Err(e);
        } else {
            return Err(unsupported(format!(
                "the storage parameter {k} on YugabyteDB"
            )));
        };
        notices.push(note);
    }
    Ok(notices)
}

/// CREATE TABLE's `colocation` (or its older name `colocated`). IndexLab's
/// database is one created without colocation, where every table has tablets
/// of its own: as in YugabyteDB (`YBCCreateTable`), `false` is what the
/// table gets anyway and `true` is refused.
fn colocation(name: &str, value: &str) -> Result<String, SqlError> {
    match value.to_ascii_lowercase().as_str() {
        "false" | "off" | "0" | "no" => Ok(format!(
            "{name} = false: the table gets tablets of its own, as every table does in a \
             database created without colocation"
        )),
        "true" | "on" | "1" | "yes" => Err(SqlError::new(
            ErrorKind::Semantic,
            "cannot set colocation true on a non-colocated database",
        )
        .with_hint(
            "IndexLab runs a script in one database, created without colocation \
             (CREATE DATABASE … WITH colocation = true is not supported by IndexLab).",
        )),
        _ => Err(SqlError::new(
            ErrorKind::Semantic,
            format!("{name} requires a Boolean value"),
        )),
    }
}

impl YbEngine {
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
        for a in actions {
            self.check_action(id, a)?;
        }
        let mut out = Outcome::tag("ALTER TABLE");
        for a in actions {
            self.apply_action(id, a, &mut out)?;
        }
        Ok(out)
    }

    fn check_action(&mut self, id: usize, a: &AlterAction) -> Result<(), SqlError> {
        let t = self.catalog.table(id);
        match a {
            AlterAction::SetOptions(options) => storage_notices(options, false).map(|_| ()),
            AlterAction::AddColumn {
                column,
                if_not_exists,
                key,
            } => {
                if key.as_ref().is_some_and(|k| k.primary) {
                    return Err(pk_refused());
                }
                let (columns, name) = (t.columns.clone(), t.name.clone());
                // Only what the checks need is read: a nullable column with a
                // constant default scans nothing.
                let needs_rows = column.not_null
                    || column.serial
                    || column.generated.is_some()
                    || key.is_some()
                    || column.default.as_ref().is_some_and(is_volatile);
                let live = match needs_rows {
                    true => self.rows_for_change(id, None)?.len(),
                    false => 0,
                };
                let counts = (live, live);
                let flags = (*if_not_exists, key.is_some(), false);
                checks::add_column(&columns, &name, column, flags, counts)?;
                if column.generated.is_some() && live > 0 {
                    return Err(unsupported(
                        "ADD COLUMN … GENERATED on YugabyteDB for a table with rows (it rewrites \
                         the table)",
                    ));
                }
                schema_versions_left(self.catalog.table(id))
            }
            AlterAction::DropColumn {
                name,
                if_exists,
                cascade,
            } => {
                let drop = drop_column::plan(&t.name, &t.columns, name, *if_exists, *cascade)?;
                let keyed = |c: &usize| {
                    t.key
                        .as_ref()
                        .is_some_and(|k| k.hash.contains(c) || k.range.contains(c))
                };
                if drop.positions.iter().any(keyed) {
                    return Err(unsupported(
                        "dropping a primary key column on YugabyteDB (it rewrites the table: \
                         rows are stored by their primary key)",
                    ));
                }
                schema_versions_left(t)
            }
            AlterAction::AddKey(k) if k.primary => Err(pk_refused()),
            AlterAction::AddKey(k) => self.check_unique(id, k),
            AlterAction::DropConstraint { name, if_exists } => {
                if t.key.is_some() && t.pk_name == *name {
                    return Err(unsupported(
                        "dropping the primary key on YugabyteDB (it rewrites the table)",
                    ));
                }
                match (self.constraint_index(id, name), if_exists) {
                    (Some(_), _) | (None, true) => Ok(()),
                    (None, false) => Err(SqlError::new(
                        ErrorKind::Semantic,
                        format!(
                            "constraint \"{name}\" of relation \"{}\" does not exist",
                            t.name
                        ),
                    )),
                }
            }
            AlterAction::RenameColumn { from, to } => {
                checks::rename_column(&t.columns, &t.name, from, to)
            }
            AlterAction::RenameTable { to } => {
                checks::rename_table(self.catalog.name_taken(to), to)
            }
        }
    }

    /// The key's columns exist and no two rows share a non-NULL key.
    fn check_unique(&mut self, id: usize, k: &AddKey) -> Result<(), SqlError> {
        if k.deferrable.is_some() {
            return Err(deferrable_refused());
        }
        let t = self.catalog.table(id);
        let (table, columns) = (t.name.clone(), t.columns.clone());
        checks::key_positions(&columns, k)?;
        let name = self.unique_name(id, k);
        checks::rename_table(self.catalog.name_taken(&name), &name)?;
        let rows = self.rows_for_change(id, None)?;
        checks::rows_fit_key(rows.iter().map(|(_, r)| r), &columns, &table, k, &name)
    }

    fn unique_name(&self, id: usize, k: &AddKey) -> String {
        let table = &self.catalog.table(id).name;
        k.name.clone().unwrap_or_else(|| {
            let cols: Vec<String> = k.columns.iter().map(|c| c.name.clone()).collect();
            crate::exec::relation_name::choose_relation_name(table, &cols, "key", |n| {
                self.catalog.name_taken(n)
            })
        })
    }

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
                out.notices.extend(storage_notices(options, false)?)
            }
            AlterAction::AddKey(k) => {
                let name = self.unique_name(id, k);
                let table = self.catalog.table(id).name.clone();
                self.create_index(&CreateIndex {
                    name: Some(name),
                    table,
                    columns: k.columns.clone(),
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
            AlterAction::DropConstraint { name, .. } => match self.constraint_index(id, name) {
                Some(i) => {
                    self.catalog.indexes[i] = None;
                    self.catalog.table_mut(id).indexes.retain(|&x| x != i);
                }
                None => out.notices.push(format!(
                    "constraint \"{name}\" of relation \"{}\" does not exist, skipping",
                    self.catalog.table(id).name
                )),
            },
            AlterAction::RenameColumn { from, to } => {
                let t = self.catalog.table_mut(id);
                if let Some(c) = t.columns.iter_mut().find(|c| &c.name == from) {
                    c.name = to.clone();
                }
            }
            AlterAction::RenameTable { to } => self.catalog.table_mut(id).name = to.clone(),
            AlterAction::AddColumn { column, key, .. } => {
                let t = self.catalog.table(id);
                if let Some(notice) = checks::column_skipped(&t.columns, &t.name, column) {
                    out.notices.push(notice);
                    return Ok(());
                }
                self.add_column(id, column)?;
                if let Some(k) = key {
                    self.apply_action(id, &AlterAction::AddKey(k.clone()), out)?;
                }
            }
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
        }
        Ok(())
    }
}

impl YbEngine {
    /// The column joins the table at a new schema version: rows already
    /// written keep theirs and read the column's default (or NULL).
    fn add_column(&mut self, id: usize, column: &ColumnDef) -> Result<(), SqlError> {
        let value = match self.column_defaults(std::slice::from_ref(column))?.pop() {
            Some(Some(v)) => v,
            _ => Value::Null,
        };
        let t = self.catalog.table_mut(id);
        let column_id = t
            .next_column_id
            .checked_add(1)
            .ok_or_else(too_many_columns)?;
        t.column_ids
            .push(std::mem::replace(&mut t.next_column_id, column_id));
        t.columns.push(column.clone());
        t.types.push(column.ty);
        t.sequences.push(column.serial.then_some(1));
        t.missing.push(value);
        let packing = t.value_packing();
        t.packings.push(Rc::new(packing));
        Ok(())
    }

    /// Column `position` leaves the table at a new schema version. The rows
    /// already written keep its bytes (their version's packing skips them),
    /// as DocDB keeps them until a compaction; the indexes holding it and
    /// the statistics objects naming it go.
    fn drop_column(&mut self, id: usize, position: usize) -> Result<(), SqlError> {
        let name = self.catalog.table(id).columns[position].name.clone();
        for i in self.catalog.table(id).indexes.clone() {
            if index_uses(self.catalog.index(i), position, &name) {
                self.catalog.indexes[i] = None;
                self.catalog.table_mut(id).indexes.retain(|&x| x != i);
            }
        }
        self.catalog.statistics.drop_column(id, position);
        let t = self.catalog.table_mut(id);
        t.columns.remove(position);
        t.types.remove(position);
        t.sequences.remove(position);
        t.column_ids.remove(position);
        t.missing.remove(position);
        if let Some(k) = &mut t.key {
            for c in k.hash.iter_mut().chain(k.range.iter_mut()) {
                *c = drop_column::shifted(*c, position);
            }
        }
        t.packings = t
            .packings
            .iter()
            .map(|p| Rc::new(p.without_column(position)))
            .collect();
        let packing = t.value_packing();
        t.packings.push(Rc::new(packing));
        let scope = self.table_scope(id);
        for i in self.catalog.table(id).indexes.clone() {
            let ix = self.catalog.indexes[i]
                .as_mut()
                .expect("a table's index exists");
            let positions = ix
                .key
                .iter_mut()
                .map(|(c, _, _)| c)
                .chain(ix.include.iter_mut());
            let (expressions, predicate) = (&mut ix.expressions, &mut ix.predicate);
            drop_column::renumber_index(positions, expressions, predicate, position, &scope)?;
        }
        Ok(())
    }
}

/// Whether index `ix` holds column `position` (named `name`).
fn index_uses(ix: &super::catalog::YbIndex, position: usize, name: &str) -> bool {
    ix.key.iter().any(|&(c, _, _)| c == position)
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

/// A packed row's version is one byte: 256 schema versions at most.
fn schema_versions_left(t: &super::catalog::YbTable) -> Result<(), SqlError> {
    match t.packings.len() < usize::from(u8::MAX) {
        true => Ok(()),
        false => Err(unsupported(
            "more than 255 ADD or DROP COLUMNs on one YugabyteDB table",
        )),
    }
}

fn too_many_columns() -> SqlError {
    unsupported("more than 255 columns ever added to one YugabyteDB table")
}

fn pk_refused() -> SqlError {
    unsupported(
        "ALTER TABLE … ADD PRIMARY KEY on YugabyteDB (it rewrites the table: rows are stored by \
         their primary key)",
    )
}

/// YugabyteDB's refusal of a DEFERRABLE primary key or unique constraint
/// (its issue 1709): its unique checks are made row by row in DocDB.
pub(super) fn deferrable_refused() -> SqlError {
    SqlError::new(
        crate::sql::error::ErrorKind::Unsupported,
        "DEFERRABLE unique constraints are not supported yet",
    )
    .near("deferrable")
    .with_hint("See https://github.com/yugabyte/yugabyte-db/issues/1129. React with thumbs up to raise its priority")
}
