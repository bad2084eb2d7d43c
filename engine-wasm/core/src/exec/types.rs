//! The type of each output column of a query, as PostgreSQL's parser types
//! it: what CREATE TABLE AS and SELECT INTO make their columns of (a column's
//! type decides its bytes on a page, so a wrong guess would change every
//! figure after it).

use super::engine::QueryEngine;
use crate::sql::ast::{AggFunc, BinOp, Expr, FromItem, Func, Select, SelectItem};
use crate::sql::error::{unsupported, SqlError};
use crate::sql::eval::Scope;
use crate::sql::functions::ScalarFunc;
use crate::value::{SqlType, Value};

/// The query's output columns: names and types.
pub fn output_columns<E: QueryEngine>(
    engine: &E,
    q: &Select,
) -> Result<Vec<(String, SqlType)>, SqlError> {
    if q.set_operation.is_some() {
        return super::set_operation::output_columns(engine, q);
    }
    if let Some(rows) = &q.values {
        let first = rows.first().map(Vec::as_slice).unwrap_or_default();
        return first
            .iter()
            .enumerate()
            .map(|(i, e)| Ok((format!("column{}", i + 1), type_of(e, &Scope::default())?)))
            .collect();
    }
    let scope = from_scope(engine, q)?;
    let mut out = Vec::new();
    for item in &q.items {
        match item {
            SelectItem::Wildcard => {
                out.extend(wildcard(q, &scope).into_iter().map(|(c, ty, _)| (c, ty)))
            }
            SelectItem::Expr { expr, alias } => out.push((
                alias
                    .clone()
                    .unwrap_or_else(|| super::select::output_name(expr)),
                subquery_type(engine, expr)?.map_or_else(|| type_of(expr, &scope), Ok)?,
            )),
        }
    }
    Ok(out)
}

/// The type of a select item that is a subquery: its column's, or boolean
/// for EXISTS and IN (`type_of` has no engine to type a query with).
fn subquery_type<E: QueryEngine>(engine: &E, e: &Expr) -> Result<Option<SqlType>, SqlError> {
    Ok(match e {
        Expr::ScalarSubquery(q) => output_columns(engine, q)?.first().map(|c| c.1),
        Expr::Exists { .. } | Expr::InSubquery { .. } => Some(SqlType::Bool),
        _ => None,
    })
}

/// `*` over the FROM items as PostgreSQL expands it: with `JOIN … USING
/// (cols)`, each USING column once, first, then each side's other columns.
/// Each column comes with its FROM item's name, a merged USING column without.
fn wildcard(q: &Select, scope: &Scope) -> Vec<(String, SqlType, Option<String>)> {
    let of = |item: &FromItem| -> Vec<(String, SqlType, Option<String>)> {
        scope
            .columns
            .iter()
            .filter(|(t, ..)| t == item.visible_name())
            .map(|(t, c, ty)| (c.clone(), *ty, Some(t.clone())))
            .collect()
    };
    // In the order written: `FROM a JOIN b USING (id), c` is id, a's, b's, c's.
    let mut all: Vec<(String, SqlType, Option<String>)> = Vec::new();
    for (g, item) in q.from.iter().enumerate() {
        all.extend(of(item));
        for j in q.joins.iter().filter(|j| j.after == g) {
            let right = of(&j.item);
            let names = |cols: &[(String, SqlType, Option<String>)]| {
                cols.iter().map(|(c, ..)| c.clone()).collect::<Vec<_>>()
            };
            let using = j.using_with(&names(&all), &names(&right));
            if using.is_empty() {
                all.extend(right);
                continue;
            }
            let used = |c: &String| using.contains(c);
            let mut merged: Vec<(String, SqlType, Option<String>)> = using
                .iter()
                .filter_map(|u| all.iter().find(|(c, ..)| c == u))
                .map(|(c, ty, _)| (c.clone(), *ty, None))
                .collect();
            merged.extend(all.into_iter().filter(|(c, ..)| !used(c)));
            merged.extend(right.into_iter().filter(|(c, ..)| !used(c)));
            all = merged;
        }
    }
    all
}

