//! What the heap refuses, as a statement reports it: the heap knows nothing of
//! SQL, and a refusal met while a statement runs is an execution error with
//! the heap's own message, so `?` converts it.

use super::heap::HeapError;
use crate::sql::error::{ErrorKind, SqlError};

impl From<HeapError> for SqlError {
    fn from(e: HeapError) -> SqlError {
        SqlError::new(ErrorKind::Execution, e.to_string())
    }
}
