//! Expression binding and evaluation.
//!
//! An [`ast::Expr`] names columns; [`bind`] resolves each name once to a position in
//! the row, so evaluating a million rows does no string lookups. Functions read time
//! from the virtual clock and randomness from the seeded generator in [`EvalEnv`].

use super::ast::{BinOp, Expr, Func};
use super::error::{ErrorKind, SqlError};
use super::functions::{self, ScalarFunc};
use crate::rng::Rng;
use crate::value::{Numeric, SqlType, Value};
use std::cmp::Ordering;

/// The columns visible to an expression: (source name, column name, type) in row order.
#[derive(Debug, Clone, Default)]
pub struct Scope {
    pub columns: Vec<(String, String, SqlType)>,
}

impl Scope {
    pub fn resolve(&self, table: Option<&str>, name: &str) -> Result<usize, SqlError> {
        let mut found = self
            .columns
            .iter()
            .enumerate()
            .filter(|(_, (t, c, _))| c == name && table.is_none_or(|want| want == t));
        let Some((i, _)) = found.next() else {
            let full = table.map_or(name.to_string(), |t| format!("{t}.{name}"));
            return Err(no_such_column(&full, name));
        };
        if table.is_none() && found.next().is_some() {
            return Err(SqlError::new(
                ErrorKind::Semantic,
                format!("column reference \"{name}\" is ambiguous"),
            ));
        }
        Ok(i)
    }
}

/// PostgreSQL's system columns: every table has them, so no column of a
/// table may take one of these names.
const SYSTEM_COLUMNS: [&str; 6] = ["ctid", "xmin", "xmax", "cmin", "cmax", "tableoid"];

pub fn is_system_column(name: &str) -> bool {
    SYSTEM_COLUMNS.contains(&name)
}

/// PostgreSQL's error for a column a query names that its tables lack; a
/// system column IndexLab does not give (`xmin`…) is refused by name instead.
pub fn no_such_column(full: &str, name: &str) -> SqlError {
    if is_system_column(name) {
        return super::error::unsupported(format!("the system column {name}")).near(name);
    }
    SqlError::new(
        ErrorKind::Semantic,
        format!("column \"{full}\" does not exist"),
    )
    .near(name)
}

/// An expression with its column references resolved to row positions.
#[derive(Debug, Clone, PartialEq)]
pub enum Bound {
    Col(usize),
    Lit(Value),
    Not(Box<Bound>),
    Bin(BinOp, Box<Bound>, Box<Bound>),
    Call(Func),
    InList(Box<Bound>, Vec<Bound>, bool),
    Between(Box<Bound>, Box<Bound>, Box<Bound>, bool),
    IsNull(Box<Bound>, bool),
    Cast(Box<Bound>, SqlType),
    Func(ScalarFunc, Vec<Bound>),
    /// CASE: an operand (simple CASE), WHEN/THEN pairs, ELSE.
    Case(Option<Box<Bound>>, Vec<(Bound, Bound)>, Option<Box<Bound>>),
    /// LIKE: negated, case-insensitive.
    Like(Box<Bound>, Box<Bound>, bool, bool),
}

pub fn bind(expr: &Expr, scope: &Scope) -> Result<Bound, SqlError> {
    let b = |e: &Expr| bind(e, scope).map(Box::new);
    Ok(match expr {
        Expr::Column { table, name } => Bound::Col(scope.resolve(table.as_deref(), name)?),
        Expr::Literal(v) => Bound::Lit(v.clone()),
        Expr::Unary { expr, .. } => Bound::Not(b(expr)?),
        Expr::Binary { op, left, right } => {
            let (l, r) = (b(left)?, b(right)?);
            let (l, r) = json_operands(*op, l, r, scope)?;
            let (l, r) = if op.compares() {
                let l2 = typed_literal(l, &r, scope)?;
                let r2 = typed_literal(r, &l2, scope)?;
                bpchar_pair(l2, r2, scope)
            } else if *op == BinOp::Concat {
                (
                    Box::new(read_as_text(*l, scope)),
                    Box::new(read_as_text(*r, scope)),
                )
            } else if matches!(op, BinOp::Add | BinOp::Sub) {
                let r2 = typed_arithmetic_literal(*op, r, &l, scope)?;
                let l2 = typed_arithmetic_literal(*op, l, &r2, scope)?;
                (l2, r2)
            } else {
                (l, r)
            };
            let arithmetic =
                !op.compares() && !matches!(op, BinOp::And | BinOp::Or | BinOp::Concat);
            if arithmetic
                && ((oversized(&l) && !float8_typed(&r, scope))
                    || (oversized(&r) && !float8_typed(&l, scope)))
            {
                return Err(oversized_numeric());
            }
            let narrow = match (narrow_int(&l, scope), narrow_int(&r, scope)) {
                _ if op.compares() => None,
                (Some(SqlType::Int2), Some(SqlType::Int2)) => Some(SqlType::Int2),
                (Some(_), Some(_)) => Some(SqlType::Int4),
                _ => None,
            };
            let e = Bound::Bin(*op, l, r);
            match narrow {
                // integer op integer is an integer in PostgreSQL (smallint op
                // smallint a smallint): past its range it is an error
                // ("integer out of range"), not a bigint.
                Some(ty) if !matches!(op, BinOp::And | BinOp::Or | BinOp::Concat) => {
                    Bound::Cast(Box::new(e), ty)
                }
                _ => e,
            }
        }
        Expr::Call(f) => Bound::Call(*f),
        Expr::InList {
            expr,
            list,
            negated,
        } => {
            let x = b(expr)?;
            let items = list
                .iter()
                .map(|e| Ok(*datetime_literal(Box::new(bind(e, scope)?), &x, scope)?))
                .map(|e| e.map(|e| *bpchar_operand(Box::new(e), &x, scope)))
                .collect::<Result<_, SqlError>>()?;
            Bound::InList(
                bpchar_operand(x, &Bound::Lit(Value::Null), scope),
                items,
                *negated,
            )
        }
        Expr::Between {
            expr,
            low,
            high,
            negated,
        } => {
            let x = b(expr)?;
            let (lo, hi) = (
                bpchar_operand(datetime_literal(b(low)?, &x, scope)?, &x, scope),
                bpchar_operand(datetime_literal(b(high)?, &x, scope)?, &x, scope),
            );
            Bound::Between(
                bpchar_operand(x, &Bound::Lit(Value::Null), scope),
                lo,
                hi,
                *negated,
            )
        }
        Expr::IsNull { expr, negated } => Bound::IsNull(b(expr)?, *negated),
        Expr::Cast {
            expr,
            ty: SqlType::Text,
        } => Bound::Cast(
            Box::new(read_as_text(bind(expr, scope)?, scope)),
            SqlType::Text,
        ),
        Expr::Cast { expr, ty } => Bound::Cast(b(expr)?, *ty),
        Expr::Function { func, args } => Bound::Func(*func, bind_arguments(*func, args, scope)?),
        Expr::Case {
            operand,
            branches,
            otherwise,
        } => bind_case(operand.as_deref(), branches, otherwise.as_deref(), scope)?,
        Expr::Like {
            expr,
            pattern,
            negated,
            case_insensitive,
        } => Bound::Like(b(expr)?, b(pattern)?, *negated, *case_insensitive),
        Expr::Param(n) => return Err(crate::exec::types::no_parameter(*n)),
        // The executor runs subqueries first and puts their answers here
        // (exec::subquery); one left is in a place that is not run.
        Expr::ScalarSubquery(_) | Expr::Exists { .. } | Expr::InSubquery { .. } => {
            return Err(super::error::unsupported("a subquery here"))
        }
        // Grouping queries replace their aggregates by columns of the group
        // row before binding (exec::aggregate); one left here is misplaced.
        Expr::Aggregate { .. } => {
            return Err(SqlError::new(
                ErrorKind::Semantic,
                "aggregate functions are not allowed here",
            ))
        }
    })
}

