//! The counters of one relation during one statement, named as YugabyteDB shows
//! them (`Storage … Read Requests`, `Metric rocksdb_…`).

use crate::lsm::ReadStats;

#[derive(Debug, Clone, Default)]
pub struct RelStats {
    pub read: ReadStats,
    pub read_requests: u64,
    pub rows_scanned: u64,
    /// Rows a storage filter checked in DocDB (server CPU, not a counter
    /// YugabyteDB prints).
    pub rows_filtered: u64,
    pub keys_found: u64,
    /// RocksDB entries written, on every replica (`rocksdb_insert`).
    pub inserts: u64,
    pub write_requests: u64,
    /// RPCs sent for this relation (requests, and Raft appends to followers).
    pub rpc_count: u64,
    /// Bytes of those RPCs' messages, both ways.
    pub rpc_bytes: u64,
}

impl RelStats {
    pub fn add(&mut self, o: &RelStats) {
        self.read.merge(&o.read);
        self.read_requests += o.read_requests;
        self.rows_scanned += o.rows_scanned;
        self.rows_filtered += o.rows_filtered;
        self.keys_found += o.keys_found;
        self.inserts += o.inserts;
        self.write_requests += o.write_requests;
        self.rpc_count += o.rpc_count;
        self.rpc_bytes += o.rpc_bytes;
    }

    /// Named counters (as the metrics JSON and `Metric` lines name them).
    pub fn metrics(&self) -> Vec<(&'static str, f64)> {
        let r = &self.read;
        let c = &r.cache;
        let found = r.number_db_seek_found + r.number_db_next_found + r.number_db_prev_found;
        let mut m = vec![
            ("rocksdb_block_cache_miss", c.misses()),
            ("rocksdb_block_cache_hit", c.hits()),
            ("rocksdb_block_cache_add", c.adds()),
            ("rocksdb_block_cache_index_hit", c.index.hit),
            ("rocksdb_block_cache_index_miss", c.index.miss),
            ("rocksdb_block_cache_filter_hit", c.filter.hit),
            ("rocksdb_block_cache_filter_miss", c.filter.miss),
            ("rocksdb_block_cache_data_miss", c.data.miss),
            ("rocksdb_block_cache_data_hit", c.data.hit),
            ("rocksdb_block_cache_bytes_read", c.bytes_read()),
            ("rocksdb_block_cache_bytes_write", c.bytes_write()),
            ("rocksdb_bloom_filter_checked", r.bloom_filter_checked),
            ("rocksdb_bloom_filter_useful", r.bloom_filter_useful),
            ("rocksdb_number_db_seek", r.number_db_seek),
            ("rocksdb_number_db_next", r.number_db_next),
            ("rocksdb_number_db_prev", r.number_db_prev),
            ("rocksdb_number_db_seek_found", r.number_db_seek_found),
            ("rocksdb_number_db_next_found", r.number_db_next_found),
            ("rocksdb_number_db_prev_found", r.number_db_prev_found),
            // YugabyteDB counts the internal key (user key + RocksDB's 8-byte trailer).
            ("rocksdb_iter_bytes_read", r.iter_bytes_read + 8 * found),
            ("docdb_keys_found", self.keys_found),
            ("rocksdb_insert", self.inserts),
        ];
        m.retain(|(_, v)| *v > 0);
        let mut out: Vec<(&'static str, f64)> = m.into_iter().map(|(k, v)| (k, v as f64)).collect();
        for (k, v) in [
            ("storage_read_requests", self.read_requests),
            ("storage_rows_scanned", self.rows_scanned),
            ("storage_write_requests", self.write_requests),
            ("io_read_bytes", c.storage_read_bytes),
            ("rpc_count", self.rpc_count),
            ("rpc_bytes", self.rpc_bytes),
        ] {
            if v > 0 {
                out.push((k, v as f64));
            }
        }
        out
    }
}
