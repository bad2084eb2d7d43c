//! System catalogs a query reads like a table (`pg_class`). The profile builds
//! their rows from its own structures when the query runs
//! ([`QueryEngine::catalog_relation`]); the query then runs over those rows
//! here: its WHERE, select list and ORDER BY evaluated row by row, the size
//! functions of a row's relation (`pg_table_size(oid)`) answered by the
//! profile as anywhere else ([`super::catalog_calls`]).
//!
//! PostgreSQL's catalog also lists its own relations (410 of them in a new
//! database), which IndexLab does not model. A query gets PostgreSQL's answer
//! only if it rules them all out by name, as experiments do (`where relname =
//! 't'`, `relname like 'demo%'`): the first condition of the WHERE that reads
//! only the relation's name must be false for every one of those names, or the
//! query is refused. Columns whose values are PostgreSQL's internal numbers
//! (object ids, transaction ids) are refused by name; `oid` may only be handed
//! to a function that takes a relation (`pg_relation_size(oid)`) or compared
//! with a `'t'::regclass`.

use super::engine::QueryEngine;
use super::plan_node::PlanNode;
use super::row::Row;
use super::select::{output_name, sql_order, QueryResult};
use crate::sql::ast::{BinOp, Expr, FromItem, Select, SelectItem};
use crate::sql::error::{unsupported, ErrorKind, SqlError};
use crate::sql::eval::{bind, eval, Scope};
use crate::sql::functions::ScalarFunc;
use crate::sql::plan::conjuncts;
use crate::sql::rewrite::unqualify;
use crate::value::{SqlType, Value};
use std::cmp::Ordering;

/// A catalog's rows as the profile sees them now.
#[derive(Debug, Clone)]
pub struct CatalogRelation {
    /// `pg_class`.
    pub name: &'static str,
    pub columns: Vec<(&'static str, SqlType)>,
    pub rows: Vec<Row>,
    /// PostgreSQL's columns of this catalog that IndexLab does not model,
    /// each with why (refused by name when a query names one).
    pub unmodelled: &'static [(&'static str, &'static str)],
    /// The column naming each row's relation (`relname`).
    pub name_column: &'static str,
    /// The column that identifies the relation (`oid`), if it has one: held
    /// as its name.
    pub oid_column: Option<&'static str>,
    /// The names of PostgreSQL's own rows, which a query must rule out.
    pub system_names: &'static [&'static str],
    /// Columns to suggest when a query asks for `*` (refused when some of
    /// its columns are unmodelled or an oid).
    pub example_columns: &'static str,
}

/// Runs `q`, whose FROM is the catalog `rel` alone.
pub fn run<E: QueryEngine>(
    engine: &mut E,
    rel: &CatalogRelation,
    q: &Select,
    execute: bool,
) -> Result<(PlanNode, QueryResult), SqlError> {
    let q = unqualified(q);
    check_columns(rel, &q)?;
    let q = with_star_expanded(rel, q);
    check_oid_uses(rel, &q)?;
    rules_out_system_rows(engine, rel, &q)?;
    let columns: Vec<String> = q
        .items
        .iter()
        .map(|i| match i {
            SelectItem::Expr { expr, alias } => alias.clone().unwrap_or_else(|| output_name(expr)),
            SelectItem::Wildcard => unreachable!("refused by check_columns"),
        })
        .collect();
    let mut kept: Vec<(Vec<Value>, Vec<Value>)> = Vec::new();
    let rows = if execute { rel.rows.as_slice() } else { &[] };
    for row in rows {
        let one = resolved_for_row(engine, rel, &q, row)?;
        if let Some(f) = &one.filter {
            if constant(engine, f)? != Value::Bool(true) {
                continue;
            }
        }
        let out = expressions(&one.items)
            .map(|e| constant(engine, e))
            .collect::<Result<Vec<_>, _>>()?;
        let keys = one
            .order_by
            .iter()
            .map(|o| constant(engine, &o.expr))
            .collect::<Result<Vec<_>, _>>()?;
        kept.push((keys, out));
    }
    kept.sort_by(|(a, _), (b, _)| {
        for (i, o) in q.order_by.iter().enumerate() {
            let c = sql_order(&a[i], &b[i], o.order, o.nulls_come_first());
            if c != Ordering::Equal {
                return c;
            }
        }
        Ordering::Equal
    });
    let mut result = QueryResult {
        columns,
        rows: kept.into_iter().map(|(_, r)| r).collect(),
    };
    let limit = match &q.limit {
        Some(l) => match constant(engine, l)? {
            Value::Int(n) => Some(n.max(0) as usize),
            _ => None,
        },
        None => None,
    };
    if let Some(l) = limit {
        result.rows.truncate(l);
    }
    let node = PlanNode {
        title: format!("Seq Scan on {}", rel.name),
        rows: result.rows.len() as u64,
        loops: 1,
        est_rows: rel.rows.len() as f64,
        ..PlanNode::default()
    };
    Ok((node, result))
}

