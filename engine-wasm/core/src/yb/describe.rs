//! psql's describe commands (`\d`, `\di`…) on the yb profile: its catalog as
//! psql's queries read it on YugabyteDB, where the primary key is an `lsm`
//! index of the table (its first columns `HASH`, the others `ASC` or `DESC`)
//! and sizes are not PostgreSQL's pages (see [`crate::exec::describe`]).

use super::engine::YbEngine;
use crate::btree::SortOrder;
use crate::exec::describe::{self, Catalog, Flavor, Index, KeyPart, Sequence, Table};
use crate::exec::index_expression::{column_name, FIRST_EXPRESSION};
use crate::profile::Outcome;
use crate::sql::ast::Order;
use crate::sql::error::SqlError;
use crate::sql::script::Describe;

impl YbEngine {
    /// Runs a describe command on this engine's catalog.
    pub fn describe(&self, d: &Describe) -> Result<Outcome, SqlError> {
        describe::run(&self.described(), d)
    }

    pub(super) fn described(&self) -> Catalog {
        let mut catalog = Catalog {
            flavor: Flavor::Yb,
            // YugabyteDB's catalogs are PostgreSQL's (and its own `yb_…`).
            system_names: crate::pg::SYSTEM_RELATION_NAMES,
            tables: Vec::new(),
            indexes: Vec::new(),
            sequences: Vec::new(),
        };
        for (id, t) in
            (self.catalog.tables.iter().enumerate()).filter_map(|(id, t)| Some((id, t.as_ref()?)))
        {
            let name = |c: usize| t.columns[c].name.clone();
            if let Some(k) = &t.key {
                let order = |o: SortOrder| match o {
                    SortOrder::Asc => Order::Asc,
                    SortOrder::Desc => Order::Desc,
                };
                let hashed = k.hash.iter().zip(&k.hash_columns).map(|(&c, kc)| KeyPart {
                    expression: None,
                    column: name(c),
                    order: order(kc.order),
                    hash: true,
                });
                let ranged = k
                    .range
                    .iter()
                    .zip(&k.range_columns)
                    .map(|(&c, kc)| KeyPart {
                        expression: None,
                        column: name(c),
                        order: order(kc.order),
                        hash: false,
                    });
                catalog.indexes.push(Index {
                    name: t.pk_name.clone(),
                    table: t.name.clone(),
                    key: hashed.chain(ranged).collect(),
                    include: Vec::new(),
                    primary: true,
                    clustered: false,
                    deferrable: None,
                    unique: true,
                    constraint: true,
                    size: None,
                    predicate: None,
                });
            }
            catalog
                .sequences
                .extend(t.columns.iter().filter(|c| c.serial).map(|c| Sequence {
                    name: format!("{}_{}_seq", t.name, c.name),
                    size: None,
                }));
            catalog.tables.push(Table {
                name: t.name.clone(),
                columns: t.columns.clone(),
                size: None,
                statistics: self.catalog.statistics.footers(id, &t.name, &t.columns),
            });
        }
        catalog
            .sequences
            .extend(self.catalog.sequences.names().map(|name| Sequence {
                name: name.to_string(),
                size: None,
            }));
        for ix in self.catalog.indexes.iter().flatten() {
            let t = self.catalog.table(ix.table);
            catalog.indexes.push(Index {
                name: ix.name.clone(),
                table: t.name.clone(),
                key: ix
                    .key
                    .iter()
                    .map(|&(c, order, hash)| KeyPart {
                        expression: c.checked_sub(FIRST_EXPRESSION).map(|k| {
                            let e = &ix.expressions[k];
                            (e.expr.clone(), e.ty)
                        }),
                        column: match c.checked_sub(FIRST_EXPRESSION) {
                            Some(k) => column_name(&ix.expressions[k].expr),
                            None => t.columns[c].name.clone(),
                        },
                        order,
                        hash,
                    })
                    .collect(),
                include: ix
                    .include
                    .iter()
                    .map(|&c| t.columns[c].name.clone())
                    .collect(),
                primary: false,
                clustered: false,
                deferrable: None,
                unique: ix.unique,
                constraint: ix.constraint,
                size: None,
                predicate: ix.predicate.as_ref().map(|p| p.expr.clone()),
            });
        }
        catalog
    }
}
