//! The tables a script has made so far, and the statements that change them.

mod do_block;
mod returning;

use super::values::{condition, fresh_value, literal, value, Column, Type};
use super::Gen;
use crate::script::{Check, Item};

#[derive(Debug, Default)]
pub(crate) struct Schema {
    /// No engine setting changed the storage: sizes are PostgreSQL's to compare.
    pub sizes_comparable: bool,
    pub tables: Vec<Table>,
    /// Index names used so far (they share one namespace in PostgreSQL).
    pub index_names: Vec<String>,
    /// Draws for the newer features (see `Gen::features`).
    pub features: Gen,
}

#[derive(Debug)]
pub(crate) struct Table {
    pub name: String,
    pub columns: Vec<Column>,
    /// Primary key columns with their order words (`""`, `" asc"`, `" desc"`).
    pub primary_key: Option<Vec<(usize, &'static str)>>,
    /// The next id an insert uses, so most inserts do not collide.
    next_id: i64,
    /// `SPLIT INTO n TABLETS` on YugabyteDB.
    split_into: Option<u32>,
    /// Columns of a unique index or constraint: an UPDATE sets them to a
    /// constant, never to `col + k`, whose outcome depends on the order rows
    /// are visited in (PostgreSQL checks uniqueness row by row).
    unique_columns: Vec<usize>,
    /// The WHERE clauses of its partial indexes: a query that repeats one
    /// may use the index.
    pub partial_predicates: Vec<String>,
    /// The expressions its indexes are on, each with a condition on it.
    pub index_expressions: Vec<(String, String)>,
}

impl Table {
    pub fn random(g: &mut Gen, name: String) -> Table {
        let mut columns = vec![
            Column::new("id", Type::Int),
            Column::new("a", Type::Int),
            Column::new("b", *g.pick(&[Type::Int, Type::BigInt, Type::SmallInt])),
            Column::new(
                "c",
                *g.pick(&[
                    Type::Text,
                    Type::Text,
                    Type::Text,
                    Type::Varchar(2),
                    Type::Char(3),
                ]),
            ),
        ];
        for c in columns.iter_mut().skip(1) {
            c.constraints(g);
        }
        if g.chance(20) {
            columns.truncate(3);
        }
        // A date/time column, compared, indexed and computed like the others.
        if g.chance(35) {
            let ty = *g.pick(&[Type::Date, Type::Timestamp, Type::Interval]);
            let mut d = Column::new("d", ty);
            d.constraints(g);
            // IndexLab refuses a unique key on an interval ('1 mon' and
            // '30 days' are equal to PostgreSQL, distinct keys to IndexLab).
            d.unique &= ty != Type::Interval;
            columns.push(d);
        }
        let orders = ["", " asc", " desc"];
        let primary_key = match g.below(10) {
            0..=2 => None,
            3..=7 => Some(vec![(0, *g.pick(&orders))]),
            _ => Some(vec![(0, *g.pick(&orders)), (1, *g.pick(&orders))]),
        };
        let unique_columns = columns
            .iter()
            .enumerate()
            .filter(|(_, c)| c.unique)
            .map(|(i, _)| i)
            .collect();
        let split_into = g.chance(15).then(|| g.range(1, 4) as u32);
        Table {
            name,
            columns,
            primary_key,
            split_into,
            next_id: g.range(-3, 5),
            unique_columns,
            partial_predicates: Vec::new(),
            index_expressions: Vec::new(),
        }
    }

    /// `CREATE TABLE`. IndexLab reads YugabyteDB's `PRIMARY KEY (id ASC)`;
    /// PostgreSQL's primary key has no order, so its text leaves the words out.
    pub fn create_item(&self) -> Item {
        let text = |with_order: bool| {
            let mut parts: Vec<String> = self
                .columns
                .iter()
                .map(|c| format!("{} {}{}", c.name, c.ty.sql(), c.constraint_sql()))
                .collect();
            if let Some(pk) = &self.primary_key {
                let cols: Vec<String> = pk
                    .iter()
                    .map(|(c, order)| {
                        let order = if with_order { *order } else { "" };
                        format!("{}{order}", self.columns[*c].name)
                    })
                    .collect();
                parts.push(format!("primary key ({})", cols.join(", ")));
            }
            format!("create table {} ({})", self.name, parts.join(", "))
        };
        // YugabyteDB's SPLIT INTO n TABLETS (hash-sharded tables only):
        // PostgreSQL's text leaves it out.
        let hashed = self
            .primary_key
            .as_ref()
            .is_none_or(|pk| pk[0].1.is_empty());
        let split = match self.split_into {
            Some(n) if hashed => format!(" split into {n} tablets"),
            Some(n) if n > 1 => self.split_at_values(n),
            _ => String::new(),
        };
        Item {
            indexlab: format!("{}{split}", text(true)),
            postgres: Some(text(false)),
            check: Check::Statement,
        }
    }

