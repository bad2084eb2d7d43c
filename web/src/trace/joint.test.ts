// @vitest-environment node
// The joint cursor: both profiles reach each statement's start together, one
// trace alone is its own cursor, and positions and cursors map both ways.
import { describe, expect, it } from 'vitest';
import { Joint } from './joint';
import { statementAtCursor, statementSpans } from './statements';
import { fromJson, type TraceData, type TraceEvent } from './traceData';

const statementMarks = (t: TraceData) => statementSpans(t).map((s) => ({ at: s.start }));

/** A trace of statements with `sizes[i]` events each (start, fillers, end). */
function traceOf(sizes: readonly number[], filler: TraceEvent['type'] = 'checkpoint'): TraceData {
  const events: TraceEvent[] = [];
  sizes.forEach((n, index) => {
    events.push({ type: 'statement_start', index, sql: `s${index}`, at_us: 0 });
    for (let i = 0; i < n - 2; i++) {
      events.push(
        filler === 'flush'
          ? {
              type: 'flush',
              relation: 't',
              tablet: 0,
              sst: { id: i, bytes: 1, entries: 1, deletes: 0, smallest: '', largest: '' },
            }
          : { type: 'checkpoint', pages_written: i },
      );
    }
    events.push({ type: 'statement_end', index, at_us: 0, detail: { kind: 'full', events: n } });
  });
  return fromJson({ events, snapshots: [], dropped: 0 });
}

describe('Joint', () => {
  it('is the identity on one trace', () => {
    const t = traceOf([3, 10, 4]);
    const j = new Joint([t]);
    expect(j.length).toBe(t.length);
    for (let p = 0; p <= j.length; p++) {
      expect(j.cursors(p)).toEqual([p]);
      expect(j.positionOf(0, p)).toBe(p);
    }
    expect(j.marks().map((m) => m.at)).toEqual(statementMarks(t).map((m) => m.at));
  });

  it('brings both profiles to every statement start together', () => {
    const pg = traceOf([5, 200, 3]);
    const yb = traceOf([40, 2, 30]);
    const j = new Joint([pg, yb]);
    expect(j.length).toBe(40 + 200 + 30);
    const pgStarts = statementMarks(pg).map((m) => m.at);
    const ybStarts = statementMarks(yb).map((m) => m.at);
    j.marks().forEach((m, i) => {
      expect(j.cursors(m.at)).toEqual([pgStarts[i], ybStarts[i]]);
    });
    expect(j.cursors(j.length)).toEqual([pg.length, yb.length]);
    // Statement steps land on the same statement for both.
    let p = 0;
    for (let i = 0; i < 3; i++) {
      expect(j.statementAt(p + 1)).toBe(i);
      p = j.stepStatement(p, 1);
    }
    expect(p).toBe(j.length);
    expect(j.stepStatement(p, -1)).toBe(j.marks()[2]?.at);
  });

  it('moves every cursor forward, never back, and maps positions both ways', () => {
    // Random shapes, including a profile that stopped early at an error.
    let seed = 7;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return 2 + (seed % n);
    };
    for (let round = 0; round < 50; round++) {
      const count = 1 + (round % 5);
      const a = traceOf(Array.from({ length: count }, () => rand(30)));
      const b = traceOf(Array.from({ length: Math.max(1, count - (round % 2)) }, () => rand(30)));
      const j = new Joint([a, b]);
      let last = [0, 0];
      for (let p = 0; p <= j.length; p++) {
        const c = j.cursors(p);
        c.forEach((x, k) => {
          expect(x).toBeGreaterThanOrEqual(last[k] ?? 0);
          expect(x - (last[k] ?? 0)).toBeLessThanOrEqual(1);
        });
        last = c;
      }
      [a, b].forEach((t, k) => {
        for (let c = 0; c <= t.length; c++) {
          const p = j.positionOf(k, c);
          expect(j.cursors(p)[k]).toBe(c);
          // The earliest such position.
          if (p > 0) expect(j.cursors(p - 1)[k]).toBeLessThan(c);
        }
      });
    }
  });

  it('never lets the columns disagree on the statement under the cursor', () => {
    const pg = traceOf([5, 200, 3, 40]);
    const yb = traceOf([40, 2, 30, 3]);
    const j = new Joint([pg, yb]);
    for (let p = 0; p <= j.length; p++) {
      const [a = 0, b = 0] = j.cursors(p);
      const here = j.statementAt(p);
      expect(statementAtCursor(statementSpans(pg), a)?.index ?? -1).toBe(here);
      expect(statementAtCursor(statementSpans(yb), b)?.index ?? -1).toBe(here);
    }
  });

  it('tells which kinds a trace holds from one pass over its kinds, however many jumps ask', () => {
    const plain = traceOf([50, 50]);
    let reads = 0;
    const counted: TraceData = { ...plain, kind: (i) => ((reads += 1), plain.kind(i)) };
    const j = new Joint([counted]);
    for (const kind of ['flush', 'page_split', 'compaction_start', 'checkpoint'] as const) j.has({ kinds: [kind] });
    expect(j.has({ kinds: ['checkpoint'] })).toBe(true);
    expect(j.has({ kinds: ['flush', 'page_split'] })).toBe(false);
    // The Joint reads the kinds for its own marks too; the jumps add one pass.
    const marksOnly = (() => {
      let n = 0;
      new Joint([{ ...plain, kind: (i) => ((n += 1), plain.kind(i)) }]);
      return n;
    })();
    expect(reads).toBe(marksOnly + plain.length);
  });

  it('jumps to the next event of a kind in whichever trace has it first', () => {
    const pg = traceOf([10, 10]);
    const yb = traceOf([4, 6], 'flush');
    const j = new Joint([pg, yb]);
    const flush = { kinds: ['flush'] as const };
    const split = { kinds: ['page_split'] as const };
    expect(j.has(flush)).toBe(true);
    expect(j.has(split)).toBe(false);
    const p = j.nextWhere(0, flush);
    // yb's first flush is its event 1 (after the statement start).
    expect(j.cursors(p)[1]).toBe(2);
    expect(j.cursors(p - 1)[1]).toBe(1);
    const q = j.nextWhere(p, flush);
    expect(q).toBeGreaterThan(p);
    expect(j.cursors(q)[1]).toBe(3);
    expect(j.nextWhere(0, split)).toBe(j.length);
    // A test narrows a kind: checkpoints of more than 5 pages only.
    const big = { kinds: ['checkpoint'] as const, test: (e: TraceEvent) => e.type === 'checkpoint' && e.pages_written > 5 };
    expect(j.cursors(j.nextWhere(0, big))[0]).toBe(8);
  });
});
