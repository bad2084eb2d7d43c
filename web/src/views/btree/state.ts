// The B+tree view's state: each index's pages, level by level, left to right,
// with their fill. Starts from a pg snapshot's tree shapes; a split puts the
// new right sibling after the page that split (and a root split adds a level),
// with the fills the engine measured after the split.

import type { Reducer } from '../../trace/timeline';
import type { TraceEvent } from '../../trace/traceData';

export interface TreeState {
  relation: string;
  /** Level (0: leaves) → page numbers, left to right. */
  levels: ReadonlyMap<number, readonly number[]>;
  /** Page → used fraction of its space, as last known. */
  fill: ReadonlyMap<number, number>;
  /**
   * Page → its high key as text (null: the rightmost page, no bound). Known
   * for pages of trees the snapshots sent keys for, and for both halves of
   * every split since.
   */
  high: ReadonlyMap<number, string | null>;
}

export type TreesState = ReadonlyMap<string, TreeState>;

function rightmostOf(levels: ReadonlyMap<number, readonly number[]>, level: number, page: number) {
  const row = levels.get(level);
  return !row || row.length === 0 || row[row.length - 1] === page;
}

export const treeReducer: Reducer<TreesState> = {
  fromSnapshot(s) {
    const trees = new Map<string, TreeState>();
    if (s.profile !== 'pg') return trees;
    for (const t of s.trees) {
      const levels = new Map<number, number[]>();
      const fill = new Map<number, number>();
      const high = new Map<number, string | null>();
      for (const l of t.levels) {
        levels.set(l.level, [...l.pages]);
        l.pages.forEach((p, i) => {
          fill.set(p, l.fill[i] ?? 0);
          const h = l.high?.[i];
          if (h !== undefined) high.set(p, h);
        });
      }
      trees.set(t.relation, { relation: t.relation, levels, fill, high });
    }
    return trees;
  },
  apply(state, e: TraceEvent) {
    if (e.type !== 'page_split') return state;
    const t = state.get(e.relation) ?? {
      relation: e.relation,
      levels: new Map(),
      fill: new Map(),
      high: new Map(),
    };
    const levels = new Map(t.levels);
    const fill = new Map(t.fill);
    // The right half inherits the page's bound; the separator bounds the left.
    const high = new Map(t.high);
    const old = t.high.get(e.page);
    if (old !== undefined) high.set(e.new_page, old);
    else if (rightmostOf(t.levels, e.level, e.page)) high.set(e.new_page, null);
    high.set(e.page, e.separator);
    const row = [...(levels.get(e.level) ?? [e.page])];
    const at = row.indexOf(e.page);
    row.splice(at < 0 ? row.length : at + 1, 0, e.new_page);
    levels.set(e.level, row);
    fill.set(e.page, e.left_fill);
    fill.set(e.new_page, e.right_fill);
    if (e.new_root !== null) {
      levels.set(e.level + 1, [e.new_root]);
      high.set(e.new_root, null);
    }
    if (e.parent !== null && e.parent_fill !== null) fill.set(e.parent, e.parent_fill);
    const next = new Map(state);
    next.set(e.relation, { relation: e.relation, levels, fill, high });
    return next;
  },
};

/** Each tree's pages per level, in order, as text: what two states must agree on. */
export function treeLayoutKey(state: TreesState): string[] {
  const out: string[] = [];
  for (const [name, t] of state) {
    // A tree of one page draws the same whether or not a snapshot saw it yet.
    const pages = [...t.levels.values()].reduce((n, l) => n + l.length, 0);
    if (pages <= 1) continue;
    for (const [level, pages] of [...t.levels].sort((a, b) => a[0] - b[0])) {
      out.push(`${name} L${level}: ${pages.join(',')}`);
      const bounds = pages.map((p) => (t.high.has(p) ? (t.high.get(p) ?? '+inf') : '?'));
      out.push(`${name} L${level} high: ${bounds.join(' ')}`);
    }
  }
  return out.sort();
}
