//! Converts sqlparser's expressions and queries into [`super::ast`].

use super::ast::*;
use super::error::{unsupported, ErrorKind, SqlError};
use crate::value::{SqlType, Value};
use sqlparser::ast as sp;

/// PostgreSQL folds unquoted identifiers to lower case; quoted ones keep their case.
pub(super) fn ident_name(id: &sp::Ident) -> String {
    if id.quote_style.is_some() {
        id.value.clone()
    } else {
        id.value.to_ascii_lowercase()
    }
}

/// The last part of a possibly qualified name (`public.demo` → `demo`).
pub(super) fn object_name(name: &sp::ObjectName) -> String {
    name.0
        .last()
        .and_then(|p| p.as_ident())
        .map(ident_name)
        .unwrap_or_default()
}

/// A relation's name as written, for the catalogs to resolve
/// ([`crate::exec::schemas`]): `t`, `s.t`, `public.t`; `pg_catalog.t` is
/// `t` (a database name in front, `db.s.t`, is left out).
pub(super) fn relation_name(name: &sp::ObjectName) -> String {
    let parts: Vec<String> = name
        .0
        .iter()
        .filter_map(|p| p.as_ident())
        .map(ident_name)
        .collect();
    match parts.as_slice() {
        // Written with `public.`, it keeps it: a search_path without
        // public still finds it.
        [.., schema, name] if schema != "pg_catalog" => format!("{schema}.{name}"),
        [.., name] => name.clone(),
        [] => String::new(),
    }
}

pub(super) fn convert_select_query(q: sp::Query) -> Result<Select, SqlError> {
    convert_query(&q)
}

/// A query read where it lies: a subquery is converted without copying
/// sqlparser's tree first (a copy of a 450-branch UNION recurses as deep).
fn convert_query(q: &sp::Query) -> Result<Select, SqlError> {
    let mut with = match &q.with {
        Some(w) => convert_with(w)?,
        None => Vec::new(),
    };
    let mut select = match &*q.body {
        sp::SetExpr::Select(s) => convert_select(s)?,
        sp::SetExpr::Values(v) => values_select(v)?,
        sp::SetExpr::Query(inner) => convert_query(inner)?,
        body @ sp::SetExpr::SetOperation { .. } => convert_set_operation(body)?,
        other => return Err(unsupported(format!("the query form \"{other}\""))),
    };
    if q.with.as_ref().is_some_and(|w| w.recursive) {
        mark_recursive(&mut with)?;
    }
    select.with = with;
    // A set operation's ORDER BY names its output columns, which only its
    // first branch knows: `exec::set_operation` resolves it.
    let set_operation = select.set_operation.is_some();
    if let Some(ob) = &q.order_by {
        select.order_by = match &ob.kind {
            sp::OrderByKind::Expressions(items) => items
                .iter()
                .map(order_item)
                .collect::<Result<_, SqlError>>()?,
            sp::OrderByKind::All(_) => return Err(unsupported("ORDER BY ALL")),
        };
        for o in select.order_by.iter_mut().filter(|_| !set_operation) {
            o.expr = output_column(&o.expr, &select.items)?;
        }
    }
    if let Some(limit) = &q.limit_clause {
        match limit {
            sp::LimitClause::LimitOffset {
                limit,
                offset,
                limit_by,
            } if limit_by.is_empty() => {
                select.limit = limit.as_ref().map(convert_expr).transpose()?;
                select.offset = offset
                    .as_ref()
                    .map(|o| convert_expr(&o.value))
                    .transpose()?;
            }
            _ => return Err(unsupported("this form of LIMIT")),
        };
    }
    if q.fetch.is_some() {
        return Err(unsupported("FETCH FIRST (write LIMIT)"));
    }
    for g in &mut select.group_by {
        *g = output_column(g, &select.items)?;
    }
    Ok(select)
}

/// A WITH list: each query by its name.
pub(super) fn convert_with(w: &sp::With) -> Result<Vec<(String, Select)>, SqlError> {
    w.cte_tables
        .iter()
        .map(|cte| Ok((ident_name(&cte.alias.name), cte_query(cte)?)))
        .collect()
}

/// Under `WITH RECURSIVE`, marks the WITH queries that read themselves
/// (out of line: `convert_query` is on the stack once per level of a deep
/// UNION).
#[inline(never)]
fn mark_recursive(with: &mut [(String, Select)]) -> Result<(), SqlError> {
    for (name, q) in with.iter_mut() {
        if crate::exec::recursive::reads(q, name) {
            crate::exec::recursive::mark(name, q)?;
        }
    }
    Ok(())
}

/// One ORDER BY item (of a query, or inside an aggregate call).
fn order_item(o: &sp::OrderByExpr) -> Result<OrderItem, SqlError> {
    Ok(OrderItem {
        expr: convert_expr(&o.expr)?,
        order: if o.options.sort == Some(sp::OrderBySort::Desc) {
            Order::Desc
        } else {
            Order::Asc
        },
        nulls_first: o.options.nulls_first,
    })
}