/// The operands of an operator over jsonb: a quoted literal on the other
/// side of `=`, `@>`, `<@` or `||` is read as jsonb, as PostgreSQL's
/// operator resolution types an unknown literal by the known side.
fn json_operands(
    op: BinOp,
    l: Box<Bound>,
    r: Box<Bound>,
    scope: &Scope,
) -> Result<(Box<Bound>, Box<Bound>), SqlError> {
    let takes_jsonb = op.compares()
        || matches!(
            op,
            BinOp::JsonContains | BinOp::JsonContainedBy | BinOp::Concat
        );
    if !takes_jsonb {
        return Ok((l, r));
    }
    let column_type = |i: usize| scope.columns.get(i).map(|c| c.2);
    let json_type = |e: &Bound| super::json::json_type_of(e, &column_type);
    let read = |e: Box<Bound>, ty: Option<SqlType>| -> Result<Box<Bound>, SqlError> {
        match (e.as_ref(), ty) {
            (Bound::Lit(Value::Text(s)), Some(ty)) => {
                Ok(Box::new(Bound::Lit(parse_text_as(s, ty)?)))
            }
            _ => Ok(e),
        }
    };
    let (lt, rt) = (json_type(&l), json_type(&r));
    Ok((read(l, rt)?, read(r, lt)?))
}

/// Whether `e` is of type `character(n)`: such a column, or a cast to it.
fn bpchar_column(e: &Bound, scope: &Scope) -> bool {
    match e {
        Bound::Col(i) => matches!(scope.columns.get(*i), Some((_, _, SqlType::Bpchar(_)))),
        Bound::Cast(_, ty) => matches!(ty, SqlType::Bpchar(_)),
        _ => false,
    }
}

/// A bpchar read as text: without its trailing blanks, as PostgreSQL's
/// bpchar-to-text cast (`rtrim`) reads it.
fn read_as_text(e: Bound, scope: &Scope) -> Bound {
    match bpchar_column(&e, scope) {
        true => Bound::Func(ScalarFunc::Rtrim, vec![e]),
        false => e,
    }
}

/// An operand of a comparison with a bpchar: a bpchar compares without its
/// trailing blanks (`bpcharcmp`), and so does a quoted literal taking its
/// type; text compared with a bpchar keeps its blanks (the bpchar is cast).
fn bpchar_operand(e: Box<Bound>, other: &Bound, scope: &Scope) -> Box<Bound> {
    if bpchar_column(&e, scope) {
        return Box::new(read_as_text(*e, scope));
    }
    match *e {
        Bound::Lit(Value::Text(s)) if bpchar_column(other, scope) => {
            Box::new(Bound::Lit(Value::text(s.trim_end_matches(' '))))
        }
        other => Box::new(other),
    }
}

/// Both operands of a comparison, each read as [`bpchar_operand`] says.
fn bpchar_pair(l: Box<Bound>, r: Box<Bound>, scope: &Scope) -> (Box<Bound>, Box<Bound>) {
    let (l_bpchar, r_bpchar) = (bpchar_column(&l, scope), bpchar_column(&r, scope));
    let as_operand = |e: Box<Bound>, other_bpchar: bool| match *e {
        Bound::Lit(Value::Text(s)) if other_bpchar => {
            Box::new(Bound::Lit(Value::text(s.trim_end_matches(' '))))
        }
        e => Box::new(read_as_text(e, scope)),
    };
    (as_operand(l, r_bpchar), as_operand(r, l_bpchar))
}

/// CASE, its results of one type: with a numeric among integer results
/// every result is a numeric (select_common_type), so `case … then 1 else
/// 2.5 end / 2` divides exactly whichever branch is taken.
#[inline(never)]
fn bind_case(
    operand: Option<&Expr>,
    branches: &[(Expr, Expr)],
    otherwise: Option<&Expr>,
    scope: &Scope,
) -> Result<Bound, SqlError> {
    let results: Vec<&Expr> = branches.iter().map(|(_, t)| t).chain(otherwise).collect();
    let promote = numeric_among_integers(&results, scope);
    let result = |e: &Expr| -> Result<Bound, SqlError> {
        let bound = bind(e, scope)?;
        Ok(if promote {
            Bound::Cast(Box::new(bound), SqlType::Numeric(None))
        } else {
            bound
        })
    };
    Ok(Bound::Case(
        operand.map(|o| bind(o, scope).map(Box::new)).transpose()?,
        branches
            .iter()
            .map(|(w, t)| Ok((bind(w, scope)?, result(t)?)))
            .collect::<Result<_, SqlError>>()?,
        otherwise.map(|o| result(o).map(Box::new)).transpose()?,
    ))
}

/// Whether `exprs` are integers and numerics with at least one numeric:
/// PostgreSQL makes them all numeric.
fn numeric_among_integers(exprs: &[&Expr], scope: &Scope) -> bool {
    let types: Vec<Option<SqlType>> = exprs
        .iter()
        .map(|a| crate::exec::types::type_of(a, scope).ok())
        .collect();
    let numeric = types.iter().any(|t| t.is_some_and(SqlType::is_numeric));
    let all_exact = types.iter().all(|t| {
        matches!(
            t,
            Some(SqlType::Int2 | SqlType::Int4 | SqlType::Int8 | SqlType::Numeric(_))
        )
    });
    numeric && all_exact
}

/// A numeric literal beyond IndexLab's 38 digits, held as a float8 (see
/// sql::convert): only a float8 beside it makes that PostgreSQL's answer.
fn oversized(e: &Bound) -> bool {
    matches!(e, Bound::Lit(Value::Float(_)))
}

