// The buffer pool view: every frame of shared_buffers, colored by the
// relation whose page it holds, the frame just hit, read or evicted flashed.
import type { TraceEvent } from '../../trace/traceData';
import type { ViewDef, ViewProps } from '../registry';
import { PoolView, type Flash } from './PoolView';
import { poolReducer, type PoolState } from './state';
import { count } from '../../format/numbers';
import { pageName } from '../../trace/indexes';
import type { TraceData } from '../../trace/traceData';

function flashOf(e: TraceEvent | undefined, trace: TraceData): Flash | null {
  if (e?.type === 'page_access') return { frame: e.frame, kind: e.hit ? 'hit' : 'read' };
  if (e?.type === 'page_evict') {
    return {
      frame: e.frame,
      kind: 'evict',
      page: nameOf(e.relation, e.fork, e.page, trace),
      written: e.written,
    };
  }
  return null;
}

function Pool({ state, last, width, trace }: ViewProps<PoolState>) {
  const relations = [...new Set([...state.frames.values()].map((f) => f.relation))].sort();
  return <PoolView pool={state} relations={relations} width={width} flash={flashOf(last, trace)} />;
}

/** A page's name: an index's page 0 is its metapage; a page of another fork says which. */
function nameOf(relation: string, fork: string, page: number, trace: TraceData | undefined): string {
  if (fork === 'main') return pageName(relation, page, trace);
  return fork === 'vm' ? `${relation}'s visibility map page ${page}` : `${relation} page ${page} (${fork})`;
}

function describe(e: TraceEvent, trace?: TraceData): string | null {
  switch (e.type) {
    case 'page_access':
      return e.hit
        ? `${nameOf(e.relation, e.fork, e.page, trace)}: found in buffer frame ${e.frame} (a shared hit: no I/O)${e.dirtied ? '; changed, so now dirty' : ''}`
        : `${nameOf(e.relation, e.fork, e.page, trace)}: not in the pool, read from storage into frame ${e.frame} (a shared read)${e.dirtied ? '; changed, so now dirty' : ''}`;
    case 'page_evict':
      return `${nameOf(e.relation, e.fork, e.page, trace)} left frame ${e.frame} to make room for another page${e.written ? '; it was dirty, so it was written back first' : ''}`;
    case 'checkpoint':
      return `Checkpoint: ${count(e.pages_written)} dirty page(s) written, so every frame is clean again`;
    default:
      return null;
  }
}

export const poolView: ViewDef<PoolState> = {
  id: 'pool',
  title: 'Buffer pool',
  profiles: ['pg'],
  reducer: poolReducer,
  Component: Pool,
  jumps: {
    'read from storage': { kinds: ['page_access'], test: (e) => e.type === 'page_access' && !e.hit },
    eviction: { kinds: ['page_evict'] },
  },
  describe,
  summary(state) {
    const by = new Map<string, { pages: number; dirty: number }>();
    for (const f of state.frames.values()) {
      const name = f.fork === 'main' ? f.relation : `${f.relation} (${f.fork})`;
      const n = by.get(name) ?? { pages: 0, dirty: 0 };
      n.pages += 1;
      if (f.dirty) n.dirty += 1;
      by.set(name, n);
    }
    const parts = [...by].sort((a, b) => a[0].localeCompare(b[0]));
    return [
      `${count(state.frames.size)} of ${count(state.capacity)} frames in use`,
      ...parts.map(([name, n]) => `${name}: ${count(n.pages)} page(s), ${count(n.dirty)} dirty`),
    ];
  },
};
