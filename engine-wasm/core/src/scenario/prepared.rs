//! PREPARE, EXECUTE and DEALLOCATE: the session's prepared statements. An
//! EXECUTE runs the prepared statement with each `$n` replaced by its
//! argument (cast to the declared type), which is what PostgreSQL's custom
//! plan for those values runs; EXPLAIN EXECUTE shows that plan.

use crate::profile::Outcome;
use crate::sql::ast::{Expr, Statement};
use crate::sql::error::{ErrorKind, SqlError};
use crate::value::{SqlType, Value};
use std::collections::BTreeMap;

/// The session's prepared statements, by name.
#[derive(Debug, Default)]
pub struct Prepared {
    statements: BTreeMap<String, (Vec<SqlType>, Statement)>,
}

/// What the session does with a statement.
pub enum Step {
    /// It was the session's own (PREPARE, DEALLOCATE): its answer.
    Done(Outcome),
    /// The engine runs this statement (an EXECUTE's, with its values).
    Run(Box<Statement>),
}

impl Prepared {
    pub fn step(&mut self, stmt: &Statement) -> Result<Step, SqlError> {
        Ok(match stmt {
            Statement::Prepare {
                name,
                types,
                statement,
            } => {
                if self.statements.contains_key(name) {
                    return Err(SqlError::new(
                        ErrorKind::Semantic,
                        format!("prepared statement \"{name}\" already exists"),
                    ));
                }
                self.statements
                    .insert(name.clone(), (types.clone(), (**statement).clone()));
                Step::Done(Outcome::tag("PREPARE"))
            }
            Statement::Deallocate { name: None } => {
                self.statements.clear();
                Step::Done(Outcome::tag("DEALLOCATE ALL"))
            }
            Statement::Deallocate { name: Some(name) } => {
                self.lookup(name)?;
                self.statements.remove(name);
                Step::Done(Outcome::tag("DEALLOCATE"))
            }
            Statement::Execute { name, args } => Step::Run(Box::new(self.bind(name, args)?)),
            Statement::Explain { options, statement } => match statement.as_ref() {
                Statement::Execute { name, args } => Step::Run(Box::new(Statement::Explain {
                    options: *options,
                    statement: Box::new(self.bind(name, args)?),
                })),
                _ => Step::Run(Box::new(stmt.clone())),
            },
            other => Step::Run(Box::new(other.clone())),
        })
    }

    fn lookup(&self, name: &str) -> Result<&(Vec<SqlType>, Statement), SqlError> {
        self.statements.get(name).ok_or_else(|| {
            SqlError::new(
                ErrorKind::Semantic,
                format!("prepared statement \"{name}\" does not exist"),
            )
        })
    }

    /// The prepared statement with `$n` replaced by argument n.
    fn bind(&self, name: &str, args: &[Expr]) -> Result<Statement, SqlError> {
        let (types, statement) = self.lookup(name)?;
        if !types.is_empty() && types.len() != args.len() {
            return Err(SqlError::new(
                ErrorKind::Semantic,
                format!("wrong number of parameters for prepared statement \"{name}\""),
            )
            .with_hint(format!(
                "Expected {} parameters but got {}.",
                types.len(),
                args.len()
            )));
        }
        let against_columns = compared_with_columns(statement);
        let mut missing = None;
        let bound = statement.map_exprs(&mut |e| {
            let Expr::Param(n) = e else { return None };
            let i = *n as usize - 1;
            let Some(arg) = args.get(i) else {
                missing.get_or_insert(*n);
                return None;
            };
            Some(match (types.get(i), arg) {
                // A constant takes the parameter's type now, as PostgreSQL's
                // custom plan shows it (`id = 7`, not `id = (7)::integer`).
                (Some(ty), Expr::Literal(v)) => match crate::sql::eval::coerce(v.clone(), *ty) {
                    Ok(v) => Expr::Literal(v),
                    Err(_) => Expr::Cast {
                        expr: Box::new(arg.clone()),
                        ty: *ty,
                    },
                },
                (Some(ty), _) => Expr::Cast {
                    expr: Box::new(arg.clone()),
                    ty: *ty,
                },
                // An undeclared parameter compared with a column takes the
                // column's type (PostgreSQL infers it at PREPARE): the
                // constant goes in as an untyped literal, which the
                // comparison reads as that type (`customer_id = $1` with 42
                // compares with '42').
                (None, Expr::Literal(v)) if against_columns.contains(n) && !v.is_null() => {
                    Expr::Literal(Value::text(v.pg_text()))
                }
                (None, _) => arg.clone(),
            })
        });
        match missing {
            Some(n) => Err(crate::exec::types::no_parameter(n)),
            None => Ok(bound),
        }
    }
}

/// The parameters a statement only compares directly with a column
/// (`col = $1`, `$2 < col`, `col LIKE $3`), nowhere else.
fn compared_with_columns(statement: &Statement) -> Vec<u32> {
    let (mut compared, mut all) = (Vec::new(), Vec::new());
    statement.map_exprs(&mut |e| {
        if let Expr::Param(n) = e {
            all.push(*n);
        }
        let pair = match e {
            Expr::Binary { op, left, right } if op.compares() => Some((&**left, &**right)),
            Expr::Like { expr, pattern, .. } => Some((&**expr, &**pattern)),
            _ => None,
        };
        if let Some((l, r)) = pair {
            for (a, b) in [(l, r), (r, l)] {
                if let (Expr::Column { .. }, Expr::Param(n)) = (a, b) {
                    compared.push(*n);
                }
            }
        }
        None
    });
    let count = |list: &[u32], n: u32| list.iter().filter(|&&m| m == n).count();
    let mut out: Vec<u32> = compared
        .iter()
        .copied()
        .filter(|&n| count(&compared, n) == count(&all, n))
        .collect();
    out.dedup();
    out
}