/// A WITH query; `name(a, b) AS (…)` renames its columns as a derived
/// table's alias list does, so it is read as `SELECT * FROM (…) name(a, b)`.
fn cte_query(cte: &sp::Cte) -> Result<Select, SqlError> {
    let query = convert_query(&cte.query)?;
    if cte.alias.columns.is_empty() {
        return Ok(query);
    }
    // Where the width shows in the text, PostgreSQL's own message; a `*`
    // is counted when the query runs (as a derived table's list is).
    let width = match (&query.values, query.set_operation.is_some()) {
        (Some(rows), _) => rows.first().map(Vec::len),
        (None, false) if !query.items.contains(&SelectItem::Wildcard) => Some(query.items.len()),
        _ => None,
    };
    let name = ident_name(&cte.alias.name);
    if let Some(width) = width.filter(|w| *w < cte.alias.columns.len()) {
        return Err(SqlError::new(
            ErrorKind::Semantic,
            format!(
                "WITH query \"{name}\" has {width} columns available but {} columns specified",
                cte.alias.columns.len()
            ),
        )
        .near(&name));
    }
    let mut select = Select::empty();
    select.items = vec![SelectItem::Wildcard];
    select.from = vec![FromItem::Subquery {
        query: Box::new(query),
        alias: name,
        columns: cte
            .alias
            .columns
            .iter()
            .map(|c| ident_name(&c.name))
            .collect(),
        lateral: false,
    }];
    Ok(select)
}

/// `a UNION b INTERSECT c …`. A chain is a left-deep tree as long as the
/// chain (sqlparser loops over it): walked down its left side in a loop, so
/// only a right side (an INTERSECT binding tighter, or parentheses, which
/// the parser bounds) recurses, and a 500-branch chain fits a small stack.
#[inline(never)]
fn convert_set_operation(body: &sp::SetExpr) -> Result<Select, SqlError> {
    let mut spine = Vec::new();
    let mut at = body;
    while let sp::SetExpr::SetOperation {
        left,
        op,
        set_quantifier,
        right,
    } = at
    {
        let op = match op {
            sp::SetOperator::Union => SetOp::Union,
            sp::SetOperator::Intersect => SetOp::Intersect,
            sp::SetOperator::Except => SetOp::Except,
            sp::SetOperator::Minus => {
                return Err(SqlError::new(
                    ErrorKind::Syntax,
                    "syntax error at or near \"minus\" (PostgreSQL writes EXCEPT)",
                ))
            }
        };
        let all = match set_quantifier {
            sp::SetQuantifier::All => true,
            sp::SetQuantifier::Distinct | sp::SetQuantifier::None => false,
            _ => {
                return Err(SqlError::new(
                    ErrorKind::Syntax,
                    format!("syntax error at or near \"{set_quantifier}\""),
                ))
            }
        };
        spine.push((op, all, right.as_ref()));
        at = left;
    }
    let mut acc = convert_set_branch(at)?;
    for (op, all, right) in spine.into_iter().rev() {
        let right = convert_set_operation(right)?;
        acc = Select {
            set_operation: Some(Box::new(SetOperation {
                op,
                all,
                left: acc,
                right,
                recursive: false,
            })),
            ..Select::empty()
        };
    }
    Ok(acc)
}

/// One branch of a set operation that is not itself one.
#[inline(never)]
fn convert_set_branch(body: &sp::SetExpr) -> Result<Select, SqlError> {
    match body {
        // `SELECT … INTO t … UNION …` makes a table of the whole result:
        // not read here, so refused rather than run as a plain query.
        sp::SetExpr::Select(s) if s.into.is_some() => Err(unsupported(
            "SELECT … INTO with UNION, INTERSECT or EXCEPT (write CREATE TABLE … AS)",
        )),
        sp::SetExpr::Select(s) => convert_select(s),
        sp::SetExpr::Values(v) => values_select(v),
        sp::SetExpr::Query(inner) => convert_query(inner),
        other => Err(unsupported(format!("the query form \"{other}\""))),
    }
}

/// What an ORDER BY item names among the select list's outputs: a position
/// (`ORDER BY 2`) or an output name (`SELECT a AS x … ORDER BY x`) is that
/// item's expression, as PostgreSQL reads them; anything else stays as is.
fn output_column(e: &Expr, items: &[SelectItem]) -> Result<Expr, SqlError> {
    let exprs = || {
        items.iter().map(|i| match i {
            SelectItem::Expr { expr, alias } => Some((expr, alias.as_deref())),
            SelectItem::Wildcard => None,
        })
    };
    match e {
        // A position past a `*`: the executor expands the `*` (it knows the
        // tables' columns) and reads the position then.
        Expr::Literal(Value::Int(n)) if *n >= 1 && exprs().any(|x| x.is_none()) => Ok(e.clone()),
        Expr::Literal(Value::Int(n)) => {
            let item = usize::try_from(*n)
                .ok()
                .and_then(|n| n.checked_sub(1))
                .and_then(|i| items.get(i))
                .ok_or_else(|| {
                    SqlError::new(
                        ErrorKind::Semantic,
                        format!("ORDER BY position {n} is not in select list"),
                    )
                })?;
            match item {
                SelectItem::Expr { expr, .. } => Ok(expr.clone()),
                SelectItem::Wildcard => Ok(e.clone()),
            }
        }
        Expr::Column { table: None, name } => Ok(exprs()
            .flatten()
            .find(|(_, alias)| *alias == Some(name.as_str()))
            .map_or_else(|| e.clone(), |(expr, _)| expr.clone())),
        _ => Ok(e.clone()),
    }
}

