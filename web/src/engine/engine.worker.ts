// The Web Worker that hosts the wasm engine, so long runs never freeze the page.
import * as Comlink from 'comlink';
import init, * as wasm from '../wasm-pkg/indexlab_wasm.js';
import { ENGINE_PANIC, type EngineApi, type ProgressListener } from './api';

// The wasm panic hook calls this while the panicking call is still on the stack;
// after the trap ("unreachable") the message would be lost.
let lastPanic: string | null = null;
(globalThis as unknown as { __indexlabReportPanic: (m: string) => void }).__indexlabReportPanic = (
  message: string,
) => {
  lastPanic = message;
};

const ready = init().then(() => wasm.init_engine());

async function call<T>(f: () => T): Promise<T> {
  await ready;
  lastPanic = null;
  try {
    return f();
  } catch (err) {
    if (lastPanic !== null) {
      const panic = new Error(lastPanic);
      panic.name = ENGINE_PANIC;
      throw panic;
    }
    throw err;
  }
}

/**
 * A progress sink for wasm. The listener is a Comlink proxy: each call is a
 * message to the page, so they are thinned out (a script of 10 000 statements
 * would flood it).
 */
function sinkFor(onProgress: ProgressListener | undefined) {
  let last = -Infinity;
  return {
    report(p: string, done: number, total: number) {
      if (!onProgress) return;
      const now = performance.now();
      if (done === 0 || done === total || now - last >= 50) {
        last = now;
        void onProgress(p as 'pg' | 'yb', done, total);
      }
    },
  };
}

const api: EngineApi = {
  version: () => call(() => wasm.version()),
  selftest: (seed, count) => call(() => wasm.selftest(seed, count)),
  panicForTest: (message) => call(() => wasm.panic_for_test(message)),
  runTraced: (script, profile, settings, onProgress) =>
    call(() => {
      if (!onProgress) return wasm.run_traced(script, profile, settings);
      return wasm.run_traced_progress(script, profile, settings, sinkFor(onProgress));
    }),
  runTracedPacked: (script, profile, settings, onProgress) =>
    call(() => {
      const bytes = wasm.run_traced_packed(script, profile, settings, sinkFor(onProgress));
      // Moved to the page, not copied.
      return Comlink.transfer(bytes, [bytes.buffer]);
    }),
  runReport: (script, profile, settings) => call(() => wasm.run_scenario(script, profile, settings)),
  scriptSets: (script, name) => call(() => wasm.script_sets(script, name)),
  settingsList: () => call(() => wasm.settings_list()),
  runSweep: (script, profile, settings, sweep) =>
    call(() => wasm.run_sweep(script, profile, settings, sweep)),
};

Comlink.expose(api);
