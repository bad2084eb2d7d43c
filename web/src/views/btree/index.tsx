// The B+tree view: every index of the pg profile, level by level, the page
// that just split highlighted and the pages the current descent or scan read.
import type { TraceData, TraceEvent } from '../../trace/traceData';
import type { ViewDef, ViewProps } from '../registry';
import { BTreeView } from './BTreeView';
import { treeReducer, type TreesState } from './state';
import { count } from '../../format/numbers';

/** How many events back the highlighted path of a tree reaches. */
const TRAIL = 12;

/** Per index, the pages its last events touched in this statement: the descent or scan in progress. */
function trailsOf(trace: TraceData, cursor: number): Map<string, Set<number>> {
  const trails = new Map<string, Set<number>>();
  for (let i = cursor - 1; i >= Math.max(0, cursor - TRAIL); i--) {
    const kind = trace.kind(i);
    if (kind === 'statement_start') break;
    if (kind !== 'page_access' && kind !== 'cursor_step') continue;
    const e = trace.event(i);
    if (e.type === 'page_access' || e.type === 'cursor_step') {
      const set = trails.get(e.relation) ?? new Set<number>();
      set.add(e.page);
      trails.set(e.relation, set);
    }
  }
  return trails;
}

function Trees({ state, trace, cursor, last, width }: ViewProps<TreesState>) {
  const focus = last?.type === 'page_split' ? { relation: last.relation, page: last.new_page } : null;
  const trails = trailsOf(trace, cursor);
  return (
    <>
      {[...state.values()].map((tree) => (
        <BTreeView
          key={tree.relation}
          tree={tree}
          width={width}
          focus={focus?.relation === tree.relation ? focus.page : null}
          trail={trails.get(tree.relation)}
        />
      ))}
    </>
  );
}

function pct(f: number): string {
  return `${Math.round(f * 100)} %`;
}

function describe(e: TraceEvent): string | null {
  if (e.type === 'page_split') {
    const why = e.rightmost
      ? `it was the rightmost page of its level, so PostgreSQL keeps ${e.fillfactor} % (the fillfactor) on the left: sequential inserts leave full pages behind`
      : `it was not the rightmost page, so its entries are shared about half and half`;
    const root = e.new_root !== null ? ` The page was the root: a new root, page ${e.new_root}, now sits one level up.` : '';
    return `${e.relation}: page ${e.page} (level ${e.level}) was full and split; ${why}. Left ${pct(e.left_fill)}, new right page ${e.new_page} ${pct(e.right_fill)}; separator ${e.separator} posted to the parent.${root}`;
  }
  return null;
}

export const btreeView: ViewDef<TreesState> = {
  id: 'btree',
  title: 'B+tree indexes',
  profiles: ['pg'],
  reducer: treeReducer,
  Component: Trees,
  jumps: { 'page split': { kinds: ['page_split'] } },
  describe,
  summary(state) {
    return [...state.values()].map((t) => {
      const levels = [...t.levels].sort((a, b) => b[0] - a[0]);
      const parts = levels.map(([level, pages]) => {
        const fills = pages.map((p) => t.fill.get(p) ?? 0);
        const mean = fills.reduce((a, b) => a + b, 0) / Math.max(1, fills.length);
        return `level ${level}: ${count(pages.length)} page(s), mean fill ${pct(mean)}`;
      });
      return `${t.relation}: ${parts.join('; ')}`;
    });
  },
};

