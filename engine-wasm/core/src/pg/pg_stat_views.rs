//! `pg_stat_user_tables` and `pg_stat_user_indexes` on the PostgreSQL
//! profile: a row per table and per index the script made, with the counters
//! of [`super::pgstat`] as the views of `system_views.sql` compute them. Run
//! as a query by [`crate::exec::catalog_relation`].

use super::catalog::Catalog;
use super::engine::PgEngine;
use super::pgstat::TableCounters;
use crate::exec::catalog_relation::CatalogRelation;
use crate::exec::schemas::{bare, schema_of};
use crate::exec::Row;
use crate::value::{SqlType, Value};

const OIDS: &str = "an object id; IndexLab does not model them";

const TABLE_COLUMNS: [(&str, SqlType); 23] = [
    ("relid", SqlType::Text),
    ("schemaname", SqlType::Text),
    ("relname", SqlType::Text),
    ("seq_scan", SqlType::Int8),
    ("seq_tup_read", SqlType::Int8),
    ("idx_scan", SqlType::Int8),
    ("idx_tup_fetch", SqlType::Int8),
    ("n_tup_ins", SqlType::Int8),
    ("n_tup_upd", SqlType::Int8),
    ("n_tup_del", SqlType::Int8),
    ("n_tup_hot_upd", SqlType::Int8),
    ("n_live_tup", SqlType::Int8),
    ("n_dead_tup", SqlType::Int8),
    ("n_mod_since_analyze", SqlType::Int8),
    ("n_ins_since_vacuum", SqlType::Int8),
    ("last_vacuum", SqlType::Timestamptz),
    ("last_autovacuum", SqlType::Timestamptz),
    ("last_analyze", SqlType::Timestamptz),
    ("last_autoanalyze", SqlType::Timestamptz),
    ("vacuum_count", SqlType::Int8),
    ("autovacuum_count", SqlType::Int8),
    ("analyze_count", SqlType::Int8),
    ("autoanalyze_count", SqlType::Int8),
];

const INDEX_COLUMNS: [(&str, SqlType); 7] = [
    ("relid", SqlType::Text),
    ("schemaname", SqlType::Text),
    ("relname", SqlType::Text),
    ("indexrelname", SqlType::Text),
    ("idx_scan", SqlType::Int8),
    ("idx_tup_read", SqlType::Int8),
    ("idx_tup_fetch", SqlType::Int8),
];

const INDEX_UNMODELLED: &[(&str, &str)] = &[("indexrelid", OIDS)];

impl PgEngine {
    /// Sends every relation's pending counts, at the end of a transaction.
    pub(super) fn send_statistics(&mut self, committed: bool) {
        for t in self.catalog.tables.iter_mut().flatten() {
            t.activity.flush(committed);
        }
        for ix in self.catalog.indexes.iter_mut().flatten() {
            ix.activity.flush();
        }
    }
}

/// `pg_stat_user_tables`. A table's `idx_scan` and `idx_tup_fetch` sum its
/// indexes' counters, and are NULL when it has none (the view's `sum()`
/// over no index).
pub(super) fn pg_stat_user_tables(catalog: &Catalog) -> CatalogRelation {
    let rows = catalog
        .tables
        .iter()
        .flatten()
        .map(|t| {
            let indexes = t.indexes.iter().map(|&i| catalog.index(i).activity.shown);
            let sums = indexes.fold(None, |acc: Option<(i64, i64)>, c| {
                let (s, f) = acc.unwrap_or_default();
                Some((s + c.idx_scan, f + c.idx_tup_fetch))
            });
            table_row(&t.name, &t.activity.shown, sums)
        })
        .collect();
    CatalogRelation {
        name: "pg_stat_user_tables",
        columns: TABLE_COLUMNS.to_vec(),
        rows,
        unmodelled: &[],
        name_column: "relname",
        oid_column: Some("relid"),
        system_names: &[],
        example_columns: "relname, seq_scan, idx_scan, n_tup_upd, n_tup_hot_upd, n_live_tup, \
                          n_dead_tup",
    }
}

fn table_row(name: &str, c: &TableCounters, index_sums: Option<(i64, i64)>) -> Row {
    let (scans, fetches) = (index_sums.map(|s| s.0), index_sums.map(|s| s.1));
    let int = Value::Int;
    let time = |t: Option<i64>| t.map_or(Value::Null, Value::Timestamp);
    [
        Value::text(name),
        Value::text(schema_of(name)),
        Value::text(bare(name)),
        int(c.seq_scan),
        int(c.seq_tup_read),
        scans.map_or(Value::Null, int),
        fetches.map_or(Value::Null, int),
        int(c.n_tup_ins),
        int(c.n_tup_upd),
        int(c.n_tup_del),
        int(c.n_tup_hot_upd),
        int(c.n_live_tup),
        int(c.n_dead_tup),
        int(c.n_mod_since_analyze),
        int(c.n_ins_since_vacuum),
        time(c.last_vacuum),
        Value::Null,
        time(c.last_analyze),
        Value::Null,
        int(c.vacuum_count),
        int(0),
        int(c.analyze_count),
        int(0),
    ]
    .into_iter()
    .collect()
}

/// `pg_stat_user_indexes`, in the order the indexes were made.
pub(super) fn pg_stat_user_indexes(catalog: &Catalog) -> CatalogRelation {
    let rows = catalog
        .indexes
        .iter()
        .flatten()
        .map(|ix| {
            let table = &catalog.table(ix.table).name;
            let c = ix.activity.shown;
            [
                Value::text(table),
                Value::text(schema_of(table)),
                Value::text(bare(table)),
                Value::text(bare(&ix.name)),
                Value::Int(c.idx_scan),
                Value::Int(c.idx_tup_read),
                Value::Int(c.idx_tup_fetch),
            ]
            .into_iter()
            .collect()
        })
        .collect();
    CatalogRelation {
        name: "pg_stat_user_indexes",
        columns: INDEX_COLUMNS.to_vec(),
        rows,
        unmodelled: INDEX_UNMODELLED,
        name_column: "relname",
        oid_column: Some("relid"),
        system_names: &[],
        example_columns: "relname, indexrelname, idx_scan, idx_tup_read, idx_tup_fetch",
    }
}
