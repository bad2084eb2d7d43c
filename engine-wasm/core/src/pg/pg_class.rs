//! `pg_class` on the PostgreSQL profile: a row for each table, index and
//! serial column's sequence the script made, with the figures VACUUM, ANALYZE
//! and CREATE INDEX last wrote ([`super::relation_stats`]). Run as a query by
//! [`crate::exec::catalog_relation`].

use super::catalog::Catalog;
use super::system_relations::SYSTEM_RELATION_NAMES;
use crate::exec::catalog_relation::CatalogRelation;
use crate::exec::schemas::{bare, schema_of, PUBLIC};
use crate::exec::Row;
use crate::value::{SqlType, Value};

/// `pg_namespace.oid` of `public`, fixed by initdb.
const PUBLIC_NAMESPACE: i64 = 2200;
/// `pg_am.oid` of the heap and B-tree access methods, fixed by initdb.
const HEAP_AM: i64 = 2;
const BTREE_AM: i64 = 403;

const COLUMNS: [(&str, SqlType); 18] = [
    ("oid", SqlType::Text),
    ("relname", SqlType::Text),
    ("relnamespace", SqlType::Int8),
    ("relkind", SqlType::Text),
    ("relam", SqlType::Int8),
    ("relpages", SqlType::Int4),
    ("reltuples", SqlType::Float4),
    ("relallvisible", SqlType::Int4),
    ("relhasindex", SqlType::Bool),
    ("relisshared", SqlType::Bool),
    ("relpersistence", SqlType::Text),
    ("relnatts", SqlType::Int4),
    ("relchecks", SqlType::Int4),
    ("relhasrules", SqlType::Bool),
    ("relhastriggers", SqlType::Bool),
    ("relispopulated", SqlType::Bool),
    ("relreplident", SqlType::Text),
    ("relispartition", SqlType::Bool),
];

const UNMODELLED: &[(&str, &str)] = &[
    ("reltype", "the oid of its row type"),
    ("reloftype", "the oid of its type"),
    ("relowner", "the oid of its owner"),
    ("relfilenode", "the number of its file"),
    ("reltablespace", "the oid of its tablespace"),
    ("reltoastrelid", "the oid of its TOAST table"),
    ("relhassubclass", "inheritance"),
    ("relrowsecurity", "row security"),
    ("relforcerowsecurity", "row security"),
    ("relrewrite", "the oid of a table being rewritten"),
    (
        "relfrozenxid",
        "a transaction id; IndexLab does not model them",
    ),
    ("relminmxid", "a multixact id; IndexLab does not model them"),
    ("relacl", "privileges"),
    ("reloptions", "storage parameters"),
    ("relpartbound", "partitioning"),
];

/// What a row needs to know of its relation.
struct Relation<'a> {
    name: &'a str,
    kind: &'static str,
    am: i64,
    pages: u32,
    tuples: f32,
    all_visible: u32,
    has_index: bool,
    natts: usize,
}

impl Relation<'_> {
    fn row(&self) -> Row {
        let text = |s: &str| Value::text(s);
        let is_table = self.kind == "r";
        [
            // oid prints as regclass does: with its schema when not public.
            text(self.name),
            text(bare(self.name)),
            // IndexLab gives the schemas it makes no oid.
            match schema_of(self.name) {
                PUBLIC => Value::Int(PUBLIC_NAMESPACE),
                _ => Value::Null,
            },
            text(self.kind),
            Value::Int(self.am),
            Value::Int(i64::from(self.pages)),
            Value::Real(self.tuples),
            Value::Int(i64::from(self.all_visible)),
            Value::Bool(self.has_index),
            Value::Bool(false),
            text("p"),
            Value::Int(self.natts as i64),
            Value::Int(0),
            Value::Bool(false),
            Value::Bool(false),
            Value::Bool(true),
            text(if is_table { "d" } else { "n" }),
            Value::Bool(false),
        ]
        .into_iter()
        .collect()
    }
}

/// A sequence's row: one page, one row, always (heap.c).
fn sequence_row(name: &str) -> Row {
    Relation {
        name,
        kind: "S",
        am: 0,
        pages: 1,
        tuples: 1.0,
        all_visible: 0,
        has_index: false,
        natts: 3,
    }
    .row()
}

/// The rows of pg_class for `catalog`'s relations, in the order they were made.
pub(super) fn pg_class(catalog: &Catalog) -> CatalogRelation {
    let mut rows: Vec<(u32, Row)> = Vec::new();
    for t in catalog.tables.iter().flatten() {
        // A serial column's sequence: one page, one row, always (heap.c).
        for name in t.sequence_names() {
            rows.push((t.rel, sequence_row(&name)));
        }
        let table = Relation {
            name: &t.name,
            kind: "r",
            am: HEAP_AM,
            pages: t.stats.pages,
            tuples: t.stats.tuples,
            all_visible: t.stats.all_visible,
            has_index: t.has_index,
            natts: usize::from(t.natts()),
        };
        rows.push((t.rel, table.row()));
    }
    for ix in catalog.indexes.iter().flatten() {
        let index = Relation {
            name: &ix.name,
            kind: "i",
            am: BTREE_AM,
            pages: ix.stats.pages,
            tuples: ix.stats.tuples,
            all_visible: 0,
            has_index: false,
            natts: ix.key.len() + ix.include.len(),
        };
        rows.push((ix.rel, index.row()));
    }
    // CREATE SEQUENCE's sequences, after the tables (IndexLab numbers only
    // tables' relations): one page, one row.
    for name in catalog.sequences.names() {
        rows.push((u32::MAX, sequence_row(name)));
    }
    rows.sort_by_key(|(rel, _)| *rel);
    CatalogRelation {
        name: "pg_class",
        columns: COLUMNS.to_vec(),
        rows: rows.into_iter().map(|(_, r)| r).collect(),
        unmodelled: UNMODELLED,
        name_column: "relname",
        oid_column: Some("oid"),
        system_names: SYSTEM_RELATION_NAMES,
        example_columns: "relname, relkind, relpages, reltuples, relallvisible",
    }
}
