//! The select list of a join chain: `*` as PostgreSQL expands it (each USING
//! column once, first), other items bound over the joined row.

use super::super::select::output_name;
use super::conditions::Placed;
use crate::sql::ast::SelectItem;
use crate::sql::error::SqlError;
use crate::sql::eval::{bind, Bound as BoundExpr, Scope};

/// The output columns' names and the expressions that compute them.
pub fn project(
    items: &[SelectItem],
    scope: &Scope,
    placed: &Placed,
) -> Result<(Vec<String>, Vec<BoundExpr>), SqlError> {
    let mut names = Vec::new();
    let mut exprs = Vec::new();
    for item in items {
        match item {
            SelectItem::Wildcard => {
                for (name, e) in &placed.star {
                    names.push(name.clone());
                    exprs.push(bind(e, scope)?);
                }
            }
            SelectItem::Expr { expr, alias } => {
                crate::sql::eval::reject_numeric_output(expr)?;
                names.push(alias.clone().unwrap_or_else(|| output_name(expr)));
                exprs.push(bind(expr, scope)?);
            }
        }
    }
    Ok((names, exprs))
}
