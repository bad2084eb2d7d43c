//! A row as PostgreSQL lays it out after a heap tuple's header
//! (heaptuple.c `heap_fill_tuple`): each non-null column aligned to its
//! type's `typalign` (padding bytes are zero), fixed-width values
//! little-endian, a varlena of at most 126 bytes with a 1-byte header and no
//! alignment, a longer one with a 4-byte header aligned on 4. This is
//! pageinspect's `t_data`.

use crate::value::{Numeric, SqlType, Value};

/// A type whose on-disk form IndexLab does not produce (its name).
pub struct NoBytes(pub &'static str);

/// The data bytes of `values` (the stored columns) of types `types`.
pub fn tuple_data(values: &[Value], types: &[SqlType]) -> Result<Vec<u8>, NoBytes> {
    let mut out = Vec::new();
    for (v, ty) in values.iter().zip(types) {
        if v.is_null() {
            continue;
        }
        let (bytes, align) = datum(v, *ty)?;
        while out.len() % align != 0 {
            out.push(0);
        }
        out.extend_from_slice(&bytes);
    }
    Ok(out)
}

/// Whether a non-null value of this type is a varlena (`HEAP_HASVARWIDTH`).
pub fn is_varlena(ty: SqlType) -> bool {
    matches!(
        ty,
        SqlType::Text | SqlType::Bpchar(_) | SqlType::Numeric(_) | SqlType::Bytea
    )
}

/// One value's bytes and alignment.
fn datum(v: &Value, ty: SqlType) -> Result<(Vec<u8>, usize), NoBytes> {
    Ok(match (ty, v) {
        (SqlType::Int2, Value::Int(i)) => ((*i as i16).to_le_bytes().to_vec(), 2),
        (SqlType::Int4, Value::Int(i)) => ((*i as i32).to_le_bytes().to_vec(), 4),
        (SqlType::Int8, Value::Int(i)) => (i.to_le_bytes().to_vec(), 8),
        (SqlType::Bool, Value::Bool(b)) => (vec![u8::from(*b)], 1),
        (SqlType::Float8, Value::Float(f)) => (f.to_le_bytes().to_vec(), 8),
        (SqlType::Float4, Value::Real(f)) => (f.to_le_bytes().to_vec(), 4),
        (SqlType::Timestamptz, Value::Timestamp(us)) => (us.to_le_bytes().to_vec(), 8),
        (SqlType::Timestamp, Value::LocalTimestamp(us)) => (us.to_le_bytes().to_vec(), 8),
        (SqlType::Date, Value::Date(d)) => (d.to_le_bytes().to_vec(), 4),
        (SqlType::Interval, Value::Interval(iv)) => {
            let mut b = iv.micros.to_le_bytes().to_vec();
            b.extend_from_slice(&iv.days.to_le_bytes());
            b.extend_from_slice(&iv.months.to_le_bytes());
            (b, 8)
        }
        (SqlType::Uuid, Value::Text(s)) => {
            let bytes = crate::value::uuid_bytes(s).ok_or(NoBytes("uuid"))?;
            (bytes.to_vec(), 1)
        }
        (SqlType::Text | SqlType::Bpchar(_), Value::Text(s)) => varlena(s.as_bytes())?,
        (SqlType::Numeric(_), Value::Numeric(n)) => varlena(&numeric_bytes(n)?)?,
        (ty, _) => return Err(NoBytes(ty.pg_name())),
    })
}

/// A varlena: a 1-byte header (`(len + 1) << 1 | 1`) up to 126 bytes, else
/// a 4-byte one (`(len + 4) << 2`), aligned on 4. (Whether the tuple was
/// toasted instead is for the caller to see: its length differs.)
fn varlena(data: &[u8]) -> Result<(Vec<u8>, usize), NoBytes> {
    if data.len() <= 126 {
        let mut b = vec![((data.len() as u8 + 1) << 1) | 1];
        b.extend_from_slice(data);
        return Ok((b, 1));
    }
    let mut b = (((data.len() + 4) as u32) << 2).to_le_bytes().to_vec();
    b.extend_from_slice(data);
    Ok((b, 4))
}

/// A numeric's NUMERIC_SHORT form: a 2-byte header (sign, display scale,
/// weight), then its base-10000 digits as int16.
fn numeric_bytes(n: &Numeric) -> Result<Vec<u8>, NoBytes> {
    let (weight, digits) = n.base10000();
    let scale = n.scale();
    if scale > 63 || !(-64..=63).contains(&weight) {
        return Err(NoBytes("numeric of this range"));
    }
    let mut header: u16 = 0x8000 | (scale << 7) | (weight as u16 & 0x3F);
    if n.signum() < 0 {
        header |= 0x2000;
    }
    if weight < 0 {
        header |= 0x0040;
    }
    let mut b = header.to_le_bytes().to_vec();
    for d in digits {
        b.extend_from_slice(&d.to_le_bytes());
    }
    Ok(b)
}
