//! The running transaction's provisional records. A YugabyteDB transaction
//! writes intents (provisional records) that only its own reads see; COMMIT
//! makes them regular records, an abort cleans them up and no other reader
//! ever saw them. A statement outside a block is a transaction of its own: a
//! multi-row INSERT that fails on its third row leaves no row behind.
//!
//! IndexLab writes a transaction's records straight into each tablet's
//! memtable (values carrying the intent's hybrid time), and keeps here which
//! ones it wrote; an abort takes them back out of the memtables.

use super::engine::YbEngine;
use crate::lsm::SeqNo;
use crate::sql::ast::{Statement, TxnCommand};
use crate::sql::error::{ErrorKind, SqlError};
use std::collections::{BTreeMap, BTreeSet};

/// The records the running transaction wrote, by tablet.
#[derive(Debug, Default)]
pub struct Provisional {
    writes: BTreeMap<usize, BTreeSet<SeqNo>>,
}

impl Provisional {
    pub fn record(&mut self, tablet: usize, seq: SeqNo) {
        self.writes.entry(tablet).or_default().insert(seq);
    }
}

impl YbEngine {
    /// Whether `stmt` ends the transaction without committing it.
    pub(super) fn rolls_back(&self, stmt: &Statement) -> bool {
        matches!(stmt, Statement::Transaction(TxnCommand::Rollback))
            || (matches!(stmt, Statement::Transaction(TxnCommand::Commit))
                && self.transaction.failed)
    }

    /// After a statement: a failed one fails its block (or, alone, aborts);
    /// the end of a transaction commits or cleans up its records.
    pub(super) fn end_statement(
        &mut self,
        out: Result<crate::profile::Outcome, SqlError>,
        rolls_back: bool,
    ) -> Result<crate::profile::Outcome, SqlError> {
        if self.transaction.start_us.is_some() {
            self.transaction.failed |= out.is_err();
            return out;
        }
        let writes = std::mem::take(&mut self.provisional.writes);
        if out.is_ok() && !rolls_back {
            return out;
        }
        match (self.clean_up(writes), out) {
            (Ok(()), out) => out,
            (Err(e), Ok(_)) => Err(e),
            (Err(e), Err(mut failed)) => {
                failed.hint = Some(e.message.clone());
                Err(failed)
            }
        }
    }

    /// An aborted transaction's records leave the memtables.
    fn clean_up(&mut self, writes: BTreeMap<usize, BTreeSet<SeqNo>>) -> Result<(), SqlError> {
        for (tablet, seqs) in writes {
            // A tablet a failed CREATE TABLE or INDEX dropped again.
            let Some(t) = self.tablets.get_mut(tablet) else {
                continue;
            };
            let lsm = &mut t.lsm;
            let taken = lsm
                .discard(&seqs)
                .map_err(|e| SqlError::new(ErrorKind::Execution, e.to_string()))?;
            if !taken {
                // YugabyteDB keeps provisional records in a separate store
                // (IntentsDB) that a flush of the regular records never takes.
                return Err(crate::sql::error::unsupported(
                    "undoing a transaction whose records a flush already wrote to an SST \
                     file, on YugabyteDB (IndexLab keeps provisional records in the \
                     memtable; the rows the transaction wrote stay)",
                ));
            }
        }
        Ok(())
    }
}