fn oversized_numeric() -> SqlError {
    super::error::unsupported(format!(
        "a numeric value of more than {} digits",
        crate::value::numeric::MAX_DIGITS
    ))
}

/// A select item that is such a literal: PostgreSQL prints all its digits.
pub fn reject_numeric_output(e: &Expr) -> Result<(), SqlError> {
    match e {
        Expr::Literal(Value::Float(_)) => Err(oversized_numeric()),
        _ => Ok(()),
    }
}

/// Whether `e` is a float8 (a float8 column, random(), a cast to float8):
/// a numeric literal next to it is read as a float8 too.
fn float8_typed(e: &Bound, scope: &Scope) -> bool {
    match e {
        Bound::Col(i) => scope
            .columns
            .get(*i)
            .is_some_and(|c| c.2 == SqlType::Float8),
        Bound::Call(Func::Random) => true,
        Bound::Cast(_, ty) => *ty == SqlType::Float8,
        Bound::Bin(_, l, r) => float8_typed(l, scope) || float8_typed(r, scope),
        _ => false,
    }
}

/// A function's arguments, bound. coalesce, greatest and least take their
/// arguments' common type: with a numeric among integers every argument is
/// a numeric (`coalesce(a, b) / 2` divides exactly), as PostgreSQL's
/// select_common_type makes them.
#[inline(never)]
fn bind_arguments(func: ScalarFunc, args: &[Expr], scope: &Scope) -> Result<Vec<Bound>, SqlError> {
    // A function of text reads a bpchar without its blanks; these few take
    // the padded value itself (its bytes, a bpchar result, or, for the
    // functions of "any" argument, its output text).
    let padded = matches!(
        func,
        ScalarFunc::OctetLength
            | ScalarFunc::PgColumnSize
            | ScalarFunc::Coalesce
            | ScalarFunc::Greatest
            | ScalarFunc::Least
            | ScalarFunc::Nullif
            | ScalarFunc::Format
            | ScalarFunc::JsonbBuildObject
            | ScalarFunc::JsonBuildObject
            | ScalarFunc::JsonbBuildArray
            | ScalarFunc::JsonBuildArray
            | ScalarFunc::ToJsonb
            | ScalarFunc::ToJson
    );
    let bound = args
        .iter()
        .map(|a| bind(a, scope))
        .map(|a| a.map(|a| if padded { a } else { read_as_text(a, scope) }))
        .collect::<Result<Vec<_>, _>>()?;
    if !matches!(
        func,
        ScalarFunc::Coalesce | ScalarFunc::Greatest | ScalarFunc::Least
    ) {
        return Ok(bound);
    }
    let args: Vec<&Expr> = args.iter().collect();
    if !numeric_among_integers(&args, scope) {
        return Ok(bound);
    }
    Ok(bound
        .into_iter()
        .map(|b| Bound::Cast(Box::new(b), SqlType::Numeric(None)))
        .collect())
}

/// PostgreSQL's special timestamp inputs other than `epoch`: they read the
/// real clock (or stand for infinity), which IndexLab's virtual clock does not.
fn is_special_timestamp(s: &str) -> bool {
    let s = s.trim().to_ascii_lowercase();
    [
        "now",
        "today",
        "yesterday",
        "tomorrow",
        "infinity",
        "-infinity",
        "allballs",
    ]
    .contains(&s.as_str())
}

fn unsupported_timestamp(s: &str) -> SqlError {
    SqlError::new(
        ErrorKind::Unsupported,
        format!(
            "the timestamp input '{}' is not supported by IndexLab (its clock is virtual: use now() or an ISO date)",
            s.trim()
        ),
    )
}

/// `smallint` or `integer` when PostgreSQL types `e` so: a column or cast of
/// that type, narrow arithmetic, or (integer) a literal within int4's range.
fn narrow_int(e: &Bound, scope: &Scope) -> Option<SqlType> {
    let ty = match e {
        Bound::Col(i) => scope.columns.get(*i)?.2,
        Bound::Lit(Value::Int(v)) if i32::try_from(*v).is_ok() => SqlType::Int4,
        Bound::Cast(_, ty) => *ty,
        _ => return None,
    };
    matches!(ty, SqlType::Int2 | SqlType::Int4).then_some(ty)
}

/// A quoted literal compared with a typed column takes the column's type, as
/// PostgreSQL resolves `a < '5'`; text that does not parse is an error at once.
fn typed_literal(lit: Box<Bound>, other: &Bound, scope: &Scope) -> Result<Box<Bound>, SqlError> {
    if let (Bound::Lit(Value::Text(s)), Some(ty)) = (lit.as_ref(), datetime_typed(other, scope)) {
        return Ok(Box::new(Bound::Lit(parse_text_as(s, ty)?)));
    }
    let (Bound::Lit(Value::Text(s)), Bound::Col(i)) = (lit.as_ref(), other) else {
        return Ok(lit);
    };
    let Some((_, _, ty)) = scope.columns.get(*i) else {
        return Ok(lit);
    };
    if ty.is_text() {
        return Ok(lit);
    }
    // The literal takes the operator's type, `numeric` without the column's typmod.
    let ty = if ty.is_numeric() {
        SqlType::Numeric(None)
    } else {
        *ty
    };
    Ok(Box::new(Bound::Lit(parse_text_as(s, ty)?)))
}

/// A quoted literal in `x IN (…)` or `x BETWEEN … AND …` read as `x`'s
/// date/time type. (Only date/time: an IN list also holds a subquery's
/// answers, which must not be read as another type.)
fn datetime_literal(lit: Box<Bound>, x: &Bound, scope: &Scope) -> Result<Box<Bound>, SqlError> {
    match (lit.as_ref(), datetime_typed(x, scope)) {
        (Bound::Lit(Value::Text(s)), Some(ty)) => Ok(Box::new(Bound::Lit(parse_text_as(s, ty)?))),
        _ => Ok(lit),
    }
}

/// The date/time type of `e` when it is plainly one (a column, a constant,
/// a cast, now()…): a quoted literal next to it takes that type, as
/// PostgreSQL types an unknown literal by the operator's other side.
fn datetime_typed(e: &Bound, scope: &Scope) -> Option<SqlType> {
    let ty = match e {
        Bound::Col(i) => scope.columns.get(*i)?.2,
        Bound::Lit(Value::Timestamp(_)) => SqlType::Timestamptz,
        Bound::Lit(v) => v.datetime_type()?,
        Bound::Cast(_, ty) => *ty,
        Bound::Call(Func::Now | Func::ClockTimestamp) => SqlType::Timestamptz,
        Bound::Call(Func::CurrentDate) => SqlType::Date,
        Bound::Call(Func::LocalTimestamp) => SqlType::Timestamp,
        Bound::Bin(op, l, r) if !op.compares() => {
            let operand = |x: &Bound| datetime_typed(x, scope).or_else(|| narrow_int(x, scope));
            super::datetime::arith_type(*op, operand(l)?, operand(r)?)?
        }
        Bound::Func(ScalarFunc::MakeDate, _) => SqlType::Date,
        Bound::Func(ScalarFunc::DateTrunc, args) => match datetime_typed(args.get(1)?, scope)? {
            SqlType::Timestamp => SqlType::Timestamp,
            _ => SqlType::Timestamptz,
        },
        _ => return None,
    };
    super::datetime::is_datetime(ty).then_some(ty)
}