fn values_select(v: &sp::Values) -> Result<Select, SqlError> {
    let rows = v
        .rows
        .iter()
        .map(|r| r.iter().map(convert_expr).collect::<Result<Vec<_>, _>>())
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Select {
        values: Some(rows),
        ..Select::empty()
    })
}

fn convert_select(s: &sp::Select) -> Result<Select, SqlError> {
    let distinct = match &s.distinct {
        None | Some(sp::Distinct::All) => false,
        Some(sp::Distinct::Distinct) => true,
        Some(sp::Distinct::On(_)) => return Err(unsupported("SELECT DISTINCT ON")),
    };
    let group_by = match &s.group_by {
        sp::GroupByExpr::Expressions(e, m) if m.is_empty() => {
            e.iter().map(convert_expr).collect::<Result<Vec<_>, _>>()?
        }
        sp::GroupByExpr::Expressions(..) => {
            return Err(unsupported("GROUP BY with ROLLUP, CUBE or GROUPING SETS"))
        }
        sp::GroupByExpr::All(_) => return Err(unsupported("GROUP BY ALL")),
    };
    let items: Vec<SelectItem> = s
        .projection
        .iter()
        .map(convert_select_item)
        .collect::<Result<_, SqlError>>()?;
    let mut from = Vec::new();
    let mut joins = Vec::new();
    let mut items = items;
    if s.from.is_empty() {
        series_in_select_list(&s.projection, &mut items, &mut from)?;
    }
    for twj in &s.from {
        from.push(convert_table_factor(&twj.relation)?);
        for j in &twj.joins {
            joins.push(convert_join(j, from.len() - 1)?);
        }
    }
    Ok(Select {
        items,
        from,
        joins,
        filter: s.selection.as_ref().map(convert_expr).transpose()?,
        group_by,
        having: s.having.as_ref().map(convert_expr).transpose()?,
        distinct,
        ..Select::empty()
    })
}

/// `SELECT generate_series(1, 10)` (no FROM) as PostgreSQL runs it: a row per value.
/// Rewritten to `SELECT generate_series FROM generate_series(1, 10)`.
fn series_in_select_list(
    projection: &[sp::SelectItem],
    items: &mut [SelectItem],
    from: &mut Vec<FromItem>,
) -> Result<(), SqlError> {
    for (i, p) in projection.iter().enumerate() {
        let (sp::SelectItem::UnnamedExpr(sp::Expr::Function(f))
        | sp::SelectItem::ExprWithAlias {
            expr: sp::Expr::Function(f),
            ..
        }) = p
        else {
            continue;
        };
        if object_name(&f.name) != "generate_series" {
            continue;
        }
        if !from.is_empty() {
            return Err(unsupported(
                "two generate_series() calls in one select list",
            ));
        }
        let args = match &f.args {
            sp::FunctionArguments::List(l) => function_args(&l.args)?,
            _ => Vec::new(),
        };
        from.push(series(args, None, None)?);
        if let SelectItem::Expr { expr, .. } = &mut items[i] {
            *expr = Expr::Column {
                table: None,
                name: "generate_series".into(),
            };
        }
    }
    Ok(())
}

fn convert_join(j: &sp::Join, after: usize) -> Result<Join, SqlError> {
    let item = convert_table_factor(&j.relation)?;
    let (kind, constraint) = match &j.join_operator {
        sp::JoinOperator::Join(c) | sp::JoinOperator::Inner(c) | sp::JoinOperator::CrossJoin(c) => {
            (JoinKind::Inner, c)
        }
        sp::JoinOperator::Left(c) | sp::JoinOperator::LeftOuter(c) => (JoinKind::Left, c),
        sp::JoinOperator::Right(c) | sp::JoinOperator::RightOuter(c) => (JoinKind::Right, c),
        sp::JoinOperator::FullOuter(c) => (JoinKind::Full, c),
        // The join's SQL, not `{:?}` of sqlparser's node: Debug of one node keeps
        // Debug of the whole AST in the wasm (a constraint holds expressions,
        // expressions hold queries...), ~100 KB of download.
        _ => {
            return Err(unsupported(format!(
                "the join \"{}\" ([INNER], LEFT, RIGHT, FULL and CROSS JOIN and comma joins run)",
                j.to_string().trim()
            )))
        }
    };
    let cross = matches!(j.join_operator, sp::JoinOperator::CrossJoin(_));
    let (using, on) = match constraint {
        sp::JoinConstraint::Using(cols) => (cols.iter().map(object_name).collect(), None),
        sp::JoinConstraint::On(e) => (Vec::new(), Some(convert_expr(e)?)),
        sp::JoinConstraint::None if cross => (Vec::new(), None),
        sp::JoinConstraint::Natural => (Vec::new(), None),
        _ => {
            return Err(SqlError::new(
                ErrorKind::Syntax,
                "syntax error: a JOIN needs ON or USING (or write CROSS JOIN)",
            ))
        }
    };
    Ok(Join {
        item,
        kind,
        using,
        on,
        after,
        natural: matches!(constraint, sp::JoinConstraint::Natural),
    })
}

