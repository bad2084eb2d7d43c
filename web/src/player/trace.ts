// The trace as the engine sends it (core/src/trace_json.rs): typed events in
// order, snapshots of the engine's state taken between statements, and how
// many detail events the budget dropped.

/** An SST as snapshots and compaction events describe it (keys as hex). */
export interface SstJson {
  id: number;
  bytes: number;
  entries: number;
  /** Tombstones among the entries. */
  deletes: number;
  smallest: string;
  largest: string;
}

export type TraceEvent =
  | { type: 'statement_start'; index: number; sql: string; at_us: number }
  | { type: 'statement_end'; index: number; at_us: number }
  | {
      type: 'page_access';
      relation: string;
      page: number;
      frame: number;
      hit: boolean;
      dirtied: boolean;
    }
  | {
      type: 'page_evict';
      relation: string;
      fork: string;
      page: number;
      frame: number;
      written: boolean;
    }
  | {
      type: 'page_split';
      relation: string;
      page: number;
      new_page: number;
      level: number;
      root_split: boolean;
      new_root: number | null;
      /** The key posted to the parent (text): the left page's new high key. */
      separator: string;
    }
  | { type: 'tuple_insert'; relation: string; page: number; offset: number }
  | { type: 'visibility_change'; relation: string; page: number; all_visible: boolean }
  | { type: 'cursor_step'; relation: string; page: number; backward: boolean }
  | { type: 'checkpoint'; pages_written: number }
  | { type: 'memtable_insert'; relation: string; tablet: number; bytes: number }
  | { type: 'memtable_sealed'; relation: string; tablet: number; entries: number; bytes: number }
  | {
      type: 'flush';
      relation: string;
      tablet: number;
      sst: number;
      bytes: number;
      entries: number;
      deletes: number;
      smallest: string;
      largest: string;
    }
  | {
      type: 'compaction_start';
      relation: string;
      tablet: number;
      id: number;
      inputs: number[];
      output_level: number;
    }
  | {
      type: 'compaction_finish';
      relation: string;
      tablet: number;
      id: number;
      inputs: number[];
      outputs: SstJson[];
      read_bytes: number;
      write_bytes: number;
      dropped_versions: number;
      dropped_tombstones: number;
    }
  | {
      type: 'read_request';
      relation: string;
      tablet: number;
      seeks: number;
      nexts: number;
      prevs: number;
      rows: number;
      cache_hits: number;
      cache_misses: number;
    }
  | { type: 'block_cache'; tserver: number; used: number; capacity: number }
  | {
      type: 'rpc';
      kind: string;
      from: string;
      to: string;
      tablet: number;
      ops: number;
      rows: number;
      bytes: number;
      send_us: number;
      arrive_us: number;
    };

export interface Snapshot<S = unknown> {
  /** The state just before this event (a statement's start), or at the end. */
  at_event: number;
  statement: number;
  state: S;
}

export interface Trace<S = unknown> {
  events: TraceEvent[];
  snapshots: Snapshot<S>[];
  dropped: number;
}
