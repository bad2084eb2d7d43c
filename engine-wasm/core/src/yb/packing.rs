//! A document's value in DocDB. Its first byte, behind the intent hybrid time
//! a transactional write puts in front, says what it is: a packed row, a
//! tombstone, or a liveness marker. A packed row holds every non-key column
//! in one value.

use super::doc_key::HT_LEN;
use crate::btree::{decode_prefix, encode_key_into, KeyColumn};
use crate::sql::error::SqlError;
use crate::value::{SqlType, Value};

pub const PACKED: u8 = b'P';
pub const TOMBSTONE: u8 = b'X';
pub const LIVENESS_VALUE: u8 = b'$';

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

/// Which columns of a table are stored in the value (the non-key ones), at
/// one schema version. A packed row carries its version in the byte after
/// `PACKED`, as YugabyteDB's packed rows carry theirs: after ALTER TABLE adds
/// or drops a column, the rows already written are still read by the packing
/// they were written with, and nothing is rewritten.
#[derive(Debug, Default)]
pub struct Packing {
    pub version: u8,
    /// Each stored column's position in the table's row, in storage order;
    /// `None` once ALTER TABLE dropped it (its bytes are skipped).
    pub columns: Vec<Option<usize>>,
    pub encodings: Vec<KeyColumn>,
}

impl Packing {
    /// The packing of a table of `types` whose key columns are `keyed`.
    pub fn new(types: &[SqlType], keyed: &[usize], version: u8) -> Packing {
        let columns: Vec<usize> = (0..types.len()).filter(|c| !keyed.contains(c)).collect();
        let encodings = columns.iter().map(|&c| KeyColumn::asc(types[c])).collect();
        Packing {
            version,
            columns: columns.into_iter().map(Some).collect(),
            encodings,
        }
    }

    /// This packing once column `position` is dropped: its place is
    /// skipped, the later columns move down one.
    pub fn without_column(&self, position: usize) -> Packing {
        let columns = self
            .columns
            .iter()
            .map(|c| match *c {
                Some(c) if c == position => None,
                Some(c) if c > position => Some(c - 1),
                other => other,
            })
            .collect();
        Packing {
            version: self.version,
            columns,
            encodings: self.encodings.clone(),
        }
    }

    /// Writes `row` as a packed value into `out` (cleared first). Only the
    /// current version writes, and it has no dropped column.
    pub fn pack_into(&self, row: &[Value], out: &mut Vec<u8>) -> Result<(), SqlError> {
        out.clear();
        out.extend_from_slice(&[PACKED, self.version]);
        // Column by column: the same bytes as encoding them together, no copies.
        for (i, c) in self.columns.iter().enumerate() {
            let c = c.expect("the current schema version has no dropped column");
            encode_key_into(std::slice::from_ref(&row[c]), &self.encodings[i..=i], out)?;
        }
        Ok(())
    }

    pub fn columns_of<'r>(
        &'r self,
        row: &'r [Value],
    ) -> impl Iterator<Item = (usize, &'r Value)> + 'r {
        self.columns.iter().flatten().map(move |&c| (c, &row[c]))
    }

    pub fn column_value(&self, c: usize, v: &Value) -> Result<Vec<u8>, SqlError> {
        let i = self
            .columns
            .iter()
            .position(|x| *x == Some(c))
            .expect("a stored column");
        let mut out = Vec::new();
        encode_key_into(std::slice::from_ref(v), &self.encodings[i..=i], &mut out)?;
        Ok(out)
    }

    /// Fills `row` from a packed value of this version.
    pub fn unpack(&self, value: &[u8], row: &mut [Value]) -> Result<(), SqlError> {
        let p = payload(value);
        let (values, _) = decode_prefix(p.get(2..).unwrap_or(&[]), &self.encodings)?;
        for (c, v) in self.columns.iter().zip(values) {
            if let Some(c) = c {
                row[*c] = v;
            }
        }
        Ok(())
    }

    /// Fills column `c` of `row` from its own entry's value.
    pub fn unpack_column(&self, c: usize, value: &[u8], row: &mut [Value]) -> Result<(), SqlError> {
        let Some(i) = self.columns.iter().position(|x| *x == Some(c)) else {
            return Ok(());
        };
        let (mut v, _) = decode_prefix(payload(value), &self.encodings[i..=i])?;
        row[c] = v.pop().unwrap_or(Value::Null);
        Ok(())
    }
}

/// The schema version a packed value was written at.
pub fn version(value: &[u8]) -> usize {
    payload(value).get(1).copied().map_or(0, usize::from)
}
