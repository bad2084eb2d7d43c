// The views' geometry, as pure functions of their state (D3 does the math,
// React draws): tested without a browser, and cheap enough to run per frame.
import { scaleLinear } from 'd3-scale';
import type { TabletState } from '../player/lsmState';
import type { TreeState } from '../player/treeState';

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
  bytes: number;
}

/** A tablet's levels, L0 first, SSTs as rectangles sized by bytes on one scale. */
export function lsmRows(t: TabletState, width: number): { level: number; ssts: SstRect[] }[] {
  const levels = [...t.levels].sort((a, b) => a[0] - b[0]);
  const total = (ids: readonly number[]) => ids.reduce((s, id) => s + (t.sizes.get(id) ?? 0), 0);
  const widest = Math.max(1, ...levels.map(([, ids]) => total(ids)));
  const x = scaleLinear().domain([0, widest]).range([0, width]);
  return levels.map(([level, ids]) => {
    let at = 0;
    const ssts = ids.map((id) => {
      const bytes = t.sizes.get(id) ?? 0;
      const r = { id, x: x(at), w: Math.max(2, x(at + bytes) - x(at) - 1), bytes };
      at += bytes;
      return r;
    });
    return { level, ssts };
  });
}
