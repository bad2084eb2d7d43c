//! An index on an expression (`CREATE INDEX … (lower(email))`): the index
//! stores the expression's value for each row, and a query whose condition
//! or ORDER BY names the same expression can use it. Checked as PostgreSQL 15
//! checks one (`ComputeIndexAttrs`, `CheckMutability`): no subquery, no
//! aggregate, only immutable functions.
//!
//! A profile numbers an index's expression keys from [`FIRST_EXPRESSION`]
//! up, so that a key position tells a table column from an expression even
//! after ALTER TABLE adds columns.

use super::index_predicate::{collect_columns, refuse_forms, refuse_mutable};
use crate::exec::types::type_of;
use crate::rng::Rng;
use crate::sql::ast::Expr;
use crate::sql::error::SqlError;
use crate::sql::eval::{bind, eval, Bound, EvalEnv, Scope};
use crate::sql::plan::TableInfo;
use crate::value::{SqlType, Value};

/// The key position of an index's first expression; its k-th is this + k.
pub const FIRST_EXPRESSION: usize = 1 << 16;

#[derive(Debug, Clone)]
pub struct IndexExpression {
    /// As written: what `\d` prints and the planner compares queries with.
    pub expr: Expr,
    pub ty: SqlType,
    bound: Bound,
}

impl IndexExpression {
    pub fn new(expr: &Expr, scope: &Scope) -> Result<IndexExpression, SqlError> {
        refuse_forms(expr, "expression")?;
        let bound = bind(expr, scope)?;
        let ty = type_of(expr, scope)?;
        refuse_mutable(expr, "expression")?;
        Ok(IndexExpression {
            expr: expr.clone(),
            ty,
            bound,
        })
    }

    /// The value the index stores for `row`.
    pub fn value(&self, row: &[Value]) -> Result<Value, SqlError> {
        // An immutable expression never draws a random number or reads the
        // clock: the environment is a formality.
        let mut rng = Rng::new(0);
        let mut env = EvalEnv {
            statement_start_us: 0,
            clock_us: 0,
            rng: &mut rng,
            sequences: None,
        };
        eval(&self.bound, row, &mut env)
    }

    /// The table's columns it reads (an UPDATE of one is never HOT).
    pub fn columns(&self) -> Vec<usize> {
        let mut out = Vec::new();
        collect_columns(&self.bound, &mut out);
        out
    }
}

/// `FigureIndexColname`: an expression key's column name, which also goes
/// into the index's default name (`t_lower_idx`): a function's name, or
/// `expr`.
pub fn column_name(expr: &Expr) -> String {
    match expr {
        Expr::Function { func, .. } => func.name().to_ascii_lowercase(),
        Expr::Call(f) => f.name().to_string(),
        Expr::Cast { expr, .. } => column_name(expr),
        _ => "expr".to_string(),
    }
}

/// The planner's numbers for a table's indexed expressions: after its
/// columns and its one system column (`ctid`), each distinct expression
/// once, whichever indexes share it (see `TableInfo::expressions`).
pub struct PlannerNumbers {
    first: usize,
    pub expressions: Vec<Expr>,
}

impl PlannerNumbers {
    pub fn new(columns: usize) -> PlannerNumbers {
        PlannerNumbers {
            first: columns + TableInfo::SYSTEM_COLUMNS,
            expressions: Vec::new(),
        }
    }

    /// The planner's number for key position `c` of an index whose
    /// expressions are `of_index`.
    pub fn number(&mut self, of_index: &[IndexExpression], c: usize) -> usize {
        let Some(k) = c.checked_sub(FIRST_EXPRESSION) else {
            return c;
        };
        let e = &of_index[k].expr;
        let at = match self.expressions.iter().position(|x| x == e) {
            Some(at) => at,
            None => {
                self.expressions.push(e.clone());
                self.expressions.len() - 1
            }
        };
        self.first + at
    }
}
