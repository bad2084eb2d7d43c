// For tests in Node: the wasm build the page loads, run as the worker runs
// it, its result decoded as the page decodes it.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as wasm from '../wasm-pkg/indexlab_wasm.js';
import { decodeRun } from './packed';

let ready = false;

/** A traced run of `script` on `profile` (settings as `name=value` lines). */
export function nodeRun(script: string, profile: 'pg' | 'yb', settings = ''): ReturnType<typeof decodeRun> {
  if (!ready) {
    wasm.initSync({ module: readFileSync(fileURLToPath(new URL('../wasm-pkg/indexlab_wasm_bg.wasm', import.meta.url))) });
    ready = true;
  }
  return decodeRun(wasm.run_traced_packed(script, profile, settings, { report() {} }));
}
