//! An index condition as the B-tree key bytes a scan reads between: one
//! byte range per descent, in the index's order. A condition on one column
//! is a range or a list of points; on a composite index's first columns
//! (`KeyCond::Columns`), every combination of the leading columns' values
//! is a prefix, and the last column's condition is bounded within each.

use super::engine::PgEngine;
use super::scan::{as_ref, ByteRange};
use crate::btree::{
    decode_prefix, encode_key, numeric_key, without_nulls, KeyColumn, KeyRange, SortOrder,
};
use crate::exec::QueryEngine;
use crate::sql::ast::Expr;
use crate::sql::error::SqlError;
use crate::sql::eval::{bind, coerce, eval, Scope};
use crate::sql::plan::{KeyCond, ScanDirection};
use std::ops::Bound;

impl PgEngine {
    /// The byte ranges of `cond` on `index`, in scan order.
    pub(super) fn byte_ranges(
        &mut self,
        index: usize,
        cond: Option<&KeyCond>,
        dir: ScanDirection,
    ) -> Result<Vec<ByteRange>, SqlError> {
        let columns = self.catalog.index(index).key_columns.clone();
        let mut ranges = match cond {
            None => vec![(Bound::Unbounded, Bound::Unbounded)],
            Some(KeyCond::Columns(conds)) => self.column_ranges(&columns, conds)?,
            // Read as its bound says; its checks apply to each entry.
            Some(KeyCond::Checked { bound, .. }) => {
                return self.byte_ranges(index, bound.as_deref(), dir);
            }
            Some(c @ (KeyCond::Range { .. } | KeyCond::Points(_) | KeyCond::IsNull)) => {
                self.column_ranges(&columns, std::slice::from_ref(c))?
            }
            // Only a hash-sharded key (YugabyteDB) is planned with one.
            Some(KeyCond::HashCode { .. } | KeyCond::HashKey(_)) => {
                return Err(crate::sql::error::unsupported(
                    "a yb_hash_code() condition on a B-tree index",
                ))
            }
        };
        if dir == ScanDirection::Backward {
            ranges.reverse();
        }
        Ok(ranges)
    }

    /// The checks of a `KeyCond::Checked` on each entry: the key position
    /// and the byte ranges of that column's value that pass.
    pub(super) fn entry_checks(
        &mut self,
        index: usize,
        cond: Option<&KeyCond>,
    ) -> Result<EntryChecks, SqlError> {
        let Some(KeyCond::Checked { checks, .. }) = cond else {
            return Ok(EntryChecks::default());
        };
        let columns = self.catalog.index(index).key_columns.clone();
        let mut out = EntryChecks {
            columns: columns.clone(),
            checks: Vec::new(),
        };
        for (k, c) in checks {
            let ranges = self.column_ranges(&columns[*k..=*k], std::slice::from_ref(c))?;
            out.checks.push((*k, ranges));
        }
        Ok(out)
    }

    /// One condition per leading key column: the prefixes the leading
    /// columns' values make, each bounded by the last column's condition.
    fn column_ranges(
        &mut self,
        columns: &[KeyColumn],
        conds: &[KeyCond],
    ) -> Result<Vec<ByteRange>, SqlError> {
        let (last, leading) = conds.split_last().expect("a condition per column");
        let mut prefixes = vec![Vec::new()];
        for (cond, col) in leading.iter().zip(columns) {
            let mut next = Vec::new();
            for value in self.equal_values(*col, cond)? {
                next.extend(prefixes.iter().map(|p| [p.as_slice(), &value].concat()));
            }
            next.sort();
            next.dedup();
            prefixes = next;
        }
        let col = columns[leading.len()];
        let mut out = Vec::new();
        match last {
            KeyCond::Range { lower, upper } => {
                let (Some(lo), Some(hi)) = (self.bound(col, lower)?, self.bound(col, upper)?)
                else {
                    return Ok(Vec::new());
                };
                let (lo, hi) = without_nulls(col, flip_for(col, lo, hi));
                for p in &prefixes {
                    out.push((prefixed(p, &lo), prefixed(p, &hi)));
                }
            }
            KeyCond::IsNull => {
                let null = encode_key(&[crate::value::Value::Null], &[col])?;
                for p in &prefixes {
                    let key = [p.as_slice(), &null].concat();
                    out.push((Bound::Included(key.clone()), Bound::Included(key)));
                }
            }
            _ => {
                let values = self.equal_values(col, last)?;
                let mut keys: Vec<Vec<u8>> = prefixes
                    .iter()
                    .flat_map(|p| values.iter().map(move |v| [p.as_slice(), v].concat()))
                    .collect();
                keys.sort();
                keys.dedup();
                out = keys
                    .into_iter()
                    .map(|k| (Bound::Included(k.clone()), Bound::Included(k)))
                    .collect();
            }
        }
        Ok(out)
    }

