//! YugabyteDB's partition hash: the 16-bit number a row's hash columns give
//! it, which places the row in a tablet and starts its DocDB key, and which
//! `yb_hash_code(…)` returns.
//!
//! Computed as YugabyteDB computes it (`YBPartition::HashColumnCompoundValue`
//! over `AppendToKey` of each hash column):
//! 1. the values are appended to one *compound* string, each by the storage
//!    type YSQL gives its PostgreSQL type (`ybctype.c`): integers as their
//!    width's big-endian two's complement (int2 2 bytes, int4 4, int8 8), a
//!    timestamp's microseconds as an int8, a date's days as an int4, text and
//!    bytea as their bytes, a uuid as its 16 bytes, floats as their IEEE bits;
//! 2. the string is hashed with Bob Jenkins' lookup2 64-bit hash, seed 97;
//! 3. the 64 bits are folded to 16: `h>>48 ^ 3*(h>>32) ^ 5*(h>>16) ^ 7*(h&0xffff)`.
//!
//! A type whose YugabyteDB encoding IndexLab does not model (numeric,
//! interval, character(n)) still gets a spread-out hash for placing rows: its
//! bytes in IndexLab's key encoding. `yb_hash_code()` of one is refused.

use crate::btree::{encode_key_into, KeyColumn, KeyError};
use crate::value::{uuid_bytes, SqlType, Value};
use std::borrow::Borrow;

/// The hash of a row's hash-column values.
pub fn partition_hash<V: Borrow<Value>>(
    values: &[V],
    columns: &[KeyColumn],
) -> Result<u16, KeyError> {
    let mut compound = Vec::with_capacity(16);
    for (value, column) in values.iter().zip(columns) {
        let value = value.borrow();
        if !append_to_key(value, column.ty, &mut compound) {
            encode_key_into(&[value], &[*column], &mut compound)?;
        }
    }
    Ok(compound_hash(&compound))
}

/// Appends `value` of type `ty` as YugabyteDB's `AppendToKey` does; false
/// (nothing appended) for a type IndexLab does not model it for. A NULL
/// appends nothing, as an unset value does.
pub fn append_to_key(value: &Value, ty: SqlType, out: &mut Vec<u8>) -> bool {
    match (ty, value) {
        (_, Value::Null) => {}
        (SqlType::Int2, Value::Int(n)) => out.extend_from_slice(&(*n as i16).to_be_bytes()),
        (SqlType::Int4, Value::Int(n)) => out.extend_from_slice(&(*n as i32).to_be_bytes()),
        (SqlType::Int8, Value::Int(n)) => out.extend_from_slice(&n.to_be_bytes()),
        (SqlType::Bool, Value::Bool(b)) => out.push(u8::from(*b)),
        (SqlType::Text, Value::Text(s)) => out.extend_from_slice(s.as_bytes()),
        (SqlType::Bytea, Value::Bytea(b)) => out.extend_from_slice(b),
        (SqlType::Timestamptz, Value::Timestamp(us))
        | (SqlType::Timestamp, Value::LocalTimestamp(us)) => {
            out.extend_from_slice(&us.to_be_bytes())
        }
        (SqlType::Date, Value::Date(days)) => out.extend_from_slice(&days.to_be_bytes()),
        (SqlType::Uuid, Value::Text(s)) => match uuid_bytes(s) {
            Some(bytes) => out.extend_from_slice(&bytes),
            None => return false,
        },
        // `util::CanonicalizeDouble`: every NaN hashes as the one quiet NaN.
        (SqlType::Float8, Value::Float(f)) => {
            let f = if f.is_nan() { f64::NAN } else { *f };
            out.extend_from_slice(&f.to_bits().to_be_bytes())
        }
        (SqlType::Float4, Value::Real(f)) => {
            let f = if f.is_nan() { f32::NAN } else { *f };
            out.extend_from_slice(&f.to_bits().to_be_bytes())
        }
        _ => return false,
    }
    true
}

/// A type whose YugabyteDB hash encoding IndexLab models: what a
/// `yb_hash_code()` argument is told before the query runs (a value alone
/// does not say whether it is an int4 or an int8).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyType {
    Int2,
    Int4,
    Int8,
    Bool,
    Text,
    Bytea,
    Timestamptz,
    Timestamp,
    Date,
    Uuid,
    Float8,
    Float4,
}

impl KeyType {
    pub fn of(ty: SqlType) -> Option<KeyType> {
        Some(match ty {
            SqlType::Int2 => KeyType::Int2,
            SqlType::Int4 => KeyType::Int4,
            SqlType::Int8 => KeyType::Int8,
            SqlType::Bool => KeyType::Bool,
            SqlType::Text => KeyType::Text,
            SqlType::Bytea => KeyType::Bytea,
            SqlType::Timestamptz => KeyType::Timestamptz,
            SqlType::Timestamp => KeyType::Timestamp,
            SqlType::Date => KeyType::Date,
            SqlType::Uuid => KeyType::Uuid,
            SqlType::Float8 => KeyType::Float8,
            SqlType::Float4 => KeyType::Float4,
            _ => return None,
        })
    }

    pub fn sql_type(self) -> SqlType {
        match self {
            KeyType::Int2 => SqlType::Int2,
            KeyType::Int4 => SqlType::Int4,
            KeyType::Int8 => SqlType::Int8,
            KeyType::Bool => SqlType::Bool,
            KeyType::Text => SqlType::Text,
            KeyType::Bytea => SqlType::Bytea,
            KeyType::Timestamptz => SqlType::Timestamptz,
            KeyType::Timestamp => SqlType::Timestamp,
            KeyType::Date => SqlType::Date,
            KeyType::Uuid => SqlType::Uuid,
            KeyType::Float8 => SqlType::Float8,
            KeyType::Float4 => SqlType::Float4,
        }
    }
}

