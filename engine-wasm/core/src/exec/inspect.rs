//! A query over a storage-inspection function (`select lp, t_xmin from
//! heap_page_items(get_raw_page('t', 0))`): its arguments are evaluated, the
//! profile builds the rows ([`QueryEngine::inspect`]), and the query runs over
//! them as over a catalog ([`super::catalog_relation`]).

use super::catalog_relation::CatalogRelation;
use super::engine::QueryEngine;
use crate::sql::ast::{Expr, FromItem, Select};
use crate::sql::error::{ErrorKind, SqlError};
use crate::sql::eval::{bind, eval, Scope};
use crate::sql::inspect::{InspectArgs, InspectFunc};
use crate::value::Value;

/// The function `q` reads, when it reads only that (nothing joined to it).
pub fn reads_only(q: &Select) -> Option<(InspectFunc, &InspectArgs)> {
    match (q.from.as_slice(), q.joins.is_empty()) {
        ([FromItem::Inspect { func, args, .. }], true) => Some((*func, args)),
        _ => None,
    }
}

/// The function's rows, for the arguments written.
pub fn rows<E: QueryEngine>(
    engine: &mut E,
    func: InspectFunc,
    args: &InspectArgs,
) -> Result<CatalogRelation, SqlError> {
    // As written: each function folds it as PostgreSQL's does.
    let relation = match constant(engine, &args.relation)? {
        Value::Text(name) => name.to_string(),
        other => {
            return Err(SqlError::new(
                ErrorKind::Semantic,
                format!(
                    "function {}() takes a relation name, not {}",
                    func.name(),
                    other.pg_text()
                ),
            ))
        }
    };
    let block = match &args.block {
        None => None,
        Some(b) => match constant(engine, b)? {
            Value::Int(n) => Some(n),
            other => {
                return Err(SqlError::new(
                    ErrorKind::Semantic,
                    format!("invalid block number {}", other.pg_text()),
                ))
            }
        },
    };
    engine.inspect(func, &relation, block, args.raw_page)
}

/// A relation name as `text_to_qualified_name` reads it: the catalogs' key
/// ([`super::schemas::relation_key`]); a malformed one is looked up as
/// written, and not found.
pub fn relation_name(text: &str) -> String {
    super::schemas::relation_key(text).unwrap_or_else(|_| text.to_string())
}

fn constant<E: QueryEngine>(engine: &mut E, e: &Expr) -> Result<Value, SqlError> {
    let b = bind(e, &Scope::default())?;
    eval(&b, &[], &mut engine.env())
}
