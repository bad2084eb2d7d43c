//! `INSERT … ON CONFLICT` and RETURNING: inserts whose keys reach back to
//! rows the table already has (so the arbiters find conflicts), resolved by
//! DO NOTHING or by a DO UPDATE that reads `excluded`, and UPDATE / DELETE
//! returning what they wrote. Their rows are compared as a multiset: the yb
//! profile visits rows in DocDB's order, not the heap's.

use super::super::values::{condition, Type};
use super::super::Gen;
use super::Schema;
use crate::script::{Check, Item};

impl Schema {
    /// One statement of the feature, by a weighted choice.
    pub fn returning(&mut self, g: &mut Gen, t: usize) -> Item {
        match g.below(10) {
            0..=5 => self.insert_on_conflict(g, t),
            6..=7 => self.with_returning(g, t, |s, g| s.update(g, t)),
            _ => self.with_returning(g, t, |s, g| s.delete(g, t)),
        }
    }

    /// An UPDATE or DELETE of the usual generator, with a RETURNING list.
    fn with_returning(
        &mut self,
        g: &mut Gen,
        t: usize,
        statement: impl FnOnce(&mut Schema, &mut Gen) -> Item,
    ) -> Item {
        let item = statement(self, g);
        let list = self.returning_list(g, t);
        Item::same(
            format!("{} returning {list}", item.indexlab),
            Check::Unordered,
        )
    }

    /// `*`, some columns, or an expression with an alias.
    fn returning_list(&self, g: &mut Gen, t: usize) -> String {
        let table = &self.tables[t];
        let last = table.columns.len() - 1;
        match g.below(4) {
            0 => "*".into(),
            1 => format!("id, {}", table.columns[last].name),
            2 => format!("{}.*", table.name),
            _ => "id * 2 as twice, a is null as no_a".into(),
        }
    }

    /// `INSERT INTO t VALUES … ON CONFLICT [target] DO NOTHING | DO UPDATE …
    /// [RETURNING …]`, with ids near the ones already used.
    fn insert_on_conflict(&mut self, g: &mut Gen, t: usize) -> Item {
        let table = &mut self.tables[t];
        let update = g.chance(60);
        // The arbiter: the primary key, or a column's UNIQUE constraint.
        let key: Option<Vec<usize>> = match &table.primary_key {
            Some(pk) => Some(pk.iter().map(|(c, _)| *c).collect()),
            None => table.columns.iter().position(|c| c.unique).map(|c| vec![c]),
        };
        let target = match &key {
            Some(cols) if update || g.chance(60) => {
                let names: Vec<&str> = cols.iter().map(|c| table.columns[*c].name).collect();
                format!(" ({})", names.join(", "))
            }
            // DO UPDATE needs a target: without an arbiter there is none to
            // give, and both sides refuse it.
            _ if update && g.chance(80) => return self.with_returning(g, t, |s, g| s.delete(g, t)),
            _ => String::new(),
        };
        let rows = 1 + g.below(3) as usize;
        let mut ids: Vec<i64> = Vec::new();
        let tuples: Vec<String> = (0..rows)
            .map(|_| {
                // Mostly an id some row may have; distinct within the
                // statement, so DO UPDATE rarely meets a row twice.
                let mut id = g.range(table.next_id - 6, table.next_id + 2);
                while ids.contains(&id) && g.chance(90) {
                    id += 1;
                }
                ids.push(id);
                let vals: Vec<String> = (0..table.columns.len())
                    .map(|c| match c {
                        0 => id.to_string(),
                        _ => table.new_value(g, c),
                    })
                    .collect();
                format!("({})", vals.join(", "))
            })
            .collect();
        if let Some(&max) = ids.iter().max() {
            table.next_id = table.next_id.max(max);
        }
        let action = if update {
            let key = key.unwrap_or_default();
            // A column outside the arbiter and every unique index: setting it
            // cannot collide, whatever order the rows come in.
            let free: Vec<usize> = (1..table.columns.len())
                .filter(|c| !key.contains(c) && !table.unique_columns.contains(c))
                .collect();
            if free.is_empty() {
                " do nothing".to_string()
            } else {
                let c = free[g.below(free.len() as u64) as usize];
                let column = &table.columns[c];
                let value = match (column.ty, g.below(3)) {
                    (_, 0) => format!("excluded.{}", column.name),
                    (Type::Int | Type::BigInt | Type::SmallInt, 1) => {
                        format!("{}.{} + excluded.id", table.name, column.name)
                    }
                    (ty, _) if ty.is_text() || ty.is_datetime() => {
                        format!("coalesce(excluded.{0}, {1}.{0})", column.name, table.name)
                    }
                    _ => format!("{}.{} * 2", table.name, column.name),
                };
                let filter = if g.chance(35) {
                    format!(
                        " where {}",
                        condition(g, &table.columns, Some(table.name.as_str()), 1)
                    )
                } else {
                    String::new()
                };
                format!(" do update set {} = {value}{filter}", column.name)
            }
        } else {
            " do nothing".to_string()
        };
        let returning = if g.chance(70) {
            format!(" returning {}", self.returning_list(g, t))
        } else {
            String::new()
        };
        let table = &self.tables[t];
        let check = if returning.is_empty() {
            Check::Statement
        } else {
            Check::Unordered
        };
        Item::same(
            format!(
                "insert into {} values {} on conflict{target}{action}{returning}",
                table.name,
                tuples.join(", ")
            ),
            check,
        )
    }
}
