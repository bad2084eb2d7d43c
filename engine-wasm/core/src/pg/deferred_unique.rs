//! DEFERRABLE unique constraints, as PostgreSQL checks them.
//!
//! An index of a DEFERRABLE constraint lets an equal key in: `_bt_doinsert`
//! with `UNIQUE_CHECK_PARTIAL` inserts the entry even when a live row has
//! the same key, and queues a recheck of the new row (an AFTER ROW trigger,
//! `unique_key_recheck`). The recheck runs when the statement ends, or at
//! COMMIT while the constraint is deferred (`INITIALLY DEFERRED`, `SET
//! CONSTRAINTS … DEFERRED`). It skips a row that is no longer live, and
//! otherwise fails if another live row still has its key. Meanwhile both
//! entries sit side by side in the index: `UPDATE t SET id = id + 1` works,
//! and pageinspect shows the duplicate.

use super::engine::PgEngine;
use super::held_page::HeldPage;
use super::tid::Tid;
use crate::buffer_pool::Fork;
use crate::profile::Outcome;
use crate::sql::ast::Deferrable;
use crate::sql::error::{ErrorKind, SqlError};
use std::collections::HashMap;

/// The checks a transaction has queued, and its SET CONSTRAINTS.
#[derive(Default)]
pub struct DeferredUnique {
    /// Rows whose entry went in beside an equal key: (index, heap TID).
    pending: Vec<(usize, u64)>,
    /// `SET CONSTRAINTS ALL …` of the running transaction block.
    all: Option<bool>,
    /// `SET CONSTRAINTS name …` of the running transaction block, by index.
    named: HashMap<usize, bool>,
    /// Rechecks fired by the statement running, by index (EXPLAIN ANALYZE
    /// prints them as `Trigger for constraint …: calls=N`).
    fired: Vec<(usize, u64)>,
}

impl DeferredUnique {
    /// Whether `index` (of a constraint made `deferrable`) is deferred now.
    fn deferred(&self, index: usize, deferrable: Deferrable) -> bool {
        self.named
            .get(&index)
            .copied()
            .or(self.all)
            .unwrap_or(deferrable.initially_deferred)
    }

    /// The transaction ended: its checks and settings go with it.
    pub fn end_transaction(&mut self) {
        self.pending.clear();
        self.all = None;
        self.named.clear();
    }

    /// The rechecks the statement fired, by index, and forgets them.
    pub fn take_fired(&mut self) -> Vec<(usize, u64)> {
        std::mem::take(&mut self.fired)
    }

    fn count_fired(&mut self, index: usize) {
        match self.fired.iter_mut().find(|(i, _)| *i == index) {
            Some((_, n)) => *n += 1,
            None => self.fired.push((index, 1)),
        }
    }
}

impl PgEngine {
    /// No recheck is queued.
    pub(super) fn deferred_unique_idle(&self) -> bool {
        self.deferred_unique.pending.is_empty()
    }

    /// An entry of a DEFERRABLE constraint's index went in at `tid`: if a
    /// live row has the same key, the row is checked again later.
    pub(super) fn queue_recheck(
        &mut self,
        index: usize,
        key: &[u8],
        tid: u64,
    ) -> Result<(), SqlError> {
        let entries = self.equal_entries(index, key, false)?;
        if self.any_live(index, &entries, Some(tid))? {
            self.deferred_unique.pending.push((index, tid));
        }
        Ok(())
    }

    /// Runs the queued rechecks of constraints not deferred now (all of them
    /// when the transaction commits), in the order they were queued.
    pub(super) fn fire_rechecks(&mut self, at_commit: bool) -> Result<(), SqlError> {
        let pending = std::mem::take(&mut self.deferred_unique.pending);
        let mut result = Ok(());
        for (index, tid) in pending {
            let due = at_commit
                || match self.catalog.index_opt(index).and_then(|ix| ix.deferrable) {
                    Some(d) => !self.deferred_unique.deferred(index, d),
                    None => true,
                };
            if !due || result.is_err() {
                self.deferred_unique.pending.push((index, tid));
                continue;
            }
            self.deferred_unique.count_fired(index);
            result = self.recheck(index, tid);
        }
        result
    }

    /// `unique_key_recheck`: nothing to do if the row at `tid` (or a later
    /// member of its HOT chain) is no longer live; otherwise another live
    /// row with its key is a violation.
    fn recheck(&mut self, index: usize, tid: u64) -> Result<(), SqlError> {
        let Some(ix) = self.catalog.index_opt(index) else {
            return Ok(()); // dropped since
        };
        let t = self.catalog.table(ix.table);
        let (rel, heap) = (t.rel, &t.heap);
        let (row, stats) = self.io.rel(rel, Fork::Main, |io| {
            let mut held = HeldPage::new();
            heap.fetch(Tid::from_u64(tid), &mut held, io)
                .map(|(_, row)| row.clone())
        })?;
        self.count(rel, &stats);
        let Some(row) = row else { return Ok(()) };
        let mut key = Vec::new();
        self.catalog.index(index).entry_of(&row, &mut key)?;
        let entries = self.equal_entries(index, &key, true)?;
        if self.any_live(index, &entries, Some(tid))? {
            return Err(self.unique_violation(index, &key));
        }
        Ok(())
    }

    /// `SET CONSTRAINTS { ALL | name, … } { DEFERRED | IMMEDIATE }`. Outside
    /// a transaction block it only warns (the setting would end with the
    /// statement); the names are looked up all the same. Making a
    /// constraint IMMEDIATE runs its queued checks at once.
    pub(super) fn set_constraints(
        &mut self,
        names: Option<&[String]>,
        deferred: bool,
    ) -> Result<Outcome, SqlError> {
        let mut out = Outcome::tag("SET CONSTRAINTS");
        let in_block = self.transaction.start_us.is_some();
        if !in_block {
            // PostgreSQL's WARNING (IndexLab has one kind of message).
            out.notices
                .push("SET CONSTRAINTS can only be used in transaction blocks".into());
        }
        let indexes = match names {
            None => None,
            Some(names) => Some(
                names
                    .iter()
                    .map(|n| self.deferrable_constraint(n))
                    .collect::<Result<Vec<_>, _>>()?,
            ),
        };
        if !in_block {
            return Ok(out);
        }
        match indexes {
            None => {
                self.deferred_unique.all = Some(deferred);
                self.deferred_unique.named.clear();
            }
            Some(list) => {
                for index in list {
                    self.deferred_unique.named.insert(index, deferred);
                }
            }
        }
        if !deferred {
            self.fire_rechecks(false)?;
            self.deferred_unique.take_fired();
        }
        Ok(out)
    }

    /// The index of the constraint `name`, which must be DEFERRABLE.
    fn deferrable_constraint(&self, name: &str) -> Result<usize, SqlError> {
        let found = (0..self.catalog.indexes.len()).find(|&i| {
            self.catalog
                .index_opt(i)
                .is_some_and(|ix| ix.constraint && crate::exec::schemas::bare(&ix.name) == name)
        });
        let Some(index) = found else {
            return Err(SqlError::new(
                ErrorKind::Semantic,
                format!("constraint \"{name}\" does not exist"),
            )
            .near(name));
        };
        if self.catalog.index(index).deferrable.is_none() {
            return Err(SqlError::new(
                ErrorKind::Semantic,
                format!("constraint \"{name}\" is not deferrable"),
            )
            .near(name));
        }
        Ok(index)
    }
}