/// `q` with each `*` written out as its columns, for an ORDER BY position
/// past a `*` (`SELECT * FROM a JOIN b USING (id) ORDER BY 3`).
pub fn star_expanded<E: QueryEngine>(engine: &E, q: &Select) -> Result<Select, SqlError> {
    let scope = from_scope(engine, q)?;
    let mut items = Vec::new();
    for item in &q.items {
        match item {
            SelectItem::Wildcard => {
                for (name, _, table) in wildcard(q, &scope) {
                    items.push(SelectItem::Expr {
                        expr: Expr::Column {
                            table,
                            name: name.clone(),
                        },
                        alias: Some(name),
                    });
                }
            }
            other => items.push(other.clone()),
        }
    }
    let mut out = q.clone();
    for o in &mut out.order_by {
        if let Expr::Literal(Value::Int(n)) = o.expr {
            let item = usize::try_from(n)
                .ok()
                .and_then(|n| n.checked_sub(1))
                .and_then(|i| items.get(i));
            o.expr = match item {
                Some(SelectItem::Expr { expr, .. }) => expr.clone(),
                _ => {
                    return Err(SqlError::new(
                        crate::sql::error::ErrorKind::Semantic,
                        format!("ORDER BY position {n} is not in select list"),
                    ))
                }
            };
        }
    }
    out.items = items;
    Ok(out)
}

/// The columns the FROM items make visible, qualified by their names.
pub(crate) fn from_scope<E: QueryEngine>(engine: &E, q: &Select) -> Result<Scope, SqlError> {
    let mut scope = Scope::default();
    for item in q.from.iter().chain(q.joins.iter().map(|j| &j.item)) {
        // A WITH query is typed as the executor runs it: inlined, its
        // table's columns under the WITH query's name (others are refused).
        let inlined;
        let item = match item {
            FromItem::Table { name, .. } if q.with.iter().any(|(n, _)| n == name) => {
                inlined = crate::sql::rewrite::inline_cte(item, &q.with)?.0;
                &inlined
            }
            // Typed with the columns before it standing for their values.
            _ if super::correlate::reads_outer(item) => {
                inlined = lateral_typed(engine, item, &scope)?;
                &inlined
            }
            _ => item,
        };
        match item {
            FromItem::Table { name, .. } => {
                let id = engine.table_id(name)?;
                let visible = item.visible_name().to_string();
                scope.columns.extend(
                    engine
                        .table_scope(id)
                        .columns
                        .into_iter()
                        .map(|(_, c, ty)| (visible.clone(), c, ty)),
                );
            }
            FromItem::Inspect { func, .. } => {
                let visible = item.visible_name().to_string();
                scope.columns.extend(
                    func.columns()
                        .iter()
                        .map(|(c, ty)| (visible.clone(), c.to_string(), *ty)),
                );
            }
            FromItem::Subquery {
                query,
                alias,
                columns,
                ..
            } => {
                let out = output_columns(engine, query)?;
                for (i, (name, ty)) in out.into_iter().enumerate() {
                    let name = columns.get(i).cloned().unwrap_or(name);
                    scope.columns.push((alias.clone(), name, ty));
                }
            }
            FromItem::Series {
                start, stop, step, ..
            } => {
                let column = match item {
                    FromItem::Series {
                        column: Some(c), ..
                    } => c.clone(),
                    _ => item.visible_name().to_string(),
                };
                let ty = series_type(start, stop, step.as_ref());
                scope
                    .columns
                    .push((item.visible_name().to_string(), column, ty));
            }
        }
    }
    Ok(scope)
}

/// A LATERAL item with the columns it reads from `before` as typed NULLs.
fn lateral_typed<E: QueryEngine>(
    engine: &E,
    item: &FromItem,
    before: &Scope,
) -> Result<FromItem, SqlError> {
    super::correlate::bind_item_nulls(engine, item, before)
}

/// `generate_series(int, int [, int])` returns integer; any bigint argument
/// makes it bigint.
pub fn series_type(start: &Expr, stop: &Expr, step: Option<&Expr>) -> SqlType {
    let ty = |e: &Expr| type_of(e, &Scope::default()).ok();
    if step.and_then(ty) == Some(SqlType::Interval) {
        // Over instants: timestamp unless either end is a timestamptz (or
        // a date, which PostgreSQL casts to timestamptz).
        let local = |e: &Expr| ty(e) == Some(SqlType::Timestamp);
        return if local(start) && local(stop) {
            SqlType::Timestamp
        } else {
            SqlType::Timestamptz
        };
    }
    let numeric = |e: &Expr| ty(e).is_some_and(SqlType::is_numeric);
    if numeric(start) || numeric(stop) || step.is_some_and(numeric) {
        return SqlType::Numeric(None);
    }
    let int4 = |e: &Expr| type_of(e, &Scope::default()).is_ok_and(|t| t == SqlType::Int4);
    if int4(start) && int4(stop) && step.is_none_or(int4) {
        SqlType::Int4
    } else {
        SqlType::Int8
    }
}