/// The query with its qualifiers dropped: its one FROM item is all they can name.
fn unqualified(q: &Select) -> Select {
    q.map_exprs(&mut |e| match e {
        Expr::Column { table: Some(_), .. } => Some(unqualify(e)),
        _ => None,
    })
}

/// `*` as the catalog's columns, in order (`check_columns` allowed it).
fn with_star_expanded(rel: &CatalogRelation, mut q: Select) -> Select {
    q.items = q
        .items
        .into_iter()
        .flat_map(|i| match i {
            SelectItem::Wildcard => rel
                .columns
                .iter()
                .map(|(c, _)| SelectItem::Expr {
                    expr: Expr::Column {
                        table: None,
                        name: c.to_string(),
                    },
                    alias: None,
                })
                .collect(),
            item => vec![item],
        })
        .collect();
    q
}

fn expressions(items: &[SelectItem]) -> impl Iterator<Item = &Expr> {
    items.iter().filter_map(|i| match i {
        SelectItem::Expr { expr, .. } => Some(expr),
        SelectItem::Wildcard => None,
    })
}

fn all_expressions(q: &Select) -> Vec<&Expr> {
    let mut out: Vec<&Expr> = expressions(&q.items).collect();
    out.extend(q.filter.iter());
    out.extend(q.order_by.iter().map(|o| &o.expr));
    out
}

/// Every column named exists and is modelled; `*` would show unmodelled ones.
fn check_columns(rel: &CatalogRelation, q: &Select) -> Result<(), SqlError> {
    let star_shows_all = rel.unmodelled.is_empty() && rel.oid_column.is_none();
    if !star_shows_all && q.items.iter().any(|i| matches!(i, SelectItem::Wildcard)) {
        return Err(unsupported(format!(
            "SELECT * from {} (some of its columns are PostgreSQL's internal numbers, which \
             IndexLab does not model): name the columns, for example {}",
            rel.name, rel.example_columns
        ))
        .near("*"));
    }
    let mut error = None;
    for e in all_expressions(q) {
        e.visit(&mut |x| {
            let Expr::Column { name, .. } = x else { return };
            if error.is_some() || rel.columns.iter().any(|(c, _)| c == name) {
                return;
            }
            error = Some(match rel.unmodelled.iter().find(|(c, _)| c == name) {
                Some((c, why)) => {
                    unsupported(format!("the column {}.{c} ({why})", rel.name)).near(name)
                }
                None => crate::sql::eval::no_such_column(name, name),
            });
        });
    }
    error.map_or(Ok(()), Err)
}

/// `oid` appears only as a relation handed to a size function or `::regclass`,
/// or compared with a relation: its number is never shown.
fn check_oid_uses(rel: &CatalogRelation, q: &Select) -> Result<(), SqlError> {
    let Some(oid_column) = rel.oid_column else {
        return Ok(());
    };
    let is_oid = |e: &Expr| matches!(e, Expr::Column { name, .. } if name == oid_column);
    let mut allowed = 0usize;
    let mut total = 0usize;
    for e in all_expressions(q) {
        e.visit(&mut |x| match x {
            Expr::Column { .. } if is_oid(x) => total += 1,
            Expr::Function { func, args } if func.reads_catalog() => {
                allowed += args.first().is_some_and(is_oid) as usize
            }
            Expr::Binary {
                op: BinOp::Eq | BinOp::NotEq,
                left,
                right,
            } => {
                let regclass = |e: &Expr| {
                    matches!(
                        e,
                        Expr::Function {
                            func: ScalarFunc::Regclass,
                            ..
                        }
                    )
                };
                allowed += ((is_oid(left) && regclass(right)) || (is_oid(right) && regclass(left)))
                    as usize;
            }
            _ => {}
        });
    }
    if total > allowed {
        return Err(unsupported(format!(
            "{}.{} as a number (PostgreSQL's object ids are not modelled by IndexLab; \
             pass it to pg_relation_size() or compare it with 't'::regclass)",
            rel.name, oid_column
        ))
        .near(oid_column));
    }
    Ok(())
}

