import { describe, expect, it } from 'vitest';
import { keyScale, lsmLanes, poolGrid, STRIP_THRESHOLD, treeRows, visibleFrames } from './layout';
import type { TabletState } from '../lsm/state';

describe('view layouts', () => {
  it('lays a tree out root first, leaves as boxes or, when many, as a strip', () => {
    const small = {
      relation: 't_pkey',
      levels: new Map([
        [0, [1, 2, 3]],
        [1, [4]],
      ]),
      fill: new Map([[1, 0.9]]),
      high: new Map(),
    };
    const rows = treeRows(small, 300, 40);
    expect(rows.map((r) => r.level)).toEqual([1, 0]);
    expect(rows[1]?.mode).toBe('boxes');
    expect(rows[1]?.pages.map((p) => Math.round(p.x))).toEqual([0, 100, 200]);
    expect(rows[1]?.pages[0]?.fill).toBe(0.9);
    const many = Array.from({ length: STRIP_THRESHOLD + 1 }, (_, i) => i + 10);
    const big = { relation: 'x', levels: new Map([[0, many]]), fill: new Map(), high: new Map() };
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

  const tablet = (): TabletState => ({
    relation: 't',
    tserver: 0,
    immutables: 0,
    levels: new Map([
      [0, [8, 7]],
      [1, [3, 4]],
    ]),
    running: new Map(),
    ssts: new Map([
      // Keys share the prefix "47a1" (one table, one hash range).
      [7, { bytes: 100, entries: 10, deletes: 2, smallest: '47a100', largest: '47a180' }],
      [8, { bytes: 100, entries: 10, deletes: 0, smallest: '47a140', largest: '47a1c0' }],
      [3, { bytes: 400, entries: 40, deletes: 0, smallest: '47a100', largest: '47a17f' }],
      [4, { bytes: 100, entries: 10, deletes: 0, smallest: '47a1c1', largest: '47a1ff' }],
    ]),
    memtable: { entries: 0, bytes: 0 },
    writeBufferSize: 1000,
  });

  it('on the bytes axis, sizes SSTs on one scale for all levels', () => {
    const lanes = lsmLanes(tablet(), 500, 'bytes');
    expect(lanes.map((l) => l.level)).toEqual([0, 1]);
    expect(Math.round(lanes[1]?.ssts[1]?.x ?? 0)).toBe(400);
    expect(Math.round(lanes[0]?.ssts[1]?.x ?? 0)).toBe(100);
  });

  it('on the keys axis, gives each L0 file a lane and places SSTs by key range', () => {
    const lanes = lsmLanes(tablet(), 255, 'keys');
    // Two L0 lanes (newest first), then L1.
    expect(lanes.map((l) => [l.level, l.first, l.ssts.map((s) => s.id)])).toEqual([
      [0, true, [8]],
      [0, false, [7]],
      [1, true, [3, 4]],
    ]);
    const [l0new, l0old, l1] = lanes;
    // 47a100..47a1ff maps onto 0..255: the hex digits after the prefix.
    expect(Math.round(l0old?.ssts[0]?.x ?? -1)).toBe(0);
    expect(Math.round(l0new?.ssts[0]?.x ?? -1)).toBe(64);
    expect(Math.round(l1?.ssts[1]?.x ?? -1)).toBe(193);
    // The biggest file draws thickest; tombstones come along.
    expect(l1?.ssts[0]?.h).toBe(1);
    expect(l0old?.ssts[0]?.h).toBeLessThan(1);
    expect(l0old?.ssts[0]?.deletes).toBe(2);
  });

  it('keeps key order on the axis, whatever the keys\' lengths', () => {
    const keys = ['4800', '480001', '4801', '48ff', '48ffff00'];
    const x = keyScale(keys, 100);
    const xs = keys.map(x);
    expect([...xs].sort((a, b) => a - b)).toEqual(xs);
    expect(xs[0]).toBe(0);
    expect(xs.at(-1)).toBe(100);
  });
});
