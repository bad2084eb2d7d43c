// The engine at build time: the same wasm the page runs, loaded in Node, so a
// lesson is checked against exactly what a student will see.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Report, Trace } from '../src/engine/schema.gen';
import { fromJson, type TraceData } from '../src/trace/traceData';
import { initSync, init_engine, run_traced } from '../src/wasm-pkg/indexlab_wasm.js';

export interface BuildRun {
  report: Report;
  /** The trace's event kinds, in order. */
  kinds: string[];
  /** Where each statement starts in the trace, and its line in the script. */
  starts: { event: number; line: number }[];
  /** The trace itself, as the player reads it. */
  trace: TraceData;
}

let ready = false;
let lastPanic: string | null = null;

function start(): void {
  if (ready) return;
  // The panic hook reports here before wasm traps (the worker does the same).
  (globalThis as unknown as { __indexlabReportPanic: (m: string) => void }).__indexlabReportPanic = (m) => {
    lastPanic = m;
  };
  const wasm = readFileSync(fileURLToPath(new URL('../src/wasm-pkg/indexlab_wasm_bg.wasm', import.meta.url)));
  initSync({ module: wasm });
  init_engine();
  ready = true;
}

const runs = new Map<string, BuildRun>();

/** One traced run (remembered: several components may ask for the same one). */
export function buildRun(script: string, profile: 'pg' | 'yb', settings: string): BuildRun {
  const key = `${profile}\u0000${settings}\u0000${script}`;
  const known = runs.get(key);
  if (known) return known;
  start();
  lastPanic = null;
  let text: string;
  try {
    text = run_traced(script, profile, settings);
  } catch (e) {
    throw new Error(lastPanic ? `the engine panicked: ${lastPanic}` : String(e));
  }
  const out = JSON.parse(text) as { report: Report; trace: Trace };
  const starts = out.trace.events.flatMap((e, event) =>
    e.type === 'statement_start' ? [{ event, line: out.report.statements[e.index]?.line ?? 0 }] : [],
  );
  const run = { report: out.report, kinds: out.trace.events.map((e) => e.type), starts, trace: fromJson(out.trace) };
  runs.set(key, run);
  return run;
}
