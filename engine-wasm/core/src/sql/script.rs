//! Splitting a psql-like script into what to run, in order.
//!
//! The rules are psql's (`mainloop.c`, `psqlscan.l`, `command.c`), because users
//! paste scripts written for psql and expect the same runs:
//!
//! - Text accumulates in a *query buffer*. A `;` outside quotes, comments and
//!   parentheses sends the buffer as one statement, which then becomes the
//!   *previous* statement. Whitespace and `--` comments before the first token are
//!   dropped (so a statement starts at its first token or `/*` comment, and a
//!   leading `/*+ … */` hint stays with its statement).
//! - A backslash outside quotes starts a meta-command, which runs at once; the
//!   query buffer is kept across it (`\;` and `\:` put a plain `;`/`:` in the
//!   buffer instead).
//! - `\watch` runs the query buffer if it is not empty and clears it, otherwise it
//!   runs the previous statement, `c=N` times in all (psql's `do_watch` breaks
//!   when `--iter` reaches 0). So `insert … \watch c=100` with no `;` runs the
//!   insert 100 times, while `insert …;` then `\watch c=3` runs it once for the
//!   `;` and 3 more times: 4. Watching the buffer does *not* make it the previous
//!   statement (psql only updates that when a `;` or `\g` sends the buffer).
//!   psql repeats forever without a count; a simulation must end, so we refuse.
//! - Text left without `;` at the end of the script is run, as psql does for a
//!   script file; the statement says so ([`Trigger::EndOfScript`]).

pub mod dconfig;
mod describe;
mod encoding;
mod lexer;
mod meta;
#[cfg(test)]
mod proptests;
mod splitter;
#[cfg(test)]
mod tests;

use std::fmt;

use super::error::{ErrorKind, Position, SqlError};
pub use describe::Describe;
pub use encoding::decode_script;
pub use meta::{DEFAULT_WATCH_INTERVAL_SECS, MAX_WATCH_COUNT};
use splitter::Splitter;

/// One thing a script asks for, in script order.
#[derive(Debug, Clone, PartialEq)]
pub enum ScriptItem {
    Statement(Statement),
    Meta(Meta),
}

/// A SQL statement to run `runs` times back to back.
#[derive(Debug, Clone, PartialEq)]
pub struct Statement {
    /// The text sent: without the final `;`, the leading whitespace and `--`
    /// comments, or trailing whitespace. May hold several statements joined by `\;`.
    pub sql: String,
    /// Where `sql` starts in the script.
    pub at: Position,
    /// How many times to run it (1 unless a `\watch` asked for more).
    pub runs: u32,
    /// What sent it.
    pub trigger: Trigger,
    /// `\gset [prefix]` sent it: its one row becomes psql variables named
    /// `prefix` + each column's name.
    pub gset: Option<String>,
    /// Where each contiguous piece of `sql` comes from, to map offsets back.
    segments: Vec<Segment>,
}

/// What made a statement run.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Trigger {
    /// A `;` (psql sends the buffer).
    Semicolon,
    /// A `\watch`.
    Watch(Watch),
    /// The end of the script, with no `;` after the text.
    EndOfScript,
}

/// A `\watch` and its options.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Watch {
    /// Where the `\watch` is.
    pub at: Position,
    /// `c=N`: the number of runs.
    pub count: u32,
    /// `i=SECONDS`: psql sleeps this long between runs (not after the last one),
    /// which the engine can advance its virtual clock by.
    pub interval_secs: f64,
    /// True when the buffer was empty and the previous statement was run again.
    pub recalled: bool,
}

/// A meta-command other than `\watch`.
#[derive(Debug, Clone, PartialEq)]
pub struct Meta {
    pub command: MetaCommand,
    /// Where its backslash is.
    pub at: Position,
}