/// A FROM item (for the FROM list of an UPDATE, the USING of a DELETE).
pub(super) fn table_factor(t: &sp::TableFactor) -> Result<FromItem, SqlError> {
    convert_table_factor(t)
}

fn convert_table_factor(t: &sp::TableFactor) -> Result<FromItem, SqlError> {
    if let sp::TableFactor::Derived {
        lateral,
        subquery,
        alias,
        ..
    } = t
    {
        // PostgreSQL 15 requires the name (16 made it optional).
        let Some(alias) = alias else {
            return Err(
                SqlError::new(ErrorKind::Syntax, "subquery in FROM must have an alias")
                    .with_hint("For example, FROM (SELECT ...) [AS] foo."),
            );
        };
        return Ok(FromItem::Subquery {
            query: Box::new(convert_query(subquery)?),
            alias: ident_name(&alias.name),
            columns: alias.columns.iter().map(|c| ident_name(&c.name)).collect(),
            lateral: *lateral,
        });
    }
    let sp::TableFactor::Table {
        name,
        alias,
        args,
        sample,
        with_ordinality,
        ..
    } = t
    else {
        return Err(unsupported(format!("the FROM item {t}")));
    };
    // Never dropped silently: a sample would return other rows.
    if sample.is_some() {
        return Err(unsupported("TABLESAMPLE").near("tablesample"));
    }
    if *with_ordinality {
        return Err(unsupported("WITH ORDINALITY").near("ordinality"));
    }
    let column = alias
        .as_ref()
        .and_then(|a| a.columns.first())
        .map(|c| ident_name(&c.name));
    let alias = alias.as_ref().map(|a| ident_name(&a.name));
    let name = relation_name(name);
    match args {
        None => Ok(FromItem::Table { name, alias }),
        Some(fargs) if name == "generate_series" => {
            let exprs = function_args(&fargs.args)?;
            series(exprs, alias, column)
        }
        Some(fargs) => match super::inspect::InspectFunc::from_name(&name) {
            Some(func) => inspect_call(func, &fargs.args, alias),
            None => Err(unsupported(format!("the table function {name}()")).near(&name)),
        },
    }
}

/// `heap_page_items(get_raw_page('t', 0))`, `bt_metap('t_pkey')`, …: the
/// page argument is read as the relation and block it names.
fn inspect_call(
    func: super::inspect::InspectFunc,
    args: &[sp::FunctionArg],
    alias: Option<String>,
) -> Result<FromItem, SqlError> {
    use super::inspect::{arguments, RawPage};
    let raw_page = match args {
        [sp::FunctionArg::Unnamed(sp::FunctionArgExpr::Expr(sp::Expr::Function(f)))]
            if object_name(&f.name) == "get_raw_page" =>
        {
            let page = match &f.args {
                sp::FunctionArguments::List(l) => function_args(&l.args)?,
                _ => Vec::new(),
            };
            Some(RawPage(page))
        }
        _ => None,
    };
    let plain = match raw_page {
        Some(_) => Vec::new(),
        None => function_args(args)?,
    };
    Ok(FromItem::Inspect {
        func,
        args: arguments(func, raw_page, plain)?,
        alias,
    })
}

fn series(
    mut exprs: Vec<Expr>,
    alias: Option<String>,
    column: Option<String>,
) -> Result<FromItem, SqlError> {
    if !(2..=3).contains(&exprs.len()) {
        return Err(SqlError::new(
            ErrorKind::Semantic,
            "generate_series takes (start, stop) or (start, stop, step)",
        ));
    }
    let step = (exprs.len() == 3).then(|| exprs.remove(2));
    let stop = exprs.remove(1);
    let start = exprs.remove(0);
    Ok(FromItem::Series {
        start,
        stop,
        step,
        alias,
        column,
    })
}

fn function_args(args: &[sp::FunctionArg]) -> Result<Vec<Expr>, SqlError> {
    args.iter()
        .map(|a| match a {
            sp::FunctionArg::Unnamed(sp::FunctionArgExpr::Expr(e)) => convert_expr(e),
            other => Err(unsupported(format!("the function argument {other}"))),
        })
        .collect()
}

