//! A row as the executor and both profiles pass it, and the full row an INSERT
//! builds from its target columns.

use crate::sql::ast::ColumnDef;
use crate::sql::error::{ErrorKind, SqlError};
use crate::sql::eval::{coerce, Bound};
use crate::value::{SqlType, Value};

/// A row: the column values in table order.
///
/// Up to two values sit inline (the tables of the articles and lessons have one
/// or two columns); wider rows spill to one allocation, as a boxed slice would.
/// A million-row load then allocates nothing per heap tuple, where a boxed
/// slice would be one malloc (and one free) per row.
pub type Row = smallvec::SmallVec<[Value; 2]>;

/// A table as INSERT and UPDATE check rows against it.
#[derive(Clone, Copy)]
pub struct TableShape<'a> {
    pub name: &'a str,
    pub columns: &'a [ColumnDef],
    pub types: &'a [SqlType],
}

/// The full row for INSERT: the given values (coerced to the column types) at
/// their target columns; elsewhere the column's DEFAULT (`defaults`, evaluated
/// once per statement), the next serial value, or NULL. The row is then
/// checked against the table's constraints.
pub fn complete(
    table: TableShape,
    sequences: &mut [Option<i64>],
    defaults: &[Option<Value>],
    targets: &[usize],
    values: &[Value],
) -> Result<Row, SqlError> {
    if values.len() > targets.len() {
        return Err(SqlError::new(
            ErrorKind::Semantic,
            "INSERT has more expressions than target columns",
        ));
    }
    for &c in targets.iter().take(values.len()) {
        let def = &table.columns[c];
        if def.generated_always {
            return Err(SqlError::new(
                ErrorKind::Semantic,
                format!(
                    "cannot insert a non-DEFAULT value into column \"{}\"",
                    def.name
                ),
            )
            .with_hint(format!(
                "Column \"{}\" is an identity column defined as GENERATED ALWAYS.",
                def.name
            )));
        }
    }
    if let Some(&c) = targets
        .iter()
        .zip(values)
        .find(|(c, v)| table.columns[**c].generated.is_some() && !matches!(v, Value::Null))
        .map(|(c, _)| c)
    {
        return Err(super::generated_column::written(&table.columns[c], false));
    }
    let mut row = Row::from_elem(Value::Null, table.types.len());
    for (v, &c) in values.iter().cloned().zip(targets) {
        row[c] = coerce(v, table.types[c])?;
    }
    // A column without a value gets its default: one not named, or (with no
    // column list) one after the last value (`INSERT INTO t VALUES (1)`).
    let given = &targets[..values.len()];
    for c in (0..row.len()).filter(|c| !given.contains(c)) {
        if let Some(next) = sequences[c].as_mut() {
            row[c] = Value::Int(*next);
            *next += 1;
        } else if let Some(Some(v)) = defaults.get(c) {
            row[c] = v.clone();
        }
    }
    super::generated_column::fill(table, &mut row)?;
    check(table, &row)?;
    Ok(row)
}

/// An UPDATE's constant assignments, checked before any row is read:
/// PostgreSQL folds the cast to the column's type while planning, so
/// `SET c = 'abc'` into a `varchar(2)` fails even when no row matches.
pub fn check_constants(table: TableShape, sets: &[(usize, Bound)]) -> Result<(), SqlError> {
    if let Some(def) = sets
        .iter()
        .map(|(c, _)| &table.columns[*c])
        .find(|d| d.generated.is_some())
    {
        return Err(super::generated_column::written(def, true));
    }
    if let Some(def) = sets
        .iter()
        .map(|(c, _)| &table.columns[*c])
        .find(|d| d.generated_always)
    {
        return Err(SqlError::new(
            ErrorKind::Semantic,
            format!("column \"{}\" can only be updated to DEFAULT", def.name),
        )
        .with_hint(format!(
            "Column \"{}\" is an identity column defined as GENERATED ALWAYS.",
            def.name
        )));
    }
    for (column, e) in sets {
        let Bound::Lit(value) = e else { continue };
        let v = coerce(value.clone(), table.types[*column])?;
        // NOT NULL is checked on each row written, not while planning.
        if !v.is_null() {
            check_value(table, *column, &v)?;
        }
    }
    Ok(())
}

/// A row's column constraints: NOT NULL (primary key columns included) and
/// `varchar(n)`'s length, with PostgreSQL's messages.
pub fn check(table: TableShape, row: &[Value]) -> Result<(), SqlError> {
    (0..table.columns.len()).try_for_each(|c| check_value(table, c, &row[c]))
}

fn check_value(table: TableShape, column: usize, value: &Value) -> Result<(), SqlError> {
    let def = &table.columns[column];
    match value {
        Value::Null if def.not_null => Err(SqlError::new(
            ErrorKind::Execution,
            format!(
                "null value in column \"{}\" of relation \"{}\" violates not-null constraint",
                def.name, table.name
            ),
        )),
        Value::Text(s) => match def.max_chars {
            Some(n) if s.chars().count() > n as usize => Err(SqlError::new(
                ErrorKind::Execution,
                format!("value too long for type character varying({n})"),
            )),
            _ => Ok(()),
        },
        _ => Ok(()),
    }
}

#[cfg(all(test, target_pointer_width = "64"))]
mod layout_tests {
    use super::Row;
    use crate::sql::error::SqlError;
    use crate::value::Value;
    use std::mem::size_of;

    /// Kept small because a million-row load copies these, row by row.
    #[test]
    fn rows_values_and_errors_stay_small() {
        assert_eq!(size_of::<Value>(), 16);
        assert_eq!(size_of::<Row>(), 40);
        assert!(!Row::from_elem(Value::Null, 2).spilled());
        assert!(Row::from_elem(Value::Null, 3).spilled());
        assert_eq!(size_of::<SqlError>(), size_of::<usize>());
    }
}
