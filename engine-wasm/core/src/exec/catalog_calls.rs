//! Calls that read the catalog (`'t'::regclass`, `pg_relation_size('t')`,
//! `pg_table_size`, `pg_indexes_size`, `pg_total_relation_size`), answered by
//! the profile before the query runs: each becomes the literal its relation
//! gives now, so expressions evaluate without the catalog.

use super::engine::QueryEngine;
use crate::sql::ast::{Expr, Select, SelectItem};
use crate::sql::error::SqlError;
use crate::sql::functions::ScalarFunc;
use crate::value::Value;

/// Whether `q` (its own clauses) calls one of them.
pub fn any(q: &Select) -> bool {
    calls(q, |func| func.reads_catalog())
}

/// Whether `q` (its own clauses) calls `txid_current()`, which takes the
/// transaction an id before the calls are answered.
pub fn takes_transaction_id(q: &Select) -> bool {
    calls(q, |func| func == ScalarFunc::TxidCurrent)
}

/// Whether `q`'s select list, WHERE, HAVING or ORDER BY calls a function
/// for which `wanted` holds.
fn calls(q: &Select, wanted: impl Fn(ScalarFunc) -> bool) -> bool {
    let mut found = false;
    let mut look = |e: &Expr| {
        e.visit(&mut |x| found |= matches!(x, Expr::Function { func, .. } if wanted(*func)))
    };
    for item in &q.items {
        if let SelectItem::Expr { expr, .. } = item {
            look(expr);
        }
    }
    q.filter.iter().chain(&q.having).for_each(&mut look);
    q.order_by.iter().for_each(|o| look(&o.expr));
    found
}

/// The seconds `q`'s `pg_sleep(…)` calls wait, in a query without FROM
/// (elsewhere it would wait once per row, which is refused by name).
pub fn sleeps(q: &Select) -> Result<f64, SqlError> {
    let mut calls = Vec::new();
    let mut look = |e: &Expr| {
        e.visit(&mut |x| {
            if let Expr::Function {
                func: ScalarFunc::PgSleep,
                args,
            } = x
            {
                calls.push(args[0].clone());
            }
        })
    };
    for item in &q.items {
        if let SelectItem::Expr { expr, .. } = item {
            look(expr);
        }
    }
    q.filter.iter().chain(&q.having).for_each(&mut look);
    if calls.is_empty() {
        return Ok(0.0);
    }
    if !q.from.is_empty() {
        return Err(crate::sql::error::unsupported(
            "pg_sleep() in a query that reads a table (it waits once per row)",
        )
        .near("pg_sleep"));
    }
    let mut total = 0.0;
    for c in calls {
        total += match c {
            Expr::Literal(Value::Int(n)) => n as f64,
            Expr::Literal(Value::Float(f)) => f,
            Expr::Literal(Value::Numeric(n)) => n.to_f64(),
            _ => {
                return Err(crate::sql::error::unsupported(
                    "pg_sleep() of anything but a constant number of seconds",
                )
                .near("pg_sleep"))
            }
        }
        .max(0.0);
    }
    Ok(total)
}

/// `q` with each catalog call on a constant name replaced by its answer.
pub fn resolve<E: QueryEngine>(engine: &E, q: &Select) -> Result<Select, SqlError> {
    let mut error = None;
    let mut answer = |e: &Expr| -> Expr {
        let out = resolve_expr(engine, e);
        out.unwrap_or_else(|err| {
            error.get_or_insert(err);
            e.clone()
        })
    };
    // The column keeps the name the call gave it.
    let named = Select {
        items: q
            .items
            .iter()
            .map(|i| match i {
                SelectItem::Expr { expr, alias } => SelectItem::Expr {
                    expr: expr.clone(),
                    alias: Some(
                        alias
                            .clone()
                            .unwrap_or_else(|| super::select::output_name(expr)),
                    ),
                },
                SelectItem::Wildcard => SelectItem::Wildcard,
            })
            .collect(),
        ..q.clone()
    };
    let out = named.map_own(&mut answer);
    match error {
        Some(e) => Err(e),
        None => Ok(out),
    }
}

