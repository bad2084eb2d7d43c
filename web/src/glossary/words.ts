// The words of storage engines a lesson uses, each in one or two plain
// sentences (our own). One glossary for the app: lessons' <Term> reads these
// and the counters' (glossary.ts).

export const WORDS: Readonly<Record<string, string>> = {
  'heap fetch': 'Reading a row from the table itself (the heap) after the index pointed at it. An index-only scan avoids it for pages the visibility map vouches for.',
  'visibility map': 'Two bits per table page kept by PostgreSQL: one says every row on the page is visible to every transaction. VACUUM sets it; any change to the page clears it.',
  seek: 'Positioning an LSM iterator on the first key at or after a target: a search of the memtable and of every file that may hold the key.',
  next: 'Moving an LSM iterator one entry forward: cheap, since every source is already positioned.',
  prev: 'Moving an LSM iterator one entry back. The memtable (a skip list) and the file blocks have no back links, so each prev searches again.',
  'read request': 'One call from the YugabyteDB query layer to a tablet server asking for rows: a network round trip, however many rows it brings back.',
  memtable: 'The in-memory sorted buffer an LSM writes into first. A write costs no page I/O; when the memtable is full it is sealed and flushed to a file.',
  flush: 'Writing a full memtable to disk as a new sorted file (an SST), in one sequential write.',
  compaction: 'Merging several sorted files of an LSM into fewer, dropping overwritten versions and tombstones, so reads have fewer files to look in.',
  'write amplification': 'Bytes written to storage per byte the application wrote: the same data is written again by flushes and compactions (LSM) or whole pages (B-tree).',
  'page split': 'When a B-tree page has no room for a new key, half of its keys (or, at the right edge, a few) move to a new page and the parent gets a pointer to it.',
  'buffer pool': "PostgreSQL's cache of 8 kB pages in shared memory (shared_buffers). A page found there is a hit; otherwise it is read from storage.",
  SST: 'A sorted string table: an immutable sorted file of an LSM, made of data blocks, an index block and a bloom filter.',
  'bloom filter': 'A small bit array per file that answers "is this key certainly not here?" so a point lookup skips most files without reading them.',
  tombstone: 'A delete in an LSM: a marker written like any other entry. The old value stays in older files until a compaction drops both.',
  VACUUM: "PostgreSQL's clean-up: it removes dead row versions, records free space, and marks all-visible pages in the visibility map.",
  fillfactor: 'How full PostgreSQL packs a B-tree page when it splits at the right edge (90 % for indexes): the room left is for later updates.',
  tablet: 'A shard of a YugabyteDB table: a range (or hash range) of its keys, with an LSM of its own on one tablet server.',
  'round trip': 'A message to another machine and its answer. Its time is set by the network, not by the work: 0.1 ms in one zone, tens of ms across regions.',
  'nested loop': 'A join that, for each row of the outer side, looks up the matching rows of the inner side.',
  'batched nested loop': "YugabyteDB's nested loop that collects many outer rows (yb_bnl_batch_size) and looks all their matches up in one request.",
  'index-only scan': 'A scan that answers from the index alone, without reading the table, for the pages the visibility map marks all-visible.',
  'packed row': "YugabyteDB's row format that stores a row's columns in one value instead of one key-value per column: fewer entries to read per row.",
  'block cache': "An LSM's cache of file blocks (data, index and filter) in memory, like PostgreSQL's buffer pool for pages.",
  L0: 'The first level of an LSM: files flushed from memtables, which may overlap each other, so a read looks in every one.',
  'fetch limit': 'How many rows one read request may bring back (yb_fetch_row_limit): a scan of more rows needs several requests.',
  RPC: 'A remote procedure call: a request from one node to another over the network, and its reply.',
  'dead tuple': 'A row version that no transaction can see any more (deleted, or replaced by an update). It takes space until VACUUM removes it.',
  'unique check': 'Before inserting into a unique index, the database must look for an existing equal key: a read before every write.',
};

/** The views' colors for the things a lesson's words name (the same hexes as styles.css). */
export const HUES: Readonly<Record<string, string>> = {
  'heap fetch': '#e69f00',
  'buffer hit': '#56b4e9',
  'read from storage': '#d55e00',
  leaf: '#009e73',
  seek: '#d55e00',
  next: '#0072b2',
  prev: '#cc79a7',
  memtable: '#e69f00',
  sst: '#009e73',
  flush: '#009e73',
  compaction: '#009e73',
  split: '#d55e00',
  page: '#0072b2',
};
