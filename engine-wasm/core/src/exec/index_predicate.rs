//! A partial index's predicate (`CREATE INDEX … WHERE cond`): the index holds
//! an entry only for the rows `cond` is true for, so it is smaller, and a
//! query may use it only when its own WHERE clause implies `cond`
//! (`sql/predtest.rs`).
//!
//! Checked when the index is made, in the order PostgreSQL 15's parse
//! analysis meets the problems (`transformExpr` for EXPR_KIND_INDEX_PREDICATE,
//! then `CheckPredicate` in indexcmds.c), and evaluated on every row an
//! INSERT, UPDATE or index build writes.

use crate::exec::types::type_of;
use crate::rng::Rng;
use crate::sql::ast::Expr;
use crate::sql::error::{ErrorKind, SqlError};
use crate::sql::eval::{accepts, bind, Bound, EvalEnv, Scope};
use crate::value::{SqlType, Value};

#[derive(Debug, Clone)]
pub struct IndexPredicate {
    /// As written: what `\d` prints and the planner compares queries with.
    pub expr: Expr,
    /// Over the table's row.
    bound: Bound,
}

impl IndexPredicate {
    /// Checks `expr` as the predicate of an index on the table of `scope`.
    pub fn new(expr: &Expr, scope: &Scope) -> Result<IndexPredicate, SqlError> {
        refuse_forms(expr, "predicate")?;
        let bound = bind(expr, scope)?;
        let ty = type_of(expr, scope)?;
        if ty != SqlType::Bool {
            return Err(SqlError::new(
                ErrorKind::Semantic,
                format!(
                    "argument of WHERE must be type boolean, not type {}",
                    ty.pg_name()
                ),
            ));
        }
        // The entries must stay right as time passes: `now()` in a
        // predicate would leave rows in an index they no longer match.
        refuse_mutable(expr, "predicate")?;
        Ok(IndexPredicate {
            expr: expr.clone(),
            bound,
        })
    }

    /// Whether `row` belongs in the index (NULL counts as false, as in
    /// `ExecQual`).
    pub fn holds(&self, row: &[Value]) -> Result<bool, SqlError> {
        // An immutable expression never draws a random number or reads the
        // clock: the environment is a formality.
        let mut rng = Rng::new(0);
        let mut env = EvalEnv {
            statement_start_us: 0,
            clock_us: 0,
            rng: &mut rng,
            sequences: None,
        };
        accepts(&self.bound, row, &mut env)
    }

    /// The predicate's AND-ed parts, as the planner compares them.
    pub fn conjuncts(&self) -> Vec<Expr> {
        let mut out = Vec::new();
        crate::sql::plan::conjuncts(&self.expr, &mut out);
        out
    }

    /// The table's columns the predicate reads: changing one of them may move
    /// a row in or out of the index, so an UPDATE of it is never HOT.
    pub fn columns(&self) -> Vec<usize> {
        let mut out = Vec::new();
        collect_columns(&self.bound, &mut out);
        out
    }
}

/// Whether `row` has an entry in an index with predicate `p` (every row when
/// the index is not partial).
pub fn row_in_index(p: Option<&IndexPredicate>, row: &[Value]) -> Result<bool, SqlError> {
    p.map_or(Ok(true), |p| p.holds(row))
}

/// Subqueries, aggregates and parameters have no place in an index's
/// `what` ("predicate" or "expression").
pub(super) fn refuse_forms(expr: &Expr, what: &str) -> Result<(), SqlError> {
    let mut error = None;
    expr.visit(&mut |e| {
        if error.is_some() {
            return;
        }
        error = match e {
            Expr::ScalarSubquery(_) | Expr::Exists { .. } | Expr::InSubquery { .. } => {
                Some(SqlError::new(
                    ErrorKind::Semantic,
                    format!("cannot use subquery in index {what}"),
                ))
            }
            Expr::Aggregate { .. } => Some(SqlError::new(
                ErrorKind::Semantic,
                format!("aggregate functions are not allowed in index {what}s"),
            )),
            Expr::Param(n) => Some(crate::exec::types::no_parameter(*n)),
            _ => None,
        };
    });
    error.map_or(Ok(()), Err)
}

/// PostgreSQL's error for a function that is not IMMUTABLE in an index's
/// `what`.
pub(super) fn refuse_mutable(expr: &Expr, what: &str) -> Result<(), SqlError> {
    refuse_mutable_as(
        expr,
        &format!("functions in index {what} must be marked IMMUTABLE"),
    )
}

/// `message` as an error when `expr` calls a function that is not IMMUTABLE.
pub(super) fn refuse_mutable_as(expr: &Expr, message: &str) -> Result<(), SqlError> {
    if is_immutable(expr) {
        return Ok(());
    }
    Err(SqlError::new(ErrorKind::Semantic, message))
}

/// `contain_mutable_functions`: now(), random() and the size functions give
/// other answers at other times.
fn is_immutable(expr: &Expr) -> bool {
    let mut immutable = true;
    expr.visit(&mut |e| {
        let mutable = match e {
            Expr::Call(_) => true,
            Expr::Function { func, .. } => func.reads_catalog(),
            _ => false,
        };
        immutable &= !mutable;
    });
    immutable
}

pub(super) fn collect_columns(b: &Bound, out: &mut Vec<usize>) {
    match b {
        Bound::Col(c) => out.push(*c),
        Bound::Lit(_) | Bound::Call(_) => {}
        Bound::Not(x) | Bound::Cast(x, _) | Bound::IsNull(x, _) => collect_columns(x, out),
        Bound::Bin(_, l, r) | Bound::Like(l, r, _, _) => {
            collect_columns(l, out);
            collect_columns(r, out);
        }
        Bound::InList(x, list, _) => {
            collect_columns(x, out);
            list.iter().for_each(|e| collect_columns(e, out));
        }
        Bound::Between(x, lo, hi, _) => {
            for e in [x, lo, hi] {
                collect_columns(e, out);
            }
        }
        Bound::Func(_, args) => args.iter().for_each(|e| collect_columns(e, out)),
        Bound::Case(operand, branches, otherwise) => {
            operand.iter().for_each(|e| collect_columns(e, out));
            for (w, t) in branches {
                collect_columns(w, out);
                collect_columns(t, out);
            }
            otherwise.iter().for_each(|e| collect_columns(e, out));
        }
    }
}
