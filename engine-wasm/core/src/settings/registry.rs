//! Every setting the engine knows, with its default and accepted range.
//!
//! Defaults are those of PostgreSQL 16 and YugabyteDB (2.x) where a real setting
//! exists, so the articles' numbers come out without any `SET`. Where the
//! simulator had to choose, the comment says why.

use super::def::*;
use Scope::{Both, Pg, Yb};

/// Network round-trip presets: same host (a loopback RPC is not free), another
/// availability zone, another region, as measured in article 001.
pub const NETWORK_PRESETS: &[(&str, u64)] = &[
    ("local", 50 * US),
    ("multi-az", 800 * US),
    ("multi-region", 90 * MS),
];

#[rustfmt::skip]
pub static REGISTRY: &[SettingDef] = &[
    // --- The simulation itself.
    int("seed", 42, 0, i64::MAX, "", Both,
        "Seed of the random generator: the same seed gives the same run")
        .fixed_at_start(),
    // A browser tab must stay responsive: the largest article loads 1,000,000 rows.
    int("max_rows", 10_000_000, 1, 10_000_000, "rows", Both,
        "Most rows one statement, and the whole run, may produce or change")
        .note("the simulator caps a run at 10,000,000 rows to keep the page responsive"),
    // What the player records (never what the run does: reports leave them out).
    int("trace_statement_events", 100_000, 0, 10_000_000, "events", Both,
        "Detail events (page accesses, memtable writes, read requests) one statement may record; a statement that makes more is summarized: only its splits, flushes and compactions are kept"),
    int("trace_run_events", 250_000, 0, 10_000_000, "events", Both,
        "Detail events the whole run's statements other than queries may record; once one goes over what is left, it and every later one are summarized"),
    int("trace_query_events", 250_000, 0, 10_000_000, "events", Both,
        "Detail events the whole run's queries (SELECT, and EXPLAIN of a SELECT) may record, apart from trace_run_events: a long load does not leave the query after it unrecorded"),
    int("trace_full_detail_statement", 0, 0, 10_000_000, "", Both,
        "Statement (numbered from 1, as the player shows them) recorded at full detail whatever the budgets, with snapshots before and after it; 0: none"),
    boolean("trace_snapshots", false, Both,
        "Record the engine's state between statements, so the player can jump anywhere"),

    // --- PostgreSQL storage.
    bytes("page_size", 8 * KB, KB, 32 * KB, 1, Pg,
        "Heap and B+tree page size (PostgreSQL's block_size, fixed when it is built)")
        .checked(Check::PowerOfTwo)
        .fixed_at_start(),
    bytes("shared_buffers", 128 * MB, 128 * KB, 8 * GB, 8 * KB, Pg,
        "Size of the shared buffer pool; a bare number counts 8kB pages")
        .note("shared_buffers must hold at least 16 pages of 8kB, as in PostgreSQL")
        .fixed_at_start(),
    one_of("buffer_replacement", "clock_sweep", &["clock_sweep", "lru"], Pg,
        "Which buffer the pool evicts: PostgreSQL's clock sweep, or least recently used")
        .fixed_at_start(),
    int("leaf_fillfactor", 90, 10, 100, "%", Pg,
        "How full a B+tree leaf is left when the rightmost leaf splits"),
    // PostgreSQL hard-codes 70 (BTREE_NONLEAF_FILLFACTOR); a setting lets a lesson vary it.
    int("internal_fillfactor", 70, 10, 100, "%", Pg,
        "How full a B+tree internal page is left when the rightmost one splits"),
    int("heap_fillfactor", 100, 10, 100, "%", Pg,
        "How full inserts fill a heap page, leaving room for updates"),

    // --- The LSM tree under YugabyteDB's DocDB (RocksDB options).
    bytes("write_buffer_size", 128 * MB, 4 * KB, GB, 1, Yb,
        "Memtable size that triggers a flush to a new SST file (YugabyteDB's memstore_size_mb)"),
    bytes("block_size", 32 * KB, 512, 4 * MB, 1, Yb,
        "Size of an SST data block (YugabyteDB's db_block_size_bytes)"),
    // Article 000: "filter and index are in 64KB block size".
    bytes("index_block_size", 64 * KB, 512, 4 * MB, 1, Yb,
        "Size of an SST index block"),
    bytes("filter_block_size", 64 * KB, 512, 4 * MB, 1, Yb,
        "Size of an SST bloom filter block"),
    // The real default is a share of the server's memory; 512MB is a small server's.
    bytes("block_cache_size", 512 * MB, 0, 64 * GB, 1, Yb,
        "Size of the LRU block cache for SST blocks (0 disables it)")
        .fixed_at_start(),
    int("bloom_bits_per_key", 10, 0, 64, "bits", Yb,
        "Bloom filter bits per key (0: no filter)"),
    // YugabyteDB compacts size-tiered ("universal"), not leveled like RocksDB's default.
    one_of("compaction_style", "universal", &["universal", "leveled"], Yb,
        "Compaction policy: size-tiered (YugabyteDB's) or leveled"),
    // YugabyteDB's rocksdb_level0_file_num_compaction_trigger is 5 (RocksDB's is 4).
    int("level0_file_num_compaction_trigger", 5, 1, 1000, "files", Yb,
        "Number of level-0 SST files that starts a compaction"),
    bytes("max_bytes_for_level_base", 256 * MB, 64 * KB, 64 * GB, 1, Yb,
        "Target size of level 1 (leveled compaction)"),
    float("max_bytes_for_level_multiplier", 10.0, 2.0, 100.0, Yb,
        "Growth factor between levels (leveled compaction)"),
    bytes("target_file_size_base", 64 * MB, 64 * KB, 16 * GB, 1, Yb,
        "Size at which compaction output is cut into a new SST file"),
    int("universal_compaction_size_ratio", 20, 0, 1000, "%", Yb,
        "How much larger the next file may be and still join a size-tiered compaction"),
    int("universal_compaction_min_merge_width", 4, 2, 1000, "files", Yb,
        "Fewest files a size-tiered compaction merges"),
    int("universal_compaction_max_size_amplification_percent", 200, 0, 10_000, "%", Yb,
        "Space amplification that forces a full size-tiered compaction"),
    // Article 000: each read request reads 2 data blocks through the cache, the rest
    // of a large scan bypasses it (only 2 cached blocks for a 50000-row request).
    int("yb_scan_cache_bypass_blocks", 2, 0, 1_000_000, "blocks", Yb,
        "Data blocks a read request's scan reads through the block cache before its readahead bypasses it"),
    bool_setting("yb_enable_packed_row", true,
        "Store a row as one packed value rather than one entry per column"),

    // --- YugabyteDB's query layer.
    int("yb_fetch_row_limit", 1024, 0, 10_000_000, "rows", Yb,
        "Most rows one read request fetches (0: no row limit); unset, ysql_prefetch_limit applies"),
    bytes("yb_fetch_size_limit", 0, 0, GB, 1, Yb,
        "Most bytes one read request fetches (0: no size limit)"),
    int("ysql_request_limit", 1024, 1, 1_000_000, "operations", Yb,
        "Most operations sent in one request"),
    int("ysql_prefetch_limit", 1024, 1, 1_000_000, "rows", Yb,
        "Tablet-server flag: most rows one read request fetches, unless yb_fetch_row_limit is set"),
    // YugabyteDB's own limit is higher; 10000 is far past the best value (article 001).
    int("yb_bnl_batch_size", 1, 1, 10_000, "rows", Yb,
        "Outer rows per batch of a batched nested loop (1: no batching)"),
    bool_setting("yb_enable_expression_pushdown", true,
        "Evaluate WHERE conditions in the storage layer"),

    // --- The simulated cluster.
    latency("network", 50 * US, 10 * SEC, MS, NETWORK_PRESETS, Yb,
        "Round trip between nodes: local, multi-az (0.8ms), multi-region (90ms) or milliseconds"),
    int("tablet_servers", 3, 1, 64, "nodes", Yb,
        "Number of tablet servers")
        .fixed_at_start(),
    int("replication_factor", 1, 1, 7, "replicas", Yb,
        "Copies of each tablet (1 or 3 usually)")
        .checked(Check::Odd),
    int("num_tablets", 0, 0, 1024, "tablets", Yb,
        "Tablets per table without SPLIT INTO (0: one per tablet server if hash-sharded, one if range)"),

    // --- The cost model: virtual time, never wall time. Bare numbers are microseconds.
    duration("cost_cache_hit", 200 * NS, SEC, US, Both,
        "Time of a buffer pool or block cache hit"),
    duration("cost_device_read", 100 * US, SEC, US, Both,
        "Time of one read from the device (an SSD)"),
    duration("cost_device_write", 50 * US, SEC, US, Both,
        "Time of one write to the device (an SSD)"),
    duration("cost_device_transfer_kb", 500 * NS, SEC, US, Both,
        "Time to move 1kB to or from the device (about 2GB/s)"),
    duration("cost_cpu_row", 200 * NS, SEC, US, Both,
        "CPU time to process one row in a plan node"),
    duration("cost_cpu_comparison", 10 * NS, SEC, US, Both,
        "CPU time of one key comparison"),
    // PostgreSQL's planner prices an operator at a quarter of a row
    // (cpu_operator_cost 0.0025 against cpu_tuple_cost 0.01).
    duration("cost_cpu_operator", 50 * NS, SEC, US, Both,
        "CPU time to evaluate one operator of an expression, such as a join filter's a.id = b.id"),
    duration("cost_request_overhead", 250 * US, SEC, US, Yb,
        "Server time to handle one request, whatever it holds"),
    duration("cost_request_op", 5 * US, SEC, US, Yb,
        "Server time for each operation in a request"),
];

