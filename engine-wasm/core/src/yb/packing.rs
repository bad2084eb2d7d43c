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

/// Which columns of a table are stored in the value (the non-key ones).
#[derive(Debug, Default)]
pub struct Packing {
    pub columns: Vec<usize>,
    pub encodings: Vec<KeyColumn>,
}

impl Packing {
    /// The packing of a table of `types` whose key columns are `keyed`.
    pub fn new(types: &[SqlType], keyed: &[usize]) -> Packing {
        let columns: Vec<usize> = (0..types.len()).filter(|c| !keyed.contains(c)).collect();
        let encodings = columns.iter().map(|&c| KeyColumn::asc(types[c])).collect();
        Packing { columns, encodings }
    }

    /// Writes `row` as a packed value into `out` (cleared first).
    pub fn pack_into(&self, row: &[Value], out: &mut Vec<u8>) -> Result<(), SqlError> {
        out.clear();
        out.extend_from_slice(&[PACKED, 0]);
        // Column by column: the same bytes as encoding them together, no copies.
        for (i, &c) in self.columns.iter().enumerate() {
            encode_key_into(std::slice::from_ref(&row[c]), &self.encodings[i..=i], out)?;
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
        encode_key_into(std::slice::from_ref(v), &self.encodings[i..=i], &mut out)?;
        Ok(out)
    }

    /// Fills `row` from a packed value.
    pub fn unpack(&self, value: &[u8], row: &mut [Value]) -> Result<(), SqlError> {
        let p = payload(value);
        let (values, _) = decode_prefix(p.get(2..).unwrap_or(&[]), &self.encodings)?;
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
        let (mut v, _) = decode_prefix(payload(value), &self.encodings[i..=i])?;
        row[c] = v.pop().unwrap_or(Value::Null);
        Ok(())
    }
}