/// `now() - '2016-01-01'`, `span + '1 hour'`: a quoted literal in date/time
/// arithmetic takes the other side's type where PostgreSQL's operator
/// resolution picks (timestamp − timestamp, interval ± interval, and an
/// interval after timestamp +).
fn typed_arithmetic_literal(
    op: BinOp,
    lit: Box<Bound>,
    other: &Bound,
    scope: &Scope,
) -> Result<Box<Bound>, SqlError> {
    let Some(ty) = datetime_typed(other, scope) else {
        return Ok(lit);
    };
    let read_as = match (ty, op) {
        (SqlType::Interval, BinOp::Add | BinOp::Sub) | (_, BinOp::Sub) => Some(ty),
        // timestamp + unknown: timestamp + interval is the only candidate.
        (SqlType::Timestamp | SqlType::Timestamptz, BinOp::Add) => Some(SqlType::Interval),
        _ => None,
    };
    match (lit.as_ref(), read_as) {
        (Bound::Lit(Value::Text(s)), Some(ty)) => Ok(Box::new(Bound::Lit(parse_text_as(s, ty)?))),
        _ => Ok(lit),
    }
}

/// A quoted literal compared with a column of non-text type `ty`, read
/// with that type's input function (`None`: not such a literal).
pub fn quoted_as(e: &Expr, ty: SqlType) -> Option<Result<Value, SqlError>> {
    match e {
        Expr::Literal(Value::Text(s)) if !ty.is_text() => Some(parse_text_as(s, ty)),
        _ => None,
    }
}

/// Text read as a value of `ty`, as the type's input function reads it (a
/// quoted literal taking a column's type, or an explicit cast of text).
pub fn parse_text_as(s: &str, ty: SqlType) -> Result<Value, SqlError> {
    let bad = || {
        SqlError::new(
            ErrorKind::Semantic,
            format!("invalid input syntax for type {}: \"{s}\"", ty.pg_name()),
        )
    };
    let t = s.trim();
    let v = match ty {
        SqlType::Text => Value::text(s),
        SqlType::Bpchar(n) => to_bpchar(s, n, true)?,
        SqlType::Int2 | SqlType::Int4 | SqlType::Int8 => {
            let n: i128 = t.parse().map_err(|_| bad())?;
            let fits = match ty {
                SqlType::Int2 => i16::try_from(n).is_ok(),
                SqlType::Int4 => i32::try_from(n).is_ok(),
                _ => i64::try_from(n).is_ok(),
            };
            if !fits {
                return Err(SqlError::new(
                    ErrorKind::Execution,
                    format!("value \"{s}\" is out of range for type {}", ty.pg_name()),
                ));
            }
            Value::Int(n as i64)
        }
        SqlType::Float8 => Value::Float(t.parse().map_err(|_| bad())?),
        SqlType::Float4 => Value::Real(t.parse().map_err(|_| bad())?),
        SqlType::Bool => match t.to_ascii_lowercase().as_str() {
            "t" | "true" | "on" | "yes" | "1" => Value::Bool(true),
            "f" | "false" | "off" | "no" | "0" => Value::Bool(false),
            _ => return Err(bad()),
        },
        SqlType::Uuid => Value::text(crate::value::parse_uuid(t).ok_or_else(bad)?),
        SqlType::Tid => Value::Tid(crate::value::parse_tid(t).ok_or_else(bad)?),
        SqlType::Point => Value::text(crate::value::parse_point(t).ok_or_else(bad)?),
        SqlType::Timestamptz if is_special_timestamp(t) => return Err(unsupported_timestamp(t)),
        SqlType::Timestamptz | SqlType::Date | SqlType::Timestamp | SqlType::Interval => {
            super::datetime::parse_text(s, ty)?
        }
        SqlType::Numeric(_) => {
            let n = super::numeric::parse_numeric(s)?;
            super::numeric::cast_numeric(&n, ty)?
        }
        SqlType::Bytea => Value::Bytea(Box::new(
            crate::value::bytea::parse(s).map_err(|m| SqlError::new(ErrorKind::Semantic, m))?,
        )),
        SqlType::Json | SqlType::Jsonb => super::json::input(s, ty)?,
    };
    Ok(v)
}

/// What functions need: the statement's start time (`now()`), the virtual clock
/// (`clock_timestamp()`), and the seeded generator (`random()`).
pub struct EvalEnv<'a> {
    pub statement_start_us: i64,
    pub clock_us: i64,
    pub rng: &'a mut Rng,
    /// The database's sequences, for `nextval` and its kin (`None` where
    /// an expression cannot reach them: an index expression, a check).
    pub sequences: Option<&'a mut crate::exec::sequences::Sequences>,
}

/// SQL comparison of two non-null values; `None` when the types do not compare.
pub fn compare(a: &Value, b: &Value) -> Option<Ordering> {
    match (a, b) {
        (Value::Int(x), Value::Int(y)) => Some(x.cmp(y)),
        (Value::Timestamp(x), Value::Timestamp(y)) => Some(x.cmp(y)),
        (Value::Text(x), Value::Text(y)) => Some(x.cmp(y)),
        (Value::Bool(x), Value::Bool(y)) => Some(x.cmp(y)),
        (Value::Tid(x), Value::Tid(y)) => Some(x.cmp(y)),
        (Value::Bytea(x), Value::Bytea(y)) => Some(x.cmp(y)),
        (Value::Jsonb(x), Value::Jsonb(y)) => Some(crate::value::json::compare(x, y)),
        (Value::Numeric(x), Value::Numeric(y)) => Some(x.cmp(y)),
        // An integer meets a numeric as a numeric (exactly), a float8 meets
        // it as a float8, as PostgreSQL's implicit casts choose.
        (Value::Numeric(x), Value::Int(y)) => Some(x.as_ref().cmp(&Numeric::from_i64(*y))),
        (Value::Int(x), Value::Numeric(y)) => Some(Numeric::from_i64(*x).cmp(y)),
        (Value::Numeric(x), Value::Float(_) | Value::Real(_)) => {
            compare(&Value::Float(x.to_f64()), b)
        }
        (Value::Float(_) | Value::Real(_), Value::Numeric(y)) => {
            compare(a, &Value::Float(y.to_f64()))
        }
        _ if a.datetime_type().is_some() || b.datetime_type().is_some() => {
            super::datetime::compare(a, b)
        }
        (Value::Real(x), _) => compare(&Value::Float(f64::from(*x)), b),
        (_, Value::Real(y)) => compare(a, &Value::Float(f64::from(*y))),
        (Value::Float(x), Value::Float(y)) => x.partial_cmp(y),
        (Value::Int(x), Value::Float(y)) => (*x as f64).partial_cmp(y),
        (Value::Float(x), Value::Int(y)) => x.partial_cmp(&(*y as f64)),
        _ => None,
    }
}

