//! What the storage structures refuse, as a statement reports it. The B+tree,
//! its key encoding and the LSM know nothing of SQL; a refusal met while a
//! statement runs is an execution error carrying the structure's own message,
//! so `?` converts it. (The heap lives in `pg`, and converts there.)

use crate::btree::{BTreeError, KeyError};
use crate::lsm::LsmError;
use crate::sql::error::{ErrorKind, SqlError};

impl From<KeyError> for SqlError {
    fn from(e: KeyError) -> SqlError {
        SqlError::new(ErrorKind::Execution, e.to_string())
    }
}

impl From<BTreeError> for SqlError {
    fn from(e: BTreeError) -> SqlError {
        SqlError::new(ErrorKind::Execution, e.to_string())
    }
}

impl From<LsmError> for SqlError {
    fn from(e: LsmError) -> SqlError {
        SqlError::new(ErrorKind::Execution, e.to_string())
    }
}
