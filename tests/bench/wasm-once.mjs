#!/usr/bin/env node
// One scenario in a fresh wasm instance, as a page's first run meets it (memory
// still growing, code still tiering up): prints the seconds it took.
// Usage: node tests/bench/wasm-once.mjs <scenario.sql> <profile>
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const pkg = join(root, 'web/src/wasm-pkg');
const wasm = await import(pathToFileURL(join(pkg, 'indexlab_wasm.js')).href);
wasm.initSync({ module: readFileSync(join(pkg, 'indexlab_wasm_bg.wasm')) });
const [scenario, profile] = process.argv.slice(2);
const script = readFileSync(scenario, 'utf8');
const start = process.hrtime.bigint();
const report = JSON.parse(wasm.run_scenario(script, profile, ''));
const seconds = Number(process.hrtime.bigint() - start) / 1e9;
if (report.error) throw new Error(`wasm run failed: ${report.error.message}`);
console.log(seconds.toFixed(3));
