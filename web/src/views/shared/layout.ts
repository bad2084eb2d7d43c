// The views' geometry, as pure functions of their state (D3 does the math,
// React draws): tested without a browser, and cheap enough to run per frame.
import { scaleLinear } from 'd3-scale';
import type { TabletState } from '../lsm/state';
import type { TreeState } from '../btree/state';

/** Pages per level above which a level draws as a fill-density strip. */
export const STRIP_THRESHOLD = 96;

export interface PageBox {
  page: number;
  x: number;
  w: number;
  fill: number;
}

export interface TreeRow {
  level: number;
  y: number;
  mode: 'boxes' | 'strip';
  pages: PageBox[];
}

/**
 * Levels root first, each row's pages spread over `width` in chain order. At
 * zoom `k` a level stays boxes up to k times more pages (they are that wide).
 */
export function treeRows(tree: TreeState, width: number, rowHeight: number, k = 1): TreeRow[] {
  const levels = [...tree.levels].sort((a, b) => b[0] - a[0]);
  return levels.map(([level, pages], i) => {
    const n = Math.max(1, pages.length);
    const x = scaleLinear().domain([0, n]).range([0, width]);
    const mode = pages.length > STRIP_THRESHOLD * k ? 'strip' : 'boxes';
    const gap = mode === 'boxes' ? Math.min(4, (width / n) * 0.15) : 0;
    return {
      level,
      y: i * rowHeight,
      mode,
      pages: pages.map((page, j) => ({
        page,
        x: x(j),
        w: Math.max(0.5, x(j + 1) - x(j) - gap),
        fill: tree.fill.get(page) ?? 0,
      })),
    };
  });
}

/**
 * How many frames to draw: all of a small pool; of a large one (a 128MB pool
 * is 16384 frames) those up to the last one used, so a small run's pages are
 * not lost in a sea of free frames. Frames fill from 0 until the pool is full.
 */
export function visibleFrames(pool: { capacity: number; frames: ReadonlyMap<number, unknown> }): number {
  if (pool.capacity <= 1024) return pool.capacity;
  const last = Math.max(-1, ...pool.frames.keys());
  return Math.min(pool.capacity, Math.max(256, Math.ceil((last + 1) / 64) * 64));
}

/** Frames in a grid of square cells that fits `width`. */
export function poolGrid(capacity: number, width: number): { cols: number; rows: number; cell: number } {
  const n = Math.max(1, capacity);
  // Aim for cells of 6 to 24 pixels; a 16384-frame pool draws as 2-pixel cells.
  const cell = Math.max(2, Math.min(24, Math.floor(Math.sqrt((width * width * 0.35) / n))));
  const cols = Math.max(1, Math.floor(width / cell));
  return { cols, rows: Math.ceil(n / cols), cell };
}

export interface SstRect {
  id: number;
  x: number;
  w: number;
  /** Thickness in its lane, 0..1: bigger files draw thicker (keys axis). */
  h: number;
  bytes: number;
  entries: number;
  deletes: number;
}

/** One lane of a tablet's picture: a level, or one L0 file (L0 files overlap). */
export interface LsmLane {
  level: number;
  /** The first lane of its level (where the label goes). */
  first: boolean;
  ssts: SstRect[];
}

/** Hex digits of a key read after the keys' common prefix. */
const DIGITS = 12;

function commonPrefix(keys: readonly string[]): number {
  const first = keys[0] ?? '';
  let n = first.length;
  for (const k of keys) {
    let i = 0;
    while (i < n && i < k.length && k[i] === first[i]) i++;
    n = i;
  }
  return n;
}

/**
 * Positions of hex keys on [0, width]: each key read as a number from the
 * first digits after the prefix all keys share, so the keys of one tablet
 * (one table, one hash range) spread over the width in key order.
 */
export function keyScale(keys: readonly string[], width: number): (key: string) => number {
  const skip = commonPrefix(keys);
  const num = (k: string) => parseInt(k.slice(skip, skip + DIGITS).padEnd(DIGITS, '0'), 16) || 0;
  const values = keys.map(num);
  const lo = Math.min(...values);
  const hi = Math.max(...values);
  const x = scaleLinear()
    .domain([lo, hi > lo ? hi : lo + 1])
    .range([0, width]);
  return (k) => x(num(k));
}

/**
 * A tablet's SSTs, L0 first. On the keys axis each SST spans its key range and
 * every L0 file gets its own lane (newest on top), so overlaps show; on the
 * bytes axis a level is one lane of files side by side, on one scale for all
 * levels, so the levels' sizes compare.
 */
export function lsmLanes(t: TabletState, width: number, axis: 'keys' | 'bytes'): LsmLane[] {
  const levels = [...t.levels].sort((a, b) => a[0] - b[0]);
  const metaOf = (id: number) =>
    t.ssts.get(id) ?? { bytes: 0, entries: 0, deletes: 0, smallest: '', largest: '' };
  if (axis === 'bytes') {
    const total = (ids: readonly number[]) => ids.reduce((s, id) => s + metaOf(id).bytes, 0);
    const widest = Math.max(1, ...levels.map(([, ids]) => total(ids)));
    const x = scaleLinear().domain([0, widest]).range([0, width]);
    return levels.map(([level, ids]) => {
      let at = 0;
      const ssts = ids.map((id) => {
        const m = metaOf(id);
        const r = { id, x: x(at), w: Math.max(2, x(at + m.bytes) - x(at) - 1), h: 1, ...m };
        at += m.bytes;
        return r;
      });
      return { level, first: true, ssts };
    });
  }
  const all = levels.flatMap(([, ids]) => ids.map(metaOf));
  const x = keyScale(
    all.flatMap((m) => [m.smallest, m.largest]),
    width,
  );
  const biggest = Math.max(1, ...all.map((m) => m.bytes));
  const rect = (id: number): SstRect => {
    const m = metaOf(id);
    const x0 = x(m.smallest);
    return {
      id,
      x: x0,
      w: Math.max(3, x(m.largest) - x0),
      h: 0.35 + 0.65 * Math.sqrt(m.bytes / biggest),
      bytes: m.bytes,
      entries: m.entries,
      deletes: m.deletes,
    };
  };
  return levels.flatMap(([level, ids]) =>
    level === 0
      ? ids.map((id, i) => ({ level, first: i === 0, ssts: [rect(id)] }))
      : [{ level, first: true, ssts: ids.map(rect) }],
  );
}
