//! What the LSM refuses, as typed errors (never a panic on caller input).

use std::fmt;

use super::types::SstId;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LsmError {
    /// An option outside the range the structure supports.
    InvalidOption { name: &'static str, reason: String },
    /// Keys are limited to [`MAX_KEY_LEN`](super::MAX_KEY_LEN) bytes.
    KeyTooLarge { len: usize, max: usize },
    /// Values are limited to [`MAX_VALUE_LEN`](super::MAX_VALUE_LEN) bytes.
    ValueTooLarge { len: usize, max: usize },
    /// An SST's keys or values passed 4 GiB (in-memory offsets are 32-bit).
    TableTooLarge,
    /// 2^56 writes: RocksDB's sequence numbers are 56 bits.
    SequenceExhausted,
    /// A compaction task names an SST the level snapshot does not hold.
    UnknownSst { id: SstId },
    /// A compaction task that cannot be applied (bad level, empty inputs…).
    InvalidTask { reason: String },
}

impl fmt::Display for LsmError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LsmError::InvalidOption { name, reason } => {
                write!(f, "invalid LSM option {name}: {reason}")
            }
            LsmError::KeyTooLarge { len, max } => {
                write!(f, "key of {len} bytes exceeds the maximum of {max} bytes")
            }
            LsmError::ValueTooLarge { len, max } => {
                write!(f, "value of {len} bytes exceeds the maximum of {max} bytes")
            }
            LsmError::TableTooLarge => write!(f, "SST file would exceed 4 GiB of keys or values"),
            LsmError::SequenceExhausted => write!(f, "sequence numbers exhausted (2^56 writes)"),
            LsmError::UnknownSst { id } => write!(f, "compaction names unknown SST {id}"),
            LsmError::InvalidTask { reason } => write!(f, "invalid compaction task: {reason}"),
        }
    }
}

impl std::error::Error for LsmError {}