    /// `SPLIT AT VALUES` cutting a range-sharded key's integer first column
    /// into `n` tablets, at points spread over the values scripts use, in
    /// the key's order.
    fn split_at_values(&self, n: u32) -> String {
        let Some(&(first, order)) = self.primary_key.as_ref().and_then(|pk| pk.first()) else {
            return String::new();
        };
        if !matches!(
            self.columns[first].ty,
            Type::Int | Type::BigInt | Type::SmallInt
        ) {
            return String::new();
        }
        let mut points: Vec<String> = (1..n as i64).map(|k| format!("({})", k * 9 - 5)).collect();
        if order.trim() == "desc" {
            points.reverse();
        }
        format!(" split at values ({})", points.join(", "))
    }

    fn is_key(&self, col: usize) -> bool {
        self.primary_key
            .as_ref()
            .is_some_and(|pk| pk.iter().any(|(c, _)| *c == col))
    }

    /// A value for column `col` of a new row: ids count up (now and then one
    /// repeats, or is NULL, so a key is violated); other columns are small.
    fn new_value(&mut self, g: &mut Gen, col: usize) -> String {
        if col == 0 {
            if g.chance(3) {
                return if g.chance(50) {
                    "null".into()
                } else {
                    g.range(-3, self.next_id).to_string()
                };
            }
            self.next_id += g.range(1, 3);
            return self.next_id.to_string();
        }
        let column = &self.columns[col];
        // Constraints are violated now and then, not in most scripts: a
        // violation ends the script (on both sides), and with it the test.
        if self.unique_columns.contains(&col) && g.chance(97) {
            self.next_id += 1;
            return fresh_value(column.ty, self.next_id);
        }
        if (self.is_key(col) || column.not_null) && g.chance(97) {
            return value(g, column.ty);
        }
        literal(g, column.ty)
    }
}

impl Schema {
    /// `CREATE [UNIQUE] INDEX [name] ON t (…)`, or `None` when the table has
    /// three already.
    /// `DROP INDEX [IF EXISTS] name`: an index this script named, or one it
    /// left to PostgreSQL's naming (so IF EXISTS skips it on both sides).
    pub fn drop_index(&mut self, g: &mut Gen) -> Item {
        if self.index_names.is_empty() {
            return Item::same("drop index if exists no_such_index", Check::Statement);
        }
        let name = g.pick(&self.index_names).clone();
        let if_exists = if g.chance(80) { "if exists " } else { "" };
        Item::same(format!("drop index {if_exists}{name}"), Check::Statement)
    }

    /// `ALTER TABLE t DROP COLUMN c | d`: a column outside the primary key
    /// that later statements do without (the indexes, statistics and
    /// predicates on it go with it). `None` when the table has neither.
    pub fn drop_column(&mut self, g: &mut Gen, t: usize) -> Option<Item> {
        let table = &mut self.tables[t];
        let droppable: Vec<usize> = (2..table.columns.len())
            .filter(|&c| matches!(table.columns[c].name, "c" | "d") && !table.is_key(c))
            .collect();
        if droppable.is_empty() {
            return None;
        }
        let c = *g.pick(&droppable);
        let name = table.columns.remove(c).name;
        let mentions = |text: &str| {
            text.split(|ch: char| !ch.is_ascii_alphanumeric() && ch != '_')
                .any(|word| word == name)
        };
        table.partial_predicates.retain(|p| !mentions(p));
        table.index_expressions.retain(|(e, _)| !mentions(e));
        table.unique_columns.retain(|&u| u != c);
        for u in table.unique_columns.iter_mut().filter(|u| **u > c) {
            *u -= 1;
        }
        let cascade = if g.chance(30) { " cascade" } else { "" };
        Some(Item::same(
            format!("alter table {} drop column {name}{cascade}", table.name),
            Check::Statement,
        ))
    }

