//! What every paged structure reports to whoever counts its page accesses.
//!
//! The structures (`btree`, `pg::heap`) do not own a buffer pool: they say which of
//! their pages they touch and how, through [`PageAccess`]. The PostgreSQL profile
//! routes that to the shared buffer pool (counting hits, reads, dirtied pages); a
//! test can count accesses with a plain vector.

/// A page number inside one relation (PostgreSQL's BlockNumber).
pub type PageNo = u32;

/// How a page is touched.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Access {
    /// Read only.
    Read,
    /// Modified: the buffer becomes dirty.
    Write,
    /// A page newly added at the end of the relation (it is written, never read).
    Extend,
}

/// Receives every page access of a structure, in the order they happen.
pub trait PageAccess {
    fn access(&mut self, page: PageNo, how: Access);
}

/// Ignores accesses: for callers that do not count (bulk setup in tests).
pub struct NoAccounting;

impl PageAccess for NoAccounting {
    fn access(&mut self, _page: PageNo, _how: Access) {}
}

/// Records accesses in order: for tests.
#[derive(Debug, Default, Clone)]
pub struct AccessLog(pub Vec<(PageNo, Access)>);

impl PageAccess for AccessLog {
    fn access(&mut self, page: PageNo, how: Access) {
        self.0.push((page, how));
    }
}
