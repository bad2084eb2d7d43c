//! SQL rows from DocDB documents: the key columns from a document key, an
//! index entry's row and base key, and INSERT's target columns.

use super::catalog::{KeySpec, YbIndex, YbTable};
use super::doc_key::{read_escaped, HASH_MARKER};
use super::packing::payload;
use super::request::DocRow;
use crate::btree::decode_prefix;
use crate::exec::Row;
use crate::sql::error::{ErrorKind, SqlError};
use crate::value::Value;

fn exec_error(e: impl std::fmt::Display) -> SqlError {
    SqlError::new(ErrorKind::Execution, e.to_string())
}

/// Decodes the key columns of document key `doc` into `row` (positions of the
/// spec), and returns the bytes they took (the rest is what follows them).
pub fn decode_doc_key(spec: &KeySpec, doc: &[u8], row: &mut [Value]) -> Result<usize, SqlError> {
    let mut pos = 0;
    if spec.is_hash() {
        if doc.first() != Some(&HASH_MARKER) {
            return Err(exec_error("malformed hash-sharded key"));
        }
        let (values, n) = decode_prefix(&doc[3..], &spec.hash_columns)?;
        for (c, v) in spec.hash.iter().zip(values) {
            row[*c] = v;
        }
        pos = 3 + n + 1;
    }
    let (values, n) = decode_prefix(&doc[pos..], &spec.range_columns)?;
    for (c, v) in spec.range.iter().zip(values) {
        row[*c] = v;
    }
    Ok(pos + n)
}

/// A table row from its document: the key columns from the document key,
/// the others from the packed row and any column entries written since.
pub fn decode_table_row(t: &YbTable, d: &DocRow) -> Result<Row, SqlError> {
    // A column ADD COLUMN added after the row was written reads its default.
    let mut row: Row = t.missing.iter().cloned().collect();
    if let Some(spec) = &t.key {
        decode_doc_key(spec, &d.doc, &mut row)?;
    }
    for (sub, value) in &d.entries {
        match sub.as_slice() {
            [] => t.packing_of(value).unpack(value, &mut row)?,
            // A column's own entry, by column id (none: dropped since).
            [super::doc_key::COLUMN, id] => {
                let Some(c) = t.column_of_id(*id) else {
                    continue;
                };
                if super::packing::is_tombstone(value) {
                    // An UPDATE set it to NULL.
                    row[c] = Value::Null;
                } else {
                    t.packing().unpack_column(c, value, &mut row)?
                }
            }
            _ => {}
        }
    }
    Ok(row)
}

/// A table row from an index entry (the covered columns; others NULL) and the
/// base row's document key.
pub fn index_row(
    ix: &YbIndex,
    width: usize,
    doc: &[u8],
    value: &[u8],
) -> Result<(Row, Vec<u8>), SqlError> {
    let mut own = vec![Value::Null; ix.key.len()];
    let used = decode_doc_key(&ix.spec, doc, &mut own)?;
    let mut row = Row::from_elem(Value::Null, width);
    for ((c, _, _), v) in ix.key.iter().zip(own) {
        // An expression's value has no column of the row to go to.
        if *c < width {
            row[*c] = v;
        }
    }
    let p = payload(value);
    let (included, n) = decode_prefix(p.get(2..).unwrap_or(&[]), &ix.include_columns)?;
    for (c, v) in ix.include.iter().zip(included) {
        row[*c] = v;
    }
    let base = if ix.unique {
        read_escaped(&p[2 + n..]).map(|(b, _)| b)
    } else {
        read_escaped(&doc[used..]).map(|(b, _)| b)
    };
    let base = base.ok_or_else(|| exec_error("index entry without a base key"))?;
    Ok((row, base))
}

/// INSERT's target columns, by position.
pub fn targets(t: &YbTable, columns: Option<&[String]>) -> Result<Vec<usize>, SqlError> {
    match columns {
        None => Ok((0..t.columns.len()).collect()),
        Some(cols) => cols
            .iter()
            .map(|c| {
                t.columns.iter().position(|d| &d.name == c).ok_or_else(|| {
                    SqlError::new(
                        ErrorKind::Semantic,
                        format!("column \"{c}\" of relation \"{}\" does not exist", t.name),
                    )
                })
            })
            .collect(),
    }
}