    /// `ALTER TABLE t ADD COLUMN e …`, perhaps with a default (and NOT NULL
    /// then): the rows already written read the default. `None` when the
    /// table has its column e already.
    pub fn add_column(&mut self, g: &mut Gen, t: usize) -> Option<Item> {
        let table = &mut self.tables[t];
        if table.columns.iter().any(|c| c.name == "e") {
            return None;
        }
        let mut column = Column::new("e", *g.pick(&[Type::Int, Type::Text, Type::BigInt]));
        if g.chance(50) {
            column.default = Some(value(g, column.ty));
            column.not_null = g.chance(30);
        }
        let sql = format!(
            "alter table {} add column e {}{}",
            table.name,
            column.ty.sql(),
            column.constraint_sql()
        );
        table.columns.push(column);
        Some(Item::same(sql, Check::Statement))
    }

    pub fn create_index(&mut self, g: &mut Gen, t: usize) -> Option<Item> {
        let table = &self.tables[t];
        let prefix = format!("{}_", table.name);
        if self
            .index_names
            .iter()
            .filter(|n| n.starts_with(&prefix))
            .count()
            >= 3
        {
            return None;
        }
        let n = table.columns.len();
        let first = 1 + g.below(n as u64 - 1) as usize;
        let mut cols = vec![first];
        if g.chance(30) {
            let second = g.below(n as u64) as usize;
            if second != first {
                cols.push(second);
            }
        }
        let order = ["", " asc", " desc"];
        let mut keys: Vec<String> = cols
            .iter()
            .map(|c| format!("{}{}", table.columns[*c].name, g.pick(&order)))
            .collect();
        // An index on an expression of the table's columns (a and c always
        // exist: a an integer, c text), with a condition a query can use it by.
        if self.features.chance(15) {
            let f = &mut self.features;
            let (expr, condition) = match f.below(4) {
                0 => ("(a + 1)", format!("a + 1 = {}", f.range(-5, 30))),
                1 => (
                    "lower(c)",
                    format!("lower(c) = '{}'", f.pick(&["a", "ab", "b", "x"])),
                ),
                2 => ("abs(a)", format!("abs(a) < {}", f.range(0, 20))),
                _ => ("(a * 2)", format!("a * 2 >= {}", f.range(-10, 60))),
            };
            keys[0] = expr.to_string();
            // The column it reads stands in the key: a unique index on it
            // makes that column's updates order-dependent (see unique_columns).
            cols[0] = if expr.contains('c') { 3 } else { 1 };
            self.tables[t]
                .index_expressions
                .push((expr.to_string(), condition));
        }
        let on_interval = cols.iter().any(|&c| {
            self.tables[t]
                .columns
                .get(c)
                .is_some_and(|c| c.ty == Type::Interval)
        });
        let unique = if g.chance(25) && !on_interval {
            "unique "
        } else {
            ""
        };
        if !unique.is_empty() {
            self.tables[t].unique_columns.extend(&cols);
        }
        let table = &self.tables[t];
        let name = format!("{}_{}", table.name, self.index_names.len());
        // An unnamed index gets PostgreSQL's generated name (t_a_idx, t_a_idx1…).
        let named = if g.chance(70) {
            format!("{name} ")
        } else {
            String::new()
        };
        self.index_names.push(name);
        // INCLUDE a column the key lacks, so index-only scans have more to do.
        let include = match (0..n).find(|c| !cols.contains(c)) {
            Some(c) if g.chance(20) => format!(" include ({})", table.columns[c].name),
            _ => String::new(),
        };
        // A partial index: only the rows its WHERE holds for have entries.
        let partial = if self.features.chance(25) {
            let p = condition(&mut self.features, &table.columns, None, 1);
            self.tables[t].partial_predicates.push(p.clone());
            format!(" where {p}")
        } else {
            String::new()
        };
        let table = &self.tables[t];
        Some(Item::same(
            format!(
                "create {unique}index {named}on {} ({}){include}{partial}",
                table.name,
                keys.join(", ")
            ),
            Check::Statement,
        ))
    }