fn type_error(op: &str, a: &Value, b: &Value) -> SqlError {
    SqlError::new(
        ErrorKind::Execution,
        format!("operator does not exist: {} {op} {}", kind(a), kind(b)),
    )
}

fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "unknown",
        Value::Int(_) => "bigint",
        Value::Timestamp(_) => "timestamp with time zone",
        Value::Date(_) | Value::LocalTimestamp(_) | Value::Interval(_) => {
            v.datetime_type().map_or("unknown", |t| t.pg_name())
        }
        Value::Text(_) => "text",
        Value::Float(_) => "double precision",
        Value::Bool(_) => "boolean",
        Value::Tid(_) => "tid",
        Value::Real(_) => "real",
        Value::Numeric(_) => "numeric",
        Value::Bytea(_) => "bytea",
        Value::Json(_) => "json",
        Value::Jsonb(_) => "jsonb",
    }
}

fn arith(op: BinOp, a: &Value, b: &Value) -> Result<Value, SqlError> {
    let overflow = || SqlError::new(ErrorKind::Execution, "bigint out of range");
    if a.datetime_type().is_some()
        || b.datetime_type().is_some()
        || matches!(a, Value::Timestamp(_))
        || matches!(b, Value::Timestamp(_))
    {
        return super::datetime::arith(op, a, b)
            .unwrap_or_else(|| Err(type_error(op.symbol(), a, b)));
    }
    match (a, b) {
        // numeric with float8 (or real) is float8 arithmetic, with an integer numeric.
        (Value::Numeric(x), Value::Float(_) | Value::Real(_)) => {
            arith(op, &Value::Float(x.to_f64()), b)
        }
        (Value::Float(_) | Value::Real(_), Value::Numeric(y)) => {
            arith(op, a, &Value::Float(y.to_f64()))
        }
        (Value::Numeric(_), _) | (_, Value::Numeric(_)) => {
            match (super::numeric::as_numeric(a), super::numeric::as_numeric(b)) {
                (Some(x), Some(y)) => super::numeric::arith(op, &x, &y),
                _ => Err(type_error(op.symbol(), a, b)),
            }
        }
        // real op real is real; with any other number PostgreSQL picks the
        // float8 operator (float48mul & co).
        // (Exact in float8, then rounded once: float4's own result.)
        (Value::Real(x), Value::Real(y)) => {
            match arith(
                op,
                &Value::Float(f64::from(*x)),
                &Value::Float(f64::from(*y)),
            )? {
                Value::Float(r) if (r as f32).is_infinite() && r.is_finite() => Err(SqlError::new(
                    ErrorKind::Execution,
                    "value out of range: overflow",
                )),
                Value::Float(r) => Ok(Value::Real(r as f32)),
                other => Ok(other),
            }
        }
        (Value::Real(x), _) => arith(op, &Value::Float(f64::from(*x)), b),
        (_, Value::Real(y)) => arith(op, a, &Value::Float(f64::from(*y))),
        (Value::Int(x), Value::Int(y)) => {
            let r = match op {
                BinOp::Add => x.checked_add(*y),
                BinOp::Sub => x.checked_sub(*y),
                BinOp::Mul => x.checked_mul(*y),
                BinOp::Div | BinOp::Mod if *y == 0 => {
                    return Err(SqlError::new(ErrorKind::Execution, "division by zero"))
                }
                BinOp::Div => x.checked_div(*y),
                _ => x.checked_rem(*y),
            };
            r.map(Value::Int).ok_or_else(overflow)
        }
        (Value::Float(_) | Value::Int(_), Value::Float(_) | Value::Int(_)) => {
            let (x, y) = (as_f64(a), as_f64(b));
            let r = match op {
                BinOp::Add => x + y,
                BinOp::Sub => x - y,
                BinOp::Mul => x * y,
                BinOp::Div if y == 0.0 => {
                    return Err(SqlError::new(ErrorKind::Execution, "division by zero"))
                }
                BinOp::Div => x / y,
                _ => x % y,
            };
            // float8 arithmetic checks its result, as PostgreSQL's float8pl & co do.
            if r.is_infinite() && x.is_finite() && y.is_finite() {
                return Err(SqlError::new(
                    ErrorKind::Execution,
                    "value out of range: overflow",
                ));
            }
            let shrinks = matches!(op, BinOp::Mul | BinOp::Div);
            if shrinks
                && r == 0.0
                && x != 0.0
                && y.is_finite()
                && !(op == BinOp::Div && y.is_infinite())
            {
                return Err(SqlError::new(
                    ErrorKind::Execution,
                    "value out of range: underflow",
                ));
            }
            Ok(Value::Float(r))
        }
        _ => Err(type_error(op.symbol(), a, b)),
    }
}

fn as_f64(v: &Value) -> f64 {
    match v {
        Value::Int(i) => *i as f64,
        Value::Float(f) => *f,
        _ => f64::NAN,
    }
}

fn truth(v: &Value) -> Option<bool> {
    match v {
        Value::Bool(b) => Some(*b),
        _ => None,
    }
}

fn bool_or_null(b: Option<bool>) -> Value {
    b.map_or(Value::Null, Value::Bool)
}

/// Three-valued AND/OR as SQL defines them.
fn logic(op: BinOp, a: Option<bool>, b: Option<bool>) -> Value {
    bool_or_null(match (op, a, b) {
        (BinOp::And, Some(false), _) | (BinOp::And, _, Some(false)) => Some(false),
        (BinOp::And, Some(true), Some(true)) => Some(true),
        (BinOp::Or, Some(true), _) | (BinOp::Or, _, Some(true)) => Some(true),
        (BinOp::Or, Some(false), Some(false)) => Some(false),
        _ => None,
    })
}

/// IS [NOT] DISTINCT FROM: NULL is not distinct from NULL, and distinct
/// from any value; two values are distinct when `<>`.
fn distinct(op: BinOp, a: &Value, b: &Value) -> Result<Value, SqlError> {
    let different = match (a.is_null(), b.is_null()) {
        (true, true) => false,
        (true, false) | (false, true) => true,
        _ => compare(a, b).ok_or_else(|| type_error(op.symbol(), a, b))? != Ordering::Equal,
    };
    Ok(Value::Bool(different == (op == BinOp::IsDistinctFrom)))
}

