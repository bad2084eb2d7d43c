//! The view `pg_indexes`: a row per index, with the statement that would make
//! it again (`pg_get_indexdef`), on either profile — `USING btree` on
//! PostgreSQL, `USING lsm` with YugabyteDB's HASH and ASC key parts. Built
//! from what the profile's catalog holds for `\d` ([`super::describe`]) and
//! run as a query by [`super::catalog_relation`]. PostgreSQL's own catalogs
//! have indexes too, so a query must pick the script's tables by name.

use super::catalog_relation::CatalogRelation;
use super::describe::{index_definition, Catalog};
use super::schemas::{bare, schema_of};
use super::Row;
use crate::sql::error::SqlError;
use crate::value::{SqlType, Value};

const COLUMNS: [(&str, SqlType); 5] = [
    ("schemaname", SqlType::Text),
    ("tablename", SqlType::Text),
    ("indexname", SqlType::Text),
    ("tablespace", SqlType::Text),
    ("indexdef", SqlType::Text),
];

/// The rows of `pg_indexes` for `catalog`'s indexes, in the order they were
/// made (a primary key first on YugabyteDB, where it is part of the table).
pub fn pg_indexes(catalog: &Catalog) -> Result<CatalogRelation, SqlError> {
    let rows = catalog
        .indexes
        .iter()
        .map(|i| {
            let unique = if i.unique { "UNIQUE " } else { "" };
            let quote = super::describe::quote_ident;
            let definition = format!(
                "CREATE {unique}INDEX {} ON {}.{} USING {}",
                quote(bare(&i.name)),
                quote(schema_of(&i.table)),
                quote(bare(&i.table)),
                index_definition(catalog, i, false)?
            );
            let row: Row = [
                Value::text(schema_of(&i.table)),
                Value::text(bare(&i.table)),
                Value::text(bare(&i.name)),
                Value::Null,
                Value::text(definition),
            ]
            .into_iter()
            .collect();
            Ok(row)
        })
        .collect::<Result<_, SqlError>>()?;
    Ok(CatalogRelation {
        name: "pg_indexes",
        columns: COLUMNS.to_vec(),
        rows,
        unmodelled: &[],
        name_column: "tablename",
        oid_column: None,
        system_names: catalog.system_names,
        example_columns: "tablename, indexname, indexdef",
    })
}
