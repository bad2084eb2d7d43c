//! ANALYZE's per-column pass (`do_analyze_rel`): the rows it sampled, each
//! column's values handed to [`super::column_stats::compute`] with its
//! type's width.
//!
//! PostgreSQL samples 300 × `default_statistics_target` rows (30 000 by
//! default). A table no larger is read whole, every live row in physical
//! order, so its statistics are exact and the same on every run. A larger one
//! gets a uniform random sample (PostgreSQL's reservoir), put back in
//! physical order; IndexLab draws it from a generator of its own seeded by
//! the table, so reruns match each other, though not any one PostgreSQL run
//! (whose sample is random too).

use super::catalog::Table;
use super::column_stats::{compute, ColumnStats, Sample};
use crate::exec::index_expression::IndexExpression;
use crate::exec::row::Row;
use crate::rng::Rng;
use crate::value::{SqlType, Value};

/// Each expression's statistics over the same sample of the rows
/// (`compute_index_stats`): an expression index's values, as ANALYZE
/// evaluates them for every sampled row.
pub fn analyze_expressions(
    table: &Table,
    rows: &[Row],
    target: usize,
    expressions: &[IndexExpression],
) -> Vec<ColumnStats> {
    let target = target.max(1);
    let sample = sample(rows, 300 * target, table.rel as u64);
    expressions
        .iter()
        .map(|x| {
            let values: Vec<Value> = sample
                .iter()
                .map(|r| x.value(r).unwrap_or(Value::Null))
                .collect();
            compute(&Sample {
                values: &values,
                total_rows: rows.len() as f64,
                target,
                width: &|v| stored_width(v, x.ty),
                fixed_width: fixed_width(x.ty),
            })
        })
        .collect()
}

/// Each column's statistics from the table's live rows, in physical order.
pub fn analyze(table: &Table, rows: &[Row], target: usize) -> Vec<ColumnStats> {
    let target = target.max(1);
    let sample = sample(rows, 300 * target, table.rel as u64);
    let total_rows = rows.len() as f64;
    (0..table.types.len())
        .map(|c| {
            let values: Vec<Value> = sample
                .iter()
                .map(|r| r.get(c).cloned().unwrap_or(Value::Null))
                .collect();
            let ty = table.types[c];
            let stats = compute(&Sample {
                values: &values,
                total_rows,
                target,
                width: &|v| stored_width(v, ty),
                fixed_width: fixed_width(ty),
            });
            match ty {
                // No ordering operator: `compute_trivial_stats` keeps only
                // the NULL share and width; the distinct count is unknown.
                SqlType::Point => ColumnStats {
                    n_distinct: 0.0,
                    most_common: Vec::new(),
                    histogram: Vec::new(),
                    correlation: None,
                    ..stats
                },
                _ => stats,
            }
        })
        .collect()
}

/// Every row when there are at most `size`; else a uniform sample of
/// `size` rows (reservoir sampling), in the order of the table.
fn sample(rows: &[Row], size: usize, seed: u64) -> Vec<&Row> {
    if rows.len() <= size {
        return rows.iter().collect();
    }
    let mut rng = Rng::new(0x616e_616c_797a_6521 ^ seed);
    let mut picked: Vec<usize> = (0..size).collect();
    for i in size..rows.len() {
        let j = rng.below(i as u64 + 1) as usize;
        if j < size {
            picked[j] = i;
        }
    }
    picked.sort_unstable();
    picked.into_iter().map(|i| &rows[i]).collect()
}

/// The type's length (`typlen`) when it is fixed.
fn fixed_width(ty: SqlType) -> Option<i32> {
    Some(match ty {
        SqlType::Bool => 1,
        SqlType::Int2 => 2,
        SqlType::Int4 | SqlType::Float4 | SqlType::Date => 4,
        SqlType::Int8 | SqlType::Float8 | SqlType::Timestamp | SqlType::Timestamptz => 8,
        SqlType::Tid => 6,
        SqlType::Interval | SqlType::Uuid | SqlType::Point => 16,
        SqlType::Text
        | SqlType::Bpchar(_)
        | SqlType::Numeric(_)
        | SqlType::Bytea
        | SqlType::Json
        | SqlType::Jsonb => return None,
    })
}

/// A varlena value's size as stored in the row (`VARSIZE_ANY`): a 1-byte
/// header up to 126 bytes of data, else 4.
fn stored_width(v: &Value, ty: SqlType) -> usize {
    let data = match v {
        Value::Text(s) => s.len(),
        Value::Numeric(n) => n.payload_size(),
        Value::Bytea(b) => b.len(),
        Value::Json(s) => s.len(),
        Value::Jsonb(j) => j.datum_size() - 4,
        _ => return fixed_width(ty).unwrap_or(8) as usize,
    };
    if data <= 126 {
        data + 1
    } else {
        data + 4
    }
}
