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
        match func {
            InspectFunc::HeapPageItems => heap::heap_page_items(self, relation, block.unwrap_or(0)),
            // The name arrives folded (exec::inspect::relation_name); quoted,
            // btree's own folding keeps it as it is.
            _ => {
                let name = format!("\"{}\"", relation.replace('"', "\"\""));
                match (func, block) {
                    (InspectFunc::BtMetap, _) => btree::bt_metap(self, &name),
                    (InspectFunc::PgStatIndex, _) => btree::pgstatindex(self, &name),
                    (InspectFunc::BtPageStats, Some(b)) => btree::bt_page_stats(self, &name, b),
                    (InspectFunc::BtPageItems, Some(b)) => btree::bt_page_items(self, &name, b),
                    _ => Err(unsupported(format!("{}()", func.name()))),
                }
            }
        }
    }
}

/// The table and page `get_raw_page(relation, block)` names, with
/// PostgreSQL's errors for a missing relation or a block past its end.
fn table_for_page(engine: &PgEngine, relation: &str, block: i64) -> Result<(usize, u32), SqlError> {
    let table = match engine.catalog.table_id(relation) {
        Ok(t) => t,
        Err(e) => {
            let is_index = engine
                .catalog
                .indexes
                .iter()
                .flatten()
                .any(|i| i.name == relation);
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