pub(super) fn resolve_expr<E: QueryEngine>(engine: &E, e: &Expr) -> Result<Expr, SqlError> {
    let mut error = None;
    let out = e.map(&mut |x| {
        let Expr::Function { func, args } = x else {
            return None;
        };
        if !func.reads_catalog() {
            return None;
        }
        if matches!(func, ScalarFunc::PgSleep | ScalarFunc::PgStatForceNextFlush) {
            // void: psql prints an empty cell (the wait was taken before).
            return Some(Expr::Literal(Value::text("")));
        }
        if *func == ScalarFunc::TxidStatus {
            // The id as a number or a quoted one (`txid_status('744')`).
            let id = match args.first() {
                Some(Expr::Literal(Value::Int(n))) => n.to_string(),
                Some(Expr::Literal(Value::Text(t))) => t.trim().to_string(),
                Some(Expr::Literal(Value::Null)) => return Some(Expr::Literal(Value::Null)),
                _ => {
                    error.get_or_insert(crate::sql::error::unsupported(
                        "txid_status() of anything but a constant id",
                    ));
                    return None;
                }
            };
            return match engine.catalog_call(*func, &id, None) {
                Ok(v) => Some(Expr::Literal(v)),
                Err(err) => {
                    error.get_or_insert(err);
                    None
                }
            };
        }
        if matches!(func, ScalarFunc::TxidCurrent | ScalarFunc::Version) {
            return match engine.catalog_call(*func, "", None) {
                Ok(v) => Some(Expr::Literal(v)),
                Err(err) => {
                    error.get_or_insert(err);
                    None
                }
            };
        }
        let args: Vec<Expr> = match args.iter().map(|a| resolve_expr(engine, a)).collect() {
            Ok(a) => a,
            Err(err) => {
                error.get_or_insert(err);
                return None;
            }
        };
        let texts: Vec<Option<&str>> = args
            .iter()
            .map(|a| match a {
                Expr::Literal(Value::Text(s)) => Some(s.as_str()),
                _ => None,
            })
            .collect();
        let Some(Some(written)) = texts.first() else {
            return None; // not a constant: eval names it
        };
        let name = match super::schemas::relation_key(written) {
            Ok(n) => n,
            Err(err) => {
                error.get_or_insert(err);
                return None;
            }
        };
        match engine.catalog_call(*func, &name, texts.get(1).copied().flatten()) {
            Ok(v) => Some(Expr::Literal(v)),
            Err(err) => {
                error.get_or_insert(err);
                None
            }
        }
    });
    match error {
        Some(e) => Err(e),
        None => Ok(out),
    }
}

/// How a profile answers [`QueryEngine::catalog_call`] for a relation it has,
/// given the relation's forks in pages: the main fork, and for a table its
/// free space map, visibility map and indexes (their main forks).
#[derive(Debug, Clone, Copy, Default)]
pub struct RelationPages {
    pub main: u64,
    pub fsm: u64,
    pub vm: u64,
    /// The TOAST table's pages and its index's (part of the table's size).
    pub toast: u64,
    pub indexes: u64,
}

/// The answer to `func` for a relation of `pages` pages of `page_size` bytes.
pub fn size_of(
    func: ScalarFunc,
    name: &str,
    fork: Option<&str>,
    pages: RelationPages,
    page_size: u64,
) -> Result<Value, SqlError> {
    let bytes = |p: u64| Value::Int((p * page_size) as i64);
    Ok(match func {
        ScalarFunc::Regclass => Value::text(name),
        ScalarFunc::PgRelationSize => match fork.unwrap_or("main") {
            "main" => bytes(pages.main),
            "fsm" => bytes(pages.fsm),
            "vm" => bytes(pages.vm),
            "init" => bytes(0),
            other => {
                return Err(SqlError::new(
                    crate::sql::error::ErrorKind::Semantic,
                    "invalid fork name",
                )
                .with_hint(format!(
                    "\"{other}\": valid fork names are \"main\", \"fsm\", \"vm\", and \"init\"."
                )))
            }
        },
        ScalarFunc::PgTableSize => bytes(pages.main + pages.fsm + pages.vm + pages.toast),
        ScalarFunc::PgIndexesSize => bytes(pages.indexes),
        _ => bytes(pages.main + pages.fsm + pages.vm + pages.toast + pages.indexes),
    })
}

/// `version()`: the server a profile models, and that IndexLab simulates it
/// (a script that prints it shows what answered, not someone's build).
pub fn version(server: &str) -> String {
    format!("{server}, simulated by IndexLab {}", crate::VERSION)
}
