// The visibility map at a cursor: which heap pages are all-visible, so an
// Index Only Scan can skip them. The nearest snapshot gives the bits; the
// visibility changes after it (VACUUM sets bits, a change to a page clears
// its bit; the trace always keeps them) bring them to the cursor.
import { snapshotIndexBefore } from '../../trace/timeline';
import type { TraceData } from '../../trace/traceData';

export interface HeapVisibility {
  relation: string;
  pages: number;
  /** 1 for an all-visible page. */
  visible: Uint8Array;
}

interface Change {
  at: number;
  relation: string;
  page: number;
  allVisible: boolean;
}

interface Cached {
  /** Per snapshot: the changes after it, up to the next snapshot. */
  changes: Map<number, Change[]>;
  last?: { snapshot: number; applied: number; result: Map<string, HeapVisibility> };
}

const cache = new WeakMap<TraceData, Cached>();

function changesAfter(trace: TraceData, j: number, c: Cached): Change[] {
  let list = c.changes.get(j);
  if (list) return list;
  list = [];
  const from = trace.snapshots[j]?.at_event ?? 0;
  const to = trace.snapshots[j + 1]?.at_event ?? trace.length;
  for (let i = from; i < to; i++) {
    if (trace.kind(i) !== 'visibility_change') continue;
    const e = trace.event(i);
    if (e.type === 'visibility_change') list.push({ at: i, relation: e.relation, page: e.page, allVisible: e.all_visible });
  }
  c.changes.set(j, list);
  return list;
}

/** Every heap's visibility map with the first `cursor` events applied. */
export function visibilityAt(trace: TraceData, cursor: number): Map<string, HeapVisibility> {
  let c = cache.get(trace);
  if (!c) {
    c = { changes: new Map() };
    cache.set(trace, c);
  }
  const j = snapshotIndexBefore(trace, cursor);
  if (j < 0) return new Map();
  const changes = changesAfter(trace, j, c);
  let applied = 0;
  while (applied < changes.length && (changes[applied]?.at ?? Infinity) < cursor) applied++;
  if (c.last && c.last.snapshot === j && c.last.applied === applied) return c.last.result;
  const snapshot = trace.snapshotState(j);
  const result = new Map<string, HeapVisibility>();
  if (snapshot.profile === 'pg') {
    for (const h of snapshot.heaps) {
      const grown = Math.max(h.pages, ...changes.slice(0, applied).filter((x) => x.relation === h.relation).map((x) => x.page + 1));
      const visible = new Uint8Array(grown);
      for (const [first, last] of h.all_visible) visible.fill(1, first, last + 1);
      result.set(h.relation, { relation: h.relation, pages: grown, visible });
    }
  }
  for (const x of changes.slice(0, applied)) {
    const h = result.get(x.relation);
    if (!h) continue;
    if (x.page < h.pages) h.visible[x.page] = x.allVisible ? 1 : 0;
  }
  c.last = { snapshot: j, applied, result };
  return result;
}
