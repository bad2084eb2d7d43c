//! `INSERT … ON CONFLICT`, as PostgreSQL's nodeModifyTable.c runs it, over
//! any profile's writes ([`ConflictWrites`]).
//!
//! The arbiters are chosen before any row is read (the planner's
//! `infer_arbiter_indexes`): the unique indexes whose key columns are exactly
//! the target's, or the named PRIMARY KEY / UNIQUE constraint, or, without a
//! target (DO NOTHING only), every unique index. Then each proposed row
//! (defaults and serials filled, NOT NULL checked, as ExecInsert does before
//! its speculative insertion) is looked up in the arbiters: no live row with
//! an equal key, it is inserted as any INSERT row (so another unique index
//! may still raise a duplicate key error); a conflict is skipped (DO NOTHING)
//! or updates the existing row (DO UPDATE), which must not be one this
//! statement already wrote. The command tag counts rows inserted plus rows
//! updated; RETURNING shows exactly those rows.

use super::returning::{finish, project, Returning};
use super::row::{check as check_row, check_constants, Row, TableShape};
use super::Executor;
use crate::profile::Outcome;
use crate::sql::ast::{ColumnDef, ConflictAction, ConflictTarget, OnConflict, Select, SelectItem};
use crate::sql::error::{ErrorKind, SqlError};
use crate::sql::eval::{bind, coerce, Bound};
use crate::value::Value;
use std::collections::HashSet;
use std::hash::Hash;

/// A unique index of the table (on yb, also its primary key, which is the
/// table's own key rather than an index).
#[derive(Debug, Clone)]
pub struct UniqueKey {
    pub name: String,
    /// Key columns, as positions in the table.
    pub columns: Vec<usize>,
    /// Made by a PRIMARY KEY or UNIQUE constraint (ON CONSTRAINT may name it).
    pub constraint: bool,
    /// The profile's handle: an index position, or None for yb's primary key.
    pub index: Option<usize>,
    /// A DEFERRABLE constraint's: it cannot arbitrate.
    pub deferrable: bool,
}

/// What EXPLAIN prints of an ON CONFLICT insert.
#[derive(Debug, Clone, Default)]
pub struct ConflictReport {
    /// `NOTHING` or `UPDATE`.
    pub resolution: &'static str,
    /// The arbiters' names, when the statement named a target (PostgreSQL
    /// lists none for a bare DO NOTHING, which checks every unique index).
    pub arbiter_names: Vec<String>,
    pub inserted: u64,
    pub conflicting: u64,
    /// DO UPDATE's WHERE turned the update down.
    pub filtered: u64,
}

/// A profile's writes, as ON CONFLICT needs them.
pub trait ConflictWrites: Executor {
    /// Where a row lives: a heap TID on pg, a document key on yb.
    type Loc: Eq + Hash + Clone;

    /// The heap TID of a row (RETURNING ctid), on a profile that has one.
    fn tid(_loc: &Self::Loc) -> u64 {
        0
    }

    fn column_defs(&self, table: usize) -> Vec<ColumnDef>;
    fn shape(&self, table: usize) -> TableShape<'_>;
    /// The table's unique indexes (and yb's primary key), oldest first.
    fn unique_keys(&self, table: usize) -> Vec<UniqueKey>;
    /// The proposed row: values at `targets`, defaults and serials elsewhere,
    /// checked against the column constraints.
    fn complete_row(
        &mut self,
        table: usize,
        defaults: &[Option<Value>],
        targets: &[usize],
        values: &[Value],
    ) -> Result<Row, SqlError>;
    /// The live row that has `row`'s key in one of `arbiters`, if any.
    fn find_conflict(
        &mut self,
        table: usize,
        arbiters: &[UniqueKey],
        row: &[Value],
    ) -> Result<Option<(Self::Loc, Row)>, SqlError>;
    /// Inserts `row` as an ordinary INSERT does; returns where it went.
    fn insert_new(&mut self, table: usize, row: Row) -> Result<Self::Loc, SqlError>;
    /// Replaces `old` (at `loc`) by `new` as UPDATE does; returns where the
    /// new version went.
    fn update_existing(
        &mut self,
        table: usize,
        loc: &Self::Loc,
        old: &[Value],
        new: Row,
    ) -> Result<Self::Loc, SqlError>;
    /// After the last row (pg records full pages in its free space map).
    fn writes_done(&mut self, _table: usize) {}
}

