//! Utility statements both profiles run the same way over their own catalogs:
//! ANALYZE (a read of each table, as PostgreSQL's `analyze.c` samples it) and
//! CREATE EXTENSION (the contrib extensions articles load).

use super::executor::Executor;
use crate::profile::Outcome;
use crate::sql::error::{ErrorKind, SqlError};

/// The extensions a script may create: PostgreSQL 15's contrib modules that
/// storage articles use, and YugabyteDB's bundled ones. Their functions are
/// refused by name where IndexLab does not answer them.
const KNOWN_EXTENSIONS: &[&str] = &[
    "pageinspect",
    "pgstattuple",
    "pg_buffercache",
    "pg_visibility",
    "pg_freespacemap",
    "pg_stat_statements",
    "pg_prewarm",
    "pg_trgm",
    "pgcrypto",
    "uuid-ossp",
    "btree_gin",
    "btree_gist",
    "amcheck",
    "bloom",
    "hstore",
    "tablefunc",
    "fuzzystrmatch",
    "pg_hint_plan",
    "hypopg",
];

/// `CREATE EXTENSION [IF NOT EXISTS] name`, recorded in `installed`.
pub fn create_extension(
    installed: &mut Vec<String>,
    name: &str,
    if_not_exists: bool,
) -> Result<Outcome, SqlError> {
    if installed.iter().any(|e| e == name) {
        if if_not_exists {
            return Ok(Outcome::tag("CREATE EXTENSION")
                .notice(format!("extension \"{name}\" already exists, skipping")));
        }
        return Err(SqlError::new(
            ErrorKind::Semantic,
            format!("extension \"{name}\" already exists"),
        ));
    }
    if !KNOWN_EXTENSIONS.contains(&name) {
        return Err(SqlError::new(
            ErrorKind::Semantic,
            format!("extension \"{name}\" is not available"),
        )
        .near(name)
        .with_hint(format!(
            "IndexLab knows of these extensions: {}",
            KNOWN_EXTENSIONS.join(", ")
        )));
    }
    installed.push(name.to_string());
    let answered = match name {
        "pageinspect" => Some("heap_page_items(), bt_metap(), bt_page_stats() and bt_page_items()"),
        "pgstattuple" => Some("pgstatindex()"),
        _ => None,
    };
    let note = match answered {
        Some(functions) => format!(
            "{name} is installed; IndexLab answers {functions} from its own pages and refuses \
             the extension's other functions by name"
        ),
        None => format!(
            "{name} is installed; IndexLab does not model its functions yet, so a call to one \
             is refused by name"
        ),
    };
    Ok(Outcome::tag("CREATE EXTENSION").notice(note))
}

/// The tables a maintenance statement names, checked before any is touched
/// (an unknown one fails the whole statement); none named is every table.
pub fn tables_named<E: Executor>(
    engine: &E,
    names: &[String],
    all: impl FnOnce() -> Vec<usize>,
) -> Result<Vec<usize>, SqlError> {
    if names.is_empty() {
        return Ok(all());
    }
    names.iter().map(|n| engine.table_id(n)).collect()
}

/// ANALYZE: each table read in full through the profile's own scan (on pg its
/// heap pages through the buffer pool, on yb its rows through read requests),
/// as PostgreSQL reads a table of up to 300 × default_statistics_target
/// pages whole.
pub fn analyze<E: Executor>(engine: &mut E, tables: &[usize]) -> Result<(), SqlError> {
    for &t in tables {
        let rows: Vec<_> = engine
            .scan_for_change(t, None)?
            .into_iter()
            .map(|(_, r)| r)
            .collect();
        engine.analyzed(t, &rows);
    }
    Ok(())
}

/// What ANALYZE changes on yb: YugabyteDB's default planner reads its row
/// count only.
pub const YB_ANALYZE_NOTE: &str = "YugabyteDB's default planner reads only the row \
count ANALYZE keeps (reltuples), in place of the 1000 rows it assumes of a table never \
analyzed; the column statistics wait for yb_enable_optimizer_statistics, which IndexLab \
does not model";

/// The objects of a DROP that exist, in order. A missing one fails the whole
/// statement (nothing is dropped), or with IF EXISTS is skipped with
/// PostgreSQL's notice.
pub fn existing(
    names: &[String],
    if_exists: bool,
    kind: &str,
    mut find: impl FnMut(&str) -> Option<usize>,
    out: &mut Outcome,
) -> Result<Vec<usize>, SqlError> {
    let mut ids = Vec::new();
    for name in names {
        match find(name) {
            Some(id) => ids.push(id),
            None if if_exists => out
                .notices
                .push(format!("{kind} \"{name}\" does not exist, skipping")),
            None => {
                return Err(SqlError::new(
                    ErrorKind::Semantic,
                    format!("{kind} \"{name}\" does not exist"),
                )
                .near(name.clone()))
            }
        }
    }
    Ok(ids)
}

/// PostgreSQL's refusal to drop the index a constraint stands on.
pub fn constraint_index(index: &str, table: &str) -> SqlError {
    SqlError::new(
        ErrorKind::Semantic,
        format!(
            "cannot drop index {index} because constraint {index} on table {table} requires it"
        ),
    )
    .with_hint(format!(
        "You can drop constraint {index} on table {table} instead."
    ))
}

