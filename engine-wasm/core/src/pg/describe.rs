//! psql's describe commands (`\d`, `\dt+`…) on the pg profile: its catalog
//! as psql's queries read it, sizes counted from the model's own pages as
//! `pg_table_size()` answers them ([`QueryEngine::catalog_call`]).

use super::engine::PgEngine;
use crate::exec::describe::{self, Catalog, Flavor, Index, KeyPart, Sequence, Table};
use crate::exec::index_expression::{column_name, FIRST_EXPRESSION};
use crate::exec::QueryEngine;
use crate::profile::Outcome;
use crate::sql::error::SqlError;
use crate::sql::functions::ScalarFunc;
use crate::sql::script::Describe;
use crate::value::Value;

impl PgEngine {
    /// Runs a describe command on this engine's catalog.
    pub fn describe(&self, d: &Describe) -> Result<Outcome, SqlError> {
        describe::run(&self.described(), d)
    }

    pub(super) fn described(&self) -> Catalog {
        // `pg_table_size()`, as psql's `\dt+` and `\di+` ask for it.
        let size = |name: &str| match self.catalog_call(ScalarFunc::PgTableSize, name, None) {
            Ok(Value::Int(bytes)) => Some(bytes),
            _ => None,
        };
        let tables: Vec<(usize, &super::catalog::Table)> = (self.catalog.tables.iter().enumerate())
            .filter_map(|(id, t)| Some((id, t.as_ref()?)))
            .collect();
        let indexes = self
            .catalog
            .indexes
            .iter()
            .flatten()
            .map(|ix| {
                let t = self.catalog.table(ix.table);
                Index {
                    name: ix.name.clone(),
                    table: t.name.clone(),
                    key: ix
                        .key
                        .iter()
                        .map(|&(c, order)| KeyPart {
                            column: match c.checked_sub(FIRST_EXPRESSION) {
                                Some(k) => column_name(&ix.expressions[k].expr),
                                None => t.columns[c].name.clone(),
                            },
                            expression: c.checked_sub(FIRST_EXPRESSION).map(|k| {
                                let e = &ix.expressions[k];
                                (e.expr.clone(), e.ty)
                            }),
                            order,
                            hash: false,
                        })
                        .collect(),
                    include: ix
                        .include
                        .iter()
                        .map(|&c| t.columns[c].name.clone())
                        .collect(),
                    primary: ix.primary,
                    unique: ix.unique,
                    clustered: ix.clustered,
                    deferrable: ix.deferrable,
                    constraint: ix.constraint,
                    size: size(&ix.name),
                    predicate: ix.predicate.as_ref().map(|p| p.expr.clone()),
                }
            })
            .collect();
        Catalog {
            flavor: Flavor::Pg,
            system_names: super::system_relations::SYSTEM_RELATION_NAMES,
            tables: tables
                .iter()
                .map(|&(id, t)| Table {
                    name: t.name.clone(),
                    columns: t.columns.clone(),
                    size: size(&t.name),
                    statistics: self.catalog.statistics.footers(id, &t.name, &t.columns),
                })
                .collect(),
            indexes,
            sequences: tables
                .iter()
                .flat_map(|(_, t)| t.sequence_names())
                .chain(self.catalog.sequences.names().map(str::to_string))
                .map(|name| Sequence {
                    size: size(&name),
                    name,
                })
                .collect(),
        }
    }
}