/// The 16-bit hash of a compound string.
pub fn compound_hash(compound: &[u8]) -> u16 {
    let h = jenkins64(compound, 97);
    let folded = (h >> 48) ^ (3 * (h >> 32)) ^ (5 * (h >> 16)) ^ (7 * (h & 0xffff));
    (folded & 0xffff) as u16
}

/// Bob Jenkins' lookup2 hash, 64-bit version (`Hash64StringWithSeed`): the
/// bytes taken as little-endian words, 24 at a time, each block mixed in;
/// the tail and the length go into the last mix.
pub fn jenkins64(bytes: &[u8], seed: u64) -> u64 {
    let (mut a, mut b, mut c) = (0xe08c_1d66_8b75_6f82_u64, 0xe08c_1d66_8b75_6f82_u64, seed);
    let mut blocks = bytes.chunks_exact(24);
    for block in &mut blocks {
        a = a.wrapping_add(word(&block[0..8]));
        b = b.wrapping_add(word(&block[8..16]));
        c = c.wrapping_add(word(&block[16..24]));
        mix(&mut a, &mut b, &mut c);
    }
    let rest = blocks.remainder();
    c = c.wrapping_add(bytes.len() as u32 as u64);
    // The tail: its first 8 bytes to a, the next 8 to b, the rest to c
    // above its lowest byte (which the length took).
    for (i, &byte) in rest.iter().enumerate() {
        let byte = u64::from(byte);
        match i {
            0..=7 => a = a.wrapping_add(byte << (8 * i)),
            8..=15 => b = b.wrapping_add(byte << (8 * (i - 8))),
            _ => c = c.wrapping_add(byte << (8 * (i - 15))),
        }
    }
    mix(&mut a, &mut b, &mut c);
    c
}

fn word(bytes: &[u8]) -> u64 {
    u64::from_le_bytes(bytes.try_into().expect("8 bytes"))
}

fn mix(a: &mut u64, b: &mut u64, c: &mut u64) {
    // Each line: x -= y; x -= z; x ^= (z or y shifted), as lookup2 writes it.
    let step = |x: u64, y: u64, z: u64, shifted: u64| x.wrapping_sub(y).wrapping_sub(z) ^ shifted;
    *a = step(*a, *b, *c, *c >> 43);
    *b = step(*b, *c, *a, *a << 9);
    *c = step(*c, *a, *b, *b >> 8);
    *a = step(*a, *b, *c, *c >> 38);
    *b = step(*b, *c, *a, *a << 23);
    *c = step(*c, *a, *b, *b >> 5);
    *a = step(*a, *b, *c, *c >> 35);
    *b = step(*b, *c, *a, *a << 49);
    *c = step(*c, *a, *b, *b >> 11);
    *a = step(*a, *b, *c, *c >> 12);
    *b = step(*b, *c, *a, *a << 18);
    *c = step(*c, *a, *b, *b >> 22);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hex(s: &str) -> Vec<u8> {
        (0..s.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
            .collect()
    }

    /// Vectors of YugabyteDB's Jenkins hash with seed 97 (its C++ driver's
    /// unit test of `Hash64StringWithSeed`).
    #[test]
    fn jenkins_matches_yugabytedb() {
        let b1 = hex("c7251d5d753a4e4622294d6c677aa82571");
        assert_eq!(jenkins64(&b1, 97), 1_789_751_740_810_280_356);
        let b2 =
            hex("838e7ef071ef9b3e4ae61260c0a1f9945a859bb1f68697e1ab87c8abc128d172730bda50e3e6f942");
        assert_eq!(jenkins64(&b2, 97), 4_001_818_822_847_464_429);
    }

    /// `partition_hash()` answers of a live YugabyteDB server for
    /// ((int, blob)) and ((bigint, text)) hash keys.
    #[test]
    fn compound_hash_matches_a_live_server() {
        let int_blob = |n: i32, blob: &str| {
            let mut k = n.to_be_bytes().to_vec();
            k.extend(hex(blob));
            compound_hash(&k)
        };
        assert_eq!(
            int_blob(7, "a94a8fe5ccb19ba61c4c0873d391e987982fbbd3"),
            25484
        );
        assert_eq!(int_blob(0, "00"), 38972);
        assert_eq!(int_blob(1, "0102030405"), 43708);
        assert_eq!(int_blob(i32::MIN, "6b6579"), 52240);
        assert_eq!(int_blob(-1, "deadbeef"), 59218);
        let bigint_text = |n: i64, t: &str| {
            let mut k = n.to_be_bytes().to_vec();
            k.extend(t.as_bytes());
            compound_hash(&k)
        };
        assert_eq!(bigint_text(-5, "senzing"), 4373);
        assert_eq!(bigint_text(i64::MAX, "kv"), 6310);
        assert_eq!(bigint_text(0, "a"), 54981);
    }

    #[test]
    fn a_value_is_hashed_by_its_type() {
        let h = |v: Value, ty| partition_hash(&[v], &[KeyColumn::asc(ty)]).unwrap();
        // int4 1 and int8 1 are different strings, so different hashes.
        assert_ne!(
            h(Value::Int(1), SqlType::Int4),
            h(Value::Int(1), SqlType::Int8)
        );
        assert_eq!(
            h(Value::Int(1), SqlType::Int4),
            compound_hash(&[0, 0, 0, 1])
        );
        assert_eq!(h(Value::text("a"), SqlType::Text), compound_hash(b"a"));
    }
}
