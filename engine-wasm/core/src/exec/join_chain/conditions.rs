//! Where each condition of a join chain is checked. A condition is checked as
//! early as its columns allow, but never where it would change which rows an
//! outer join keeps:
//!
//! - a WHERE condition is checked on the joined rows once all its tables are
//!   in, and not before a later RIGHT or FULL JOIN (which could add NULL rows
//!   for its tables); on the inner side of an inner join it may be pushed into
//!   that side's scan, on an outer join's it is the join's `Filter`;
//! - an ON condition decides which pairs match: on the inner side alone it is
//!   pushed into the inner scan (LEFT and inner joins), otherwise it is a join
//!   condition, an equality between the two sides being a hash or index key.

use super::super::correlate::{bind_outer_nulls, reads_outer};
use super::super::join::JoinExec;
use super::super::nested_loop::Side;
use crate::sql::ast::{BinOp, Expr, FromItem, JoinKind, Select, SelectItem};
use crate::sql::error::{ErrorKind, SqlError};
use crate::sql::eval::Scope;
use crate::sql::functions::ScalarFunc;
use crate::sql::plan::conjuncts;
use crate::sql::rewrite::{column_refs, inline_cte, unqualify};
use std::collections::HashMap;
use std::sync::Arc;

/// One join of the chain: its inner side and where its conditions go.
pub struct Step {
    pub side: Side,
    pub kind: JoinKind,
    /// Checked by the inner side's scan (unqualified).
    pub scan_filter: Vec<Expr>,
    /// `outer expr = inner expr` conditions: hash keys or an index lookup.
    pub equalities: Vec<(Expr, Expr, Expr)>,
    /// The other join conditions, on each pair: PostgreSQL's `Join Filter`.
    pub join_filter: Vec<Expr>,
    /// WHERE conditions checked on the joined rows: the join's `Filter`.
    pub post_filter: Vec<Expr>,
}

/// A query's join chain, its conditions placed.
pub struct Placed {
    pub sides: Vec<Side>,
    pub steps: Vec<Step>,
    /// Conditions the first side's scan checks (unqualified).
    pub first_filter: Vec<Expr>,
    /// All sides' columns, in order: the joined row.
    pub scope: Scope,
    /// The query with its USING columns resolved (select list, ORDER BY).
    pub query: Select,
    /// `SELECT *`: each USING column once, then each side's other columns.
    pub star: Vec<(String, Expr)>,
    /// Every condition, for the columns each side's scan must return.
    pub all_conds: Vec<Expr>,
}

/// A FROM item as written: its place, its join (None for a comma item).
struct Written<'a> {
    item: &'a crate::sql::ast::FromItem,
    join: Option<&'a crate::sql::ast::Join>,
    group: usize,
}

fn written(q: &Select) -> Vec<Written<'_>> {
    let mut out = Vec::new();
    for (g, item) in q.from.iter().enumerate() {
        out.push(Written {
            item,
            join: None,
            group: g,
        });
        for j in q.joins.iter().filter(|j| j.after == g) {
            out.push(Written {
                item: &j.item,
                join: Some(j),
                group: g,
            });
        }
    }
    out
}

/// A subquery (or function) in FROM, run once: its rows are then read as a
/// table's.
fn derived_side<E: JoinExec>(
    engine: &mut E,
    query: &Select,
    alias: &str,
    renames: &[String],
    execute: bool,
) -> Result<Side, SqlError> {
    let rows = super::super::derived::materialize(engine, query, alias, renames, execute)?;
    Ok(Side {
        table: 0,
        name: alias.to_string(),
        derived: Some(Arc::new(rows)),
        lateral: None,
    })
}

