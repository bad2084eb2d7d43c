//! Extended statistics objects (CREATE STATISTICS): the catalog entries
//! PostgreSQL keeps in `pg_statistic_ext`, shared by both profiles.
//!
//! IndexLab records each object as PostgreSQL validates it (its kinds,
//! its columns in attribute order, its name unique in the schema), shows it
//! in `\d`, and drops it with its table. Its planner does not use
//! statistics yet, so ANALYZE gathers nothing for it and no estimate
//! changes: the statement says so in a notice.

use crate::profile::Outcome;
use crate::sql::ast::{ColumnDef, CreateStatistics};
use crate::sql::error::{ErrorKind, SqlError};

/// One statistics object.
#[derive(Debug, Clone)]
pub struct StatisticsObject {
    pub name: String,
    /// The table's id in its profile's catalog.
    pub table: usize,
    /// Column positions, ascending (PostgreSQL sorts them by attnum).
    pub columns: Vec<usize>,
    /// In PostgreSQL's order: ndistinct, dependencies, mcv.
    pub kinds: Vec<&'static str>,
}

/// The statistics objects of a database.
#[derive(Debug, Clone, Default)]
pub struct StatisticsObjects {
    list: Vec<StatisticsObject>,
}

/// The kinds PostgreSQL 15 has.
pub const POSTGRESQL_15_KINDS: &[&str] = &["ndistinct", "dependencies", "mcv"];
/// The kinds of PostgreSQL 11, YugabyteDB 2.19–2.21's query layer.
pub const POSTGRESQL_11_KINDS: &[&str] = &["ndistinct", "dependencies"];

/// What a statistics object changes in IndexLab today.
pub const NOTE: &str = "IndexLab's planner does not use statistics yet: \
the statistics object is recorded (\\d shows it), and no estimate changes";

impl StatisticsObjects {
    /// CREATE STATISTICS on table `table` (its `columns`). `kinds_known`
    /// are the kinds the database has (PostgreSQL 11, under YugabyteDB,
    /// has no `mcv`).
    pub fn create(
        &mut self,
        s: &CreateStatistics,
        table: usize,
        columns: &[ColumnDef],
        kinds_known: &[&'static str],
    ) -> Result<Outcome, SqlError> {
        if self.list.iter().any(|o| o.name == s.name) {
            if s.if_not_exists {
                return Ok(Outcome::tag("CREATE STATISTICS").notice(format!(
                    "statistics object \"{}\" already exists, skipping",
                    s.name
                )));
            }
            return Err(semantic(format!(
                "statistics object \"{}\" already exists",
                s.name
            )));
        }
        let mut positions = Vec::new();
        for c in &s.columns {
            let p = columns
                .iter()
                .position(|d| &d.name == c)
                .ok_or_else(|| semantic(format!("column \"{c}\" does not exist")).near(c))?;
            if positions.contains(&p) {
                return Err(semantic(
                    "duplicate column name in statistics definition".into(),
                ));
            }
            positions.push(p);
        }
        if positions.len() < 2 {
            return Err(semantic(
                "extended statistics require at least 2 columns".into(),
            ));
        }
        positions.sort_unstable();
        let kinds = kinds_of(&s.kinds, kinds_known)?;
        self.list.push(StatisticsObject {
            name: s.name.clone(),
            table,
            columns: positions,
            kinds,
        });
        Ok(Outcome::tag("CREATE STATISTICS").notice(NOTE))
    }

    /// DROP STATISTICS: every name must exist (or IF EXISTS skips it).
    pub fn drop(&mut self, names: &[String], if_exists: bool) -> Result<Outcome, SqlError> {
        let mut out = Outcome::tag("DROP STATISTICS");
        for name in names {
            if !self.list.iter().any(|o| &o.name == name) {
                let message = format!("statistics object \"{name}\" does not exist");
                match if_exists {
                    true => out.notices.push(format!("{message}, skipping")),
                    false => return Err(semantic(message)),
                }
            }
        }
        self.list.retain(|o| !names.contains(&o.name));
        Ok(out)
    }

    pub fn exists(&self, name: &str) -> bool {
        self.list.iter().any(|o| o.name == name)
    }

    /// The table `table` was dropped: its statistics objects go with it.
    pub fn drop_table(&mut self, table: usize) {
        self.list.retain(|o| o.table != table);
    }

    /// Column `position` of table `table` was dropped: PostgreSQL 15 drops
    /// every statistics object naming it; the others' positions move down.
    pub fn drop_column(&mut self, table: usize, position: usize) {
        self.list
            .retain(|o| o.table != table || !o.columns.contains(&position));
        for o in self.list.iter_mut().filter(|o| o.table == table) {
            for c in o.columns.iter_mut().filter(|c| **c > position) {
                *c -= 1;
            }
        }
    }

    /// psql `\d`'s footer lines for table `table` (named `name`, its
    /// `columns`), by object name: `"public.s" (dependencies) ON a, b FROM t`.
    pub fn footers(&self, table: usize, name: &str, columns: &[ColumnDef]) -> Vec<String> {
        let mut mine: Vec<&StatisticsObject> =
            self.list.iter().filter(|o| o.table == table).collect();
        if mine.is_empty() {
            return Vec::new();
        }
        mine.sort_by(|a, b| a.name.cmp(&b.name));
        let mut lines = vec!["Statistics objects:".to_string()];
        for o in mine {
            let cols: Vec<&str> = o
                .columns
                .iter()
                .map(|&c| columns[c].name.as_str())
                .collect();
            lines.push(format!(
                // FROM as regclass prints it: with a schema other than public.
                "    \"{}\" ({}) ON {} FROM {name}",
                super::schemas::qualified(&o.name),
                o.kinds.join(", "),
                cols.join(", ")
            ));
        }
        lines
    }
}

/// The kinds written, checked and in PostgreSQL's order; all the database
/// has when none is written.
fn kinds_of(written: &[String], known: &[&'static str]) -> Result<Vec<&'static str>, SqlError> {
    for k in written {
        if !known.contains(&k.as_str()) {
            return Err(semantic(format!("unrecognized statistics kind \"{k}\"")));
        }
    }
    Ok(known
        .iter()
        .copied()
        .filter(|k| written.is_empty() || written.iter().any(|w| w == k))
        .collect())
}

fn semantic(message: String) -> SqlError {
    SqlError::new(ErrorKind::Semantic, message)
}