/// The meta-commands IndexLab adds to psql's vocabulary (and `\echo`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MetaCommand {
    /// `\flush [table]`: flush memtables to SST files (all tables without a name).
    Flush(Option<String>),
    /// `\compact [table]`: run a full compaction.
    Compact(Option<String>),
    /// `\checkpoint`: write every dirty buffer back.
    Checkpoint,
    /// `\echo text`: print the arguments separated by spaces.
    Echo(String),
    /// A psql setting that changes only how psql prints (`\timing`, `\x`,
    /// `\pset`, `\set`): accepted and answered in words, nothing run.
    Display { command: String, args: Vec<String> },
    /// `\set name value…`: a psql variable (the values joined, as psql
    /// does); its value is read when the script reaches it.
    SetVariable { name: String, value: String },
    /// `\unset name`.
    UnsetVariable(String),
    /// psql's describe commands: `\d [pattern]`, `\dt`, `\di`, `\ds`, with `+`.
    Describe(Describe),
    /// `\dconfig pattern`: the settings whose names match, and their values.
    Dconfig(String),
    /// `\c` (or `\c -`, or `\c` naming the one database): a new session on
    /// the same database. Settings go back to their defaults, prepared
    /// statements are forgotten, and an open transaction ends.
    Reconnect,
    /// A meta-command IndexLab does not run: the error it gives when reached.
    Unsupported(String),
}

/// A contiguous run of `sql` copied from the script.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Segment {
    sql_offset: usize,
    at: Position,
}

impl ScriptItem {
    /// Where the item starts: a statement's first character, a meta-command's `\`.
    pub fn at(&self) -> Position {
        match self {
            ScriptItem::Statement(s) => s.at,
            ScriptItem::Meta(m) => m.at,
        }
    }
}

impl Statement {
    /// A statement run once, whose text starts at `at` in its script (for SQL that
    /// does not come from [`split_script`], such as a single query or a test).
    pub fn new(sql: impl Into<String>, at: Position) -> Statement {
        Statement {
            sql: sql.into(),
            at,
            runs: 1,
            trigger: Trigger::Semicolon,
            gset: None,
            segments: vec![Segment { sql_offset: 0, at }],
        }
    }

    /// The script position of byte `offset` of [`Statement::sql`], e.g. of an error
    /// a parser or the hint reader found there.
    pub fn position_at(&self, offset: usize) -> Position {
        let seg = self
            .segments
            .iter()
            .rev()
            .find(|s| s.sql_offset <= offset)
            .copied()
            .unwrap_or(Segment {
                sql_offset: 0,
                at: self.at,
            });
        let piece = self.sql.get(seg.sql_offset..).unwrap_or("");
        seg.at.advance(piece, offset - seg.sql_offset)
    }

    /// The script position of a position *within* `sql` (line 1, column 1 = its
    /// first character), as sqlparser reports them; `None` if outside `sql`.
    pub fn script_position(&self, within: Position) -> Option<Position> {
        within.offset_in(&self.sql).map(|o| self.position_at(o))
    }
}

/// A script that cannot be split, and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScriptError {
    pub message: String,
    pub line: u32,
    pub column: u32,
}

impl ScriptError {
    pub fn position(&self) -> Position {
        Position::new(self.line, self.column)
    }
}

impl fmt::Display for ScriptError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.position(), self.message)
    }
}

impl std::error::Error for ScriptError {}

impl From<ScriptError> for SqlError {
    fn from(e: ScriptError) -> SqlError {
        let at = e.position();
        SqlError::new(ErrorKind::Script, e.message).at(at)
    }
}

/// The most statement runs a script may ask for in all, each `\watch` repeat
/// counting as one. Every run keeps its report (a few kB with its counters)
/// and costs engine time, and a run in a browser tab must end: 10 000 is 50
/// times what the articles' loads need (article 002 runs 200).
pub const MAX_STATEMENT_RUNS: u64 = 10_000;

/// Splits `text` into the statements and meta-commands to run, in order.
pub fn split_script(text: &str) -> Result<Vec<ScriptItem>, ScriptError> {
    let items = Splitter::new(text).run()?;
    check_total_runs(&items)?;
    Ok(items)
}

/// Refuses a script asking for more than [`MAX_STATEMENT_RUNS`] runs, at the
/// item (a statement, or the `\watch` repeating one) that goes over.
fn check_total_runs(items: &[ScriptItem]) -> Result<(), ScriptError> {
    let mut total = 0u64;
    for item in items {
        let (runs, at) = match item {
            ScriptItem::Statement(s) => match s.trigger {
                Trigger::Watch(w) => (u64::from(s.runs), w.at),
                _ => (u64::from(s.runs), s.at),
            },
            ScriptItem::Meta(m) => (1, m.at),
        };
        total += runs;
        if total > MAX_STATEMENT_RUNS {
            return Err(ScriptError {
                message: format!(
                    "the script runs statements {total} times by here (counting \\watch \
                     repeats), over IndexLab's limit of {MAX_STATEMENT_RUNS} statement runs"
                ),
                line: at.line,
                column: at.column,
            });
        }
    }
    Ok(())
}
