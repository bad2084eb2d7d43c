// The LSM view: per tablet, its memtable, sealed memtables and SSTs by level;
// per tablet server, its block cache. A flush or compaction highlights its SSTs.
import type { TraceEvent } from '../../trace/traceData';
import type { ViewDef, ViewProps } from '../registry';
import { BlockCaches, LsmView } from './LsmView';
import { lsmReducer, type LsmState, type SstMeta } from './state';
import { count, kb, kbPrecise } from '../../format/numbers';

const NO_SSTS: ReadonlySet<number> = new Set();

function focusOf(e: TraceEvent | undefined): Set<number> {
  const ssts = new Set<number>();
  if (e?.type === 'flush') ssts.add(e.sst.id);
  if (e?.type === 'compaction_start') e.inputs.forEach((i) => ssts.add(i));
  if (e?.type === 'compaction_finish') e.outputs.forEach((o) => ssts.add(o.id));
  return ssts;
}

/** The inputs of the compaction that just finished, as they were, and where they went. */
function leavingOf(stateAt: (cursor: number) => LsmState, e: TraceEvent | undefined, cursor: number) {
  if (e?.type !== 'compaction_finish') return null;
  const before = stateAt(cursor - 1).tablets.get(e.tablet);
  if (!before) return null;
  const ssts = new Map<number, SstMeta>();
  for (const id of e.inputs) {
    const m = before.ssts.get(id);
    if (m) ssts.set(id, m);
  }
  return { tablet: e.tablet, level: before.running.get(e.id) ?? 1, ssts };
}

function Lsm({ state, stateAt, cursor, last, width }: ViewProps<LsmState>) {
  const focus = focusOf(last);
  const leaving = leavingOf(stateAt, last, cursor);
  return (
    <>
      <BlockCaches caches={state.caches} />
      {[...state.tablets].map(([id, t]) => (
        <LsmView
          key={id}
          id={id}
          tablet={t}
          width={width}
          // Tablets the event did not touch get the same props as last frame,
          // so they are not drawn again (LsmView is memoized).
          focus={[...focus].some((s) => t.ssts.has(s)) ? focus : NO_SSTS}
          leaving={leaving?.tablet === id ? leaving : undefined}
        />
      ))}
    </>
  );
}

function describe(e: TraceEvent): string | null {
  switch (e.type) {
    case 'memtable_insert':
      return `${e.relation} tablet ${e.tablet}: an entry (${e.bytes} bytes of key and value, ${e.charged} bytes of memtable with its skip-list links) went into the memtable, in memory: a write costs no page I/O`;
    case 'memtable_sealed':
      return `${e.relation} tablet ${e.tablet}: the memtable reached write_buffer_size with ${count(e.entries)} entries, so it was sealed (read-only) and a new one takes the writes`;
    case 'flush':
      return `${e.relation} tablet ${e.tablet}: the sealed memtable was written out as SST ${e.sst.id} in L0 (${count(e.sst.entries)} entries, ${count(e.sst.deletes)} tombstone(s)), sorted, in one sequential write`;
    case 'compaction_start':
      return `${e.relation} tablet ${e.tablet}: compaction of SSTs ${e.inputs.join(', ')} into L${e.output_level} starts: too many files in a level make every read look in each of them`;
    case 'compaction_finish':
      return `${e.relation} tablet ${e.tablet}: compaction done: SST(s) ${e.outputs.map((o) => o.id).join(', ') || 'none'} replace ${e.inputs.join(', ')}; ${e.dropped_versions} old version(s) and ${e.dropped_tombstones} tombstone(s) dropped; ${kbPrecise(e.read_bytes)} read and ${kbPrecise(e.write_bytes)} written again (write amplification)`;
    case 'block_cache':
      return `The block cache of tserver-${e.tserver + 1} now holds ${kbPrecise(e.used)} of ${kb(e.capacity)}`;
    default:
      return null;
  }
}

export const lsmView: ViewDef<LsmState> = {
  id: 'lsm',
  title: 'LSM tablets',
  profiles: ['yb'],
  reducer: lsmReducer,
  Component: Lsm,
  jumps: {
    'memtable sealed': { kinds: ['memtable_sealed'] },
    flush: { kinds: ['flush'] },
    compaction: { kinds: ['compaction_start', 'compaction_finish'] },
  },
  describe,
  summary(state) {
    const lines = [...state.tablets].map(([id, t]) => {
      const levels = [...t.levels]
        .sort((a, b) => a[0] - b[0])
        .map(([level, ids]) => `L${level}: ${ids.length} SST(s)`);
      const memtable = `${count(t.memtable.entries)} entries (${kbPrecise(t.memtable.bytes)} of ${kbPrecise(t.writeBufferSize)})`;
      return `${t.relation} tablet ${id}: memtable ${memtable}, ${t.immutables} sealed; ${levels.join(', ') || 'no SSTs'}`;
    });
    for (const [tserver, c] of state.caches) {
      lines.push(`block cache of tserver-${tserver + 1}: ${kbPrecise(c.used)} of ${kb(c.capacity)}`);
    }
    return lines;
  },
};