fn convert_function(f: &sp::Function) -> Result<Expr, SqlError> {
    let name = object_name(&f.name);
    if f.over.is_some() {
        return Err(unsupported(format!("the window function {name}() … OVER")));
    }
    if !f.within_group.is_empty() {
        return Err(unsupported(format!("{name}() WITHIN GROUP")));
    }
    if let Some(func) = AggFunc::from_name(&name) {
        return convert_aggregate(func, f);
    }
    if f.filter.is_some() {
        return Err(SqlError::new(
            ErrorKind::Semantic,
            format!("FILTER specified, but {name} is not an aggregate function"),
        ));
    }
    if let Some(func) = crate::sql::functions::ScalarFunc::from_name(&name) {
        let args = match &f.args {
            sp::FunctionArguments::List(l) => function_args(&l.args)?,
            _ => Vec::new(),
        };
        func.check_arity(args.len())?;
        return Ok(Expr::Function { func, args });
    }
    let args = match &f.args {
        sp::FunctionArguments::None => Vec::new(),
        sp::FunctionArguments::List(l) => function_args(&l.args)?,
        sp::FunctionArguments::Subquery(_) => return Err(unsupported("a subquery argument")),
    };
    let func = match name.as_str() {
        "now" | "transaction_timestamp" | "current_timestamp" => Func::Now,
        "clock_timestamp" => Func::ClockTimestamp,
        "current_date" => Func::CurrentDate,
        "localtimestamp" => Func::LocalTimestamp,
        "random" => Func::Random,
        "gen_random_uuid" => Func::GenRandomUuid,
        // Placeholder: `series_in_select_list` replaces it by the series column.
        "generate_series" => return Ok(Expr::Literal(Value::Null)),
        "get_raw_page" => return Err(super::inspect::raw_page_elsewhere()),
        other => return Err(unsupported(format!("the function {other}()")).near(other)),
    };
    if !args.is_empty() {
        return Err(SqlError::new(
            ErrorKind::Semantic,
            format!("function {name}() takes no arguments"),
        ));
    }
    Ok(Expr::Call(func))
}

/// `count(*)`, `count(DISTINCT x)`, `sum(x)`…: one argument (none for `count(*)`).
fn convert_aggregate(func: AggFunc, f: &sp::Function) -> Result<Expr, SqlError> {
    let name = func.name();
    let sp::FunctionArguments::List(list) = &f.args else {
        return Err(SqlError::new(
            ErrorKind::Semantic,
            format!("function {name}() does not exist"),
        ));
    };
    let mut order_by = Vec::new();
    for clause in &list.clauses {
        match clause {
            sp::FunctionArgumentClause::OrderBy(items) => {
                for o in items {
                    order_by.push(order_item(o)?);
                }
            }
            other => return Err(unsupported(format!("{other} inside {name}()"))),
        }
    }
    let distinct = matches!(
        list.duplicate_treatment,
        Some(sp::DuplicateTreatment::Distinct)
    );
    let mut separator = None;
    let arg = match list.args.as_slice() {
        [sp::FunctionArg::Unnamed(sp::FunctionArgExpr::Wildcard)]
            if func == AggFunc::Count && !distinct =>
        {
            None
        }
        [sp::FunctionArg::Unnamed(sp::FunctionArgExpr::Expr(e)), sp::FunctionArg::Unnamed(sp::FunctionArgExpr::Expr(d))]
            if func == AggFunc::StringAgg =>
        {
            separator = match convert_expr(d)? {
                Expr::Literal(v) => Some(v),
                Expr::Cast { expr, .. } if matches!(*expr, Expr::Literal(_)) => {
                    let Expr::Literal(v) = *expr else {
                        unreachable!()
                    };
                    Some(v)
                }
                _ => {
                    return Err(unsupported(
                        "string_agg() with a delimiter that is not a constant",
                    ))
                }
            };
            Some(boxed(e)?)
        }
        _ if func == AggFunc::StringAgg => {
            return Err(SqlError::new(
                ErrorKind::Semantic,
                "function string_agg() takes exactly two arguments",
            ))
        }
        [sp::FunctionArg::Unnamed(sp::FunctionArgExpr::Expr(e))] => Some(boxed(e)?),
        _ => {
            return Err(SqlError::new(
                ErrorKind::Semantic,
                format!("function {name}() takes exactly one argument"),
            ))
        }
    };
    if distinct && !order_by.is_empty() {
        let in_args = |o: &OrderItem| arg.as_deref() == Some(&o.expr);
        if !order_by.iter().all(in_args) {
            return Err(SqlError::new(
                ErrorKind::Semantic,
                "in an aggregate with DISTINCT, ORDER BY expressions must appear in argument list",
            ));
        }
    }
    let filter = f.filter.as_deref().map(boxed).transpose()?;
    Ok(Expr::Aggregate {
        func,
        arg,
        distinct,
        separator,
        order_by,
        filter,
    })
}

fn convert_value(v: &sp::Value) -> Result<Value, SqlError> {
    Ok(match v {
        // An integer that fits is int4 or int8; anything else (`1.50`, `1e3`,
        // a bigger integer) is numeric, as PostgreSQL's scanner types it.
        sp::Value::Number(n, _) => match n.parse::<i64>() {
            Ok(i) => Value::Int(i),
            Err(_) => match crate::value::Numeric::parse(n) {
                Ok(x) => Value::numeric(x),
                // Beyond IndexLab's 38 digits (`1e308`): held as a float8,
                // which is right next to a float8 (PostgreSQL casts it so) and
                // refused anywhere else (sql::eval::oversized_numeric).
                Err(crate::value::NumericError::TooManyDigits) => match n.parse::<f64>() {
                    Ok(f) if f.is_finite() => Value::Float(f),
                    _ => return Err(unsupported(format!(
                        "the numeric value {n} (beyond float8's range; PostgreSQL's exact numeric type)"
                    ))),
                },
                Err(_) => Value::numeric(super::numeric::parse_numeric(n)?),
            },
        },
        sp::Value::SingleQuotedString(s) => Value::text(s.as_str()),
        // `E'a\nb'`: the tokenizer has read its escapes.
        sp::Value::EscapedStringLiteral(s) => Value::text(s.as_str()),
        sp::Value::Boolean(b) => Value::Bool(*b),
        sp::Value::Null => Value::Null,
        other => return Err(unsupported(format!("the literal {other}"))),
    })
}

