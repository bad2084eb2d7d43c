//! `UPDATE t … FROM s WHERE …` and `DELETE FROM t USING s WHERE …`: the
//! target's rows joined with other tables. PostgreSQL plans the target and
//! the FROM (USING) list as one join; each target row that finds a match is
//! changed once, with the first match it meets (which one is unspecified
//! when several match, so a script that means something joins on a key).
//!
//! Here the FROM list is read once (its own conditions pushed into its
//! scans, through the ordinary SELECT executor); the target's own conditions
//! go to the target's scan; the conditions joining both are checked on each
//! pair, a first equality between them looked up in a hash table, as a Hash
//! Join would.

use super::aggregate::accumulate::GroupKey;
use super::executor::Executor;
use super::row::Row;
use crate::sql::ast::{BinOp, Expr, FromItem, Select, SelectItem};
use crate::sql::error::{unsupported, ErrorKind, SqlError};
use crate::sql::eval::{bind, Bound, Scope};
use crate::sql::plan::conjuncts;
use crate::sql::rewrite::{column_refs, unqualify};
use crate::value::Value;
use std::collections::HashMap;

/// The FROM (USING) list of an UPDATE (DELETE), read and ready to match.
pub struct DmlJoin {
    /// The target's columns, then the FROM list's: the joined row.
    scope: Scope,
    /// The target's own conditions, for its scan (unqualified).
    target_filter: Option<Expr>,
    /// The FROM list's rows.
    rows: Vec<Row>,
    /// Conditions naming both sides, checked on each joined row.
    cross: Vec<Bound>,
    /// An equality between the sides, to look matches up by.
    key: Option<HashedKey>,
}

/// The target's side of an equality (bound over the target's row), and the
/// FROM rows by the value of their side.
type HashedKey = (Bound, HashMap<GroupKey, Vec<usize>>);

impl DmlJoin {
    pub fn new<E: Executor>(
        engine: &mut E,
        table: usize,
        target: &str,
        items: &[FromItem],
        filter: Option<&Expr>,
    ) -> Result<DmlJoin, SqlError> {
        let mut scope = Scope::default();
        for (c, ty) in engine.planner_info(table).columns {
            scope.columns.push((target.to_string(), c, ty));
        }
        let width = scope.columns.len();
        for item in items {
            let FromItem::Table { name, .. } = item else {
                return Err(unsupported(format!(
                    "{} in the FROM list of UPDATE or DELETE",
                    item.visible_name()
                )));
            };
            if item.visible_name() == target {
                return Err(SqlError::new(
                    ErrorKind::Semantic,
                    format!("table name \"{target}\" specified more than once"),
                ));
            }
            let id = engine.table_id(name)?;
            for (c, ty) in engine.planner_info(id).columns {
                scope.columns.push((item.visible_name().to_string(), c, ty));
            }
        }
        let mut parts = Vec::new();
        if let Some(f) = filter {
            conjuncts(f, &mut parts);
        }
        let (mut own, mut theirs, mut both) = (Vec::new(), Vec::new(), Vec::new());
        for p in parts {
            let mut refs = Vec::new();
            column_refs(&p, &mut refs);
            let mut sides = (false, false);
            for (t, c) in refs {
                let i = scope.resolve(t.as_deref(), &c)?;
                if i < width {
                    sides.0 = true;
                } else {
                    sides.1 = true;
                }
            }
            match sides {
                (true, false) => own.push(unqualify(&p)),
                (false, true) => theirs.push(p),
                _ => both.push(p),
            }
        }
        let source = Select {
            items: vec![SelectItem::Wildcard],
            from: items.to_vec(),
            filter: theirs.into_iter().reduce(and),
            ..Select::empty()
        };
        let (_, result) = engine.run_select(&source, true)?;
        let rows: Vec<Row> = result.rows.into_iter().map(Row::from_vec).collect();
        let key = hashed_key(engine, &both, &scope, width, &rows)?;
        let cross = both
            .iter()
            .map(|e| bind(e, &scope))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(DmlJoin {
            scope,
            target_filter: own.into_iter().reduce(and),
            rows,
            cross,
            key,
        })
    }

    /// The joined row's columns: SET and RETURNING expressions bind to them.
    pub fn scope(&self) -> &Scope {
        &self.scope
    }

    pub fn target_filter(&self) -> Option<&Expr> {
        self.target_filter.as_ref()
    }

