//! Rows as DocDB values: packed (one value with every non-key column) or one
//! entry per column, and back to SQL values.

use super::catalog::{KeySpec, YbIndex, YbTable};
use super::doc_key::{read_escaped, HASH_MARKER, HT_LEN};
use crate::btree::{decode_prefix, encode_key_into, KeyColumn};
use crate::exec::Row;
use crate::sql::error::{ErrorKind, SqlError};
use crate::value::Value;

pub const PACKED: u8 = b'P';
pub const TOMBSTONE: u8 = b'X';
pub const LIVENESS_VALUE: u8 = b'$';

fn exec_error(e: impl std::fmt::Display) -> SqlError {
    SqlError::new(ErrorKind::Execution, e.to_string())
}

/// A value without the intent hybrid time a transactional write put in front.
pub fn payload(value: &[u8]) -> &[u8] {
    match value.first() {
        Some(b'#') if value.len() >= HT_LEN - 1 => &value[HT_LEN - 1..],
        _ => value,
    }
}

/// Is this a tombstone (the value a DELETE writes)?
pub fn is_tombstone(value: &[u8]) -> bool {
    payload(value).first() == Some(&TOMBSTONE)
}

/// Is this the value of a live document (not a tombstone)?
pub fn live_row(value: &[u8]) -> bool {
    payload(value).first().is_some_and(|b| *b != TOMBSTONE)
}

/// Which columns of a table are stored in the value (the non-key ones).
#[derive(Debug, Default)]
pub struct Packing {
    pub columns: Vec<usize>,
    pub encodings: Vec<KeyColumn>,
}

impl Packing {
    pub fn of(t: &YbTable) -> Packing {
        let keyed: Vec<usize> = t
            .key
            .as_ref()
            .map(|k| k.hash.iter().chain(&k.range).copied().collect())
            .unwrap_or_default();
        let columns: Vec<usize> = (0..t.columns.len())
            .filter(|c| !keyed.contains(c))
            .collect();
        let encodings = columns
            .iter()
            .map(|&c| KeyColumn::asc(t.types[c]))
            .collect();
        Packing { columns, encodings }
    }

    /// Writes `row` as a packed value into `out` (cleared first).
    pub fn pack_into(&self, row: &[Value], out: &mut Vec<u8>) -> Result<(), SqlError> {
        out.clear();
        out.extend_from_slice(&[PACKED, 0]);
        // Column by column: the same bytes as encoding them together, no copies.
        for (i, &c) in self.columns.iter().enumerate() {
            encode_key_into(std::slice::from_ref(&row[c]), &self.encodings[i..=i], out)
                .map_err(exec_error)?;
        }
        Ok(())
    }

    pub fn columns_of<'r>(
        &'r self,
        row: &'r [Value],
    ) -> impl Iterator<Item = (usize, &'r Value)> + 'r {
        self.columns.iter().map(move |&c| (c, &row[c]))
    }

    pub fn column_value(&self, c: usize, v: &Value) -> Result<Vec<u8>, SqlError> {
        let i = self
            .columns
            .iter()
            .position(|x| *x == c)
            .expect("a stored column");
        let mut out = Vec::new();
        encode_key_into(std::slice::from_ref(v), &self.encodings[i..=i], &mut out)
            .map_err(exec_error)?;
        Ok(out)
    }

    /// Fills `row` from a packed value.
    pub fn unpack(&self, value: &[u8], row: &mut [Value]) -> Result<(), SqlError> {
        let p = payload(value);
        let (values, _) =
            decode_prefix(p.get(2..).unwrap_or(&[]), &self.encodings).map_err(exec_error)?;
        for (c, v) in self.columns.iter().zip(values) {
            row[*c] = v;
        }
        Ok(())
    }

    /// Fills column `c` of `row` from its own entry's value.
    pub fn unpack_column(&self, c: usize, value: &[u8], row: &mut [Value]) -> Result<(), SqlError> {
        let Some(i) = self.columns.iter().position(|x| *x == c) else {
            return Ok(());
        };
        let (mut v, _) =
            decode_prefix(payload(value), &self.encodings[i..=i]).map_err(exec_error)?;
        row[c] = v.pop().unwrap_or(Value::Null);
        Ok(())
    }
}

/// Decodes the key columns of document key `doc` into `row` (positions of the
/// spec), and returns the bytes they took (the rest is what follows them).
pub fn decode_doc_key(spec: &KeySpec, doc: &[u8], row: &mut [Value]) -> Result<usize, SqlError> {
    let mut pos = 0;
    if spec.is_hash() {
        if doc.first() != Some(&HASH_MARKER) {
            return Err(exec_error("malformed hash-sharded key"));
        }
        let (values, n) = decode_prefix(&doc[3..], &spec.hash_columns).map_err(exec_error)?;
        for (c, v) in spec.hash.iter().zip(values) {
            row[*c] = v;
        }
        pos = 3 + n + 1;
    }
    let (values, n) = decode_prefix(&doc[pos..], &spec.range_columns).map_err(exec_error)?;
    for (c, v) in spec.range.iter().zip(values) {
        row[*c] = v;
    }
    Ok(pos + n)
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
        row[*c] = v;
    }
    let p = payload(value);
    let (included, n) =
        decode_prefix(p.get(2..).unwrap_or(&[]), &ix.include_columns).map_err(exec_error)?;
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
