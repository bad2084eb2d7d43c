import { describe, expect, it } from 'vitest';
import { lsmRows, poolGrid, STRIP_THRESHOLD, treeRows, visibleFrames } from './layout';
import type { TabletState } from '../player/lsmState';

describe('view layouts', () => {
  it('lays a tree out root first, leaves as boxes or, when many, as a strip', () => {
    const small = {
      relation: 't_pkey',
      levels: new Map([
        [0, [1, 2, 3]],
        [1, [4]],
      ]),
      fill: new Map([[1, 0.9]]),
    };
    const rows = treeRows(small, 300, 40);
    expect(rows.map((r) => r.level)).toEqual([1, 0]);
    expect(rows[1]?.mode).toBe('boxes');
    expect(rows[1]?.pages.map((p) => Math.round(p.x))).toEqual([0, 100, 200]);
    expect(rows[1]?.pages[0]?.fill).toBe(0.9);
    const many = Array.from({ length: STRIP_THRESHOLD + 1 }, (_, i) => i + 10);
    const big = { relation: 'x', levels: new Map([[0, many]]), fill: new Map() };
    expect(treeRows(big, 500, 40)[0]?.mode).toBe('strip');
    // Zoomed in 2x, the same level is boxes again.
    expect(treeRows(big, 1000, 40, 2)[0]?.mode).toBe('boxes');
  });

  it('draws a large pool up to its last used frame', () => {
    const frames = new Map([[0, 1], [300, 1]]);
    expect(visibleFrames({ capacity: 16384, frames })).toBe(320);
    expect(visibleFrames({ capacity: 16384, frames: new Map() })).toBe(256);
    expect(visibleFrames({ capacity: 512, frames })).toBe(512);
  });

  it('fits any pool in its width', () => {
    for (const capacity of [16, 1024, 16384]) {
      const g = poolGrid(capacity, 600);
      expect(g.cols * g.cell).toBeLessThanOrEqual(600);
      expect(g.cols * g.rows).toBeGreaterThanOrEqual(capacity);
    }
  });

  it('sizes SSTs by bytes on one scale for all levels', () => {
    const t: TabletState = {
      relation: 't',
      tserver: 0,
      immutables: 0,
      levels: new Map([
        [0, [7, 8]],
        [1, [3]],
      ]),
      running: new Map(),
      sizes: new Map([
        [7, 100],
        [8, 100],
        [3, 400],
      ]),
      memtable: { entries: 0, bytes: 0 },
      writeBufferSize: 1000,
    };
    const rows = lsmRows(t, 400);
    expect(rows.map((r) => r.level)).toEqual([0, 1]);
    expect(Math.round(rows[1]?.ssts[0]?.w ?? 0)).toBe(399);
    expect(Math.round(rows[0]?.ssts[1]?.x ?? 0)).toBe(100);
  });
});
