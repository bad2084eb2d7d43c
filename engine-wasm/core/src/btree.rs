//! A B+tree modelled on PostgreSQL's nbtree, over byte keys.
//!
//! Entries are (key bytes, u64 payload — a heap TID the caller packs — and the
//! tuple's on-page size). The order is (key, payload), the heap TID acting as a
//! tiebreaker as in PostgreSQL 12 and later, so duplicate keys are allowed and
//! (key, payload) pairs are unique. Pages account bytes as PostgreSQL does (page
//! header, special space, line pointers, MAXALIGN'd tuples, high keys) and split by
//! PostgreSQL's rules, so page counts — and therefore buffer counts — come out as
//! the database's do.
//!
//! The tree does not own a buffer pool: every page it touches is reported, in
//! order, to a [`PageAccess`](crate::storage::PageAccess) argument.
//!
//! - [`config`]: page size and fillfactors; PostgreSQL's size limits.
//! - `page`: a slotted page with byte accounting.
//! - `split`: where a full page splits (nbtsplitloc.c).
//! - `tree`: descent, insert, delete.
//! - `cursor` and `range`: scans with prefix bounds, both directions.
//! - `vacuum`: VACUUM's bulk delete.
//! - `shape` and `check`: introspection and invariants; `inspect`: a page in
//!   line-pointer order with its LP_DEAD hints, for pageinspect.
//! - [`truncate`]: suffix truncation of a leaf split's pivot.
//! - [`key`] and `tuple_size`: typed rows to ordered bytes, and their on-page size.

mod check;
mod compare;
pub mod config;
mod cursor;
mod error;
mod inspect;
pub mod key;
pub mod numeric_key;
mod page;
mod range;
mod shape;
mod split;
mod tree;
pub mod truncate;
mod tuple_size;
mod vacuum;

pub use config::BTreeConfig;
pub use cursor::{Cursor, Direction, Entry};
pub use error::BTreeError;
pub use inspect::{ItemKind, ItemView, PageView};
pub use key::{
    check_key_types, decode_key, decode_prefix, encode_key, encode_key_into, without_nulls,
    KeyColumn, KeyError, SortOrder,
};
pub use range::KeyRange;
pub use shape::{LevelShape, PageInfo, PageShape, Shape};
pub use tree::{BTree, InsertOutcome, SplitEvent, META_PAGE};
pub use tuple_size::index_tuple_size;

#[cfg(test)]
mod tests_access;
#[cfg(test)]
mod tests_article;
#[cfg(test)]
mod tests_key;
#[cfg(test)]
mod tests_model;
#[cfg(test)]
mod tests_split;