/// A LATERAL item: its query (with the names its columns take), run for
/// each row of the sides before it by the join step; here only its columns,
/// typed with those sides' columns (`before`) standing for their values.
fn lateral_side<E: JoinExec>(
    engine: &mut E,
    item: &FromItem,
    before: &Scope,
) -> Result<Side, SqlError> {
    let (query, renames) = match item {
        FromItem::Subquery { query, columns, .. } => (query.as_ref().clone(), columns.clone()),
        _ => (star_from(item), Vec::new()),
    };
    let name = item.visible_name().to_string();
    // A function runs as its own Function Scan; a subquery under its name.
    let run = match item {
        FromItem::Subquery { .. } => Select {
            items: vec![SelectItem::Wildcard],
            from: vec![FromItem::Subquery {
                query: Box::new(query.clone()),
                alias: name.clone(),
                columns: renames.clone(),
                lateral: false,
            }],
            ..Select::empty()
        },
        _ => query.clone(),
    };
    let typed = bind_outer_nulls(engine, &query, before)?;
    let columns = super::super::types::output_columns(engine, &typed)?;
    let columns = columns
        .into_iter()
        .enumerate()
        .map(|(i, (c, ty))| (renames.get(i).cloned().unwrap_or(c), ty))
        .collect();
    Ok(Side {
        table: 0,
        name,
        derived: Some(Arc::new(super::super::derived::Rows {
            columns,
            rows: Vec::new(),
            node: Default::default(),
        })),
        lateral: Some(Arc::new(run)),
    })
}

/// `SELECT * FROM item`.
fn star_from(item: &FromItem) -> Select {
    Select {
        items: vec![SelectItem::Wildcard],
        from: vec![item.clone()],
        ..Select::empty()
    }
}