/// The statement's parts, as [`run`] takes them.
pub struct ConflictInsert<'a> {
    pub table: &'a str,
    pub columns: Option<&'a [String]>,
    pub source: &'a Select,
    pub on_conflict: &'a OnConflict,
    pub returning: &'a [SelectItem],
}

/// The unique keys that arbitrate, chosen as PostgreSQL's planner does. A
/// DEFERRABLE one cannot: its conflicts are only known later.
pub fn arbiters<E: ConflictWrites>(
    engine: &E,
    table: usize,
    oc: &OnConflict,
) -> Result<Vec<UniqueKey>, SqlError> {
    let keys = chosen_arbiters(engine, table, oc)?;
    if keys.iter().any(|k| k.deferrable) {
        return Err(SqlError::new(
            ErrorKind::Semantic,
            "ON CONFLICT does not support deferrable unique constraints/exclusion constraints as arbiters",
        ));
    }
    Ok(keys)
}

fn chosen_arbiters<E: ConflictWrites>(
    engine: &E,
    table: usize,
    oc: &OnConflict,
) -> Result<Vec<UniqueKey>, SqlError> {
    let keys = engine.unique_keys(table);
    let shape = engine.shape(table);
    let no_match = || {
        SqlError::new(
            ErrorKind::Semantic,
            "there is no unique or exclusion constraint matching the ON CONFLICT specification",
        )
    };
    match &oc.target {
        ConflictTarget::Any => {
            if matches!(oc.action, ConflictAction::Update { .. }) {
                return Err(SqlError::new(
                    ErrorKind::Semantic,
                    "ON CONFLICT DO UPDATE requires inference specification or constraint name",
                )
                .with_hint("For example, ON CONFLICT (column_name)."));
            }
            Ok(keys)
        }
        ConflictTarget::Columns(names) => {
            let mut wanted = HashSet::new();
            for n in names {
                let c = shape
                    .columns
                    .iter()
                    .position(|d| &d.name == n)
                    .ok_or_else(|| {
                        SqlError::new(
                            ErrorKind::Semantic,
                            format!("column \"{n}\" does not exist"),
                        )
                    })?;
                wanted.insert(c);
            }
            let found: Vec<UniqueKey> = keys
                .into_iter()
                .filter(|k| k.columns.iter().copied().collect::<HashSet<_>>() == wanted)
                .collect();
            if found.is_empty() {
                return Err(no_match());
            }
            Ok(found)
        }
        ConflictTarget::Constraint(name) => keys
            .into_iter()
            .find(|k| k.constraint && super::schemas::bare(&k.name) == name)
            .map(|k| vec![k])
            .ok_or_else(|| {
                SqlError::new(
                    ErrorKind::Semantic,
                    format!(
                        "constraint \"{name}\" for table \"{}\" does not exist",
                        super::schemas::bare(shape.name)
                    ),
                )
            }),
    }
}

/// DO UPDATE bound over the existing row followed by `excluded`'s.
struct BoundUpdate {
    sets: Vec<(usize, Bound)>,
    filter: Option<Bound>,
}

fn bind_update<E: ConflictWrites>(
    engine: &mut E,
    table: usize,
    action: &ConflictAction,
) -> Result<Option<BoundUpdate>, SqlError> {
    let ConflictAction::Update {
        assignments,
        filter,
    } = action
    else {
        return Ok(None);
    };
    let own = engine.table_scope(table);
    let mut both = own.clone();
    both.columns.extend(
        own.columns
            .iter()
            .map(|(_, c, ty)| ("excluded".to_string(), c.clone(), *ty)),
    );
    let mut sets = Vec::with_capacity(assignments.len());
    for (c, e) in assignments {
        let e = super::subquery::resolve_expr(engine, e)?;
        sets.push((own.resolve(None, c)?, bind(&e, &both)?));
    }
    check_constants(engine.shape(table), &sets)?;
    let filter = match filter {
        Some(f) => Some(bind(&super::subquery::resolve_expr(engine, f)?, &both)?),
        None => None,
    };
    Ok(Some(BoundUpdate { sets, filter }))
}

