// @vitest-environment node
// One state per cursor, on real traces from the wasm build the page loads,
// packed as the worker sends them: for every shipped scenario (their
// summarized statements included), random cursor paths (play, steps both
// ways, scrubs, jumps) give at each cursor exactly the state computed
// directly from the nearest snapshot. And the views' reducers, folded over a
// statement recorded in full, land on the engine's next snapshot.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import * as wasm from '../wasm-pkg/indexlab_wasm.js';
import { decodeRun } from '../engine/packed';
import { VIEWS } from '../views/registry';
import { isSummarized, pictureFrom, statementSpans, summaryText } from './statements';
import { stateAt, Timeline } from './timeline';
import type { TraceData } from './traceData';
import { DEFAULT_SCRIPT } from '../workbench/defaultScript';

const root = fileURLToPath(new URL('../../../', import.meta.url));

beforeAll(() => {
  wasm.initSync({ module: readFileSync(`${root}web/src/wasm-pkg/indexlab_wasm_bg.wasm`) });
});

function packed(script: string, profile: 'pg' | 'yb', settings = ''): TraceData {
  const run = decodeRun(wasm.run_traced_packed(script, profile, settings, { report() {} }));
  if (!run.trace) throw new Error(`no trace: ${run.report.error?.message ?? ''}`);
  return run.trace;
}

/** A state as text, maps by sorted entries: what two states must agree on. */
function canonical(state: unknown): string {
  return JSON.stringify(state, (_, v: unknown) =>
    v instanceof Map ? [...(v as Map<unknown, unknown>)].sort((a, b) => String(a[0]).localeCompare(String(b[0]))) : v,
  );
}

/** The views whose states replay a reducer from snapshots (the rest read the trace directly). */
function replayed(profile: 'pg' | 'yb') {
  return VIEWS.flatMap((v) => (v.profiles.includes(profile) && v.reducer ? [{ ...v, reducer: v.reducer }] : []));
}

function scenarios(): { name: string; script: string }[] {
  const dirs = ['tests/fidelity', ...readdirSync(`${root}lessons`, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => `lessons/${d.name}`)];
  const files = dirs.flatMap((d) =>
    readdirSync(`${root}${d}`)
      .filter((f) => f.endsWith('.sql'))
      .map((f) => ({ name: `${d}/${f}`, script: readFileSync(`${root}${d}/${f}`, 'utf8') })),
  );
  return [{ name: 'the default demo', script: DEFAULT_SCRIPT }, ...files];
}

/** A cursor path a student could take: plays, steps, scrubs and jumps. */
function pathOf(length: number) {
  const move = fc.oneof(
    fc.record({ kind: fc.constant('play' as const), n: fc.integer({ min: 1, max: 600 }) }),
    fc.record({ kind: fc.constant('step' as const), n: fc.constantFrom(-1, 1) }),
    fc.record({ kind: fc.constant('jump' as const), n: fc.integer({ min: 0, max: length }) }),
  );
  return fc.array(move, { minLength: 1, maxLength: 12 });
}

describe('one state per cursor', () => {
  for (const { name, script } of scenarios()) {
    for (const profile of ['pg', 'yb'] as const) {
      it(`${name} on ${profile}`, () => {
        // At run budgets of 20 000 detail events (queries' and the rest's):
        // the big scripts (article 000's and 002's loads, and the queries
        // after them) then have both kinds of statement, in full and
        // summarized, and the direct computation stays quick.
        const trace = packed(script, profile, 'trace_run_events=20000\ntrace_query_events=20000');
        if (trace.snapshots.length === 0) return;
        for (const view of replayed(profile)) {
          fc.assert(
            fc.property(pathOf(trace.length), (moves) => {
              const timeline = new Timeline(trace, view.reducer);
              let k = 0;
              const check = () => {
                expect(canonical(timeline.stateAt(k))).toBe(canonical(stateAt(trace, view.reducer, k)));
              };
              for (const m of moves) {
                if (m.kind === 'play') {
                  // A frame at a time, as the player asks.
                  for (let i = 0; i < m.n && k < trace.length; i += 37) {
                    k = Math.min(trace.length, k + 37);
                    check();
                  }
                } else if (m.kind === 'step') {
                  k = Math.max(0, Math.min(trace.length, k + m.n));
                  check();
                } else {
                  k = m.n;
                  check();
                }
              }
            }),
            { numRuns: 10, seed: 25 },
          );
        }
      }, 300_000);
    }
  }
});

