//! The PostgreSQL profile: how tables and indexes become pages.
//!
//! - [`heap`]: table storage (pages, line pointers, tuples, MVCC states, VACUUM);
//! - [`tuple`]: on-page tuple sizes; [`tid`]: tuple addresses;
//! - [`visibility_map`] and [`free_space_map`]: the heap's other two forks;
//! - [`held_page`]: the "same page as last time" rule of PostgreSQL scans.

pub mod column_stats;
pub mod free_space_fork;
pub mod free_space_map;
pub mod heap;
pub mod held_page;
pub mod tid;
pub mod tuple;
pub mod visibility_map;

// The profile's engine: catalog, execution, EXPLAIN (lead's modules).
mod alter;
mod analyze_columns;
mod bitmap_scan;
mod catalog;
mod ddl;
mod dedup_notice;
mod deferred_unique;
mod describe;
mod dml;
mod engine;
mod explain;
mod heap_errors;
mod index_entry;
mod inspect;
mod io;
mod key_ranges;
mod pg_class;
mod pg_stat_views;
mod pg_stats;
mod pgstat;
mod planner_stats;
mod query_engine;
mod relation_stats;
mod rewrite;
mod scan;
mod snapshot;
mod system_relations;
mod wal;
mod xact;

pub use catalog::key_column;
pub use engine::{cost_model, PgEngine};
pub use system_relations::SYSTEM_RELATION_NAMES;
