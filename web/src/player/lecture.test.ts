// @vitest-environment node
// Lecture pace: the first event of each kind a teacher talks about, in each
// statement, is a stop; playing halts there and nowhere else.
import { describe, expect, it } from 'vitest';
import { Joint } from '../trace/joint';
import { fromJson, type TraceEvent } from '../trace/traceData';
import { lectureStops, stopBetween } from './lecture';
import { presenterZoom, MIN_ZOOM } from '../presenter/presenter';

const start = (index: number): TraceEvent => ({ type: 'statement_start', index, sql: `s${index}`, at_us: 0 });
const end = (index: number, events: number): TraceEvent => ({ type: 'statement_end', index, at_us: 0, detail: { kind: 'full', events } });
const flush = (id: number): TraceEvent => ({
  type: 'flush',
  relation: 't',
  tablet: 0,
  sst: { id, bytes: 1, entries: 1, deletes: 0, smallest: '', largest: '' },
});
const step = (backward: boolean): TraceEvent => ({ type: 'cursor_step', relation: 't_pkey', page: 1, backward, descended: false });

describe('lecture stops', () => {
  const events: TraceEvent[] = [
    start(0),
    flush(1),
    flush(2),
    step(false),
    step(true),
    step(true),
    end(0, 7),
    start(1),
    flush(3),
    end(1, 3),
  ];
  const trace = fromJson({ events, snapshots: [], dropped: 0 });
  const joint = new Joint([trace]);
  const stops = lectureStops(joint, [trace]);

  it('stop once per kind and statement, just after the event', () => {
    expect(stops.map((s) => [s.kind, s.event, s.position])).toEqual([
      ['flush', 1, 2],
      ['backward step', 4, 5],
      ['flush', 8, 9],
    ]);
  });

  it('find the next stop within a tick', () => {
    expect(stopBetween(stops, 0, 10)?.position).toBe(2);
    expect(stopBetween(stops, 2, 4)).toBeUndefined();
    expect(stopBetween(stops, 2, 5)?.kind).toBe('backward step');
  });
});

describe('presenter zoom', () => {
  it('keeps the smallest label at 18 px and fills wide screens', () => {
    expect(presenterZoom(1280)).toBeGreaterThanOrEqual(MIN_ZOOM);
    expect(0.62 * 18 * presenterZoom(1024)).toBeGreaterThanOrEqual(18);
    expect(presenterZoom(1920)).toBeCloseTo(1920 / 760);
  });
});