    /// The target row joined with its first match, if it has one.
    pub fn first_match<E: Executor>(
        &self,
        engine: &mut E,
        target: &[Value],
    ) -> Result<Option<Row>, SqlError> {
        let candidates: Vec<usize> = match &self.key {
            Some((k, table)) => match join_key(engine.eval_bound(k, target)?) {
                Some(key) => table.get(&key).cloned().unwrap_or_default(),
                None => Vec::new(),
            },
            None => (0..self.rows.len()).collect(),
        };
        for n in candidates {
            let row: Row = target.iter().chain(self.rows[n].iter()).cloned().collect();
            if engine.passes(&self.cross, &row)? {
                return Ok(Some(row));
            }
        }
        Ok(None)
    }
}

fn and(a: Expr, b: Expr) -> Expr {
    Expr::Binary {
        op: BinOp::And,
        left: Box::new(a),
        right: Box::new(b),
    }
}

/// The first `target expr = from expr` among the joining conditions, with
/// the FROM rows hashed on their side (None: every pair is tried).
fn hashed_key<E: Executor>(
    engine: &mut E,
    both: &[Expr],
    scope: &Scope,
    width: usize,
    rows: &[Row],
) -> Result<Option<HashedKey>, SqlError> {
    let side = |e: &Expr| -> Result<Option<bool>, SqlError> {
        let mut refs = Vec::new();
        column_refs(e, &mut refs);
        let mut at = Vec::new();
        for (t, c) in refs {
            at.push(scope.resolve(t.as_deref(), &c)? < width);
        }
        Ok(match (at.iter().all(|x| *x), at.iter().any(|x| *x)) {
            _ if at.is_empty() => None,
            (true, _) => Some(true),
            (false, false) => Some(false),
            _ => None,
        })
    };
    for e in both {
        let Expr::Binary {
            op: BinOp::Eq,
            left,
            right,
        } = e
        else {
            continue;
        };
        let (target_e, source_e) = match (side(left)?, side(right)?) {
            (Some(true), Some(false)) => (left, right),
            (Some(false), Some(true)) => (right, left),
            _ => continue,
        };
        let source_scope = Scope {
            columns: scope.columns[width..].to_vec(),
        };
        let target_scope = Scope {
            columns: scope.columns[..width].to_vec(),
        };
        let source_key = bind(source_e, &source_scope)?;
        let mut table: HashMap<GroupKey, Vec<usize>> = HashMap::new();
        for (n, r) in rows.iter().enumerate() {
            if let Some(k) = join_key(engine.eval_bound(&source_key, r)?) {
                table.entry(k).or_default().push(n);
            }
        }
        return Ok(Some((bind(target_e, &target_scope)?, table)));
    }
    Ok(None)
}

/// A value's hash key; NULL equals nothing (2.0 hashes as 2).
fn join_key(v: Value) -> Option<GroupKey> {
    match v {
        Value::Null => None,
        Value::Float(f) if f.fract() == 0.0 && f.abs() < 9e15 => {
            Some(GroupKey::of(&[Value::Int(f as i64)]))
        }
        v => Some(GroupKey::of(&[v])),
    }
}

/// RETURNING binds over the target's columns: with a FROM (USING) list, a
/// column it cannot find may be one of the list's, which PostgreSQL returns
/// and IndexLab does not yet; say so rather than "does not exist".
pub fn returning_error(join: Option<&DmlJoin>, e: SqlError) -> SqlError {
    match join {
        Some(_) if e.kind == ErrorKind::Semantic && e.message.contains("does not exist") => {
            unsupported("RETURNING a column of the FROM (or USING) list")
        }
        _ => e,
    }
}

/// The join of an UPDATE's FROM list (a DELETE's USING), if it has one.
pub fn for_target<E: Executor>(
    engine: &mut E,
    table: usize,
    alias: Option<&str>,
    items: &[FromItem],
    filter: Option<&Expr>,
) -> Result<Option<DmlJoin>, SqlError> {
    if items.is_empty() {
        return Ok(None);
    }
    let name = alias.map_or_else(|| engine.planner_info(table).name, str::to_string);
    DmlJoin::new(engine, table, &name, items, filter).map(Some)
}

/// The target rows a join keeps, each with what its SET expressions read:
/// the row joined with its first match (a row with none is left alone), or
/// without a join the row itself.
pub fn matched<K, E: Executor>(
    join: Option<&DmlJoin>,
    engine: &mut E,
    targets: Vec<(K, Row)>,
) -> Result<Vec<(K, Row, Row)>, SqlError> {
    let mut out = Vec::with_capacity(targets.len());
    for (key, old) in targets {
        let input = match join {
            Some(j) => match j.first_match(engine, &old)? {
                Some(joined) => joined,
                None => continue,
            },
            None => old.clone(),
        };
        out.push((key, old, input));
    }
    Ok(out)
}
