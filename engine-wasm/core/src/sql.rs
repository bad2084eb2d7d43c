//! Layer 4: SQL. Scripts are split psql-style ([`script`]), statements carry
//! pg_hint_plan-style hints ([`hints`]), and every stage reports a [`SqlError`].

pub mod error;
pub mod hints;
pub mod script;
pub mod text_functions;

pub use error::{ErrorKind, LineIndex, Position, SqlError};
pub use hints::{parse_hints, Hint, HintError, HintKind, HintSet};
pub use script::{
    split_script, Meta, MetaCommand, ScriptError, ScriptItem, Statement, Trigger, Watch,
};

// Parsing, binding, planning: sqlparser's tree converted into IndexLab's own.
pub mod ast;
mod convert;
pub mod datetime;
mod datetime_functions;
mod datetime_literal;
pub mod deparse;
pub mod deparse_pretty;
pub mod eval;
pub mod format;
pub mod formatting;
pub mod functions;
pub mod inspect;
pub mod json;
pub mod numeric;
mod numeric_functions;
pub mod parse;
pub mod plan;
pub mod predtest;
pub mod quote;
pub mod rewrite;
