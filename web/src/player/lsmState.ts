// The LSM view's state per tablet: sealed memtables waiting for a flush and the
// SSTs of every level. Starts from a yb snapshot; flushes add an L0 SST,
// compactions replace their inputs by their outputs on the output level.

import type { Reducer } from './player';
import type { TraceEvent } from './trace';

export interface TabletState {
  relation: string;
  tserver: number;
  immutables: number;
  /** Level → SST ids (L0 newest first). */
  levels: ReadonlyMap<number, readonly number[]>;
  /** Compactions started and not finished: id → output level. */
  running: ReadonlyMap<number, number>;
  /** SST id → bytes (compaction outputs share the bytes written equally). */
  sizes: ReadonlyMap<number, number>;
  /** The active memtable as last known, and its budget. */
  memtable: { entries: number; bytes: number };
  writeBufferSize: number;
}

export type LsmState = ReadonlyMap<number, TabletState>;

/** The tablets part of a yb snapshot (core/src/yb/snapshot.rs). */
export interface YbSnapshotState {
  tablets: {
    tablet: number;
    relation: string;
    tserver: number;
    immutables: unknown[];
    write_buffer_size: number;
    memtable: { entries: number; bytes: number };
    levels: { level: number; ssts: { id: number; bytes: number }[] }[];
  }[];
}

/** Applies `f` to a tablet; a tablet created after the snapshot starts empty. */
function update(
  state: LsmState,
  tablet: number,
  relation: string,
  f: (t: TabletState) => TabletState,
): LsmState {
  const t = state.get(tablet) ?? {
    relation,
    tserver: -1,
    immutables: 0,
    levels: new Map(),
    running: new Map(),
    sizes: new Map(),
    memtable: { entries: 0, bytes: 0 },
    writeBufferSize: 0,
  };
  const next = new Map(state);
  next.set(tablet, f(t));
  return next;
}

export const lsmReducer: Reducer<LsmState, YbSnapshotState> = {
  fromSnapshot(s) {
    const state = new Map<number, TabletState>();
    for (const t of s.tablets) {
      const levels = new Map<number, number[]>();
      const sizes = new Map<number, number>();
      for (const l of t.levels) {
        if (l.ssts.length) levels.set(l.level, l.ssts.map((x) => x.id));
        for (const x of l.ssts) sizes.set(x.id, x.bytes);
      }
      state.set(t.tablet, {
        relation: t.relation,
        tserver: t.tserver,
        immutables: t.immutables.length,
        levels,
        running: new Map(),
        sizes,
        memtable: { entries: t.memtable.entries, bytes: t.memtable.bytes },
        writeBufferSize: t.write_buffer_size,
      });
    }
    return state;
  },
  apply(state, e: TraceEvent) {
    switch (e.type) {
      case 'memtable_insert':
        return update(state, e.tablet, e.relation, (t) => ({
          ...t,
          memtable: { entries: t.memtable.entries + 1, bytes: t.memtable.bytes + e.bytes },
        }));
      case 'memtable_sealed':
        return update(state, e.tablet, e.relation, (t) => ({
          ...t,
          immutables: t.immutables + 1,
          memtable: { entries: 0, bytes: 0 },
        }));
      case 'flush':
        return update(state, e.tablet, e.relation, (t) => {
          const levels = new Map(t.levels);
          levels.set(0, [e.sst, ...(levels.get(0) ?? [])]);
          const sizes = new Map(t.sizes);
          sizes.set(e.sst, e.bytes);
          return { ...t, immutables: Math.max(0, t.immutables - 1), levels, sizes };
        });
      case 'compaction_start':
        return update(state, e.tablet, e.relation, (t) => {
          const running = new Map(t.running);
          running.set(e.id, e.output_level);
          return { ...t, running };
        });
      case 'compaction_finish':
        return update(state, e.tablet, e.relation, (t) => {
          const gone = new Set(e.inputs);
          const levels = new Map<number, readonly number[]>();
          for (const [level, ids] of t.levels) {
            const kept = ids.filter((id) => !gone.has(id));
            if (kept.length) levels.set(level, kept);
          }
          const output = t.running.get(e.id) ?? Math.max(0, ...t.levels.keys());
          if (e.outputs.length) {
            levels.set(output, [...(levels.get(output) ?? []), ...e.outputs]);
          }
          const running = new Map(t.running);
          running.delete(e.id);
          const sizes = new Map(t.sizes);
          for (const id of e.inputs) sizes.delete(id);
          for (const id of e.outputs) sizes.set(id, e.write_bytes / e.outputs.length);
          return { ...t, levels, running, sizes };
        });
      default:
        return state;
    }
  },
};

/** Each tablet's SSTs per level as sorted text: what two states must agree on. */
export function sstLayout(state: LsmState): string[] {
  const out: string[] = [];
  for (const [tablet, t] of state) {
    // An empty tablet draws as nothing, whether or not a snapshot saw it yet.
    if (t.immutables === 0 && t.levels.size === 0 && t.memtable.entries === 0) continue;
    for (const [level, ids] of t.levels) {
      out.push(`${tablet} L${level}: ${[...ids].sort((a, b) => a - b).join(',')}`);
    }
    out.push(`${tablet} immutables: ${t.immutables}, memtable entries: ${t.memtable.entries}`);
  }
  return out.sort();
}
