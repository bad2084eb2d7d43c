//! pageinspect's `heap_page_items(get_raw_page('t', n))`: one row per line
//! pointer of heap page `n`, with the tuple header fields PostgreSQL stores
//! (heapfuncs.c). Everything comes from IndexLab's heap page: where each
//! tuple sits (`lp_off`), its length, the transactions and command that
//! wrote and deleted it, its hint bits, and its data bytes.

use super::super::catalog::Table;
use super::super::engine::PgEngine;
use super::super::heap::tuple_header::*;
use super::super::heap::{HeapTuple, LinePointer};
use super::super::tuple::{maxalign, HEAP_TUPLE_HEADER_SIZE};
use super::tuple_data::{is_varlena, tuple_data, NoBytes};
use super::{relation_rows, table_for_page};
use crate::exec::catalog_relation::CatalogRelation;
use crate::exec::Row;
use crate::sql::error::{unsupported, SqlError};
use crate::sql::inspect::InspectFunc;
use crate::value::Value;

/// `lp_flags` values (itemid.h).
const LP_UNUSED: i64 = 0;
const LP_NORMAL: i64 = 1;
const LP_REDIRECT: i64 = 2;
const LP_DEAD: i64 = 3;

pub(super) fn heap_page_items(
    engine: &PgEngine,
    relation: &str,
    block: i64,
) -> Result<CatalogRelation, SqlError> {
    let (table, page) = table_for_page(engine, relation, block)?;
    let t = engine.catalog.table(table);
    let items = t.heap.raw_items(page).unwrap_or(&[]);
    let mut rows = Vec::with_capacity(items.len());
    for (i, lp) in items.iter().enumerate() {
        let lp_number = i as i64 + 1;
        rows.push(match lp {
            LinePointer::Unused => pointer_only(lp_number, 0, LP_UNUSED),
            // Pruning's ItemIdSetDead clears the offset and length.
            LinePointer::Dead => pointer_only(lp_number, 0, LP_DEAD),
            // A redirect's offset is the line pointer it leads to.
            LinePointer::Redirect(to) => pointer_only(lp_number, i64::from(*to), LP_REDIRECT),
            LinePointer::Normal(tuple) => {
                let tid = (u64::from(page) << 16) | lp_number as u64;
                tuple_row(lp_number, tid, tuple, t, relation)?
            }
        });
    }
    Ok(relation_rows(InspectFunc::HeapPageItems, rows))
}

/// A line pointer without storage: the header columns are NULL.
fn pointer_only(lp: i64, off: i64, flags: i64) -> Row {
    let mut row = vec![
        Value::Int(lp),
        Value::Int(off),
        Value::Int(flags),
        Value::Int(0),
    ];
    row.resize(InspectFunc::HeapPageItems.columns().len(), Value::Null);
    row.into_iter().collect()
}

/// A line pointer with its tuple.
fn tuple_row(
    lp: i64,
    tid: u64,
    t: &HeapTuple<Row>,
    table: &Table,
    relation: &str,
) -> Result<Row, SqlError> {
    let h = &t.header;
    let (values, types) = table.physical_row(&t.row, tid, t.xmin);
    let natts = usize::from(h.natts).min(values.len());
    let (values, types) = (&values[..natts], &types[..natts]);
    let has_null = values.iter().any(Value::is_null);
    let t_hoff = if has_null {
        maxalign(HEAP_TUPLE_HEADER_SIZE + natts.div_ceil(8) as u32)
    } else {
        maxalign(HEAP_TUPLE_HEADER_SIZE)
    };
    let toasted = || {
        unsupported(format!(
            "heap_page_items() of a page of \"{relation}\" holding a value PostgreSQL would \
             compress or store out of line (TOAST; IndexLab sizes such tuples but does not \
             store their bytes as PostgreSQL does)"
        ))
    };
    let data = match tuple_data(values, types) {
        Ok(d) => d,
        Err(NoBytes(ty)) => {
            return Err(unsupported(format!(
                "heap_page_items() of a tuple holding a {ty} value"
            )))
        }
    };
    if t_hoff as usize + data.len() != usize::from(h.len) {
        return Err(toasted());
    }
    let mut infomask = h.infomask.get();
    if has_null {
        infomask |= HEAP_HASNULL;
    }
    if values
        .iter()
        .zip(types)
        .any(|(v, ty)| !v.is_null() && is_varlena(*ty))
    {
        infomask |= HEAP_HASVARWIDTH;
    }
    let mut infomask2 = natts as u16;
    if h.keys_updated {
        infomask2 |= HEAP_KEYS_UPDATED;
    }
    if t.hot_next.is_some() {
        infomask2 |= HEAP_HOT_UPDATED;
    }
    if t.heap_only {
        infomask2 |= HEAP_ONLY_TUPLE;
    }
    let ctid = h.successor.map_or(tid, |s| s.to_u64());
    let row = vec![
        Value::Int(lp),
        Value::Int(i64::from(t.off)),
        Value::Int(LP_NORMAL),
        Value::Int(i64::from(h.len)),
        Value::Int(i64::from(t.xmin)),
        Value::Int(i64::from(t.xmax)),
        Value::Int(i64::from(h.cid)),
        Value::Tid(ctid),
        Value::Int(i64::from(infomask2)),
        Value::Int(i64::from(infomask)),
        Value::Int(i64::from(t_hoff)),
        if has_null {
            Value::text(null_bits(values))
        } else {
            Value::Null
        },
        Value::Null,
        Value::Bytea(Box::new(data)),
    ];
    Ok(row.into_iter().collect())
}

/// `t_bits` as pageinspect prints it (`bits_to_text`): one character per
/// bit of the null bitmap's bytes, `1` for a column that is not null.
fn null_bits(values: &[Value]) -> String {
    let width = values.len().div_ceil(8) * 8;
    (0..width)
        .map(|i| match values.get(i) {
            Some(v) if !v.is_null() => '1',
            _ => '0',
        })
        .collect()
}
