//! A row as the executor and both profiles pass it, and the full row an INSERT
//! builds from its target columns.

use crate::sql::error::{ErrorKind, SqlError};
use crate::sql::eval::coerce;
use crate::value::{SqlType, Value};

/// A row: the column values in table order.
///
/// Up to two values sit inline (the tables of the articles and lessons have one
/// or two columns); wider rows spill to one allocation, as a boxed slice would.
/// A million-row load then allocates nothing per heap tuple, where a boxed
/// slice was one malloc (and one free) per row.
pub type Row = smallvec::SmallVec<[Value; 2]>;

/// The full row for INSERT: the given values (coerced to the column types) at
/// their target columns, the next serial value where a serial column got none,
/// NULL elsewhere.
pub fn complete(
    types: &[SqlType],
    sequences: &mut [Option<i64>],
    targets: &[usize],
    values: &[Value],
) -> Result<Row, SqlError> {
    if values.len() > targets.len() {
        return Err(SqlError::new(
            ErrorKind::Semantic,
            "INSERT has more expressions than target columns",
        ));
    }
    let mut row = Row::from_elem(Value::Null, types.len());
    for (v, &c) in values.iter().cloned().zip(targets) {
        row[c] = coerce(v, types[c])?;
    }
    for (c, seq) in sequences.iter_mut().enumerate() {
        if let (Some(next), Value::Null) = (seq.as_mut(), &row[c]) {
            row[c] = Value::Int(*next);
            *next += 1;
        }
    }
    Ok(row)
}

#[cfg(all(test, target_pointer_width = "64"))]
mod layout_tests {
    use super::Row;
    use crate::sql::error::SqlError;
    use crate::value::Value;
    use std::mem::size_of;

    /// The sizes the hot paths were tuned for: a million-row load copies these.
    #[test]
    fn rows_values_and_errors_stay_small() {
        assert_eq!(size_of::<Value>(), 16);
        assert_eq!(size_of::<Row>(), 40);
        assert!(!Row::from_elem(Value::Null, 2).spilled());
        assert!(Row::from_elem(Value::Null, 3).spilled());
        assert_eq!(size_of::<SqlError>(), size_of::<usize>());
    }
}
