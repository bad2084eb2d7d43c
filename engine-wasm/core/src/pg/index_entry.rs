//! An index entry encoded before its heap tuple exists: an INSERT encodes the
//! row's key for every index first (so a bad key refuses the row before the
//! heap is touched, and the row then moves into the heap without a copy), and
//! points the entries at the tuple once it has a TID. The engine keeps one per
//! index, with its key buffer, from row to row.

/// The entry's size on the page, and whether its key holds a NULL (a unique
/// index does not check such a key for duplicates).
#[derive(Debug, Default, Clone, Copy)]
pub(super) struct Prepared {
    pub(super) size: u16,
    pub(super) null_key: bool,
    /// The row is outside a partial index (its WHERE is not true for it):
    /// no entry is written.
    pub(super) skip: bool,
}
