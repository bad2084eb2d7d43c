//! Transaction ids, as PostgreSQL hands them out (`GetNewTransactionId`,
//! varsup.c): a transaction gets one only when it first writes — a row
//! inserted, updated or deleted, or the catalog changed by DDL — and keeps it
//! to its end; a read-only statement never takes one, and
//! `txid_current()` takes one if there is none yet. Every row version
//! records the id of the transaction that wrote it (`xmin`) and of the one
//! that deleted or replaced it (`xmax`), which `select xmin, xmax, * from t`
//! shows.
//!
//! The numbers are a new PostgreSQL 15 cluster's: `initdb` itself uses the
//! ids below 724, so the first transaction of a fresh server that writes gets
//! 724 (a server that ran other work first would be further on).

use super::heap::TransactionId;

/// The first id a new PostgreSQL 15 cluster hands out after `initdb`.
pub const FIRST_TRANSACTION_ID: TransactionId = 724;

/// The oldest id whose fate a new cluster still records (its commit log
/// starts here after `initdb`'s final VACUUM FREEZE): `txid_status()` of an
/// older one is NULL.
pub const OLDEST_RECORDED_ID: TransactionId = 716;

#[derive(Debug, Clone)]
pub struct Xact {
    next: TransactionId,
    /// The id of the transaction running now, once it has written.
    current: Option<TransactionId>,
    /// Transactions that ended in an error (or ROLLBACK) after taking an id.
    aborted: std::collections::BTreeSet<TransactionId>,
    /// The running command's id within the transaction (`currentCommandId`):
    /// each statement that wrote gets the next one.
    command: u32,
    /// The running command wrote a tuple with its id (`currentCommandIdUsed`).
    command_used: bool,
    /// Combo command ids of the transaction (combocid.c): the (cmin, cmax)
    /// pairs of tuples it both inserted and deleted, numbered from 0.
    combos: Vec<(u32, u32)>,
}

impl Default for Xact {
    fn default() -> Self {
        Xact {
            next: FIRST_TRANSACTION_ID,
            current: None,
            aborted: Default::default(),
            command: 0,
            command_used: false,
            combos: Vec::new(),
        }
    }
}

/// What `txid_status()` says of a transaction id.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum XidStatus {
    Committed,
    Aborted,
    InProgress,
    /// Too old for the commit log (NULL).
    Unknown,
    /// Not handed out yet (an error).
    Future,
}

impl Xact {
    /// The running transaction's id, assigned at its first write
    /// (`GetCurrentTransactionId`).
    pub fn assign(&mut self) -> TransactionId {
        if let Some(x) = self.current {
            return x;
        }
        let x = self.next;
        self.next += 1;
        self.current = Some(x);
        x
    }

    /// The running transaction's id if it has one.
    pub fn current(&self) -> Option<TransactionId> {
        self.current
    }

    /// The transaction ended, committed or not: the next one starts without
    /// an id.
    pub fn end(&mut self, committed: bool) {
        if let (false, Some(x)) = (committed, self.current) {
            self.aborted.insert(x);
        }
        self.current = None;
        self.command = 0;
        self.command_used = false;
        self.combos.clear();
    }

    /// The command id a tuple written now records (`GetCurrentCommandId(true)`).
    pub fn command_id(&mut self) -> u32 {
        self.command_used = true;
        self.command
    }

    /// A statement ended (`CommandCounterIncrement`): the next one sees its
    /// writes and, if it wrote, gets the next command id.
    pub fn statement_done(&mut self) {
        if self.command_used {
            self.command += 1;
            self.command_used = false;
        }
    }

    /// The combo command id standing for (`cmin`, `cmax`) (`GetComboCommandId`).
    pub fn combo(&mut self, cmin: u32, cmax: u32) -> u32 {
        let at = self.combos.iter().position(|&p| p == (cmin, cmax));
        at.unwrap_or_else(|| {
            self.combos.push((cmin, cmax));
            self.combos.len() - 1
        }) as u32
    }

    /// `txid_status(xid)` (`TransactionIdInRecentPast` and the commit log).
    pub fn status(&self, xid: u64) -> XidStatus {
        // 1 and 2 are the bootstrap and frozen ids: always committed.
        if xid == 1 || xid == 2 {
            return XidStatus::Committed;
        }
        if xid >= u64::from(self.next) {
            return XidStatus::Future;
        }
        let xid = xid as TransactionId;
        if xid < OLDEST_RECORDED_ID {
            XidStatus::Unknown
        } else if self.current == Some(xid) {
            XidStatus::InProgress
        } else if self.aborted.contains(&xid) {
            XidStatus::Aborted
        } else {
            XidStatus::Committed
        }
    }
}

/// `txid_status(id)` as a value, `id` as written (a number).
pub fn txid_status(
    xact: &Xact,
    id: &str,
) -> Result<crate::value::Value, crate::sql::error::SqlError> {
    use crate::sql::error::{ErrorKind, SqlError};
    use crate::value::Value;
    let xid: u64 = id.parse().map_err(|_| {
        SqlError::new(
            ErrorKind::Semantic,
            format!("invalid input syntax for type bigint: \"{id}\""),
        )
    })?;
    Ok(match xact.status(xid) {
        XidStatus::Committed => Value::text("committed"),
        XidStatus::Aborted => Value::text("aborted"),
        XidStatus::InProgress => Value::text("in progress"),
        XidStatus::Unknown => Value::Null,
        XidStatus::Future => {
            return Err(SqlError::new(
                ErrorKind::Semantic,
                format!("transaction ID {xid} is in the future"),
            ))
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_id_is_taken_at_the_first_write_and_kept_to_the_end() {
        let mut x = Xact::default();
        assert_eq!(x.current(), None);
        assert_eq!(x.assign(), 724);
        assert_eq!(x.assign(), 724);
        x.end(true);
        // A transaction that never wrote used no id.
        x.end(false);
        assert_eq!(x.assign(), 725);
        assert_eq!(x.status(725), XidStatus::InProgress);
        x.end(false);
        assert_eq!(x.status(724), XidStatus::Committed);
        assert_eq!(x.status(725), XidStatus::Aborted);
        assert_eq!(x.status(726), XidStatus::Future);
        assert_eq!(x.status(700), XidStatus::Unknown);
        assert_eq!(x.status(2), XidStatus::Committed);
    }
}
