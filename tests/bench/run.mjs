#!/usr/bin/env node
// `npm run bench`: speed as ratios measured in one run, never asserted in tests.
//
// - Article 000's load (1 000 000 rows) + its two queries on the pg profile:
//   rows/s natively (the release CLI) and in wasm (the same build the browser
//   loads, run in Node), and the wasm/native ratio.
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const scenario = join(root, 'tests/fidelity/000-range-scan.sql');
const ROWS = 1_000_000;
const REPEATS = 3;

function best(f) {
  let t = Infinity;
  for (let i = 0; i < REPEATS; i++) {
    const start = process.hrtime.bigint();
    f();
    t = Math.min(t, Number(process.hrtime.bigint() - start) / 1e9);
  }
  return t;
}

function buildCli() {
  const r = spawnSync(
    'cargo',
    ['build', '--release', '-q', '-p', 'indexlab-cli', '--manifest-path', 'engine-wasm/Cargo.toml'],
    { cwd: root, stdio: 'inherit' },
  );
  if (r.status !== 0) process.exit(1);
  return join(root, 'engine-wasm/target/release/indexlab-cli');
}

const cli = buildCli();
const native = best(() => execFileSync(cli, ['--json', '--profile', 'pg', scenario], { maxBuffer: 1 << 30 }));

const pkg = join(root, 'web/src/wasm-pkg');
const wasm = await import(pathToFileURL(join(pkg, 'indexlab_wasm.js')).href);
wasm.initSync({ module: readFileSync(join(pkg, 'indexlab_wasm_bg.wasm')) });
const script = readFileSync(scenario, 'utf8');
let report;
const inWasm = best(() => {
  report = JSON.parse(wasm.run_scenario(script, 'pg', ''));
});
if (report.error) throw new Error(`wasm run failed: ${report.error.message}`);

const fmt = (x) => Math.round(x).toLocaleString('en-US');
console.log('article 000 on pg: 1 000 000-row load + two queries (best of %d)', REPEATS);
console.log(`  native: ${native.toFixed(3)} s  ${fmt(ROWS / native)} rows/s`);
console.log(`  wasm:   ${inWasm.toFixed(3)} s  ${fmt(ROWS / inWasm)} rows/s`);
console.log(`  wasm / native time: ${(inWasm / native).toFixed(2)}x (target <= 1.5x)`);
