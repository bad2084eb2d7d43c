// @vitest-environment node
// The player on real traces from the wasm engine (the build the page loads):
// stepping and scrubbing agree, stepping back undoes stepping forward, and the
// views' reducers, folded over the engine's events, land exactly on the
// engine's next snapshot.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import * as wasm from '../wasm-pkg/indexlab_wasm.js';
import {
  applyRange,
  clampCursor,
  eventsPerTick,
  nextOfType,
  seek,
  stateAt,
  statementAt,
  statementMarks,
  stepEvent,
  stepStatement,
  Timeline,
  type Reducer,
} from './player';
import { lsmReducer, sstLayout, type YbSnapshotState } from './lsmState';
import { mainFrames, poolReducer, type PgSnapshotState } from './poolState';
import { treeLayoutKey, treeReducer, type PgTreesSnapshot } from './treeState';
import type { Trace } from './trace';

function must<T>(x: T | undefined): T {
  if (x === undefined) throw new Error('missing');
  return x;
}

beforeAll(() => {
  const bytes = readFileSync(
    fileURLToPath(new URL('../wasm-pkg/indexlab_wasm_bg.wasm', import.meta.url)),
  );
  wasm.initSync({ module: bytes });
});

function traced<S>(script: string, profile: 'pg' | 'yb', settings = ''): Trace<S> {
  const out = JSON.parse(wasm.run_traced(script, profile, settings));
  expect(out.report.error).toBeNull();
  return out.trace as Trace<S>;
}

// A pool of 16 frames (128kB) so a 3000-row table evicts and writes back.
const PG = `create table t (id int primary key, v int);
insert into t select generate_series(1,3000), 0;
update t set v = 1 where id < 200;
\\checkpoint
select * from t where id between 100 and 120;
`;

// A 16kB memtable: the load flushes and compacts.
const YB = `create table t (id int, v int, primary key (id asc));
insert into t select generate_series(1,3000), 0;
\\flush t
delete from t where id < 1000;
select id from t where id > 2500;
\\compact t
select * from t where id between 1500 and 1600;
`;

/**
 * Folding a reducer over the events between two snapshots lands on the second
 * one, as `key` sees states: the views' reducers miss none of the engine's moves.
 */
function expectEventsReachEachSnapshot<S, Snap>(
  trace: Trace<Snap>,
  reducer: Reducer<S, Snap>,
  key: (s: S) => string[],
) {
  for (let i = 1; i < trace.snapshots.length; i++) {
    const [from, to] = [must(trace.snapshots[i - 1]), must(trace.snapshots[i])];
    const start = reducer.fromSnapshot(from.state);
    const state = applyRange(reducer, start, trace.events, from.at_event, to.at_event);
    expect(key(state)).toEqual(key(reducer.fromSnapshot(to.state)));
  }
}

/** The state after each cursor position, stepping forward one event at a time. */
function walk<S, Snap>(trace: Trace<Snap>, reducer: Reducer<S, Snap>): S[] {
  let at = { cursor: 0, state: stateAt(trace, 0, reducer) };
  const states = [at.state];
  for (let k = 1; k <= trace.events.length; k++) {
    at = seek(trace, at, k, reducer);
    states.push(at.state);
  }
  return states;
}

