//! Fidelity, article 002 (LSM vs B-tree under a write-heavy load): the same
//! iibench-like script on both profiles, with a large and a small cache. The
//! B-tree's I/O per insert grows by orders of magnitude once its random secondary
//! index leaves miss the cache; the LSM's stays nearly flat, because its writes
//! are memtable flushes and compactions whatever the cache, and its reads before
//! writes are answered by bloom filters.
//!
//! The article ran 2 B documents against 8–144 GB caches; here 200 000 rows run
//! against 1 MB–128 MB, and the memtable is shrunk to 1 MB in proportion so the
//! LSM flushes and compacts during the load (at its 128 MB default it would not
//! flush at all and the comparison would say nothing).
//!
//! Measured (bytes per insert, read / read+write): pg 0/142 at 128 MB and
//! 23041/46343 at 1 MB; yb 1412/2929 at 128 MB and 1578/3095 at 1 MB.

use indexlab_engine::scenario::{run_pg, run_yb, Report};

fn script() -> String {
    let path = format!(
        "{}/../../tests/fidelity/002-iibench.sql",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn overrides(settings: &[(&str, &str)]) -> Vec<(String, String)> {
    settings
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

fn checked(report: Report) -> Report {
    if let Some(e) = &report.error {
        panic!("line {}:{}: {}", e.line, e.column, e.message);
    }
    report
}

/// Bytes per inserted row of each metric, over the last quarter of the load
/// (the steady state, once the indexes outgrow the small cache).
fn per_insert(r: &Report, metrics: &[&str]) -> f64 {
    let inserts: Vec<_> = r
        .statements
        .iter()
        .filter(|s| s.sql.starts_with("insert"))
        .collect();
    let tail = &inserts[inserts.len() * 3 / 4..];
    let total: f64 = tail
        .iter()
        .flat_map(|s| metrics.iter().map(|m| s.metrics.get(m)))
        .sum();
    total / (tail.len() as f64 * 1000.0)
}

struct Io {
    read: f64,
    total: f64,
}

fn pg(shared_buffers: &str) -> Io {
    let r = checked(run_pg(&script(), &overrides(&[("shared_buffers", shared_buffers)])).0);
    Io {
        read: per_insert(&r, &["io_read_bytes"]),
        total: per_insert(&r, &["io_read_bytes", "io_write_bytes"]),
    }
}

fn yb(block_cache_size: &str) -> Io {
    let settings = [
        ("block_cache_size", block_cache_size),
        ("write_buffer_size", "1MB"),
    ];
    let r = checked(run_yb(&script(), &overrides(&settings)).0);
    assert!(
        per_insert(&r, &["flush_bytes"]) > 0.0 && per_insert(&r, &["compaction_write_bytes"]) > 0.0,
        "the LSM must flush and compact during the load"
    );
    // Compaction reads SSTs from storage (not through the block cache).
    let read = per_insert(&r, &["io_read_bytes", "compaction_read_bytes"]);
    Io {
        read,
        total: read + per_insert(&r, &["io_write_bytes"]),
    }
}

#[test]
fn article_002_lsm_io_per_insert_stays_flat_where_the_btree_explodes() {
    let (pg_large, pg_small) = (pg("128MB"), pg("1MB"));
    let (yb_large, yb_small) = (yb("128MB"), yb("1MB"));
    let report = format!(
        "bytes of I/O per insert (read / read+write): pg 128MB {:.0}/{:.0}, pg 1MB {:.0}/{:.0}; \
         yb 128MB {:.0}/{:.0}, yb 1MB {:.0}/{:.0}",
        pg_large.read,
        pg_large.total,
        pg_small.read,
        pg_small.total,
        yb_large.read,
        yb_large.total,
        yb_small.read,
        yb_small.total
    );
    // B-tree: the secondary indexes stop fitting, every insert reads and writes pages.
    assert!(pg_small.total > 20.0 * pg_large.total.max(1.0), "{report}");
    assert!(pg_small.read > 100.0 * pg_large.read.max(10.0), "{report}");
    // LSM: nearly flat as the cache shrinks 128-fold.
    assert!(yb_small.total < 1.5 * yb_large.total, "{report}");
    // And with the small cache the LSM reads far less per insert than the B-tree.
    assert!(pg_small.read > 10.0 * yb_small.read, "{report}");
}