/// Places the conditions of `q`'s joins (see the module's comment).
pub fn place<E: JoinExec>(engine: &mut E, q: &Select, execute: bool) -> Result<Placed, SqlError> {
    let written = written(q);
    let mut sides: Vec<Side> = Vec::new();
    let mut side_filters: Vec<Vec<Expr>> = Vec::new();
    let mut scope = Scope::default();
    for w in &written {
        let (item, extra) = inline_cte(w.item, &q.with)?;
        let side = match &item {
            _ if reads_outer(&item) => lateral_side(engine, &item, &scope)?,
            // A subquery runs once; its rows are then read as a table's.
            FromItem::Subquery {
                query,
                alias,
                columns,
                ..
            } => derived_side(engine, query, alias, columns, execute)?,
            FromItem::Series { .. } => {
                let query = star_from(&item);
                derived_side(engine, &query, item.visible_name(), &[], execute)?
            }
            _ => engine.side(&item)?,
        };
        if sides.iter().any(|s| s.name == side.name) {
            return Err(SqlError::new(
                ErrorKind::Semantic,
                format!("table name \"{}\" specified more than once", side.name),
            ));
        }
        for (c, ty) in side.columns(engine) {
            scope.columns.push((side.name.clone(), c, ty));
        }
        let mut own = Vec::new();
        if let Some(e) = extra {
            conjuncts(&unqualify(&e), &mut own);
        }
        side_filters.push(own);
        sides.push(side);
    }
    let ends: Vec<usize> = sides
        .iter()
        .scan(0, |end, s| {
            *end += s.columns(engine).len();
            Some(*end)
        })
        .collect();
    let side_of = |col: usize| ends.iter().position(|&e| col < e).unwrap_or(0);
    let refs_of = |e: &Expr| -> Result<Vec<usize>, SqlError> {
        let mut refs = Vec::new();
        column_refs(e, &mut refs);
        let mut out = Vec::new();
        for (t, c) in refs {
            out.push(side_of(scope.resolve(t.as_deref(), &c)?));
        }
        out.sort();
        out.dedup();
        Ok(out)
    };
    // USING: each column becomes one, as of the join that names it.
    let mut merged: HashMap<String, Expr> = HashMap::new();
    let mut star: Vec<(String, Expr)> = columns_of(&scope, &sides[0].name);
    let mut on_parts: Vec<Vec<Expr>> = vec![Vec::new(); written.len()];
    for (k, w) in written.iter().enumerate().skip(1) {
        let Some(j) = w.join else {
            star.extend(columns_of(&scope, &sides[k].name));
            continue;
        };
        let mut parts = Vec::new();
        if let Some(on) = &j.on {
            conjuncts(&resolve_using(on, &merged), &mut parts);
        }
        let right = columns_of(&scope, &sides[k].name);
        let names =
            |cols: &[(String, Expr)]| cols.iter().map(|(c, _)| c.clone()).collect::<Vec<_>>();
        let using = j.using_with(&names(&star), &names(&right));
        let mut first = Vec::new();
        for u in &using {
            let left = match merged.get(u) {
                Some(e) => e.clone(),
                None => using_left(&scope, &sides[..k], u)?,
            };
            if !right.iter().any(|(c, _)| c == u) {
                return Err(SqlError::new(
                    ErrorKind::Semantic,
                    format!(
                        "column \"{u}\" specified in USING clause does not exist in right table"
                    ),
                ));
            }
            let right_col = column(&sides[k].name, u);
            parts.push(Expr::Binary {
                op: BinOp::Eq,
                left: Box::new(left.clone()),
                right: Box::new(right_col.clone()),
            });
            let one = match j.kind {
                JoinKind::Inner | JoinKind::Left => left,
                JoinKind::Right => right_col,
                JoinKind::Full => Expr::Function {
                    func: ScalarFunc::Coalesce,
                    args: vec![left, right_col],
                },
            };
            merged.insert(u.clone(), one.clone());
            first.push((u.clone(), one));
        }
        let rest = star.into_iter().filter(|(c, _)| !using.contains(c));
        let right_rest = right.into_iter().filter(|(c, _)| !using.contains(c));
        star = first.into_iter().chain(rest).chain(right_rest).collect();
        for p in &parts {
            for s in refs_of(p)? {
                if s > k || written[s].group != w.group {
                    return Err(SqlError::new(
                        ErrorKind::Semantic,
                        format!(
                            "invalid reference to FROM-clause entry for table \"{}\"",
                            sides[s].name
                        ),
                    )
                    .with_hint(format!(
                        "There is an entry for table \"{}\", but it cannot be referenced \
                         from this part of the query.",
                        sides[s].name
                    )));
                }
            }
        }
        on_parts[k] = parts;
    }
    let query = resolved_query(q, &merged);
    let mut where_parts = Vec::new();
    if let Some(f) = &query.filter {
        conjuncts(f, &mut where_parts);
    }
    let kinds: Vec<JoinKind> = written
        .iter()
        .map(|w| w.join.map_or(JoinKind::Inner, |j| j.kind))
        .collect();
    // No WHERE condition is checked before the last RIGHT or FULL JOIN.
    let floor = (0..kinds.len())
        .rev()
        .find(|&k| matches!(kinds[k], JoinKind::Right | JoinKind::Full))
        .unwrap_or(0);
    let mut all_conds = where_parts.clone();
    all_conds.extend(on_parts.iter().flatten().cloned());
    let mut steps: Vec<Step> = Vec::new();
    let mut sides_iter = sides.into_iter();
    let first_side = sides_iter.next().expect("a join has a first side");
    let mut first_filter = side_filters[0].clone();
    for (k, side) in sides_iter.enumerate().map(|(i, s)| (i + 1, s)) {
        steps.push(Step {
            side,
            kind: kinds[k],
            scan_filter: side_filters[k].clone(),
            equalities: Vec::new(),
            join_filter: Vec::new(),
            post_filter: Vec::new(),
        });
    }
    for (k, parts) in on_parts.into_iter().enumerate().skip(1) {
        for p in parts {
            let refs = refs_of(&p)?;
            let step = &mut steps[k - 1];
            let inner_only = refs == [k];
            if inner_only && matches!(step.kind, JoinKind::Inner | JoinKind::Left) {
                step.scan_filter.push(unqualify(&p));
            } else {
                join_condition(step, k, p, &refs_of)?;
            }
        }
    }
    for p in where_parts {
        let refs = refs_of(&p)?;
        let at = refs.last().copied().unwrap_or(0).max(floor);
        if at == 0 {
            first_filter.push(unqualify(&p));
            continue;
        }
        let step = &mut steps[at - 1];
        match step.kind {
            JoinKind::Inner if refs == [at] => step.scan_filter.push(unqualify(&p)),
            JoinKind::Inner => join_condition(step, at, p, &refs_of)?,
            _ => step.post_filter.push(p),
        }
    }
    let mut sides = vec![first_side];
    sides.extend(steps.iter().map(|s| s.side.clone()));
    Ok(Placed {
        sides,
        steps,
        first_filter,
        scope,
        query,
        star,
        all_conds,
    })
}