describe('summarized statements', () => {
  it('the default demo plays its 10 000-row insert in full on both engines', () => {
    for (const profile of ['pg', 'yb'] as const) {
      const spans = statementSpans(packed(DEFAULT_SCRIPT, profile));
      expect(spans.filter(isSummarized)).toEqual([]);
    }
  });

  it('inside a summarized statement the views keep the picture from before it', () => {
    const script = 'create table t (id int primary key, v int);\ninsert into t select generate_series(1,3000), 0;\nselect * from t where id < 5;\n';
    const trace = packed(script, 'pg', 'trace_statement_events=100');
    const spans = statementSpans(trace);
    const insert = spans[1];
    expect(insert && isSummarized(insert)).toBe(true);
    if (!insert) return;
    for (const view of replayed('pg')) {
      const before = canonical(stateAt(trace, view.reducer, insert.start));
      for (let k = insert.start; k <= insert.end; k += 7) {
        expect(canonical(stateAt(trace, view.reducer, k))).toBe(before);
      }
      // After it, the next snapshot: the true picture again.
      const after = trace.snapshots.find((s) => s.at_event === insert.end + 1);
      expect(after).toBeDefined();
    }
  });

  it("once the run's budget is spent, the note names the statement the picture is from", () => {
    // 20 inserts of 300 rows: the first ones spend trace_run_events, and no
    // snapshot follows the later ones until every 16th statement.
    const inserts = Array.from({ length: 20 }, (_, i) => `insert into t select generate_series(${i * 300 + 1}, ${(i + 1) * 300}), 0;`);
    const script = ['create table t (id int primary key, v int);', ...inserts].join('\n');
    const trace = packed(script, 'pg', 'trace_run_events=2000');
    const spans = statementSpans(trace);
    const late = spans.filter((s) => isSummarized(s) && pictureFrom(trace, s) < s.index);
    expect(late.length).toBeGreaterThan(3);
    for (const span of late) {
      const from = pictureFrom(trace, span);
      expect(summaryText(span, trace)).toContain(`the views show the state before statement ${from + 1}, the last picture taken`);
      // What the words say is what the views draw: the picture at that statement's start.
      const start = spans.find((s) => s.index === from)?.start ?? -1;
      for (const view of replayed('pg')) {
        expect(canonical(stateAt(trace, view.reducer, span.end))).toBe(canonical(stateAt(trace, view.reducer, start)));
      }
    }
    // Where a snapshot stands right before the statement, the note says "before it".
    const fresh = spans.find((s) => isSummarized(s) && pictureFrom(trace, s) === s.index);
    expect(fresh && summaryText(fresh, trace)).toContain('the views show the state before it until it ends');
  });

  it('a re-run at full detail gives the same report and every step of that statement', () => {
    const script = 'create table t (id int primary key, v int);\ninsert into t select generate_series(1,3000), 0;\n';
    const summary = decodeRun(wasm.run_traced_packed(script, 'pg', 'trace_statement_events=100', { report() {} }));
    const full = decodeRun(wasm.run_traced_packed(script, 'pg', 'trace_statement_events=100\ntrace_full_detail_statement=2', { report() {} }));
    expect(JSON.stringify(full.report)).toBe(JSON.stringify(summary.report));
    const spans = statementSpans(full.trace as TraceData);
    expect(spans[1]?.detail?.kind).toBe('full');
    expect((full.trace as TraceData).length).toBeGreaterThan((summary.trace as TraceData).length + 3000);
  });

  it('reducers folded over a statement recorded in full land on the next snapshot', () => {
    const cases = [
      { profile: 'pg' as const, script: 'create table t (id int primary key, v int);\ninsert into t select generate_series(1,3000), 0;\nupdate t set v = 1 where id < 200;\n\\checkpoint\n', settings: 'shared_buffers=128kB' },
      { profile: 'yb' as const, script: 'create table t (id int, v int, primary key (id asc));\ninsert into t select generate_series(1,3000), 0;\n\\flush t\ndelete from t where id < 1000;\n', settings: 'write_buffer_size=16kB' },
    ];
    for (const c of cases) {
      const trace = packed(c.script, c.profile, c.settings);
      for (const view of replayed(c.profile)) {
        for (let j = 1; j < trace.snapshots.length; j++) {
          const from = trace.snapshots[j - 1];
          const to = trace.snapshots[j];
          if (!from || !to) continue;
          let s: unknown = view.reducer.fromSnapshot(trace.snapshotState(j - 1));
          for (let i = from.at_event; i < to.at_event; i++) s = view.reducer.apply(s, trace.event(i));
          const want = view.reducer.fromSnapshot(trace.snapshotState(j));
          // Compared in words at the level the view draws (fills of pages the
          // events do not report may differ between snapshots).
          // An empty tablet draws as nothing, whether or not a snapshot saw it yet.
          const words = (x: unknown) =>
            view.summary(x).filter((l: string) => !/memtable 0 entries \(0\.0 kB of [\d.]+ [kM]B\), 0 sealed; no SSTs$/.test(l));
          expect(view.id === 'btree' ? structure(s) : words(s)).toEqual(
            view.id === 'btree' ? structure(want) : words(want),
          );
        }
      }
    }
  });
});

/** A tree state's pages per level, without fills. */
function structure(state: unknown): string[] {
  const trees = state as ReadonlyMap<string, { levels: ReadonlyMap<number, readonly number[]> }>;
  return [...trees]
    // A tree of one page draws the same whether or not a snapshot saw it yet.
    .filter(([, t]) => [...t.levels.values()].reduce((n, l) => n + l.length, 0) > 1)
    .flatMap(([name, t]) => [...t.levels].map(([l, pages]) => `${name} L${l}: ${pages.join(',')}`))
    .sort();
}
