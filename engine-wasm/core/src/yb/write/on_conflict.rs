//! The yb profile's writes for `INSERT … ON CONFLICT` (the statement itself
//! runs in [`crate::exec::on_conflict`]).
//!
//! YSQL looks up each arbiter with a read of its own: the primary key is a
//! point read of the table's document, a unique index a read of the index
//! (then of the row it points at). Here that read is the one the planner
//! picks for `key = value` on the arbiter's columns, through the yb scan
//! path, so it costs what such a read costs. A conflict-free row is then
//! written as any INSERT row (whose own existence check still runs), and DO
//! UPDATE writes the existing row as UPDATE does.

use super::super::engine::YbEngine;
use crate::exec::index_expression::FIRST_EXPRESSION;
use crate::exec::on_conflict::{ConflictWrites, UniqueKey};
use crate::exec::row::{complete, Row, TableShape};
use crate::sql::ast::{BinOp, ColumnDef, Expr};
use crate::sql::error::SqlError;
use crate::value::Value;

impl ConflictWrites for YbEngine {
    /// The row's document key (its primary key, or its ybctid).
    type Loc = Vec<u8>;

    fn column_defs(&self, table: usize) -> Vec<ColumnDef> {
        self.catalog.table(table).columns.clone()
    }

    fn shape(&self, table: usize) -> TableShape<'_> {
        self.catalog.table(table).shape()
    }

    fn unique_keys(&self, table: usize) -> Vec<UniqueKey> {
        let t = self.catalog.table(table);
        let primary = t.key.as_ref().map(|k| UniqueKey {
            name: t.pk_name.clone(),
            columns: k.hash.iter().chain(&k.range).copied().collect(),
            constraint: true,
            index: None,
            deferrable: false,
        });
        let indexes = t
            .indexes
            .iter()
            .map(|&i| (i, self.catalog.index(i)))
            .filter(|(_, ix)| ix.unique)
            .map(|(i, ix)| UniqueKey {
                name: ix.name.to_string(),
                // Not inferred from a column target (see pg's unique_keys).
                columns: match ix.predicate {
                    Some(_) => Vec::new(),
                    None => ix.key.iter().map(|(c, _, _)| *c).collect(),
                },
                constraint: ix.constraint,
                index: Some(i),
                deferrable: false,
            });
        primary.into_iter().chain(indexes).collect()
    }

    fn complete_row(
        &mut self,
        table: usize,
        defaults: &[Option<Value>],
        targets: &[usize],
        values: &[Value],
    ) -> Result<Row, SqlError> {
        let t = self.catalog.table_mut(table);
        let shape = TableShape {
            name: &t.name,
            columns: &t.columns,
            types: &t.types,
        };
        complete(shape, &mut t.sequences, defaults, targets, values)
    }

    fn find_conflict(
        &mut self,
        table: usize,
        arbiters: &[UniqueKey],
        row: &[Value],
    ) -> Result<Option<(Vec<u8>, Row)>, SqlError> {
        for a in arbiters {
            let Some(filter) = self.conflict_filter(table, a, row)? else {
                continue;
            };
            let found = self.rows_for_change(table, Some(&filter))?;
            if let Some(hit) = found.into_iter().next() {
                return Ok(Some(hit));
            }
        }
        Ok(None)
    }

    fn insert_new(&mut self, table: usize, row: Row) -> Result<Vec<u8>, SqlError> {
        self.insert_row(table, &row)?;
        // The row's document key is left in the row buffer by the write.
        Ok(self.write_bufs.row.0.clone())
    }

    fn update_existing(
        &mut self,
        table: usize,
        loc: &Vec<u8>,
        old: &[Value],
        new: Row,
    ) -> Result<Vec<u8>, SqlError> {
        self.update_row(table, loc, old, &new)
    }
}

impl YbEngine {
    /// The WHERE clause that finds a row conflicting with `row` in unique
    /// key `a` (its key columns or expressions equal to `row`'s, and a
    /// partial index's predicate), or None when nothing can conflict: a NULL
    /// in the key equals nothing, and a row outside a partial index is not
    /// in it.
    fn conflict_filter(
        &self,
        table: usize,
        a: &UniqueKey,
        row: &[Value],
    ) -> Result<Option<Expr>, SqlError> {
        let names = &self.catalog.table(table).columns;
        let column = |c: usize| Expr::Column {
            table: None,
            name: names[c].name.clone(),
        };
        let mut parts: Vec<(Expr, Value)> = Vec::new();
        let mut predicate = None;
        match a.index {
            None => parts.extend(a.columns.iter().map(|&c| (column(c), row[c].clone()))),
            Some(i) => {
                let ix = self.catalog.index(i);
                if let Some(p) = &ix.predicate {
                    if !p.holds(row)? {
                        return Ok(None);
                    }
                    predicate = Some(p.expr.clone());
                }
                for &(c, _, _) in &ix.key {
                    let e = match c.checked_sub(FIRST_EXPRESSION) {
                        Some(k) => ix.expressions[k].expr.clone(),
                        None => column(c),
                    };
                    parts.push((e, ix.value_at(row, c)?));
                }
            }
        }
        if parts.iter().any(|(_, v)| v.is_null()) {
            return Ok(None);
        }
        Ok(parts
            .into_iter()
            .map(|(e, v)| Expr::Binary {
                op: BinOp::Eq,
                left: Box::new(e),
                right: Box::new(Expr::Literal(v)),
            })
            .chain(predicate)
            .reduce(|l, r| Expr::Binary {
                op: BinOp::And,
                left: Box::new(l),
                right: Box::new(r),
            }))
    }
}