/// The columns an INSERT names, as positions (all of them when it names none).
fn targets(shape: TableShape, columns: Option<&[String]>) -> Result<Vec<usize>, SqlError> {
    match columns {
        None => Ok((0..shape.columns.len()).collect()),
        Some(cols) => cols
            .iter()
            .map(|c| {
                shape
                    .columns
                    .iter()
                    .position(|d| &d.name == c)
                    .ok_or_else(|| {
                        SqlError::new(
                            ErrorKind::Semantic,
                            format!(
                                "column \"{c}\" of relation \"{}\" does not exist",
                                shape.name
                            ),
                        )
                    })
            })
            .collect(),
    }
}

/// Runs the statement when `execute` (else only chooses its arbiters, for
/// EXPLAIN); returns its result and what EXPLAIN ANALYZE reports.
pub fn run<E: ConflictWrites>(
    engine: &mut E,
    stmt: &ConflictInsert,
    execute: bool,
) -> Result<(Outcome, ConflictReport), SqlError> {
    let id = engine.table_id(stmt.table)?;
    let targets = targets(engine.shape(id), stmt.columns)?;
    let arbiters = arbiters(engine, id, stmt.on_conflict)?;
    let update = bind_update(engine, id, &stmt.on_conflict.action)?;
    let mut returning = Returning::bind(engine, stmt.returning, id)?;
    let mut report = ConflictReport {
        resolution: if update.is_some() {
            "UPDATE"
        } else {
            "NOTHING"
        },
        arbiter_names: match stmt.on_conflict.target {
            ConflictTarget::Any => Vec::new(),
            _ => arbiters.iter().map(|k| k.name.clone()).collect(),
        },
        ..ConflictReport::default()
    };
    if !execute {
        return Ok((Outcome::default(), report));
    }
    let columns = engine.column_defs(id);
    let defaults = engine.column_defaults(&columns)?;
    let volatile = engine.volatile_defaults(&columns, &targets)?;
    // Rows this statement inserted or updated: DO UPDATE may not touch one
    // again (PostgreSQL finds them by their xmin and command id).
    let mut written: HashSet<E::Loc> = HashSet::new();
    let mut updated = 0u64;
    let mut combined: Vec<Value> = Vec::new();
    engine.produce(stmt.source, &mut |engine, values| {
        let row = if volatile.is_empty() {
            engine.complete_row(id, &defaults, &targets, values)?
        } else {
            let d = engine.row_defaults(&defaults, &volatile)?;
            engine.complete_row(id, &d, &targets, values)?
        };
        let Some((loc, old)) = engine.find_conflict(id, &arbiters, &row)? else {
            let returned = returning.is_some().then(|| row.clone());
            let loc = engine.insert_new(id, row)?;
            if let Some(r) = returned {
                project(&mut returning, engine, &r, E::tid(&loc))?;
            }
            written.insert(loc);
            report.inserted += 1;
            return Ok(());
        };
        report.conflicting += 1;
        let Some(u) = &update else {
            return Ok(());
        };
        if written.contains(&loc) {
            return Err(SqlError::new(
                ErrorKind::Execution,
                "ON CONFLICT DO UPDATE command cannot affect row a second time",
            )
            .with_hint(
                "Ensure that no rows proposed for insertion within the same command have duplicate constrained values.",
            ));
        }
        combined.clear();
        combined.extend(old.iter().cloned());
        combined.extend(row.iter().cloned());
        if let Some(f) = &u.filter {
            if engine.eval_bound(f, &combined)? != Value::Bool(true) {
                report.filtered += 1;
                return Ok(());
            }
        }
        let mut new = old.clone();
        for (c, e) in &u.sets {
            let v = engine.eval_bound(e, &combined)?;
            new[*c] = coerce(v, engine.shape(id).types[*c])?;
        }
        super::generated_column::fill(engine.shape(id), &mut new)?;
        check_row(engine.shape(id), &new)?;
        let returned = returning.is_some().then(|| new.clone());
        let loc = engine.update_existing(id, &loc, &old, new)?;
        if let Some(r) = returned {
            project(&mut returning, engine, &r, E::tid(&loc))?;
        }
        written.insert(loc);
        updated += 1;
        Ok(())
    })?;
    engine.writes_done(id);
    let n = report.inserted + updated;
    Ok((finish(returning, format!("INSERT 0 {n}"), n), report))
}
