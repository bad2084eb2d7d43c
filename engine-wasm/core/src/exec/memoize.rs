//! A Memoize node (nodeMemoize.c) between a nested loop and its inner index
//! scan: each outer row's key value is looked up in a cache first; a hit
//! returns the rows the scan found for that value before, a miss runs the
//! scan and keeps its rows. EXPLAIN ANALYZE counts the hits and misses, and
//! the memory the cache peaked at, as PostgreSQL measures it: per value an
//! entry, a key and the key's tuple; per row a list cell and the row as a
//! minimal tuple.

use super::aggregate::accumulate::GroupKey;
use super::plan_node::PlanNode;
use super::row::Row;
use crate::sql::plan::cost::Cost;
use crate::value::Value;
use std::collections::HashMap;

/// `sizeof(MemoizeEntry) + sizeof(MemoizeKey)`, and `sizeof(MemoizeTuple)`.
const ENTRY_BYTES: u64 = 24 + 24;
const TUPLE_BYTES: u64 = 16;

#[derive(Default)]
pub struct MemoCache {
    cache: HashMap<GroupKey, Vec<Row>>,
    pub hits: u64,
    pub misses: u64,
    /// Rows returned over all calls, hits and misses.
    pub rows: u64,
    bytes: u64,
}

impl MemoCache {
    /// The rows cached for `key`, counting a hit (or None: a miss to come).
    pub fn hit(&mut self, key: &Value) -> Option<&Vec<Row>> {
        let rows = self.cache.get(&GroupKey::of(std::slice::from_ref(key)))?;
        self.hits += 1;
        self.rows += rows.len() as u64;
        Some(rows)
    }

    /// Keeps a miss's rows: `key_bytes` and each row's bytes as minimal tuples.
    pub fn store(&mut self, key: &Value, rows: Vec<Row>, key_bytes: u64, row_bytes: u64) {
        self.misses += 1;
        self.rows += rows.len() as u64;
        self.bytes += ENTRY_BYTES + key_bytes + (TUPLE_BYTES * rows.len() as u64) + row_bytes;
        self.cache
            .insert(GroupKey::of(std::slice::from_ref(key)), rows);
    }

    /// The Memoize node over the inner scan's node, called `calls` times.
    pub fn node(&self, inner: PlanNode, cache_key: String, calls: u64, est: Cost) -> PlanNode {
        let kb = self.bytes.div_ceil(1024);
        PlanNode {
            title: "Memoize".into(),
            details: vec![
                format!("Cache Key: {cache_key}"),
                "Cache Mode: logical".into(),
                format!(
                    "Hits: {}  Misses: {}  Evictions: 0  Overflows: 0  Memory Usage: {kb}kB",
                    self.hits, self.misses
                ),
            ],
            rows: super::plan_node::rows_per_loop(self.rows, calls),
            loops: calls,
            first_us: inner.first_us,
            last_us: inner.last_us,
            buffers: inner.buffers,
            est_cost: (est.startup, est.total),
            est_rows: est.rows,
            width: inner.width,
            // PostgreSQL's estimate (`cost_memoize_rescan`) whenever the
            // lookup below it was costed.
            costed: inner.costed,
            children: vec![inner],
            ..PlanNode::default()
        }
    }
}