fn binop(op: &sp::BinaryOperator) -> Result<BinOp, SqlError> {
    use sp::BinaryOperator as B;
    Ok(match op {
        B::Plus => BinOp::Add,
        B::Minus => BinOp::Sub,
        B::Multiply => BinOp::Mul,
        B::Divide => BinOp::Div,
        B::Modulo => BinOp::Mod,
        B::StringConcat => BinOp::Concat,
        B::Eq => BinOp::Eq,
        B::NotEq => BinOp::NotEq,
        B::Lt => BinOp::Lt,
        B::LtEq => BinOp::LtEq,
        B::Gt => BinOp::Gt,
        B::GtEq => BinOp::GtEq,
        B::And => BinOp::And,
        B::Or => BinOp::Or,
        B::Arrow => BinOp::JsonGet,
        B::LongArrow => BinOp::JsonGetText,
        B::HashArrow => BinOp::JsonPath,
        B::HashLongArrow => BinOp::JsonPathText,
        B::AtArrow => BinOp::JsonContains,
        B::ArrowAt => BinOp::JsonContainedBy,
        B::Question => BinOp::JsonHasKey,
        B::HashMinus => BinOp::JsonDeletePath,
        other => return Err(unsupported(format!("the operator {other}"))),
    })
}

fn boxed(e: &sp::Expr) -> Result<Box<Expr>, SqlError> {
    Ok(Box::new(convert_expr(e)?))
}

