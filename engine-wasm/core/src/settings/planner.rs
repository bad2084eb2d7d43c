//! PostgreSQL's and YugabyteDB's session settings that IndexLab recognizes
//! outside its registry: the planner's costs and `enable_*` switches, memory
//! limits, and YugabyteDB's `yb_*` query-layer settings that articles set.
//! SET records the value, SHOW returns it, RESET forgets it. The pg
//! planner applies those in [`APPLIED_ON_PG`]; a SET of any other says in a
//! notice that nothing changes, so a script that sets them runs on,
//! honestly.

use super::def::Scope;

/// Name, the default as SHOW prints it, and which database has it.
#[rustfmt::skip]
pub static RECOGNIZED: &[(&str, &str, Scope)] = &[
    // PostgreSQL 15's planner method switches and cost constants.
    ("enable_async_append", "on", Scope::Both),
    ("enable_bitmapscan", "on", Scope::Both),
    ("enable_gathermerge", "on", Scope::Both),
    ("enable_hashagg", "on", Scope::Both),
    ("enable_hashjoin", "on", Scope::Both),
    ("enable_incremental_sort", "on", Scope::Both),
    ("enable_indexonlyscan", "on", Scope::Both),
    ("enable_indexscan", "on", Scope::Both),
    ("enable_material", "on", Scope::Both),
    ("enable_memoize", "on", Scope::Both),
    ("enable_mergejoin", "on", Scope::Both),
    ("enable_nestloop", "on", Scope::Both),
    ("enable_parallel_append", "on", Scope::Both),
    ("enable_parallel_hash", "on", Scope::Both),
    ("enable_partition_pruning", "on", Scope::Both),
    ("enable_partitionwise_aggregate", "off", Scope::Both),
    ("enable_partitionwise_join", "off", Scope::Both),
    ("enable_seqscan", "on", Scope::Both),
    ("enable_sort", "on", Scope::Both),
    ("enable_tidscan", "on", Scope::Both),
    ("seq_page_cost", "1", Scope::Both),
    ("random_page_cost", "4", Scope::Both),
    ("cpu_tuple_cost", "0.01", Scope::Both),
    ("cpu_index_tuple_cost", "0.005", Scope::Both),
    ("cpu_operator_cost", "0.0025", Scope::Both),
    ("parallel_setup_cost", "1000", Scope::Both),
    ("parallel_tuple_cost", "0.1", Scope::Both),
    ("effective_cache_size", "4GB", Scope::Both),
    ("effective_io_concurrency", "1", Scope::Both),
    ("default_statistics_target", "100", Scope::Both),
    ("from_collapse_limit", "8", Scope::Both),
    ("join_collapse_limit", "8", Scope::Both),
    ("geqo", "on", Scope::Both),
    ("jit", "on", Scope::Both),
    ("plan_cache_mode", "auto", Scope::Both),
    ("max_parallel_workers_per_gather", "2", Scope::Both),
    ("min_parallel_table_scan_size", "8MB", Scope::Both),
    ("min_parallel_index_scan_size", "512kB", Scope::Both),
    ("parallel_leader_participation", "on", Scope::Both),
    // Memory and session behaviour.
    ("work_mem", "4MB", Scope::Both),
    ("hash_mem_multiplier", "2", Scope::Both),
    ("maintenance_work_mem", "64MB", Scope::Both),
    ("temp_buffers", "8MB", Scope::Both),
    ("track_io_timing", "off", Scope::Both),
    ("track_counts", "on", Scope::Both),
    ("synchronous_commit", "on", Scope::Both),
    ("statement_timeout", "0", Scope::Both),
    ("lock_timeout", "0", Scope::Both),
    ("client_min_messages", "notice", Scope::Both),
    ("search_path", "\"$user\", public", Scope::Both),
    ("application_name", "", Scope::Both),
    ("extra_float_digits", "1", Scope::Both),
    ("compute_query_id", "auto", Scope::Both),
    ("vacuum_freeze_min_age", "50000000", Scope::Both),
    ("pg_hint_plan.enable_hint", "on", Scope::Both),
    ("pg_hint_plan.debug_print", "off", Scope::Both),
    // YugabyteDB's query layer (2.20 / 2024.1 defaults).
    ("yb_enable_base_scans_cost_model", "off", Scope::Yb),
    ("yb_enable_optimizer_statistics", "off", Scope::Yb),
    ("yb_enable_bitmapscan", "off", Scope::Yb),
    ("yb_prefer_bnl", "off", Scope::Yb),
    ("yb_enable_batchednl", "on", Scope::Yb),
    ("yb_enable_distinct_pushdown", "on", Scope::Yb),
    ("yb_enable_index_aggregate_pushdown", "on", Scope::Yb),
    ("yb_pushdown_strict_inequality", "on", Scope::Yb),
    ("yb_pushdown_is_not_null", "on", Scope::Yb),
    ("yb_enable_hash_batch_in", "on", Scope::Yb),
    ("yb_read_from_followers", "off", Scope::Yb),
    ("yb_follower_read_staleness_ms", "30000", Scope::Yb),
    ("yb_explain_hide_non_deterministic_fields", "off", Scope::Yb),
    ("yb_use_hash_splitting_by_default", "on", Scope::Yb),
    ("yb_disable_transactional_writes", "off", Scope::Yb),
    ("yb_enable_upsert_mode", "off", Scope::Yb),
    ("yb_parallel_range_rows", "0", Scope::Yb),
    ("yb_sampling_algorithm", "block_based_sampling", Scope::Yb),
    ("yb_bnl_optimize_first_batch", "on", Scope::Yb),
];

