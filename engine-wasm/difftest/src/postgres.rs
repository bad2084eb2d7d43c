//! A throwaway PostgreSQL server for the differential tests, and running a
//! script on it.
//!
//! The server is Debian's package, started by us: `initdb` into a temporary
//! folder, a Unix socket in that folder and no TCP (`listen_addresses = ''`), so
//! it touches nothing else on the machine. Run as root, it runs as the
//! `postgres` user (PostgreSQL refuses to run as root). Dropping the [`Server`]
//! stops it and removes the folder.

mod binaries;
mod server;

pub use server::Server;

use crate::generate::GENERATED_SCHEMA;
use crate::outcome::Outcome;
use crate::script::Script;

/// A connection to one database of the server.
pub struct Session {
    client: postgres::Client,
}

impl Session {
    /// Connects to a PostgreSQL URL or key=value connection string.
    pub fn connect(params: &str) -> Result<Session, String> {
        let client = postgres::Client::connect(params, postgres::NoTls)
            .map_err(|e| format!("cannot connect to PostgreSQL ({params}): {e}"))?;
        Ok(Session { client })
    }

    /// Runs a script in a fresh schema, statement by statement, stopping at the
    /// first error as IndexLab does (psql's `ON_ERROR_STOP`). Backslash commands
    /// PostgreSQL has no counterpart for give [`Outcome::Done`].
    pub fn run(&mut self, script: &Script) -> Result<Vec<Outcome>, String> {
        self.fresh_schema()?;
        let mut out = Vec::new();
        for item in &script.items {
            let outcome = match &item.postgres {
                None => Outcome::Done,
                Some(sql) => self.statement(sql),
            };
            let stop = outcome.is_error();
            out.push(outcome);
            if stop {
                break;
            }
        }
        Ok(out)
    }

    /// One statement's outcome.
    pub fn statement(&mut self, sql: &str) -> Outcome {
        use postgres::SimpleQueryMessage as M;
        let messages = match self.client.simple_query(sql) {
            Ok(m) => m,
            Err(e) => {
                let text = e
                    .as_db_error()
                    .map_or_else(|| e.to_string(), |d| d.message().to_string());
                return Outcome::Error(text);
            }
        };
        let mut rows = Vec::new();
        let mut outcome = Outcome::Done;
        for m in messages {
            match m {
                M::Row(r) => rows.push(
                    (0..r.len())
                        .map(|i| r.get(i).map(str::to_string))
                        .collect::<Vec<_>>(),
                ),
                M::RowDescription(_) => {
                    outcome = Outcome::Rows {
                        rows: Vec::new(),
                        count: 0,
                    }
                }
                M::CommandComplete(n)
                    if !matches!(outcome, Outcome::Rows { .. }) && is_dml(sql) =>
                {
                    outcome = Outcome::Count(n);
                }
                _ => {}
            }
        }
        if let Outcome::Rows { .. } = outcome {
            let count = rows.len() as u64;
            rows.truncate(crate::outcome::ROWS_KEPT);
            outcome = Outcome::Rows { rows, count };
        }
        outcome
    }

    /// Drops and re-creates the schema the scripts run in (and the one a
    /// generated script may make), and resets settings.
    fn fresh_schema(&mut self) -> Result<(), String> {
        self.enter_fresh_schema("difftest")
    }

    /// Ends a transaction block the last script left open (it stopped at an
    /// error inside one), resets settings, (re)creates schema `name` and makes it the only one
    /// unqualified names resolve in, so a script's tables touch nothing else.
    /// The schema a generated script makes for itself goes too.
    pub fn enter_fresh_schema(&mut self, name: &str) -> Result<(), String> {
        self.client
            .batch_execute(&format!(
                "ROLLBACK; RESET ALL; DROP SCHEMA IF EXISTS {name} CASCADE; \
                 DROP SCHEMA IF EXISTS {GENERATED_SCHEMA} CASCADE; \
                 CREATE SCHEMA {name}; SET search_path = {name}"
            ))
            .map_err(|e| format!("cannot make the schema {name}: {e}"))
    }

    /// Drops schema `name` and everything in it.
    pub fn drop_schema(&mut self, name: &str) -> Result<(), String> {
        self.client
            .batch_execute(&format!(
                "RESET search_path; DROP SCHEMA IF EXISTS {name} CASCADE"
            ))
            .map_err(|e| format!("cannot drop the schema {name}: {e}"))
    }

    /// The server's version and `shared_buffers`, as SHOW prints them.
    pub fn show(&mut self, setting: &str) -> Result<String, String> {
        match self.statement(&format!("SHOW {setting}")) {
            Outcome::Rows { rows, .. } => Ok(rows
                .first()
                .and_then(|r| r.first().cloned().flatten())
                .unwrap_or_default()),
            other => Err(other.describe()),
        }
    }
}

fn is_dml(sql: &str) -> bool {
    let head = sql.trim_start().to_ascii_lowercase();
    // CREATE TABLE AS and SELECT INTO answer `SELECT n`: rows written.
    let creates = head.starts_with("create table") && head.contains(" as ")
        || head.starts_with("select") && head.contains(" into ");
    // `WITH w AS (…) INSERT …`: a WITH list before the statement.
    let after_with = head.starts_with("with")
        && [") insert ", ") update ", ") delete "]
            .iter()
            .any(|w| head.contains(w));
    creates
        || after_with
        || ["insert", "update", "delete"]
            .iter()
            .any(|w| head.starts_with(w))
}