/// A join condition of step `k`: an equality between an expression of the
/// outer sides only and one of side `k` only, or a Join Filter.
fn join_condition(
    step: &mut Step,
    k: usize,
    p: Expr,
    refs_of: &dyn Fn(&Expr) -> Result<Vec<usize>, SqlError>,
) -> Result<(), SqlError> {
    if let Expr::Binary {
        op: BinOp::Eq,
        left,
        right,
    } = &p
    {
        let (l, r) = (refs_of(left)?, refs_of(right)?);
        let outer = |s: &[usize]| !s.is_empty() && s.iter().all(|&x| x < k);
        let inner = |s: &[usize]| s == [k];
        if outer(&l) && inner(&r) {
            step.equalities
                .push((p.clone(), left.as_ref().clone(), right.as_ref().clone()));
            return Ok(());
        }
        if inner(&l) && outer(&r) {
            step.equalities
                .push((p.clone(), right.as_ref().clone(), left.as_ref().clone()));
            return Ok(());
        }
    }
    step.join_filter.push(p);
    Ok(())
}

fn column(table: &str, name: &str) -> Expr {
    Expr::Column {
        table: Some(table.to_string()),
        name: name.to_string(),
    }
}

/// A side's columns as `SELECT *` lists them.
fn columns_of(scope: &Scope, side: &str) -> Vec<(String, Expr)> {
    scope
        .columns
        .iter()
        .filter(|(t, ..)| t == side)
        .map(|(t, c, _)| (c.clone(), column(t, c)))
        .collect()
}

/// USING's left column: the one side before the join that has it.
fn using_left(scope: &Scope, left: &[Side], u: &str) -> Result<Expr, SqlError> {
    let having: Vec<&Side> = left
        .iter()
        .filter(|s| scope.columns.iter().any(|(t, c, _)| t == &s.name && c == u))
        .collect();
    match having.as_slice() {
        [one] => Ok(column(&one.name, u)),
        [] => Err(SqlError::new(
            ErrorKind::Semantic,
            format!("column \"{u}\" specified in USING clause does not exist in left table"),
        )),
        _ => Err(SqlError::new(
            ErrorKind::Semantic,
            format!("common column name \"{u}\" appears more than once in left table"),
        )),
    }
}

/// `e` with each unqualified USING column replaced by the joined column.
fn resolve_using(e: &Expr, merged: &HashMap<String, Expr>) -> Expr {
    if merged.is_empty() {
        return e.clone();
    }
    e.map(&mut |x| match x {
        Expr::Column { table: None, name } => merged.get(name).cloned(),
        _ => None,
    })
}

fn resolved_query(q: &Select, merged: &HashMap<String, Expr>) -> Select {
    let mut out = q.clone();
    for item in &mut out.items {
        if let SelectItem::Expr { expr, alias } = item {
            // `SELECT id` of a USING column keeps its name.
            if let (None, Expr::Column { table: None, name }) = (&alias, &expr) {
                if merged.contains_key(name) {
                    *alias = Some(name.clone());
                }
            }
            *expr = resolve_using(expr, merged);
        }
    }
    out.filter = out.filter.as_ref().map(|f| resolve_using(f, merged));
    for o in &mut out.order_by {
        o.expr = resolve_using(&o.expr, merged);
    }
    out
}

/// The select list of each side's scan: the columns the query uses from it
/// (its planner may choose an index-only scan when an index holds them all).
pub fn needed_columns(placed: &Placed) -> Vec<Vec<SelectItem>> {
    let n = placed.sides.len();
    if placed
        .query
        .items
        .iter()
        .any(|i| matches!(i, SelectItem::Wildcard))
    {
        return vec![vec![SelectItem::Wildcard]; n];
    }
    let mut exprs: Vec<&Expr> = placed.all_conds.iter().collect();
    for item in &placed.query.items {
        if let SelectItem::Expr { expr, .. } = item {
            exprs.push(expr);
        }
    }
    exprs.extend(placed.query.order_by.iter().map(|o| &o.expr));
    let mut used = vec![false; placed.scope.columns.len()];
    for e in exprs {
        let mut refs = Vec::new();
        column_refs(e, &mut refs);
        for (t, c) in refs {
            if let Ok(i) = placed.scope.resolve(t.as_deref(), &c) {
                used[i] = true;
            }
        }
    }
    let mut out = vec![Vec::new(); n];
    for (i, (t, c, _)) in placed.scope.columns.iter().enumerate() {
        if !used[i] {
            continue;
        }
        if let Some(s) = placed.sides.iter().position(|s| &s.name == t) {
            out[s].push(SelectItem::Expr {
                expr: Expr::Column {
                    table: None,
                    name: c.clone(),
                },
                alias: None,
            });
        }
    }
    out
}