/// `CREATE TABLE name AS query` (and `SELECT … INTO name`): a table of the
/// query's columns, typed as PostgreSQL types them, filled by the query.
/// `create` and `insert` are the profile's own statements.
pub fn create_table_as<E: Executor>(
    engine: &mut E,
    statement: (&str, &[String], &crate::sql::ast::Select, bool),
    create: impl FnOnce(&mut E, &crate::sql::ast::CreateTable) -> Result<Outcome, SqlError>,
    insert: impl FnOnce(&mut E, &str, &crate::sql::ast::Select) -> Result<Outcome, SqlError>,
) -> Result<Outcome, SqlError> {
    use crate::sql::ast::{ColumnDef, CreateTable};
    let (name, renames, query, if_not_exists) = statement;
    if engine.table_id(name).is_ok() && if_not_exists {
        return Ok(Outcome::tag("CREATE TABLE AS")
            .notice(format!("relation \"{name}\" already exists, skipping")));
    }
    let mut columns = super::types::output_columns(engine, query)?;
    if renames.len() > columns.len() {
        return Err(SqlError::new(
            ErrorKind::Semantic,
            "too many column names were specified",
        ));
    }
    for (c, n) in columns.iter_mut().zip(renames) {
        c.0 = n.clone();
    }
    for (i, (c, _)) in columns.iter().enumerate() {
        if columns[..i].iter().any(|(d, _)| d == c) {
            return Err(SqlError::new(
                ErrorKind::Semantic,
                format!("column \"{c}\" specified more than once"),
            ));
        }
    }
    create(
        engine,
        &CreateTable {
            name: name.to_string(),
            columns: columns
                .into_iter()
                .map(|(c, ty)| ColumnDef::plain(c, ty))
                .collect(),
            primary_key: None,
            primary_key_name: None,
            primary_key_deferrable: None,
            unique: Vec::new(),
            options: Vec::new(),
            split_into: None,
            split_at: None,
            key_order_written: false,
            if_not_exists: false,
        },
    )?;
    let inserted = insert(engine, name, query)?;
    Ok(Outcome::tag(format!("SELECT {}", inserted.row_count)).with_count(inserted.row_count))
}

/// A transaction block, as one session sees it. Every statement is applied
/// when it runs (there is one session: nobody else could see the difference),
/// but `now()` stays the transaction's start, as in PostgreSQL, and ROLLBACK
/// is refused once the block has changed anything, since IndexLab cannot
/// undo it yet.
#[derive(Debug, Default, Clone)]
pub struct Transaction {
    /// When BEGIN ran (`now()` inside the block); none outside one.
    pub start_us: Option<i64>,
    /// Whether a statement of the block changed data or the catalog.
    pub wrote: bool,
    /// Whether one changed something other than rows (DDL, ANALYZE, SET),
    /// which no profile can undo yet.
    pub wrote_catalog: bool,
    /// A statement of the block failed: PostgreSQL ignores the rest until
    /// COMMIT or ROLLBACK, and both then roll back.
    pub failed: bool,
}

impl Transaction {
    /// The `now()` of a statement starting at `clock_us`.
    pub fn now(&self, clock_us: i64) -> i64 {
        self.start_us.unwrap_or(clock_us)
    }

    /// Notes that `stmt` runs (it may write), before it runs.
    pub fn will_run(&mut self, stmt: &crate::sql::ast::Statement) {
        use crate::sql::ast::Statement::*;
        if self.start_us.is_some()
            && !matches!(
                stmt,
                Select(_) | Show { .. } | Transaction(_) | SetConstraints { .. }
            )
        {
            let writes = !matches!(stmt, Explain { options, .. } if !options.analyze);
            self.wrote |= writes;
            let rows_only = matches!(stmt, Insert { .. } | Update { .. } | Delete { .. })
                || matches!(stmt, Explain { statement, .. }
                    if matches!(**statement, Insert { .. } | Update { .. } | Delete { .. }));
            self.wrote_catalog |= writes && !rows_only;
        }
    }

    /// The error PostgreSQL gives any statement but COMMIT or ROLLBACK in a
    /// block where one failed.
    pub fn ignored(&self, stmt: &crate::sql::ast::Statement) -> Option<SqlError> {
        use crate::sql::ast::{Statement, TxnCommand};
        let ends = matches!(
            stmt,
            Statement::Transaction(TxnCommand::Commit | TxnCommand::Rollback)
        );
        (self.failed && !ends).then(|| {
            SqlError::new(
                ErrorKind::Execution,
                "current transaction is aborted, commands ignored until end of transaction block",
            )
        })
    }

    /// BEGIN, COMMIT or ROLLBACK at `clock_us`. The profile undoes the
    /// block's row changes after (pg marks its versions aborted, yb cleans
    /// up its provisional records); schema changes it cannot undo.
    pub fn command(
        &mut self,
        cmd: crate::sql::ast::TxnCommand,
        clock_us: i64,
    ) -> Result<Outcome, SqlError> {
        use crate::sql::ast::TxnCommand::*;
        let in_block = self.start_us.is_some();
        let out = match cmd {
            Begin if in_block => {
                return Ok(
                    Outcome::tag("BEGIN").notice("there is already a transaction in progress")
                )
            }
            Begin => {
                self.start_us = Some(clock_us);
                self.wrote = false;
                return Ok(Outcome::tag("BEGIN"));
            }
            Commit | Rollback if (cmd == Rollback || self.failed) && self.wrote_catalog => {
                return Err(crate::sql::error::unsupported(
                    "ROLLBACK of a transaction that changed the schema, the statistics or a \
                     setting (IndexLab undoes only the row changes of a transaction)",
                ))
            }
            // A failed block's COMMIT rolls back, and says so.
            Commit if self.failed => Outcome::tag("ROLLBACK"),
            Commit => Outcome::tag("COMMIT"),
            Rollback => Outcome::tag("ROLLBACK"),
        };
        *self = Transaction::default();
        Ok(if in_block {
            out
        } else {
            out.notice("there is no transaction in progress")
        })
    }
}
