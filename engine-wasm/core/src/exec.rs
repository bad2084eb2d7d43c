//! The query executor both profiles share: SELECT (scan, sort, limit,
//! projection), Nested Loop joins, the row sources INSERT reads from, and EXPLAIN's
//! plan tree. What differs per profile — how a planned scan reads storage and what
//! its EXPLAIN node reports — sits behind [`QueryEngine`].
//!
//! - [`engine`]: the trait a profile implements, and the scan it returns;
//! - [`plan_node`]: EXPLAIN's tree and PostgreSQL's text layout of it;
//! - [`row`]: a row, the full row an INSERT builds, and the checks of a row;
//! - [`relation_name`]: PostgreSQL's names for unnamed indexes;
//! - [`select`], [`join`], [`batched_join`], [`explain`]: the executor, written
//!   once over the trait.

pub mod batched_join;
pub mod engine;
pub mod explain;
pub mod join;
pub mod plan_node;
pub mod relation_name;
pub mod row;
pub mod select;

pub use engine::{QueryEngine, ScanOutput};
pub use plan_node::{format_node, type_width, PlanNode};
pub use row::Row;
pub use select::{Executor, QueryResult};
