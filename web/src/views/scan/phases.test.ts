// @vitest-environment node
// The plan's phases in the scan view: their spans, their labels' places and
// their sentences, as pure functions of the engine's plan_phase events (the
// sentences' figures are the events'; steps.test.ts checks them against real
// wasm runs).
import { describe, expect, it } from 'vitest';
import { count } from '../../format/numbers';
import { labelSpots, phaseSpans, phaseText, phaseTitle, type PhaseMark } from './phases';

const mark = (p: Partial<PhaseMark>): PhaseMark => ({
  at: 0,
  node: 'Hash Join',
  phase: 'build',
  relation: 'u',
  rowsIn: 50,
  rowsOut: 50,
  detail: '',
  heap: null,
  ...p,
});

describe('phases', () => {
  it('each covers the steps since the one before', () => {
    const spans = phaseSpans([mark({ at: 3 }), mark({ phase: 'probe', at: 40 }), mark({ node: 'Sort', at: 40 })]);
    expect(spans.map((s) => [s.from, s.to])).toEqual([
      [0, 3],
      [3, 40],
      [40, 40],
    ]);
  });

  it('says what a hash join did and why, with its figures', () => {
    const build = phaseText(mark({ rowsIn: 52, rowsOut: 50, detail: 'Buckets: 1024  Batches: 1  Memory Usage: 10kB' }));
    expect(build).toContain('its 50 rows went into a hash table');
    expect(build).toContain('2 with a NULL key');
    expect(build).toContain('Memory Usage: 10kB');
    expect(build).toContain('smaller');
    const probe = phaseText(mark({ phase: 'probe', relation: 't', rowsIn: 10_000, rowsOut: 50 }));
    expect(probe).toContain(`each of t's ${count(10_000)} rows was hashed and looked up`);
    expect(probe).toContain('50 rows joined');
  });

  it('says a bitmap is built before the table is read, page by page', () => {
    const bitmap = phaseText(mark({ node: 'Bitmap Heap Scan', phase: 'bitmap', relation: 't_k', rowsIn: 100, rowsOut: 100, detail: '100 row addresses on 96 pages, sorted by page' }));
    expect(bitmap).toContain('t_k read first, whole: 100 matching entries marked 100 row addresses on 96 pages');
    const heap = phaseText(mark({ node: 'Bitmap Heap Scan', phase: 'heap', relation: 't', rowsIn: 100, rowsOut: 100, detail: 'Heap Blocks: exact=96' }));
    expect(heap).toContain('(Heap Blocks: exact=96), each page once and in page order');
  });

  it('says how a top-N heap kept memory small', () => {
    const heap = { bound: 10, held: 21, replaced: 10, dropped: 9_969, entered: [31] };
    const p = mark({ node: 'Sort', phase: 'sort', relation: '', rowsIn: 10_000, rowsOut: 10, detail: 'Sort Method: top-N heapsort  Memory: 25kB', heap });
    expect(phaseTitle(p)).toBe('top-N heap');
    const text = phaseText(p);
    expect(text).toContain('LIMIT 10');
    expect(text).toContain(`10 replaced it, ${count(9_969)} were dropped`);
    expect(text).toContain(`(25kB), not all ${count(10_000)}`);
    const all = phaseText(mark({ node: 'Sort', phase: 'sort', relation: '', rowsIn: 15, rowsOut: 10, detail: 'Sort Method: quicksort  Memory: 25kB' }));
    expect(all).toContain('more than twice that many');
  });

  it('labels sit in their bands without running into each other or off the plot', () => {
    const spans = [
      { title: '1 build: u', x0: 130, x1: 140 },
      { title: '2 probe: t', x0: 140, x1: 600 },
      { title: '3 top-N heap', x0: 600, x1: 600 },
    ];
    const spots = labelSpots(spans, 124, 600, 6);
    // The narrow build band gets its number; the probe its title; the Sort's
    // marker at the right edge its title before it.
    expect(spots.map((s) => s?.text)).toEqual(['1', '2 probe: t', '3 top-N heap']);
    expect(spots[2]?.anchor).toBe('end');
    for (let k = 1; k < spots.length; k++) {
      const [a, b] = [spots[k - 1], spots[k]];
      if (!a || !b) continue;
      const aEnd = a.anchor === 'start' ? a.x + a.text.length * 6 : a.x;
      const bStart = b.anchor === 'start' ? b.x : b.x - b.text.length * 6;
      expect(bStart).toBeGreaterThanOrEqual(aEnd);
    }
  });
});
