//! DO blocks, as published experiments write them: a FOR loop inserting
//! rows from its variable, and a PERFORM loop whose FOUND counts the values
//! it finds. A block answers only "DO", so what it did is compared through
//! the table: the rows it inserts, and the PERFORM loop's count inserted as
//! a row, which the queries after it read on both sides.

use super::super::values::{condition, literal};
use super::super::Gen;
use super::Schema;
use crate::script::{Check, Item};

impl Schema {
    /// `DO $$ … FOR i IN [REVERSE] a..b [BY k] LOOP INSERT … $$`: the rows
    /// `insert_series` makes from `generate_series`, from a loop variable.
    pub fn do_insert_loop(&mut self, g: &mut Gen, t: usize) -> Item {
        let table = &mut self.tables[t];
        let start = table.next_id + 1;
        let end = start + g.range(0, 20);
        table.next_id = end;
        let exprs: Vec<String> = table
            .columns
            .iter()
            .enumerate()
            .map(|(i, c)| match (i, c.ty) {
                (0, _) => "i".to_string(),
                (_, ty) if ty.is_text() => literal(g, ty),
                (_, ty) if ty.is_datetime() => {
                    ty.made_from_integer(&format!("i % {}", g.range(2, 9)))
                }
                _ => format!("i % {}", g.range(2, 9)),
            })
            .collect();
        let range = if g.chance(30) {
            format!("reverse {end}..{start}")
        } else {
            format!("{start}..{end}")
        };
        let by = if g.chance(25) {
            format!(" by {}", g.range(1, 3))
        } else {
            String::new()
        };
        let insert = format!("insert into {} values ({})", table.name, exprs.join(", "));
        let text = if g.chance(50) {
            format!(
                "do $$ declare n int := 0; begin for i in {range}{by} loop {insert}; \
                 n := n + 1; end loop; raise notice 'inserted %', n; end $$"
            )
        } else {
            format!("do $$ begin for i in {range}{by} loop {insert}; end loop; end $$")
        };
        Item::same(text, Check::Statement)
    }

    /// A PERFORM loop over a range of values, counting with FOUND those
    /// some row matches; the count is then inserted as column `a` of a new
    /// row (or only raised as a notice when `a` is unique).
    pub fn do_perform_loop(&mut self, g: &mut Gen, t: usize) -> Item {
        let (lo, hi) = (g.range(-3, 5), g.range(5, 30));
        let table = &self.tables[t];
        let column = table.columns[g.range(1, 2).min(table.columns.len() as i64 - 1) as usize].name;
        let op = g.pick(&["=", "<", ">="]);
        let also = if g.chance(40) {
            format!(" and {}", condition(g, &table.columns, None, 1))
        } else {
            String::new()
        };
        let name = table.name.clone();
        let unique_a = table.unique_columns.contains(&1);
        let record = if unique_a {
            "raise notice 'found %', n".to_string()
        } else {
            let table = &mut self.tables[t];
            let mut values: Vec<String> = (0..table.columns.len())
                .map(|c| table.new_value(g, c))
                .collect();
            values[1] = "n".to_string();
            format!("insert into {name} values ({})", values.join(", "))
        };
        Item::same(
            format!(
                "do $$ declare n int := 0; begin for i in {lo}..{hi} loop \
                 perform 1 from {name} where {column} {op} i{also}; \
                 if found then n := n + 1; end if; end loop; {record}; end $$"
            ),
            Check::Statement,
        )
    }
}
