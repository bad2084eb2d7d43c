// Which relations of a run are B-tree indexes: a page 0 of one is its
// metapage (where the root is), which the B+tree view does not draw, so a
// caption about it must say so. The events name relations only; the engine's
// snapshots list its trees, and a split happens only in an index.
import type { TraceData } from './traceData';

const known = new WeakMap<TraceData, ReadonlySet<string>>();

/** The names of the run's B-tree indexes (from its snapshots and its splits), kept per trace. */
export function indexesOf(trace: TraceData): ReadonlySet<string> {
  let names = known.get(trace);
  if (!names) {
    const found = new Set<string>();
    trace.snapshots.forEach((_, j) => {
      const s = trace.snapshotState(j);
      if (s.profile === 'pg') for (const t of s.trees) found.add(t.relation);
    });
    for (let i = 0; i < trace.length; i++) {
      if (trace.kind(i) !== 'page_split') continue;
      const e = trace.event(i);
      if (e.type === 'page_split') found.add(e.relation);
    }
    names = found;
    known.set(trace, names);
  }
  return names;
}

/** "demo page 3", or "demo_pkey page 0 (its metapage…)" for an index's page 0. */
export function pageName(relation: string, page: number, trace: TraceData | undefined): string {
  const meta = page === 0 && trace !== undefined && indexesOf(trace).has(relation);
  return `${relation} page ${page}${meta ? " (the index's metapage, which says where the root is; the tree view does not draw it)" : ''}`;
}
