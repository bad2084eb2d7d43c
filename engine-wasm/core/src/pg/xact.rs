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

#[derive(Debug, Clone)]
pub struct Xact {
    next: TransactionId,
    /// The id of the transaction running now, once it has written.
    current: Option<TransactionId>,
}

impl Default for Xact {
    fn default() -> Self {
        Xact {
            next: FIRST_TRANSACTION_ID,
            current: None,
        }
    }
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

    /// The transaction ended (committed, or aborted by an error): the next
    /// one starts without an id.
    pub fn end(&mut self) {
        self.current = None;
    }
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
        x.end();
        // A transaction that never wrote used no id.
        x.end();
        assert_eq!(x.assign(), 725);
    }
}