fn comparison(op: BinOp, a: &Value, b: &Value) -> Result<Value, SqlError> {
    if a.is_null() || b.is_null() {
        return Ok(Value::Null);
    }
    let ord = compare(a, b).ok_or_else(|| type_error(op.symbol(), a, b))?;
    Ok(Value::Bool(match op {
        BinOp::Eq => ord == Ordering::Equal,
        BinOp::NotEq => ord != Ordering::Equal,
        BinOp::Lt => ord == Ordering::Less,
        BinOp::LtEq => ord != Ordering::Greater,
        BinOp::Gt => ord == Ordering::Greater,
        _ => ord != Ordering::Less,
    }))
}

fn invalid_input(ty: SqlType, text: &str) -> SqlError {
    SqlError::new(
        ErrorKind::Semantic,
        format!("invalid input syntax for type {}: \"{text}\"", ty.pg_name()),
    )
}

/// Converts a value to a column type, as an INSERT or a cast does.
pub fn coerce(v: Value, ty: SqlType) -> Result<Value, SqlError> {
    let bad = |v: &Value| {
        SqlError::new(
            ErrorKind::Semantic,
            format!(
                "column is of type {} but expression is of type {}",
                ty.pg_name(),
                kind(v)
            ),
        )
    };
    if let Some(r) = super::datetime::coerce(&v, ty) {
        return r;
    }
    if let Some(r) = assign_json(&v, ty) {
        return r;
    }
    if let (SqlType::Numeric(_), false) = (ty, v.is_null()) {
        return super::numeric::to_numeric(&v, ty)?.ok_or_else(|| bad(&v));
    }
    Ok(match (ty, v) {
        (_, Value::Null) => Value::Null,
        (_, Value::Numeric(n)) => return super::numeric::cast_numeric(&n, ty),
        (SqlType::Int4, Value::Int(i)) if i32::try_from(i).is_err() => {
            return Err(SqlError::new(ErrorKind::Execution, "integer out of range"))
        }
        (SqlType::Int2, Value::Int(i)) if i16::try_from(i).is_err() => {
            return Err(SqlError::new(ErrorKind::Execution, "smallint out of range"))
        }
        (SqlType::Int2 | SqlType::Int4 | SqlType::Int8, Value::Int(i)) => Value::Int(i),
        (SqlType::Int2 | SqlType::Int4 | SqlType::Int8, Value::Float(f)) => {
            // `as` would saturate: a literal past bigint's range must not become
            // its largest value.
            let r = f.round();
            if !(-9.223_372_036_854_776e18..9.223_372_036_854_776e18).contains(&r) {
                let what = match ty {
                    SqlType::Int2 => "smallint",
                    SqlType::Int4 => "integer",
                    _ => "bigint",
                };
                return Err(SqlError::new(
                    ErrorKind::Execution,
                    format!("{what} out of range"),
                ));
            }
            return coerce(Value::Int(r as i64), ty);
        }
        (SqlType::Float8, Value::Int(i)) => Value::Float(i as f64),
        (SqlType::Float8, Value::Real(f)) => Value::Float(f64::from(f)),
        (SqlType::Float4, Value::Int(i)) => Value::Real(i as f32),
        (SqlType::Float4, Value::Float(f)) => Value::Real(f as f32),
        (SqlType::Float4, v @ Value::Real(_)) => v,
        // float4 to an integer rounds half to even (`rint`), as ftoi4 does.
        (SqlType::Int2 | SqlType::Int4 | SqlType::Int8, Value::Real(f)) => {
            return coerce(Value::Int(f.round_ties_even() as i64), ty)
        }
        (SqlType::Float8, v @ Value::Float(_)) => v,
        (SqlType::Timestamptz, v @ Value::Timestamp(_)) => v,
        (SqlType::Text, Value::Text(s)) => Value::Text(s),
        (SqlType::Uuid, Value::Text(s)) => match crate::value::parse_uuid(&s) {
            Some(u) => Value::text(u),
            None => {
                return Err(SqlError::new(
                    ErrorKind::Semantic,
                    format!("invalid input syntax for type uuid: \"{s}\""),
                ))
            }
        },
        (SqlType::Text, Value::Int(i)) => Value::text(i.to_string()),
        (SqlType::Text, v @ Value::Tid(_)) => Value::text(v.pg_text()),
        (SqlType::Tid, v @ Value::Tid(_)) => v,
        (SqlType::Tid, Value::Text(s)) => match crate::value::parse_tid(&s) {
            Some(t) => Value::Tid(t),
            None => return Err(invalid_input(ty, &s)),
        },
        (SqlType::Point, Value::Text(s)) => match crate::value::parse_point(&s) {
            Some(p) => Value::text(p),
            None => return Err(invalid_input(ty, &s)),
        },
        (SqlType::Date | SqlType::Timestamp | SqlType::Interval, Value::Text(s)) => {
            super::datetime::parse_text(&s, ty)?
        }
        // A quoted literal into a timestamptz column (PostgreSQL reads its text).
        (SqlType::Timestamptz, Value::Text(s)) if is_special_timestamp(&s) => {
            return Err(unsupported_timestamp(&s));
        }
        (SqlType::Timestamptz, Value::Text(s)) => super::datetime::parse_text(&s, ty)?,
        (SqlType::Bool, v @ Value::Bool(_)) => v,
        // Every type converts to text through its output function, in a
        // cast or an assignment (PostgreSQL's I/O conversion casts).
        (SqlType::Text, Value::Bool(b)) => Value::text(if b { "true" } else { "false" }),
        (SqlType::Text, v) => Value::text(v.pg_text()),
        (SqlType::Bpchar(n), Value::Text(s)) => return to_bpchar(&s, n, false),
        (SqlType::Bpchar(n), Value::Bool(b)) => {
            return to_bpchar(if b { "true" } else { "false" }, n, false)
        }
        (SqlType::Bpchar(n), v) => return to_bpchar(&v.pg_text(), n, false),
        (_, v) => return Err(bad(&v)),
    })
}

/// A json or jsonb value assigned to a column, or text to a json column:
/// json and jsonb convert to each other and to text, as PostgreSQL's
/// assignment casts allow; to any other type is an error.
fn assign_json(v: &Value, ty: SqlType) -> Option<Result<Value, SqlError>> {
    match (v, ty) {
        (Value::Text(s), SqlType::Json | SqlType::Jsonb) => Some(super::json::input(s, ty)),
        (Value::Json(_) | Value::Jsonb(_), SqlType::Json | SqlType::Jsonb | SqlType::Text) => {
            super::json::convert(v, ty)
        }
        (Value::Json(_) | Value::Jsonb(_), _) => Some(Err(SqlError::new(
            ErrorKind::Semantic,
            format!(
                "column is of type {} but expression is of type {}",
                ty.pg_name(),
                kind(v)
            ),
        ))),
        _ => None,
    }
}