/// The query must rule out PostgreSQL's own rows by name (see the module
/// documentation): a condition of its WHERE reading only the name (or oid) of
/// the relation, true for none of them.
fn rules_out_system_rows<E: QueryEngine>(
    engine: &mut E,
    rel: &CatalogRelation,
    q: &Select,
) -> Result<(), SqlError> {
    if rel.system_names.is_empty() {
        return Ok(());
    }
    let oid_column = rel.oid_column.unwrap_or(rel.name_column);
    let mut parts = Vec::new();
    if let Some(f) = &q.filter {
        conjuncts(f, &mut parts);
    }
    let by_name = |e: &Expr| {
        let mut only_name = true;
        let mut names = false;
        e.visit(&mut |x| {
            if let Expr::Column { name, .. } = x {
                let n = name == rel.name_column || name == oid_column;
                names |= n;
                only_name &= n;
            }
        });
        names && only_name
    };
    let mut scope = Scope {
        columns: vec![(rel.name.into(), rel.name_column.into(), SqlType::Text)],
    };
    if let Some(oid) = rel.oid_column {
        scope
            .columns
            .push((rel.name.into(), oid.into(), SqlType::Text));
    }
    for p in parts.iter().filter(|p| by_name(p)) {
        let p = super::catalog_calls::resolve_expr(engine, p)?;
        let cond = bind(&p, &scope)?;
        let mut any_system = false;
        for name in rel.system_names {
            let row = [Value::text(*name), Value::text(*name)];
            let row = &row[..scope.columns.len()];
            any_system |= eval(&cond, row, &mut engine.env())? == Value::Bool(true);
        }
        if !any_system {
            return Ok(());
        }
    }
    Err(SqlError::new(
        ErrorKind::Unsupported,
        format!(
            "a query of {} that may list PostgreSQL's own relations is not supported by \
             IndexLab, which has only the ones your script made",
            rel.name
        ),
    )
    .with_hint(format!(
        "select yours by name, for example where {} = 't' or {} like 'demo%'",
        rel.name_column, rel.name_column
    ))
    .near(rel.name))
}

/// The query for one row: each column replaced by the row's value (`oid` by
/// the relation's name, which catalog functions read), then the catalog
/// functions of that relation answered.
fn resolved_for_row<E: QueryEngine>(
    engine: &E,
    rel: &CatalogRelation,
    q: &Select,
    row: &Row,
) -> Result<Select, SqlError> {
    let name_at = rel.columns.iter().position(|(c, _)| *c == rel.name_column);
    let with_values = q.map_exprs(&mut |e| {
        let Expr::Column { name, .. } = e else {
            return None;
        };
        if Some(name.as_str()) == rel.oid_column {
            return name_at.map(|i| Expr::Literal(row[i].clone()));
        }
        let i = rel.columns.iter().position(|(c, _)| c == name)?;
        Some(Expr::Literal(row[i].clone()))
    });
    super::catalog_calls::resolve(engine, &with_values)
}

fn constant<E: QueryEngine>(engine: &mut E, e: &Expr) -> Result<Value, SqlError> {
    let b = bind(e, &Scope::default())?;
    eval(&b, &[], &mut engine.env())
}

/// Whether `q` reads only the catalog relation `name` (nothing joined to it).
pub fn reads_only(q: &Select) -> Option<&str> {
    match (q.from.as_slice(), q.joins.is_empty()) {
        ([FromItem::Table { name, .. }], true) => Some(name),
        _ => None,
    }
}