    /// `INSERT INTO t [(cols)] VALUES …` with `rows` rows.
    pub fn insert(&mut self, g: &mut Gen, t: usize, rows: usize) -> Item {
        let table = &mut self.tables[t];
        let all: Vec<usize> = (0..table.columns.len()).collect();
        let cols: Vec<usize> = if g.chance(20) {
            // A column list leaves the others to their default (NULL).
            all.iter()
                .copied()
                .filter(|c| *c == 0 || table.is_key(*c) || g.chance(60))
                .collect()
        } else {
            all
        };
        // Now and then column a is a subquery over the table itself,
        // answered once before any row is written.
        let counted = cols.get(1) == Some(&1)
            && !table.is_key(1)
            && table.columns[1].ty == Type::Int
            && self.features.chance(15);
        let name = table.name.clone();
        let tuples: Vec<String> = (0..rows)
            .map(|_| {
                let vals: Vec<String> = cols
                    .iter()
                    .map(|c| match c {
                        1 if counted => format!("(select count(*) from {name})"),
                        _ => table.new_value(g, *c),
                    })
                    .collect();
                format!("({})", vals.join(", "))
            })
            .collect();
        let list = if cols.len() == table.columns.len() {
            String::new()
        } else {
            let names: Vec<&str> = cols.iter().map(|c| table.columns[*c].name).collect();
            format!(" ({})", names.join(", "))
        };
        Item::same(
            format!(
                "insert into {}{list} values {}",
                table.name,
                tuples.join(", ")
            ),
            Check::Statement,
        )
    }

    /// `INSERT INTO t SELECT … FROM generate_series(…)`.
    pub fn insert_series(&mut self, g: &mut Gen, t: usize) -> Item {
        let table = &mut self.tables[t];
        let start = table.next_id + 1;
        let end = start + g.range(0, 40);
        table.next_id = end;
        let exprs: Vec<String> = table
            .columns
            .iter()
            .enumerate()
            .map(|(i, c)| match (i, c.ty) {
                (0, _) => "g".to_string(),
                (_, ty) if ty.is_text() => literal(g, ty),
                (_, ty) if ty.is_datetime() => {
                    ty.made_from_integer(&format!("g % {}", g.range(2, 9)))
                }
                _ => format!("g % {}", g.range(2, 9)),
            })
            .collect();
        let sql = if self.features.chance(25) {
            format!(
                "with s as (select g from generate_series({start}, {end}) g) insert into {} select {} from s",
                table.name,
                exprs.join(", ")
            )
        } else {
            format!(
                "insert into {} select {} from generate_series({start}, {end}) g",
                table.name,
                exprs.join(", ")
            )
        };
        Item::same(sql, Check::Statement)
    }

    /// `UPDATE t SET … [WHERE …]`, now and then of a key column.
    pub fn update(&mut self, g: &mut Gen, t: usize) -> Item {
        let table = &mut self.tables[t];
        let col = g.below(table.columns.len() as u64) as usize;
        let column = &table.columns[col];
        let value = if table.unique_columns.contains(&col) && col != 0 {
            literal(g, column.ty)
        } else if col == 0 {
            // Moving keys far away keeps most key updates from colliding.
            let shift = 1000 * g.range(1, 9);
            table.next_id += shift;
            format!("id + {shift}")
        } else {
            match (column.ty.is_text(), g.below(3)) {
                (true, _) | (_, 0) => literal(g, column.ty),
                _ if column.ty.is_datetime() => column.ty.shifted(g, column.name),
                (_, 1) => format!("{} + {}", column.name, g.range(-2, 3)),
                _ => format!("{} * 2", table.columns[1].name),
            }
        };
        let filter = if g.chance(85) {
            format!(" where {}", condition(g, &table.columns, None, 2))
        } else {
            String::new()
        };
        Item::same(
            format!(
                "update {} set {} = {value}{filter}",
                table.name, column.name
            ),
            Check::Statement,
        )
    }

    /// `DELETE FROM t [WHERE …]`.
    pub fn delete(&mut self, g: &mut Gen, t: usize) -> Item {
        let table = &self.tables[t];
        let filter = if g.chance(95) {
            format!(" where {}", condition(g, &table.columns, None, 2))
        } else {
            String::new()
        };
        Item::same(
            format!("delete from {}{filter}", table.name),
            Check::Statement,
        )
    }
}
