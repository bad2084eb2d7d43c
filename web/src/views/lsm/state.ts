// The LSM view's state: per tablet, sealed memtables waiting for a flush and
// the SSTs of every level (size, entries, tombstones, key range); per tablet
// server, the block cache's occupancy. Starts from a yb snapshot; flushes add
// an L0 SST, compactions replace their inputs by their outputs on the output
// level, and the engine reports each change of a block cache's bytes.

import type { SstSummary } from '../../engine/schema.gen';
import type { Reducer } from '../../trace/timeline';
import type { TraceEvent } from '../../trace/traceData';

/** An SST as the view draws it. */
export type SstMeta = Omit<SstSummary, 'id'>;

export interface TabletState {
  relation: string;
  tserver: number;
  immutables: number;
  /** Level → SST ids (L0 newest first). */
  levels: ReadonlyMap<number, readonly number[]>;
  /** Compactions started and not finished: id → output level. */
  running: ReadonlyMap<number, number>;
  ssts: ReadonlyMap<number, SstMeta>;
  /** The active memtable as last known, and its budget. */
  memtable: { entries: number; bytes: number };
  writeBufferSize: number;
}

export interface CacheState {
  capacity: number;
  used: number;
}

export interface LsmState {
  tablets: ReadonlyMap<number, TabletState>;
  /** Tablet server → its block cache. */
  caches: ReadonlyMap<number, CacheState>;
}

function meta(s: SstSummary): SstMeta {
  return {
    bytes: s.bytes,
    entries: s.entries,
    deletes: s.deletes,
    smallest: s.smallest,
    largest: s.largest,
  };
}

/** Applies `f` to a tablet; a tablet created after the snapshot starts empty. */
function update(
  state: LsmState,
  tablet: number,
  relation: string,
  f: (t: TabletState) => TabletState,
): LsmState {
  const t = state.tablets.get(tablet) ?? {
    relation,
    tserver: -1,
    immutables: 0,
    levels: new Map(),
    running: new Map(),
    ssts: new Map(),
    memtable: { entries: 0, bytes: 0 },
    writeBufferSize: 0,
  };
  const tablets = new Map(state.tablets);
  tablets.set(tablet, f(t));
  return { ...state, tablets };
}

function compactionFinish(t: TabletState, e: Extract<TraceEvent, { type: 'compaction_finish' }>) {
  const gone = new Set(e.inputs);
  const levels = new Map<number, readonly number[]>();
  for (const [level, ids] of t.levels) {
    const kept = ids.filter((id) => !gone.has(id));
    if (kept.length) levels.set(level, kept);
  }
  const output = t.running.get(e.id) ?? Math.max(0, ...t.levels.keys());
  if (e.outputs.length) {
    levels.set(output, [...(levels.get(output) ?? []), ...e.outputs.map((o) => o.id)]);
  }
  const running = new Map(t.running);
  running.delete(e.id);
  const ssts = new Map(t.ssts);
  for (const id of e.inputs) ssts.delete(id);
  for (const o of e.outputs) ssts.set(o.id, meta(o));
  return { ...t, levels, running, ssts };
}

export const lsmReducer: Reducer<LsmState> = {
  fromSnapshot(s) {
    const tablets = new Map<number, TabletState>();
    if (s.profile !== 'yb') return { tablets, caches: new Map() };
    for (const t of s.tablets) {
      const levels = new Map<number, number[]>();
      const ssts = new Map<number, SstMeta>();
      for (const l of t.levels) {
        if (l.ssts.length) levels.set(l.level, l.ssts.map((x) => x.id));
        for (const x of l.ssts) ssts.set(x.id, meta(x));
      }
      tablets.set(t.tablet, {
        relation: t.relation,
        tserver: t.tserver,
        immutables: t.immutables.length,
        levels,
        running: new Map(),
        ssts,
        memtable: { entries: t.memtable.entries, bytes: t.memtable.bytes },
        writeBufferSize: t.write_buffer_size,
      });
    }
    const caches = new Map(
      s.caches.map((c) => [c.tserver, { capacity: c.capacity, used: c.used }]),
    );
    return { tablets, caches };
  },
  apply(state, e: TraceEvent) {
    switch (e.type) {
      case 'memtable_insert':
        return update(state, e.tablet, e.relation, (t) => ({
          ...t,
          // What the engine counts against write_buffer_size, not just the
          // key and value: the bar fills where the memtable is sealed.
          memtable: { entries: t.memtable.entries + 1, bytes: t.memtable.bytes + e.charged },
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
          levels.set(0, [e.sst.id, ...(levels.get(0) ?? [])]);
          const ssts = new Map(t.ssts);
          ssts.set(e.sst.id, meta(e.sst));
          return { ...t, immutables: Math.max(0, t.immutables - 1), levels, ssts };
        });
      case 'compaction_start':
        return update(state, e.tablet, e.relation, (t) => {
          const running = new Map(t.running);
          running.set(e.id, e.output_level);
          return { ...t, running };
        });
      case 'compaction_finish':
        return update(state, e.tablet, e.relation, (t) => compactionFinish(t, e));
      case 'block_cache': {
        const caches = new Map(state.caches);
        caches.set(e.tserver, { capacity: e.capacity, used: e.used });
        return { ...state, caches };
      }
      default:
        return state;
    }
  },
};

/** Each tablet's SSTs per level as sorted text: what two states must agree on. */
export function sstLayout(state: LsmState): string[] {
  const out: string[] = [];
  for (const [tablet, t] of state.tablets) {
    // An empty tablet draws as nothing, whether or not a snapshot saw it yet.
    if (t.immutables === 0 && t.levels.size === 0 && t.memtable.entries === 0) continue;
    for (const [level, ids] of t.levels) {
      const described = [...ids]
        .sort((a, b) => a - b)
        .map((id) => {
          const m = t.ssts.get(id);
          return m ? `${id}[${m.smallest}..${m.largest} ${m.entries}/${m.deletes}]` : `${id}[?]`;
        });
      out.push(`${tablet} L${level}: ${described.join(',')}`);
    }
    out.push(`${tablet} immutables: ${t.immutables}, memtable entries: ${t.memtable.entries}`);
  }
  for (const [tserver, c] of state.caches) out.push(`cache ${tserver}: ${c.used} of ${c.capacity}`);
  return out.sort();
}