const fn bool_setting(name: &'static str, default: bool, description: &'static str) -> SettingDef {
    boolean(name, default, Yb, description)
}

/// The definition of `name`, matched case-insensitively as PostgreSQL does.
pub fn lookup(name: &str) -> Option<(usize, &'static SettingDef)> {
    // Engines read settings on hot paths (per row written): trim once, and try
    // the exact spelling before the case-insensitive one a user may type.
    static BY_NAME: std::sync::OnceLock<rustc_hash::FxHashMap<&'static str, usize>> =
        std::sync::OnceLock::new();
    let by_name = BY_NAME.get_or_init(|| {
        REGISTRY
            .iter()
            .enumerate()
            .map(|(i, d)| (d.name, i))
            .collect()
    });
    let name = name.trim();
    let found = by_name.get(name).map(|&i| (i, &REGISTRY[i]));
    found.or_else(|| {
        REGISTRY
            .iter()
            .enumerate()
            .find(|(_, d)| d.name.eq_ignore_ascii_case(name))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_lower_case_and_defaults_in_range() {
        for (i, d) in REGISTRY.iter().enumerate() {
            assert_eq!(d.name, d.name.to_ascii_lowercase());
            assert_eq!(lookup(d.name).map(|(j, _)| j), Some(i), "{}", d.name);
            assert!(!d.description.is_empty());
            let ok = match d.kind {
                Kind::Int {
                    default, min, max, ..
                } => min <= default && default <= max,
                Kind::Bytes {
                    default,
                    min,
                    max,
                    base,
                } => min <= default && default <= max && default % base == 0,
                Kind::Float { default, min, max } => min <= default && default <= max,
                Kind::Bool { .. } => true,
                Kind::Enum { default, values } => values.contains(&default),
                Kind::Duration {
                    default, min, max, ..
                } => min <= default && default <= max,
            };
            assert!(ok, "default of {} out of range", d.name);
        }
    }

    #[test]
    fn lookup_ignores_case() {
        assert_eq!(lookup("Shared_Buffers").unwrap().1.name, "shared_buffers");
        assert!(lookup("nope").is_none());
    }
}