describe('the player on a pg trace', () => {
  let trace: Trace<PgSnapshotState>;
  beforeAll(() => {
    trace = traced<PgSnapshotState>(PG, 'pg', 'shared_buffers=128kB\ntrace_detail_rows=1000000');
  });

  it('marks every statement and steps between them', () => {
    const marks = statementMarks(trace);
    expect(marks.map((m) => m.index)).toEqual([0, 1, 2, 3, 4]);
    const at = marks.map((m) => m.at);
    expect(marks[3]?.sql).toBe('\\checkpoint');
    expect(stepStatement(trace, 0, 1)).toBe(at[1]);
    expect(stepStatement(trace, must(at[2]) + 3, -1)).toBe(at[2]);
    expect(stepStatement(trace, must(at[2]), -1)).toBe(at[1]);
    expect(stepStatement(trace, must(at[4]), 1)).toBe(trace.events.length);
    expect(statementAt(trace, must(at[2]) + 1)).toBe(2);
    expect(stepEvent(trace, 0, -1)).toBe(0);
    const evict = nextOfType(trace, 0, ['page_evict']);
    expect(trace.events[evict - 1]?.type).toBe('page_evict');
    expect(nextOfType(trace, trace.events.length, ['page_evict'])).toBe(trace.events.length);
    expect(clampCursor(trace, 1e12)).toBe(trace.events.length);
  });

  it('scrubbing to k gives the state stepping reaches at k', () => {
    const stepped = walk(trace, poolReducer).map(mainFrames);
    const n = trace.events.length;
    for (const k of [0, 1, 7, Math.floor(n / 3), Math.floor(n / 2), n - 1, n]) {
      expect(mainFrames(stateAt(trace, k, poolReducer))).toEqual(stepped[k]);
    }
  });

  it('stepping back undoes stepping forward', () => {
    const forward = walk(trace, poolReducer).map(mainFrames);
    const timeline = new Timeline(trace, poolReducer, 64);
    for (let k = trace.events.length; k >= 0; k -= 1) {
      expect(mainFrames(timeline.stateAt(k))).toEqual(forward[k]);
    }
  });

  it('playing (a few events a frame), jumping and playing on agree with stepping', () => {
    const forward = walk(trace, poolReducer).map(mainFrames);
    const timeline = new Timeline(trace, poolReducer, 64);
    const n = trace.events.length;
    // 16x: 16 events a frame; then a jump back, a jump ahead, and on again.
    for (let k = 0; k <= n; k += 16) expect(mainFrames(timeline.stateAt(k))).toEqual(forward[k]);
    for (const k of [Math.floor(n / 2), Math.floor(n / 2) + 3, 5, 5 + 63, 5 + 64, n]) {
      expect(mainFrames(timeline.stateAt(k))).toEqual(forward[k]);
    }
  });

  it("the pool's events lead exactly to the engine's next snapshot", () => {
    expect(trace.dropped).toBe(0);
    const evictions = trace.events.filter((e) => e.type === 'page_evict');
    expect(evictions.length).toBeGreaterThan(0);
    expectEventsReachEachSnapshot(trace, poolReducer, mainFrames);
  });
});

describe('the B+tree reducer', () => {
  it('splits lead exactly to the pages of the next snapshot', () => {
    const trace = traced<PgTreesSnapshot>(
      `create table t (id int primary key, v text);
insert into t select generate_series(1,20000), 'x';
insert into t select generate_series(40000,30001,-1), 'y';
create index t_v on t (v, id);
insert into t select generate_series(50001,60000), 'z';
`,
      'pg',
      'trace_detail_rows=0',
    );
    const splits = trace.events.filter((e) => e.type === 'page_split');
    expect(splits.some((e) => e.type === 'page_split' && e.new_root !== null)).toBe(true);
    expectEventsReachEachSnapshot(trace, treeReducer, treeLayoutKey);
  });
});

describe('the player on a yb trace', () => {
  it('flushes and compactions lead exactly to the engine snapshots', () => {
    const trace = traced<YbSnapshotState>(YB, 'yb', 'write_buffer_size=16kB\ntrace_detail_rows=1000000');
    expect(trace.dropped).toBe(0);
    const types = new Set(trace.events.map((e) => e.type));
    expect(types.has('flush')).toBe(true);
    expect(types.has('compaction_finish')).toBe(true);
    expectEventsReachEachSnapshot(trace, lsmReducer, sstLayout);
    const stepped = walk(trace, lsmReducer).map(sstLayout);
    const n = trace.events.length;
    for (const k of [0, Math.floor(n / 2), n]) {
      expect(sstLayout(stateAt(trace, k, lsmReducer))).toEqual(stepped[k]);
    }
  });
});

describe('playback speed', () => {
  it('advances a quarter event a tick at 0.25x, sixteen at 16x', () => {
    let carry = 0;
    let total = 0;
    for (let i = 0; i < 8; i++) {
      const r = eventsPerTick(0.25, carry);
      carry = r.carry;
      total += r.steps;
    }
    expect(total).toBe(2);
    expect(eventsPerTick(16, 0).steps).toBe(16);
  });
});
