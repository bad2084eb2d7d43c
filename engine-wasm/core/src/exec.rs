//! The query executor both profiles share: SELECT (scan, sort, limit,
//! projection), Nested Loop joins, the row sources INSERT reads from, and EXPLAIN's
//! plan tree. What differs per profile — how a planned scan reads storage and what
//! its EXPLAIN node reports — sits behind [`QueryEngine`].
//!
//! - [`engine`]: the trait a profile implements, and the scan it returns;
//! - [`plan_node`]: EXPLAIN's tree and PostgreSQL's text layout of it;
//! - [`row`]: a row, the full row an INSERT builds, and the checks of a row;
//! - [`relation_name`]: PostgreSQL's names for unnamed indexes;
//! - the executor, written once over the trait, in layers: [`select`] (one
//!   table, and what every query shares), [`nested_loop`] (what both forms of a
//!   nested loop share), [`batched_join`] and [`join`] (two tables),
//!   [`join_chain`] (outer joins and longer chains), [`derived`] (a subquery
//!   in FROM), then [`executor`] (SELECT of any shape, INSERT's row sources),
//!   [`dml_join`] (UPDATE … FROM, DELETE … USING) and [`explain`].

pub mod aggregate;
pub mod alter_checks;
pub mod batched_join;
pub mod catalog_calls;
pub mod catalog_relation;
pub mod column_size;
pub mod correlate;
pub mod derived;
pub mod describe;
pub mod dml_join;
pub mod drop_column;
pub mod engine;
pub mod executor;
pub mod explain;
pub mod explain_dml;
pub mod explain_json;
pub mod explain_verbose;
pub mod generated_column;
pub mod hash_join;
pub mod index_expression;
pub mod index_predicate;
pub mod inspect;
pub mod join;
pub mod join_chain;
pub mod join_choice;
pub mod memoize;
pub mod merge_join;
pub mod nested_loop;
pub mod on_conflict;
pub mod pg_indexes;
pub mod plan_node;
pub mod plan_phase;
pub mod recursive;
pub mod relation_name;
pub mod returning;
pub mod row;
pub mod schemas;
pub mod select;
pub mod sequences;
pub mod series;
pub mod set_operation;
pub mod statistics_objects;
pub mod subplan;
pub mod subquery;
pub mod types;
pub mod utility;
pub mod yb_hash_code;

pub use engine::{QueryEngine, ScanOutput};
pub use executor::Executor;
pub use plan_node::{format_node, type_width, PlanNode};
pub use row::Row;
pub use select::QueryResult;
