//! `pg_stats` on the PostgreSQL profile: a row for each column of each table
//! the last ANALYZE read ([`super::column_stats`]), in column order, with its
//! arrays printed as PostgreSQL prints an array (`{1,2,3}`, an element
//! quoted when it holds a space, a comma, a brace, a quote or a backslash).
//! Run as a query by [`crate::exec::catalog_relation`].

use super::catalog::Catalog;
use super::column_stats::ColumnStats;
use super::system_relations::SYSTEM_RELATION_NAMES;
use crate::exec::catalog_relation::CatalogRelation;
use crate::exec::schemas::{bare, schema_of};
use crate::exec::Row;
use crate::value::{format_float4, SqlType, Value};

const COLUMNS: [(&str, SqlType); 14] = [
    ("schemaname", SqlType::Text),
    ("tablename", SqlType::Text),
    ("attname", SqlType::Text),
    ("inherited", SqlType::Bool),
    ("null_frac", SqlType::Float4),
    ("avg_width", SqlType::Int4),
    ("n_distinct", SqlType::Float4),
    ("most_common_vals", SqlType::Text),
    ("most_common_freqs", SqlType::Text),
    ("histogram_bounds", SqlType::Text),
    ("correlation", SqlType::Float4),
    ("most_common_elems", SqlType::Text),
    ("most_common_elem_freqs", SqlType::Text),
    ("elem_count_histogram", SqlType::Text),
];

pub(super) fn pg_stats(catalog: &Catalog) -> CatalogRelation {
    let mut rows = Vec::new();
    for t in catalog.tables.iter().flatten() {
        for (column, stats) in t.columns.iter().zip(&t.column_stats) {
            rows.push(row(&t.name, &column.name, stats));
        }
    }
    CatalogRelation {
        name: "pg_stats",
        columns: COLUMNS.to_vec(),
        rows,
        unmodelled: &[],
        name_column: "tablename",
        oid_column: None,
        system_names: SYSTEM_RELATION_NAMES,
        example_columns: "tablename, attname, null_frac, n_distinct, most_common_vals, \
                          correlation",
    }
}

fn row(table: &str, column: &str, s: &ColumnStats) -> Row {
    let or_null = |items: Vec<String>| match items.is_empty() {
        true => Value::Null,
        false => Value::text(array_text(&items)),
    };
    let values = |vs: &mut dyn Iterator<Item = &Value>| vs.map(Value::pg_text).collect();
    [
        Value::text(schema_of(table)),
        Value::text(bare(table)),
        Value::text(column),
        Value::Bool(false),
        Value::Real(s.null_frac),
        Value::Int(i64::from(s.avg_width)),
        Value::Real(s.n_distinct),
        or_null(values(&mut s.most_common.iter().map(|(v, _)| v))),
        or_null(
            s.most_common
                .iter()
                .map(|(_, f)| format_float4(*f))
                .collect(),
        ),
        or_null(values(&mut s.histogram.iter())),
        s.correlation.map_or(Value::Null, Value::Real),
        Value::Null,
        Value::Null,
        Value::Null,
    ]
    .into_iter()
    .collect()
}

/// An array's text (`array_out`): elements quoted where they must be.
fn array_text(items: &[String]) -> String {
    let quoted: Vec<String> = items.iter().map(|e| element(e)).collect();
    format!("{{{}}}", quoted.join(","))
}

fn element(e: &str) -> String {
    let special = |c: char| matches!(c, '{' | '}' | ',' | '"' | '\\') || c.is_ascii_whitespace();
    if !e.is_empty() && !e.eq_ignore_ascii_case("null") && !e.chars().any(special) {
        return e.to_string();
    }
    let escaped = e.replace('\\', "\\\\").replace('"', "\\\"");
    format!("\"{escaped}\"")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elements_are_quoted_as_array_out_quotes_them() {
        let items = ["a", "b c", "", "NULL", "x\"y"].map(String::from);
        assert_eq!(array_text(&items), r#"{a,"b c","","NULL","x\"y"}"#);
    }
}
