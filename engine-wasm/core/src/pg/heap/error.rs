//! What heap operations can refuse.

use super::super::tid::Tid;
use std::fmt;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HeapError {
    /// The tuple cannot fit on any page (PostgreSQL: "row is too big").
    TupleTooLarge { size: u32, max: u32 },
    /// The TID names no tuple (page or line pointer out of range).
    InvalidTid(Tid),
    /// UPDATE or DELETE of a tuple that is not a live version (already deleted or
    /// superseded, pruned, or a redirect).
    NotLive(Tid),
    /// The relation reached the maximum number of pages.
    RelationFull,
    /// A setting out of range (page size, fillfactor).
    InvalidConfig(String),
}

impl fmt::Display for HeapError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HeapError::TupleTooLarge { size, max } => {
                write!(f, "row is too big: size {size}, maximum size {max}")
            }
            HeapError::InvalidTid(t) => write!(f, "invalid tid {t}"),
            HeapError::NotLive(t) => write!(f, "tuple {t} is not a live row version"),
            HeapError::RelationFull => write!(f, "cannot extend relation: too many pages"),
            HeapError::InvalidConfig(why) => write!(f, "invalid heap setting: {why}"),
        }
    }
}

impl std::error::Error for HeapError {}