pub(super) fn convert_expr(e: &sp::Expr) -> Result<Expr, SqlError> {
    use sp::Expr as E;
    Ok(match e {
        E::Identifier(id) => Expr::Column {
            table: None,
            name: ident_name(id),
        },
        E::CompoundIdentifier(parts) if parts.len() == 2 => Expr::Column {
            table: Some(ident_name(&parts[0])),
            name: ident_name(&parts[1]),
        },
        E::Value(v) => match &v.value {
            sp::Value::Placeholder(p) => match p.strip_prefix('$').and_then(|n| n.parse().ok()) {
                Some(n) if n >= 1 => Expr::Param(n),
                // psql leaves a variable no \set or \gset gave a value as written.
                _ if p.starts_with(':') => {
                    return Err(unsupported(format!(
                        "the psql variable {p} without a value (no \\set or \\gset before \
                         it gave it one)"
                    ))
                    .near(p.as_str()))
                }
                _ => return Err(unsupported(format!("the parameter {p}"))),
            },
            other => Expr::Literal(convert_value(other)?),
        },
        E::Nested(inner) => convert_expr(inner)?,
        E::UnaryOp { op, expr } => match op {
            sp::UnaryOperator::Minus => match convert_expr(expr)? {
                Expr::Literal(Value::Int(i)) => Expr::Literal(Value::Int(-i)),
                Expr::Literal(Value::Float(f)) => Expr::Literal(Value::Float(-f)),
                Expr::Literal(Value::Numeric(n)) => Expr::Literal(Value::numeric(n.neg())),
                inner => Expr::Binary {
                    op: BinOp::Sub,
                    left: Box::new(Expr::Literal(Value::Int(0))),
                    right: Box::new(inner),
                },
            },
            sp::UnaryOperator::Plus => convert_expr(expr)?,
            sp::UnaryOperator::Not => Expr::Unary {
                not: true,
                expr: boxed(expr)?,
            },
            other => return Err(unsupported(format!("the operator {other}"))),
        },
        // `position(sub IN s)` is `strpos(s, sub)`.
        E::Position { expr: sub, r#in } => Expr::Function {
            func: crate::sql::functions::ScalarFunc::Position,
            args: vec![convert_expr(r#in)?, convert_expr(sub)?],
        },
        // `trim([LEADING | TRAILING | BOTH] [chars FROM] s)` is btrim, ltrim
        // or rtrim of s (and chars, a space by default).
        E::Trim {
            trim_where,
            trim_what,
            expr: from,
            trim_characters: None,
        } => {
            use crate::sql::functions::ScalarFunc;
            let func = match trim_where {
                Some(sp::TrimWhereField::Leading) => ScalarFunc::Ltrim,
                Some(sp::TrimWhereField::Trailing) => ScalarFunc::Rtrim,
                _ => ScalarFunc::Btrim,
            };
            let mut args = vec![convert_expr(from)?];
            if let Some(what) = trim_what {
                args.push(convert_expr(what)?);
            }
            Expr::Function { func, args }
        }
        E::IsDistinctFrom(a, b) | E::IsNotDistinctFrom(a, b) => Expr::Binary {
            op: if matches!(e, E::IsDistinctFrom(..)) {
                BinOp::IsDistinctFrom
            } else {
                BinOp::IsNotDistinctFrom
            },
            left: boxed(a)?,
            right: boxed(b)?,
        },
        // `x = ANY (ARRAY[a, b])` is `x IN (a, b)`, `x <> ALL (ARRAY[…])`
        // `x NOT IN (…)`: the same rows, NULLs included.
        E::AnyOp {
            left,
            compare_op: sp::BinaryOperator::Eq,
            right,
            ..
        } if matches!(right.as_ref(), E::Array(_)) => array_in_list(left, right, false)?,
        E::AllOp {
            left,
            compare_op: sp::BinaryOperator::NotEq,
            right,
        } if matches!(right.as_ref(), E::Array(_)) => array_in_list(left, right, true)?,
        E::BinaryOp { left, op, right } => Expr::Binary {
            op: binop(op)?,
            left: boxed(left)?,
            right: boxed(right)?,
        },
        E::Function(f) => convert_function(f)?,
        E::InList {
            expr,
            list,
            negated,
        } => Expr::InList {
            expr: boxed(expr)?,
            list: list.iter().map(convert_expr).collect::<Result<_, _>>()?,
            negated: *negated,
        },
        E::Between {
            expr,
            negated,
            low,
            high,
        } => Expr::Between {
            expr: boxed(expr)?,
            low: boxed(low)?,
            high: boxed(high)?,
            negated: *negated,
        },
        E::IsNull(inner) => Expr::IsNull {
            expr: boxed(inner)?,
            negated: false,
        },
        E::IsNotNull(inner) => Expr::IsNull {
            expr: boxed(inner)?,
            negated: true,
        },
        E::Cast {
            expr, data_type, ..
        } if data_type.to_string().eq_ignore_ascii_case("regclass") => Expr::Function {
            func: crate::sql::functions::ScalarFunc::Regclass,
            args: vec![convert_expr(expr)?],
        },
        E::Cast {
            expr, data_type, ..
        } => super::datetime_literal::cast(convert_expr(expr)?, cast_type(data_type)?)?,
        E::CompoundFieldAccess { root, access_chain } => subscript(root, access_chain)?,
        // Out of line: this function recurses once per operator of a deep
        // chain, and its frame must stay small for the page's stack.
        other => convert_other(other)?,
    })
}

/// Subqueries, LIKE, CASE, SUBSTRING, CEIL and FLOOR.
#[inline(never)]
fn convert_other(e: &sp::Expr) -> Result<Expr, SqlError> {
    use sp::Expr as E;
    Ok(match e {
        E::Subquery(q) => Expr::ScalarSubquery(Box::new(convert_query(q)?)),
        E::Exists { subquery, negated } => Expr::Exists {
            query: Box::new(convert_query(subquery)?),
            negated: *negated,
        },
        E::InSubquery {
            expr,
            subquery,
            negated,
        } => Expr::InSubquery {
            expr: boxed(expr)?,
            query: Box::new(convert_query(subquery)?),
            negated: *negated,
        },
        E::Like {
            negated,
            any: false,
            expr,
            pattern,
            escape_char: None,
        } => like(expr, pattern, *negated, false)?,
        E::ILike {
            negated,
            any: false,
            expr,
            pattern,
            escape_char: None,
        } => like(expr, pattern, *negated, true)?,
        E::Case {
            operand,
            conditions,
            else_result,
            ..
        } => Expr::Case {
            operand: operand.as_deref().map(boxed).transpose()?,
            branches: conditions
                .iter()
                .map(|c| Ok((convert_expr(&c.condition)?, convert_expr(&c.result)?)))
                .collect::<Result<_, SqlError>>()?,
            otherwise: else_result.as_deref().map(boxed).transpose()?,
        },
        E::Substring {
            expr,
            substring_from,
            substring_for,
            ..
        } => {
            let mut args = vec![convert_expr(expr)?];
            args.push(match substring_from {
                Some(f) => convert_expr(f)?,
                None => Expr::Literal(Value::Int(1)),
            });
            if let Some(n) = substring_for {
                args.push(convert_expr(n)?);
            }
            Expr::Function {
                func: crate::sql::functions::ScalarFunc::Substr,
                args,
            }
        }
        E::Ceil {
            expr,
            field: sp::CeilFloorKind::DateTimeField(sp::DateTimeField::NoDateTime),
        } => Expr::Function {
            func: crate::sql::functions::ScalarFunc::Ceil,
            args: vec![convert_expr(expr)?],
        },
        E::Floor {
            expr,
            field: sp::CeilFloorKind::DateTimeField(sp::DateTimeField::NoDateTime),
        } => Expr::Function {
            func: crate::sql::functions::ScalarFunc::Floor,
            args: vec![convert_expr(expr)?],
        },
        E::TypedString(ts) => {
            let ty = cast_type(&ts.data_type)?;
            super::datetime_literal::cast(Expr::Literal(convert_value(&ts.value.value)?), ty)?
        }
        E::Interval(iv) => super::datetime_literal::interval(iv)?,
        E::Extract { field, expr, .. } => {
            super::datetime_literal::extract(field, convert_expr(expr)?)
        }
        other => return Err(unsupported(format!("the expression {other}"))),
    })
}

/// `(x::point)[i]`: a point's coordinate, the one subscript IndexLab reads
/// (`(ctid::text::point)[0]` is the page a row is on). Arrays are refused.
#[inline(never)]
fn subscript(root: &sp::Expr, chain: &[sp::AccessExpr]) -> Result<Expr, SqlError> {
    let base = convert_expr(root)?;
    let is_point = matches!(
        &base,
        Expr::Cast {
            ty: SqlType::Point,
            ..
        }
    );
    match chain {
        [sp::AccessExpr::Subscript(sp::Subscript::Index { index })] if is_point => {
            Ok(Expr::Function {
                func: crate::sql::functions::ScalarFunc::PointSubscript,
                args: vec![base, convert_expr(index)?],
            })
        }
        _ => Err(unsupported(format!(
            "the subscript {}",
            chain.iter().map(|a| a.to_string()).collect::<String>()
        ))),
    }
}

/// `x = ANY (ARRAY[…])` (or, negated, `x <> ALL (ARRAY[…])`) as an IN list.
fn array_in_list(left: &sp::Expr, array: &sp::Expr, negated: bool) -> Result<Expr, SqlError> {
    let sp::Expr::Array(a) = array else {
        return Err(unsupported(format!("the array {array}")));
    };
    Ok(Expr::InList {
        expr: boxed(left)?,
        list: a.elem.iter().map(convert_expr).collect::<Result<_, _>>()?,
        negated,
    })
}

fn like(
    expr: &sp::Expr,
    pattern: &sp::Expr,
    negated: bool,
    case_insensitive: bool,
) -> Result<Expr, SqlError> {
    Ok(Expr::Like {
        expr: boxed(expr)?,
        pattern: boxed(pattern)?,
        negated,
        case_insensitive,
    })
}

fn cast_type(t: &sp::DataType) -> Result<SqlType, SqlError> {
    use sp::DataType as D;
    Ok(match t {
        D::Int(_) | D::Integer(_) | D::Int4(_) => SqlType::Int4,
        D::SmallInt(_) | D::Int2(_) => SqlType::Int2,
        D::BigInt(_) | D::Int8(_) => SqlType::Int8,
        D::Text | D::Varchar(_) => SqlType::Text,
        D::Char(len) | D::Character(len) => SqlType::Bpchar(super::parse::char_length(len)?),
        // float(p) is real up to 24 binary digits of precision.
        D::Float(sp::ExactNumberInfo::Precision(p)) if *p <= 24 => SqlType::Float4,
        D::DoublePrecision | D::Float8 | D::Float(_) => SqlType::Float8,
        D::Real | D::Float4 => SqlType::Float4,
        D::Timestamp(_, sp::TimezoneInfo::None | sp::TimezoneInfo::WithoutTimeZone) => {
            SqlType::Timestamp
        }
        D::Timestamp(..) => SqlType::Timestamptz,
        D::Date => SqlType::Date,
        D::Interval {
            fields: None,
            precision: None,
        } => SqlType::Interval,
        D::Bool | D::Boolean => SqlType::Bool,
        D::Uuid => SqlType::Uuid,
        D::JSON => SqlType::Json,
        D::JSONB => SqlType::Jsonb,
        D::Custom(n, _) if object_name(n) == "timestamptz" => SqlType::Timestamptz,
        D::Custom(n, _) if object_name(n) == "tid" => SqlType::Tid,
        D::Custom(n, _) if object_name(n) == "point" => SqlType::Point,
        D::Numeric(info) | D::Decimal(info) | D::Dec(info) => numeric_type(info)?,
        other => return Err(unsupported(format!("a cast to {other}"))),
    })
}

/// One item of a select list (or of a RETURNING list).
pub(crate) fn convert_select_item(item: &sp::SelectItem) -> Result<SelectItem, SqlError> {
    match item {
        sp::SelectItem::Wildcard(_) | sp::SelectItem::QualifiedWildcard(..) => {
            Ok(SelectItem::Wildcard)
        }
        sp::SelectItem::UnnamedExpr(e) => Ok(SelectItem::Expr {
            expr: convert_expr(e)?,
            alias: None,
        }),
        sp::SelectItem::ExprWithAlias { expr, alias } => Ok(SelectItem::Expr {
            expr: convert_expr(expr)?,
            alias: Some(ident_name(alias)),
        }),
        other => Err(unsupported(format!("the select item {other}"))),
    }
}

/// `numeric`, `numeric(p)`, `numeric(p,s)` as PostgreSQL's numerictypmodin
/// checks them. PostgreSQL 15 also takes a negative scale or one above the
/// precision; IndexLab refuses those by name.
pub(super) fn numeric_type(info: &sp::ExactNumberInfo) -> Result<SqlType, SqlError> {
    let (p, s) = match info {
        sp::ExactNumberInfo::None => return Ok(SqlType::Numeric(None)),
        sp::ExactNumberInfo::Precision(p) => (*p, 0),
        sp::ExactNumberInfo::PrecisionAndScale(p, s) => (*p, *s),
    };
    if !(1..=1000).contains(&p) {
        return Err(SqlError::new(
            ErrorKind::Semantic,
            format!("NUMERIC precision {p} must be between 1 and 1000"),
        ));
    }
    if s < 0 || s as u64 > p {
        return Err(unsupported(format!(
            "numeric({p},{s}) (a scale below 0 or above the precision)"
        )));
    }
    Ok(SqlType::Numeric(Some((p as u16, s as u16))))
}
