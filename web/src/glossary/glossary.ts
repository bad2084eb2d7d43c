// The counters, in plain words: one line each, for the difference table's
// hover/focus help, the charts' axis notes and the lessons. Names are the
// databases' own (EXPLAIN's Buffers, pg_stat_statements, YugabyteDB's
// EXPLAIN (DIST) and RocksDB's statistics), so what a student learns here is
// what they will read on their own server.

export interface Term {
  /** What the counter counts, in one short line. */
  plain: string;
  /** The unit a chart's axis shows. */
  unit: string;
  /** Where the name comes from. */
  source: string;
}

const pgBuffers = 'PostgreSQL, EXPLAIN (BUFFERS)';
const pgWal = 'PostgreSQL, EXPLAIN (WAL) and pg_stat_wal';
const ybDist = 'YugabyteDB, EXPLAIN (DIST)';
const rocks = 'RocksDB statistics (YugabyteDB DocDB)';
const sim = 'IndexLab (what the simulated device and network did)';

export const GLOSSARY: Readonly<Record<string, Term>> = {
  virtual_ms: { plain: 'Simulated time the statement took, from the cost model: cache hits, device reads and writes, CPU per row and per comparison, network round trips', unit: 'ms', source: sim },
  shared_hit: { plain: 'Pages found already in the shared buffer pool (no I/O)', unit: 'pages', source: pgBuffers },
  shared_read: { plain: 'Pages the buffer pool had to read from storage because they were not cached', unit: 'pages', source: pgBuffers },
  shared_dirtied: { plain: 'Pages this statement changed for the first time since they were last written out', unit: 'pages', source: pgBuffers },
  shared_written: { plain: 'Dirty pages written out to make room in the pool during this statement', unit: 'pages', source: pgBuffers },
  shared_extended: { plain: 'New pages added at the end of a table or index file', unit: 'pages', source: pgBuffers },
  heap_fetches: { plain: 'Rows an index scan had to read from the table because the visibility map could not vouch for them', unit: 'rows', source: 'PostgreSQL, EXPLAIN (Index Only Scan)' },
  buffer_evictions: { plain: 'Pages thrown out of the buffer pool to make room for another', unit: 'pages', source: 'PostgreSQL, pg_stat_io (evictions)' },
  wal_bytes: { plain: 'Bytes of write-ahead log the statement generated', unit: 'bytes', source: pgWal },
  wal_records: { plain: 'Write-ahead log records the statement generated', unit: 'records', source: pgWal },
  wal_fpi: { plain: 'Full-page images in the WAL: a whole page logged on its first change after a checkpoint', unit: 'pages', source: pgWal },
  io_read_bytes: { plain: 'Bytes read from the device (cache misses)', unit: 'bytes', source: sim },
  io_write_bytes: { plain: 'Bytes written to the device (dirty pages, flushed and compacted SST files)', unit: 'bytes', source: sim },
  storage_read_requests: { plain: 'Read requests the query layer sent to tablet servers', unit: 'requests', source: ybDist },
  storage_write_requests: { plain: 'Write requests the query layer sent to tablet servers', unit: 'requests', source: ybDist },
  storage_rows_scanned: { plain: 'Rows the storage layer read to answer the requests', unit: 'rows', source: ybDist },
  rpc_count: { plain: 'Remote calls that crossed the network, each paying a round trip', unit: 'calls', source: ybDist },
  rpc_bytes: { plain: 'Bytes carried by those remote calls', unit: 'bytes', source: ybDist },
  rocksdb_number_db_seek: { plain: 'Iterator seeks in DocDB: jumps to a key, searching each memtable and SST', unit: 'seeks', source: ybDist },
  rocksdb_number_db_seek_found: { plain: 'Seeks that landed on an entry', unit: 'seeks', source: rocks },
  rocksdb_number_db_next: { plain: 'Iterator steps forward to the next key', unit: 'steps', source: ybDist },
  rocksdb_number_db_next_found: { plain: 'Steps forward that landed on an entry', unit: 'steps', source: rocks },
  rocksdb_number_db_prev: { plain: 'Iterator steps back to the previous key (each one a new search, slower than a next)', unit: 'steps', source: ybDist },
  rocksdb_number_db_prev_found: { plain: 'Steps back that landed on an entry', unit: 'steps', source: rocks },
  rocksdb_insert: { plain: 'Key-value entries written into the memtable', unit: 'entries', source: rocks },
  rocksdb_block_cache_hit: { plain: 'SST blocks found in the block cache', unit: 'blocks', source: rocks },
  rocksdb_block_cache_miss: { plain: 'SST blocks not in the block cache, read from the device', unit: 'blocks', source: rocks },
  rocksdb_block_cache_add: { plain: 'Blocks put into the block cache after a miss', unit: 'blocks', source: rocks },
  rocksdb_block_cache_data_hit: { plain: 'Data blocks (the rows) found in the block cache', unit: 'blocks', source: rocks },
  rocksdb_block_cache_data_miss: { plain: 'Data blocks read from the device', unit: 'blocks', source: rocks },
  rocksdb_block_cache_index_hit: { plain: 'SST index blocks found in the block cache', unit: 'blocks', source: rocks },
  rocksdb_block_cache_index_miss: { plain: 'SST index blocks read from the device', unit: 'blocks', source: rocks },
  rocksdb_block_cache_filter_hit: { plain: 'Bloom filter blocks found in the block cache', unit: 'blocks', source: rocks },
  rocksdb_block_cache_filter_miss: { plain: 'Bloom filter blocks read from the device', unit: 'blocks', source: rocks },
  rocksdb_block_cache_bytes_read: { plain: 'Bytes read out of the block cache', unit: 'bytes', source: rocks },
  rocksdb_block_cache_bytes_write: { plain: 'Bytes put into the block cache', unit: 'bytes', source: rocks },
  rocksdb_bloom_filter_checked: { plain: 'Bloom filter checks: "could this SST hold the key?"', unit: 'checks', source: rocks },
  rocksdb_bloom_filter_useful: { plain: 'Checks where the filter said "no", sparing a read of that SST', unit: 'checks', source: rocks },
  rocksdb_iter_bytes_read: { plain: 'Bytes of keys and values the iterators read', unit: 'bytes', source: rocks },
  docdb_keys_found: { plain: 'Keys DocDB found for the request', unit: 'keys', source: ybDist },
  flush_bytes: { plain: 'Bytes of memtable written out as new SST files', unit: 'bytes', source: rocks },
  compaction_read_bytes: { plain: 'Bytes of SST files compaction read back to merge them', unit: 'bytes', source: rocks },
  compaction_write_bytes: { plain: 'Bytes of new SST files compaction wrote', unit: 'bytes', source: rocks },
  write_amplification: { plain: 'Bytes written to the device for each byte the statements wrote', unit: '×', source: rocks },
};

/** The plain-words line for a counter, or a fallback that says it has none. */
export function explainCounter(name: string): string {
  return GLOSSARY[name]?.plain ?? `${name}: a counter of the engine`;
}

/** The unit of a counter ("" when unknown). */
export function unitOf(name: string): string {
  return GLOSSARY[name]?.unit ?? '';
}
