//! What the tree refuses, as typed errors (never a panic on caller input).

use std::fmt;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BTreeError {
    /// The page size is not a multiple of 8 within 128..=32768.
    PageSize { page_size: u32 },
    /// A fillfactor outside PostgreSQL's 10..=100.
    FillFactor { which: &'static str, value: u8 },
    /// PostgreSQL: "index row size N exceeds btree version 4 maximum M".
    TupleTooLarge { size: u16, max: u16 },
    /// The tuple size must be MAXALIGN'd and at least the 8-byte tuple header.
    TupleSizeInvalid { size: u16 },
    /// Keys are limited to 65535 encoded bytes (far above any legal tuple).
    KeyTooLong { len: usize },
    /// The (key, payload) pair is already in the tree: payloads are heap TIDs, which
    /// PostgreSQL never indexes twice under the same key.
    DuplicateEntry { payload: u64 },
}

impl fmt::Display for BTreeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BTreeError::PageSize { page_size } => write!(
                f,
                "invalid page size {page_size}: must be a multiple of 8 between 128 and 32768"
            ),
            BTreeError::FillFactor { which, value } => write!(
                f,
                "value {value} out of bounds for option \"{which}\" (must be between 10 and 100)"
            ),
            BTreeError::TupleTooLarge { size, max } => write!(
                f,
                "index row size {size} exceeds btree version 4 maximum {max}"
            ),
            BTreeError::TupleSizeInvalid { size } => write!(
                f,
                "invalid index tuple size {size}: must be a multiple of 8, at least 8"
            ),
            BTreeError::KeyTooLong { len } => {
                write!(f, "index key of {len} bytes is too long")
            }
            BTreeError::DuplicateEntry { payload } => {
                write!(
                    f,
                    "index entry for this key and heap tid {payload} already exists"
                )
            }
        }
    }
}

impl std::error::Error for BTreeError {}