/// `character(n)` from text (`bpchar`): blank-padded to n characters.
/// Past n, trailing blanks are cut; anything else is cut by an explicit
/// cast and an error in an assignment, as PostgreSQL's `bpchar()` decides.
pub fn to_bpchar(s: &str, n: u32, explicit: bool) -> Result<Value, SqlError> {
    if n == 0 {
        // `bpchar` without a length: the text as it is.
        return Ok(Value::text(s));
    }
    let n = n as usize;
    let cut = s.char_indices().nth(n).map_or(s.len(), |(i, _)| i);
    let (head, rest) = s.split_at(cut);
    if !explicit && rest.chars().any(|c| c != ' ') {
        return Err(SqlError::new(
            ErrorKind::Execution,
            format!("value too long for type character({n})"),
        ));
    }
    let mut out = String::with_capacity(head.len() + n);
    out.push_str(head);
    let short = n - head.chars().count();
    out.extend(std::iter::repeat_n(' ', short));
    Ok(Value::text(out))
}

pub fn eval(e: &Bound, row: &[Value], env: &mut EvalEnv) -> Result<Value, SqlError> {
    Ok(match e {
        Bound::Col(i) => row.get(*i).cloned().unwrap_or(Value::Null),
        Bound::Lit(v) => v.clone(),
        Bound::Not(inner) => bool_or_null(truth(&eval(inner, row, env)?).map(|b| !b)),
        Bound::Bin(op @ (BinOp::And | BinOp::Or), l, r) => {
            let a = truth(&eval(l, row, env)?);
            let b = truth(&eval(r, row, env)?);
            logic(*op, a, b)
        }
        Bound::Bin(op, l, r) => {
            let (a, b) = (eval(l, row, env)?, eval(r, row, env)?);
            if matches!(op, BinOp::IsDistinctFrom | BinOp::IsNotDistinctFrom) {
                return distinct(*op, &a, &b);
            }
            if op.is_comparison() {
                comparison(*op, &a, &b)?
            } else if a.is_null() || b.is_null() {
                Value::Null
            } else if op.is_json()
                || (matches!(op, BinOp::Concat | BinOp::Sub)
                    && (matches!(a, Value::Jsonb(_)) || matches!(b, Value::Jsonb(_))))
            {
                super::json::operators::apply(*op, &a, &b)?
            } else if *op == BinOp::Concat {
                Value::text(functions::concat_text(&a) + &functions::concat_text(&b))
            } else {
                arith(*op, &a, &b)?
            }
        }
        Bound::Call(Func::Now) => Value::Timestamp(env.statement_start_us),
        Bound::Call(Func::ClockTimestamp) => Value::Timestamp(env.clock_us),
        // The session's zone is UTC: the local date and time are the instant's.
        Bound::Call(Func::CurrentDate) => Value::Date(
            env.statement_start_us
                .div_euclid(crate::value::date::US_PER_DAY) as i32,
        ),
        Bound::Call(Func::LocalTimestamp) => Value::LocalTimestamp(env.statement_start_us),
        Bound::Call(Func::Random) => Value::Float(env.rng.next_f64()),
        Bound::Call(Func::GenRandomUuid) => random_uuid(env),
        Bound::InList(x, list, negated) => {
            // `x IN (a, b)` is `x = a OR x = b`, with SQL's three-valued OR: no
            // match but a NULL comparison gives NULL, so `NOT IN (…, NULL)` is
            // never true.
            let v = eval(x, row, env)?;
            let mut any = Some(false);
            for item in list {
                let eq = truth(&comparison(BinOp::Eq, &v, &eval(item, row, env)?)?);
                any = truth(&logic(BinOp::Or, any, eq));
                if any == Some(true) {
                    break;
                }
            }
            bool_or_null(any.map(|hit| hit != *negated))
        }
        Bound::Between(x, lo, hi, negated) => {
            let v = eval(x, row, env)?;
            let ge = comparison(BinOp::GtEq, &v, &eval(lo, row, env)?)?;
            let le = comparison(BinOp::LtEq, &v, &eval(hi, row, env)?)?;
            let both = logic(BinOp::And, truth(&ge), truth(&le));
            if *negated {
                bool_or_null(truth(&both).map(|b| !b))
            } else {
                both
            }
        }
        Bound::IsNull(x, negated) => Value::Bool(eval(x, row, env)?.is_null() != *negated),
        Bound::Cast(x, ty) => match eval(x, row, env)? {
            // An explicit cast of text reads it with the type's input function.
            Value::Text(s) => parse_text_as(&s, *ty)?,
            v @ (Value::Json(_) | Value::Jsonb(_)) => {
                super::json::convert(&v, *ty).unwrap_or(Ok(Value::Null))?
            }
            v => coerce(v, *ty)?,
        },
        // Out of line, so the frame of this recursive function stays small:
        // a 1 000-deep chain of operators must evaluate in the page's stack.
        Bound::Func(f, args) => eval_function(*f, args, row, env)?,
        Bound::Case(operand, branches, otherwise) => {
            eval_case(operand.as_deref(), branches, otherwise.as_deref(), row, env)?
        }
        Bound::Like(x, p, negated, ci) => eval_like(x, p, *negated, *ci, row, env)?,
    })
}

#[inline(never)]
fn eval_function(
    f: ScalarFunc,
    args: &[Bound],
    row: &[Value],
    env: &mut EvalEnv,
) -> Result<Value, SqlError> {
    let values = args
        .iter()
        .map(|a| eval(a, row, env))
        .collect::<Result<Vec<_>, _>>()?;
    if let Some(v) = sequence_call(f, &values, env)? {
        return Ok(v);
    }
    functions::call(f, &values)
}

