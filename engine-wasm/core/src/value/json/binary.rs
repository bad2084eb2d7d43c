//! How many bytes a jsonb takes: PostgreSQL's binary format
//! (`utils/adt/jsonb_util.c`, `convertToJsonb`), measured rather than built.
//!
//! A container is a 4-byte header (count and kind), one 4-byte JEntry per
//! array element or two per object pair (all keys, then all values), then
//! the data: strings as their bytes, numbers as a whole `numeric` datum
//! aligned to 4 bytes, booleans and nulls as nothing (their JEntry says
//! it), nested containers aligned to 4 bytes. A scalar alone is stored as a
//! one-element array marked "raw scalar". Offsets count from the datum's
//! start, its 4-byte varlena header included, so alignment does too.

use super::Jsonb;

const VARHDRSZ: usize = 4;
const JENTRY: usize = 4;
const HEADER: usize = 4;

/// The datum's size with a 4-byte varlena header.
pub fn datum_size(value: &Jsonb) -> usize {
    let mut len = VARHDRSZ;
    match value {
        Jsonb::Array(_) | Jsonb::Object(_) => container(value, &mut len),
        scalar => {
            // The raw-scalar pseudo array around it.
            len = int_align(len) + HEADER + JENTRY;
            self::scalar(scalar, &mut len);
        }
    }
    len
}

fn int_align(n: usize) -> usize {
    n.div_ceil(4) * 4
}

fn container(value: &Jsonb, len: &mut usize) {
    *len = int_align(*len);
    match value {
        Jsonb::Array(items) => {
            *len += HEADER + JENTRY * items.len();
            for item in items {
                element(item, len);
            }
        }
        Jsonb::Object(pairs) => {
            *len += HEADER + 2 * JENTRY * pairs.len();
            for (key, _) in pairs {
                *len += key.len();
            }
            for (_, v) in pairs {
                element(v, len);
            }
        }
        scalar => self::scalar(scalar, len),
    }
}

fn element(value: &Jsonb, len: &mut usize) {
    if value.is_scalar() {
        scalar(value, len);
    } else {
        container(value, len);
    }
}

fn scalar(value: &Jsonb, len: &mut usize) {
    match value {
        Jsonb::String(s) => *len += s.len(),
        Jsonb::Number(n) => *len = int_align(*len) + VARHDRSZ + n.payload_size(),
        _ => {}
    }
}
