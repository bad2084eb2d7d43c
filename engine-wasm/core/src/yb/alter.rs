//! ALTER TABLE on the YugabyteDB profile: storage parameters, a UNIQUE
//! constraint added or dropped (a unique secondary index, built as CREATE
//! INDEX builds one), renames. A column or a primary key added is refused by
//! name: YugabyteDB rewrites a table for a new primary key (its rows are
//! stored by it), and IndexLab's rows keep the column layout they were
//! written with.

use super::engine::YbEngine;
use crate::exec::alter_checks as checks;
use crate::profile::Outcome;
use crate::sql::ast::{AddKey, AlterAction, CreateIndex};
use crate::sql::error::{unsupported, ErrorKind, SqlError};

/// Storage parameters (CREATE TABLE's `WITH`, ALTER TABLE's `SET`): the
/// ones YugabyteDB accepts change nothing here, and say so.
pub(super) fn storage_notices(options: &[(String, String)]) -> Result<Vec<String>, SqlError> {
    let mut notices = Vec::new();
    for (k, _) in options {
        let note = if k == "fillfactor" {
            "fillfactor changes nothing on YugabyteDB: its rows live in DocDB's SST files, \
             not on heap pages"
                .to_string()
        } else if k.starts_with("autovacuum_") || k.starts_with("toast.autovacuum_") {
            format!(
                "{k}: IndexLab runs no autovacuum (and YugabyteDB needs none: compaction \
                 removes old versions)"
            )
        } else {
            return Err(unsupported(format!(
                "the storage parameter {k} on YugabyteDB"
            )));
        };
        notices.push(note);
    }
    Ok(notices)
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
            AlterAction::SetOptions(options) => storage_notices(options).map(|_| ()),
            AlterAction::AddColumn { .. } => Err(unsupported(
                "ALTER TABLE … ADD COLUMN on YugabyteDB (IndexLab's DocDB rows keep the columns \
                 they were written with)",
            )),
            AlterAction::AddKey(k) if k.primary => Err(unsupported(
                "ALTER TABLE … ADD PRIMARY KEY on YugabyteDB (it rewrites the table: rows are \
                 stored by their primary key)",
            )),
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
            ix.constraint && ix.name == name
        })
    }

    fn apply_action(
        &mut self,
        id: usize,
        a: &AlterAction,
        out: &mut Outcome,
    ) -> Result<(), SqlError> {
        match a {
            AlterAction::SetOptions(options) => out.notices.extend(storage_notices(options)?),
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
            AlterAction::AddColumn { .. } => unreachable!("refused by check_action"),
        }
        Ok(())
    }
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