/// The type PostgreSQL gives `e` over `scope`.
pub fn type_of(e: &Expr, scope: &Scope) -> Result<SqlType, SqlError> {
    let t = |x: &Expr| type_of(x, scope);
    Ok(match e {
        Expr::Column { table, name } => scope.columns[scope.resolve(table.as_deref(), name)?].2,
        Expr::Literal(v) => match v {
            Value::Int(i) if i32::try_from(*i).is_ok() => SqlType::Int4,
            Value::Int(_) => SqlType::Int8,
            Value::Float(_) => SqlType::Float8,
            Value::Numeric(_) => SqlType::Numeric(None),
            Value::Bool(_) => SqlType::Bool,
            Value::Timestamp(_) => SqlType::Timestamptz,
            Value::Date(_) | Value::LocalTimestamp(_) | Value::Interval(_) => {
                v.datetime_type().unwrap_or(SqlType::Text)
            }
            Value::Tid(_) => SqlType::Tid,
            Value::Real(_) => SqlType::Float4,
            Value::Bytea(_) => SqlType::Bytea,
            Value::Json(_) => SqlType::Json,
            Value::Jsonb(_) => SqlType::Jsonb,
            // An untyped NULL or string becomes text.
            Value::Text(_) | Value::Null => SqlType::Text,
        },
        Expr::Call(Func::Random) => SqlType::Float8,
        Expr::Call(Func::GenRandomUuid) => SqlType::Uuid,
        Expr::Call(Func::CurrentDate) => SqlType::Date,
        Expr::Call(Func::LocalTimestamp) => SqlType::Timestamp,
        Expr::Call(_) => SqlType::Timestamptz,
        Expr::Binary { op, left, right } => match op {
            BinOp::JsonGet | BinOp::JsonPath => t(left)?,
            BinOp::JsonGetText | BinOp::JsonPathText => SqlType::Text,
            BinOp::JsonContains | BinOp::JsonContainedBy | BinOp::JsonHasKey => SqlType::Bool,
            BinOp::JsonDeletePath => SqlType::Jsonb,
            BinOp::Concat | BinOp::Sub
                if t(left)? == SqlType::Jsonb || t(right)? == SqlType::Jsonb =>
            {
                SqlType::Jsonb
            }
            BinOp::Concat => SqlType::Text,
            _ if op.compares() || matches!(op, BinOp::And | BinOp::Or) => SqlType::Bool,
            _ => {
                let (l, r) = (t(left)?, t(right)?);
                crate::sql::datetime::arith_type(*op, l, r).unwrap_or_else(|| wider(l, r))
            }
        },
        Expr::Unary { .. }
        | Expr::InList { .. }
        | Expr::Between { .. }
        | Expr::IsNull { .. }
        | Expr::Like { .. }
        | Expr::Exists { .. }
        | Expr::InSubquery { .. } => SqlType::Bool,
        Expr::Cast { ty, .. } => *ty,
        Expr::Function { func, args } => {
            use ScalarFunc::*;
            match func {
                Length => SqlType::Int4,
                PointSubscript => SqlType::Float8,
                PgRelationSize | PgTableSize | PgIndexesSize | PgTotalRelationSize
                | TxidCurrent | NextVal | CurrVal | SetVal | LastVal => SqlType::Int8,
                // On an integer, round/floor/ceil/trunc resolve to float8's
                // (float8 is the preferred type); abs keeps the integer.
                Floor | Ceil | Round | Trunc => match t(&args[0])? {
                    SqlType::Numeric(_) => SqlType::Numeric(None),
                    _ => SqlType::Float8,
                },
                Sign => match t(&args[0])? {
                    SqlType::Numeric(_) => SqlType::Numeric(None),
                    _ => SqlType::Float8,
                },
                Abs => without_typmod(t(&args[0])?),
                Nullif => t(&args[0])?,
                // The arguments' common type (numeric over the integers).
                Coalesce | Greatest | Least => {
                    let mut ty = t(&args[0])?;
                    for a in &args[1..] {
                        let Ok(other) = t(a) else { continue };
                        if other.is_numeric() || ty.is_numeric() {
                            ty = wider(ty, other);
                        }
                    }
                    ty
                }
                Mod => wider(t(&args[0])?, t(&args[1])?),
                DatePart => SqlType::Float8,
                MakeDate => SqlType::Date,
                DateTrunc => match t(&args[1])? {
                    SqlType::Timestamp => SqlType::Timestamp,
                    _ => SqlType::Timestamptz,
                },
                Extract => SqlType::Numeric(None),
                Decode => SqlType::Bytea,
                PgColumnSize | Strpos | Position | Ascii | OctetLength | CharLength
                | YbHashCode => SqlType::Int4,
                YbHashKey(_) => SqlType::Bytea,
                Substr if t(&args[0])? == SqlType::Bytea => SqlType::Bytea,
                JsonbArrayLength | JsonArrayLength => SqlType::Int4,
                f => crate::sql::json::functions::result_type(*f).unwrap_or(SqlType::Text),
            }
        }
        Expr::Case {
            branches,
            otherwise,
            ..
        } => match branches.first() {
            // A numeric among the results makes them all numeric.
            Some((_, then)) => {
                let mut ty = t(then)?;
                for e in branches.iter().map(|(_, r)| r).chain(otherwise.as_deref()) {
                    let Ok(other) = t(e) else { continue };
                    if other.is_numeric() || ty.is_numeric() {
                        ty = wider(ty, other);
                    }
                }
                ty
            }
            None => SqlType::Text,
        },
        Expr::Aggregate { func, arg, .. } => match (func, arg) {
            (AggFunc::Count, _) | (_, None) => SqlType::Int8,
            (AggFunc::StringAgg, Some(a)) => match t(a)? {
                SqlType::Text | SqlType::Bpchar(_) => SqlType::Text,
                other => {
                    return Err(crate::sql::error::SqlError::new(
                        crate::sql::error::ErrorKind::Semantic,
                        format!(
                            "function string_agg({}, unknown) does not exist",
                            other.pg_name()
                        ),
                    ))
                }
            },
            (AggFunc::Min | AggFunc::Max, Some(a)) => without_typmod(t(a)?),
            (AggFunc::Sum | AggFunc::Avg, Some(a)) => match t(a)? {
                SqlType::Float8 => SqlType::Float8,
                SqlType::Int2 | SqlType::Int4 if *func == AggFunc::Sum => SqlType::Int8,
                SqlType::Int2 | SqlType::Int4 | SqlType::Int8 | SqlType::Numeric(_) => {
                    SqlType::Numeric(None)
                }
                other => {
                    return Err(unsupported(format!(
                        "a column of {}() of {}",
                        func.name(),
                        other.pg_name()
                    )))
                }
            },
        },
        Expr::ScalarSubquery(_) => return Err(unsupported("a subquery as a column's value here")),
        Expr::Param(n) => return Err(no_parameter(*n)),
    })
}

/// A result's type: an expression's numeric has no typmod, only a column's.
fn without_typmod(ty: SqlType) -> SqlType {
    match ty {
        SqlType::Numeric(_) => SqlType::Numeric(None),
        other => other,
    }
}

/// The type of arithmetic on two types: float8 over numeric over bigint
/// over integer.
fn wider(a: SqlType, b: SqlType) -> SqlType {
    use SqlType::*;
    match (a, b) {
        (Float8, _) | (_, Float8) => Float8,
        (Numeric(_), _) | (_, Numeric(_)) => Numeric(None),
        (Int8, _) | (_, Int8) => Int8,
        (Timestamptz, _) | (_, Timestamptz) => Timestamptz,
        _ => a,
    }
}

/// PostgreSQL's error for `$n` outside a prepared statement's EXECUTE.
pub fn no_parameter(n: u32) -> SqlError {
    SqlError::new(
        crate::sql::error::ErrorKind::Semantic,
        format!("there is no parameter ${n}"),
    )
}
