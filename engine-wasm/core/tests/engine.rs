//! The engine's integration tests, as one test binary: each file beside this
//! one is a module here. One binary links the engine once instead of once per
//! file, which keeps `cargo test`'s build quick and its disk use small
//! (68 binaries of the whole engine each took gigabytes of debug builds).
//! Run one file's tests with `cargo test -p indexlab-engine --test engine NAME::`.

mod common;
mod pg_plans;
#[path = "support/psql.rs"]
mod psql;

mod aggregate_filter;
mod aggregates_pg;
mod alter_columns;
mod alter_table_sql;
mod bitmap_and_pg;
mod bitmap_or_pg;
mod btree_deduplication;
mod char_type;
mod column_size;
mod column_types_sql;
mod composite_index_pg;
mod correlated_subqueries;
mod dates;
mod deferrable_unique;
mod derived_tables;
mod describe_sql;
mod do_blocks;
mod errors_sql;
mod everyday_sql;
mod everyday_sql_forms;
mod explain_formats;
mod expression_indexes;
mod fidelity_001;
mod fidelity_002;
mod fidelity_pg;
mod fidelity_yb;
mod format;
mod insert_sources;
mod joins_pg;
mod joins_yb;
mod json;
mod lateral;
mod lessons;
mod limit_pg;
mod limits;
mod merge_join_pg;
mod model_sql;
mod numeric;
mod outer_joins;
mod pageinspect_btree;
mod pageinspect_heap;
mod parallel_group_pg;
mod parallel_pg;
mod partial_indexes;
mod pg_stat_views;
mod pg_stats;
mod plan_phase_pg;
mod plan_why;
mod planner_costs;
mod prepared_parameters;
mod psql_variables;
mod recursive_cte;
mod returning;
mod rewrite;
mod schemas;
mod sequences;
mod set_operations;
mod settings_sql;
mod split_at_values;
mod statistics_objects;
mod storage_catalog_sql;
mod string_agg;
mod to_char;
mod trace_pg;
mod transaction_ids;
mod update_from;
mod wal_pg;
mod yb_aggregate_pushdown;
mod yb_composite_key;
mod yb_grouping;
mod yb_hash_code;
mod yb_join_choice;
mod yb_plans;
mod yb_pushdown;
mod yb_scan_choice;
mod yb_skip_scan;
mod yb_transactions;
