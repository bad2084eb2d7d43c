//! The storage-inspection functions of pageinspect and pgstattuple
//! ([`crate::sql::inspect`]), answered from the pg profile's own pages.

pub(crate) mod btree;
mod heap;
mod tuple_data;

use super::engine::PgEngine;
use crate::exec::catalog_relation::CatalogRelation;
use crate::exec::Row;
use crate::sql::error::{unsupported, ErrorKind, SqlError};
use crate::sql::inspect::InspectFunc;

impl PgEngine {
    /// The rows of `func` for `relation` (and `block`).
    pub(super) fn inspect_rows(
        &self,
        func: InspectFunc,
        relation: &str,
        block: Option<i64>,
        raw_page: bool,
    ) -> Result<CatalogRelation, SqlError> {
        let extension = func.extension();
        if !self.catalog.extensions.iter().any(|e| e == extension) {
            return Err(SqlError::new(
                ErrorKind::Semantic,
                format!("function {}() does not exist", func.name()),
            )
            .near(func.name())
            .with_hint(format!(
                "it comes with the {extension} extension: CREATE EXTENSION {extension};"
            )));
        }
        let b = block.unwrap_or(0);
        match func {
            InspectFunc::HeapPageItems => {
                heap::heap_page_items(self, &crate::exec::inspect::relation_name(relation), b)
            }
            InspectFunc::BtMetap => btree::bt_metap(self, relation),
            InspectFunc::PgStatIndex => btree::pgstatindex(self, relation),
            InspectFunc::BtPageStats => btree::bt_page_stats(self, relation, b),
            InspectFunc::BtPageItems if raw_page => btree::bt_page_items_bytea(self, relation, b),
            InspectFunc::BtPageItems => btree::bt_page_items(self, relation, b),
        }
    }
}

/// The table and page `get_raw_page(relation, block)` names, with
/// PostgreSQL's errors for a missing relation or a block past its end.
fn table_for_page(engine: &PgEngine, relation: &str, block: i64) -> Result<(usize, u32), SqlError> {
    let table = match engine.catalog.table_id(relation) {
        Ok(t) => t,
        Err(e) => {
            let is_index = engine.catalog.index_named(relation).is_some();
            if is_index {
                return Err(unsupported(
                    "heap_page_items() of an index's page (it would decode the B-tree page as \
                     a heap page; bt_page_items() reads index pages)",
                ));
            }
            return Err(e);
        }
    };
    let pages = engine.catalog.table(table).heap.page_count();
    match u32::try_from(block) {
        Ok(b) if b < pages => Ok((table, b)),
        _ => Err(SqlError::new(
            ErrorKind::Execution,
            format!("block number {block} is out of range for relation \"{relation}\""),
        )),
    }
}

/// `rows` as the result of `func`.
fn relation_rows(func: InspectFunc, rows: Vec<Row>) -> CatalogRelation {
    CatalogRelation {
        name: func.name(),
        columns: func.columns().to_vec(),
        rows,
        unmodelled: &[],
        name_column: "",
        oid_column: None,
        system_names: &[],
        example_columns: "",
    }
}