/// `nextval`, `currval`, `setval` and `lastval` on the evaluation's
/// sequences (`None` for any other function).
fn sequence_call(
    f: ScalarFunc,
    args: &[Value],
    env: &mut EvalEnv,
) -> Result<Option<Value>, SqlError> {
    use crate::exec::sequences::relation_name;
    if !matches!(
        f,
        ScalarFunc::NextVal | ScalarFunc::CurrVal | ScalarFunc::SetVal | ScalarFunc::LastVal
    ) {
        return Ok(None);
    }
    let Some(sequences) = env.sequences.as_deref_mut() else {
        return Ok(None);
    };
    if args.iter().any(Value::is_null) {
        return Ok(Some(Value::Null));
    }
    let name = || match args.first() {
        Some(Value::Text(s)) => Ok(relation_name(s)),
        _ => Err(functions::no_such(f, args)),
    };
    let value = match f {
        ScalarFunc::NextVal => sequences.nextval(&name()?)?,
        ScalarFunc::CurrVal => sequences.currval(&name()?)?,
        ScalarFunc::LastVal => sequences.lastval()?,
        _ => {
            let Value::Int(v) = args[1] else {
                return Err(functions::no_such(f, args));
            };
            let is_called = !matches!(args.get(2), Some(Value::Bool(false)));
            sequences.setval(&name()?, v, is_called)?
        }
    };
    Ok(Some(Value::Int(value)))
}

#[inline(never)]
fn eval_case(
    operand: Option<&Bound>,
    branches: &[(Bound, Bound)],
    otherwise: Option<&Bound>,
    row: &[Value],
    env: &mut EvalEnv,
) -> Result<Value, SqlError> {
    let subject = operand.map(|o| eval(o, row, env)).transpose()?;
    for (when, then) in branches {
        let w = eval(when, row, env)?;
        let hit = match &subject {
            Some(s) => comparison(BinOp::Eq, s, &w)? == Value::Bool(true),
            None => w == Value::Bool(true),
        };
        if hit {
            return eval(then, row, env);
        }
    }
    match otherwise {
        Some(o) => eval(o, row, env),
        None => Ok(Value::Null),
    }
}

#[inline(never)]
fn eval_like(
    x: &Bound,
    p: &Bound,
    negated: bool,
    ci: bool,
    row: &[Value],
    env: &mut EvalEnv,
) -> Result<Value, SqlError> {
    let (v, pat) = (eval(x, row, env)?, eval(p, row, env)?);
    Ok(match (&v, &pat) {
        (Value::Null, _) | (_, Value::Null) => Value::Null,
        (Value::Text(s), Value::Text(p)) => Value::Bool(functions::like(s, p, ci) != negated),
        _ => return Err(type_error(if ci { "~~*" } else { "~~" }, &v, &pat)),
    })
}

#[inline(never)]
fn random_uuid(env: &mut EvalEnv) -> Value {
    let (high, low) = (env.rng.next_u64(), env.rng.next_u64());
    Value::text(crate::value::uuid_v4(high, low))
}

/// True when a WHERE condition accepts the row (NULL counts as false).
pub fn accepts(e: &Bound, row: &[Value], env: &mut EvalEnv) -> Result<bool, SqlError> {
    Ok(eval(e, row, env)? == Value::Bool(true))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sql::ast::Statement;
    use crate::sql::parse::parse_statement;

    fn where_of(sql: &str) -> Expr {
        match parse_statement(sql).unwrap() {
            Statement::Select(s) => s.filter.unwrap(),
            other => panic!("{other:?}"),
        }
    }

    fn scope() -> Scope {
        Scope {
            columns: vec![
                ("t".into(), "id".into(), SqlType::Int8),
                ("t".into(), "v".into(), SqlType::Int8),
            ],
        }
    }

    fn check(sql_where: &str, row: &[Value]) -> Value {
        let e = where_of(&format!("select * from t where {sql_where}"));
        let b = bind(&e, &scope()).unwrap();
        let mut rng = Rng::new(1);
        let mut env = EvalEnv {
            statement_start_us: 5,
            clock_us: 7,
            rng: &mut rng,
            sequences: None,
        };
        eval(&b, row, &mut env).unwrap()
    }

    #[test]
    fn comparisons_in_and_between() {
        let row = [Value::Int(3), Value::Int(10)];
        assert_eq!(check("id < v", &row), Value::Bool(true));
        assert_eq!(check("id in (1, 2, 3)", &row), Value::Bool(true));
        assert_eq!(check("id not in (1, 2)", &row), Value::Bool(true));
        assert_eq!(check("v between 1 and 9", &row), Value::Bool(false));
        assert_eq!(check("id = -v + 13", &row), Value::Bool(true));
    }

    #[test]
    fn nulls_follow_three_valued_logic() {
        let row = [Value::Int(3), Value::Null];
        assert_eq!(check("v = 1", &row), Value::Null);
        assert_eq!(check("v = 1 or id = 3", &row), Value::Bool(true));
        assert_eq!(check("v = 1 and id = 4", &row), Value::Bool(false));
        assert_eq!(check("v is null", &row), Value::Bool(true));
        assert_eq!(check("id in (1, null)", &row), Value::Null);
        assert_eq!(check("id in (3, null)", &row), Value::Bool(true));
        assert_eq!(check("id not in (1, null)", &row), Value::Null);
        assert_eq!(check("id not in (3, null)", &row), Value::Bool(false));
        assert_eq!(check("v not in (1)", &row), Value::Null);
    }

    #[test]
    fn int4_arithmetic_overflows_as_postgresql_s_does() {
        let mut s = scope();
        s.columns.push(("t".into(), "i".into(), SqlType::Int4));
        let e = where_of("select * from t where i * 100000 > 0");
        let b = bind(&e, &s).unwrap();
        let mut rng = Rng::new(1);
        let mut env = EvalEnv {
            statement_start_us: 0,
            clock_us: 0,
            rng: &mut rng,
            sequences: None,
        };
        let row = [Value::Int(1), Value::Int(1), Value::Int(100_000)];
        let err = eval(&b, &row, &mut env).unwrap_err();
        assert_eq!(err.message, "integer out of range");
        // An int8 column widens the arithmetic: no overflow at that size.
        let e = where_of("select * from t where v * 100000 > 0");
        let b = bind(&e, &s).unwrap();
        assert_eq!(eval(&b, &row, &mut env).unwrap(), Value::Bool(true));
    }

    #[test]
    fn unknown_and_ambiguous_columns_are_errors() {
        let e = where_of("select * from t where nope = 1");
        let err = bind(&e, &scope()).unwrap_err();
        assert_eq!(err.message, "column \"nope\" does not exist");
        let mut s = scope();
        s.columns.push(("u".into(), "id".into(), SqlType::Int8));
        let e = where_of("select * from t where id = 1");
        assert!(bind(&e, &s).unwrap_err().message.contains("ambiguous"));
    }

    #[test]
    fn division_by_zero_is_an_error_not_a_panic() {
        let e = where_of("select * from t where id / 0 = 1");
        let b = bind(&e, &scope()).unwrap();
        let mut rng = Rng::new(1);
        let mut env = EvalEnv {
            statement_start_us: 0,
            clock_us: 0,
            rng: &mut rng,
            sequences: None,
        };
        let err = eval(&b, &[Value::Int(1), Value::Int(1)], &mut env).unwrap_err();
        assert_eq!(err.message, "division by zero");
    }
}