    /// The key bytes of each value an equality or IN list names, sorted and
    /// without NULL (which equals nothing).
    fn equal_values(&mut self, col: KeyColumn, cond: &KeyCond) -> Result<Vec<Vec<u8>>, SqlError> {
        let exprs: Vec<&Expr> = match cond {
            KeyCond::IsNull => return Ok(vec![encode_key(&[crate::value::Value::Null], &[col])?]),
            KeyCond::Points(list) => list.iter().collect(),
            KeyCond::Range {
                lower: Bound::Included(e),
                ..
            } => vec![e],
            _ => unreachable!("the planner puts only equalities before a composite's last column"),
        };
        let mut keys = Vec::new();
        for e in exprs {
            keys.extend(self.key_bytes(col, e)?);
        }
        keys.sort();
        keys.dedup();
        Ok(keys)
    }

    /// A bound of a range condition as key bytes, or None when its value is
    /// NULL (`x < NULL` finds no entry at all).
    fn bound(
        &mut self,
        col: KeyColumn,
        b: &Bound<Expr>,
    ) -> Result<Option<Bound<Vec<u8>>>, SqlError> {
        Ok(match b {
            Bound::Included(e) => self.key_bytes(col, e)?.map(Bound::Included),
            Bound::Excluded(e) => self.key_bytes(col, e)?.map(Bound::Excluded),
            Bound::Unbounded => Some(Bound::Unbounded),
        })
    }

    /// A condition's value as key bytes of `col`, or None for NULL.
    fn key_bytes(&mut self, col: KeyColumn, e: &Expr) -> Result<Option<Vec<u8>>, SqlError> {
        // A quoted literal is read as the column's type (`id < '10'`).
        let v = match crate::sql::eval::quoted_as(e, col.ty.without_typmod()) {
            Some(v) => v?,
            None => {
                let b = bind(e, &Scope::default())?;
                let mut env = self.env();
                // A bound is compared, not stored: no typmod rounds it.
                let v = coerce(eval(&b, &[], &mut env)?, col.ty.without_typmod())?;
                if v.is_null() {
                    return Ok(None);
                }
                v
            }
        };
        let v = numeric_key::bound_value(v, col.ty);
        let bytes = encode_key(std::slice::from_ref(&v), &[col])?;
        Ok(Some(numeric_key::bound_bytes(&v, col.ty, bytes)))
    }
}

/// A bound on the last column within the leading columns' `prefix`: an
/// open end stays inside the prefix.
fn prefixed(prefix: &[u8], b: &Bound<Vec<u8>>) -> Bound<Vec<u8>> {
    match b {
        Bound::Included(x) => Bound::Included([prefix, x].concat()),
        Bound::Excluded(x) => Bound::Excluded([prefix, x].concat()),
        Bound::Unbounded if prefix.is_empty() => Bound::Unbounded,
        Bound::Unbounded => Bound::Included(prefix.to_vec()),
    }
}

/// A DESC column stores values in reverse byte order, so a value range's lower
/// bound becomes the byte range's upper bound.
fn flip_for(col: KeyColumn, lo: Bound<Vec<u8>>, hi: Bound<Vec<u8>>) -> ByteRange {
    match col.order {
        SortOrder::Asc => (lo, hi),
        SortOrder::Desc => (hi, lo),
    }
}

/// Conditions on key columns checked on each entry a scan reads.
#[derive(Debug, Default)]
pub(super) struct EntryChecks {
    columns: Vec<KeyColumn>,
    /// (key position, the byte ranges of its value that pass).
    checks: Vec<(usize, Vec<ByteRange>)>,
}

impl EntryChecks {
    /// Whether the entry with key bytes `key` passes every check.
    pub fn pass(&self, key: &[u8]) -> Result<bool, SqlError> {
        for (k, ranges) in &self.checks {
            let value = column_bytes(key, &self.columns, *k)?;
            let inside = ranges
                .iter()
                .any(|(lo, hi)| KeyRange::new(as_ref(lo), as_ref(hi)).contains(value));
            if !inside {
                return Ok(false);
            }
        }
        Ok(true)
    }
}

/// The bytes of key column `k` in an entry's key.
fn column_bytes<'a>(key: &'a [u8], columns: &[KeyColumn], k: usize) -> Result<&'a [u8], SqlError> {
    let (_, start) = decode_prefix(key, &columns[..k])?;
    let (_, len) = decode_prefix(&key[start..], &columns[k..=k])?;
    Ok(&key[start..start + len])
}