/// The recognized settings the pg profile's planner applies
/// ([`crate::sql::plan::cost::CostParams`]), each with the kind of value it
/// takes: SET checks the value and says nothing, as PostgreSQL does.
pub static APPLIED_ON_PG: &[(&str, Kind)] = &[
    ("enable_bitmapscan", Kind::Bool),
    ("enable_hashagg", Kind::Bool),
    ("enable_hashjoin", Kind::Bool),
    ("enable_indexonlyscan", Kind::Bool),
    ("enable_indexscan", Kind::Bool),
    ("enable_material", Kind::Bool),
    ("enable_memoize", Kind::Bool),
    ("enable_mergejoin", Kind::Bool),
    ("enable_nestloop", Kind::Bool),
    ("enable_seqscan", Kind::Bool),
    ("enable_sort", Kind::Bool),
    ("seq_page_cost", Kind::Cost),
    ("random_page_cost", Kind::Cost),
    ("cpu_tuple_cost", Kind::Cost),
    ("cpu_index_tuple_cost", Kind::Cost),
    ("cpu_operator_cost", Kind::Cost),
    ("effective_cache_size", Kind::Size),
    ("work_mem", Kind::Size),
    ("parallel_setup_cost", Kind::Cost),
    ("parallel_tuple_cost", Kind::Cost),
    ("max_parallel_workers_per_gather", Kind::Count),
    ("min_parallel_table_scan_size", Kind::Size),
    ("min_parallel_index_scan_size", Kind::Size),
    ("parallel_leader_participation", Kind::Bool),
];

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Bool,
    /// A non-negative number.
    Cost,
    /// A memory size: a number of the setting's unit, or with kB/MB/GB/TB.
    Size,
    /// A whole number of things (workers), 0 to 1024.
    Count,
}

/// Whether `value` is one PostgreSQL accepts for an applied setting.
pub fn valid_applied(kind: Kind, value: &str) -> bool {
    let v = value.trim().trim_matches('\'').to_ascii_lowercase();
    match kind {
        Kind::Bool => matches!(
            v.as_str(),
            "on" | "off" | "true" | "false" | "yes" | "no" | "1" | "0" | "t" | "f" | "y" | "n"
        ),
        Kind::Count => v.parse::<u32>().is_ok_and(|n| n <= 1024),
        Kind::Cost => v.parse::<f64>().is_ok_and(|x| x >= 0.0 && x.is_finite()),
        Kind::Size => {
            let split = v.find(|c: char| !c.is_ascii_digit()).unwrap_or(v.len());
            split > 0 && matches!(v[split..].trim(), "" | "kb" | "mb" | "gb" | "tb")
        }
    }
}

/// The recognized setting `name` (case-insensitive), if it is one.
pub fn lookup(name: &str) -> Option<&'static (&'static str, &'static str, Scope)> {
    let name = name.trim();
    RECOGNIZED
        .iter()
        .find(|(n, ..)| n.eq_ignore_ascii_case(name))
}
