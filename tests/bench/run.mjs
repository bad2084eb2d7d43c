#!/usr/bin/env node
// `npm run bench`: speed as ratios measured in one run, never asserted in tests.
//
// - Article 000's load (1 000 000 rows) + its queries on the pg and the yb
//   profile (and on yb the load alone, without the queries): rows/s natively (the release CLI, JSON report included) and in wasm
//   (the same build the browser loads, run in Node), the wasm/native ratio, and
//   for yb the run's write amplification (SST bytes flushed and compacted over
//   bytes written). The wasm figure is the best of repeated runs in one
//   instance; the first run in a fresh instance (memory still growing, code
//   still tiering up; in Node, whose V8 differs from a browser's) is reported
//   beside it.
// - The download: gzip sizes of the wasm engine and of the page's initial
//   JavaScript, from a production build.
// - The page (ui.mjs): time to a usable editor, frames per second while the
//   player animates a 10 000-key B+tree and an LSM of ~200 SSTs, and article
//   001's sweep from click to chart beside the same sweep in the native CLI,
//   each lesson step's Run to first picture, and each lesson's article-scale
//   run beside the same runs in Node.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { gzipSync } from 'node:zlib';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
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
const pkg = join(root, 'web/src/wasm-pkg');
const wasm = await import(pathToFileURL(join(pkg, 'indexlab_wasm.js')).href);
wasm.initSync({ module: readFileSync(join(pkg, 'indexlab_wasm_bg.wasm')) });
const fmt = (x) => Math.round(x).toLocaleString('en-US');

// One profile on one script: native (the CLI) then wasm, best of REPEATS each.
// `target` (rows/s) is printed beside the native figure when the script is
// the one a target names.
function benchProfile(profile, file, title, target) {
  const scenario = join(root, 'tests/fidelity', file);
  let nativeReport;
  const native = best(() => {
    const out = execFileSync(cli, ['--json', '--profile', profile, scenario], { maxBuffer: 1 << 30 });
    nativeReport = JSON.parse(out);
  });
  const script = readFileSync(scenario, 'utf8');
  let report;
  const inWasm = best(() => {
    report = JSON.parse(wasm.run_scenario(script, profile, ''));
  });
  if (report.error) throw new Error(`wasm run failed: ${report.error.message}`);
  const once = join(root, 'tests/bench/wasm-once.mjs');
  const first = Number(execFileSync(process.execPath, [once, scenario, profile], { encoding: 'utf8' }));
  console.log(`${title} (best of ${REPEATS})`);
  const aim = (text) => (target ? ` (target ${text})` : '');
  console.log(`  native: ${native.toFixed(3)} s  ${fmt(ROWS / native)} rows/s${aim(`>= ${fmt(target)}`)}`);
  console.log(`  wasm:   ${inWasm.toFixed(3)} s  ${fmt(ROWS / inWasm)} rows/s`);
  console.log(`  wasm / native time: ${(inWasm / native).toFixed(2)}x${aim('<= 1.5x')}`);
  console.log(`  wasm, first run in a fresh instance: ${first.toFixed(3)} s (${(first / native).toFixed(2)}x native)`);
  const wa = nativeReport.totals?.metrics?.write_amplification;
  if (wa !== undefined) console.log(`  write amplification: ${wa.toFixed(2)}`);
}

benchProfile('pg', '000-range-scan.sql', 'article 000 on pg: 1 000 000-row load + two queries', 2_000_000);
// On yb the target names the load with its flushes and compactions (below);
// the whole script, with the article's three queries, is printed beside it.
benchProfile(
  'yb',
  '000-range-scan-yb.sql',
  'article 000 on yb: 1 000 000-row load, flush + compaction, three queries',
);

// The load alone, as the issue's target names it: article 000's yb script up to
// its queries (the inserts, the flushes, `\compact`), cut from the same file.
function benchLoadAlone() {
  const full = readFileSync(join(root, 'tests/fidelity/000-range-scan-yb.sql'), 'utf8');
  const queries = full.search(/^explain/m);
  if (queries < 0) throw new Error('000-range-scan-yb.sql has no query to cut before');
  const script = full.slice(0, queries);
  const file = join(mkdtempSync(join(tmpdir(), 'indexlab-bench-')), 'load.sql');
  writeFileSync(file, script);
  const native = best(() => execFileSync(cli, ['--json', '--profile', 'yb', file], { maxBuffer: 1 << 30 }));
  const inWasm = best(() => wasm.run_scenario(script, 'yb', ''));
  console.log(`  the load alone (inserts, flush + compaction; no queries), best of ${REPEATS}:`);
  console.log(`    native: ${native.toFixed(3)} s  ${fmt(ROWS / native)} rows/s (target >= 1,000,000)`);
  console.log(`    wasm:   ${inWasm.toFixed(3)} s  ${fmt(ROWS / inWasm)} rows/s (${(inWasm / native).toFixed(2)}x native; target <= 1.5x)`);
}
benchLoadAlone();

// What the browser downloads: the wasm engine and the page's initial JavaScript,
// gzipped as a server would send them (a production build made here).
function downloadSizes() {
  const r = spawnSync('npx', ['vite', 'build', '--config', 'web/vite.config.ts', '--logLevel', 'error'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (r.status !== 0) process.exit(1);
  const assets = join(root, 'dist/assets');
  const gz = (f) => gzipSync(readFileSync(join(assets, f)), { level: 9 }).length;
  const files = readdirSync(assets);
  const kb = (n) => `${Math.round(n / 1024).toLocaleString('en-US')} KB`;
  const wasmFile = files.find((f) => f.endsWith('.wasm'));
  // What each page's HTML loads at once: its entry and the chunks it preloads
  // (the worker's script loads later, with the wasm; the workbench and a
  // lesson's step load with their route).
  const initial = (page) =>
    [...new Set(readFileSync(join(root, 'dist', page), 'utf8').match(/assets\/[^"]+\.js/g) ?? [])]
      .map((f) => gz(f.slice('assets/'.length)))
      .reduce((a, b) => a + b, 0);
  console.log('download sizes (gzip -9)');
  if (wasmFile) console.log(`  wasm engine:        ${kb(gz(wasmFile))} (target <= 900 KB)`);
  console.log(`  initial JavaScript, the app (the lesson index): ${kb(initial('index.html'))} (target <= 250 KB)`);
  console.log(`  initial JavaScript, a widget (embed.html): ${kb(initial('embed.html'))} (target <= 120 KB)`);
}

downloadSizes();

// Article 001's sweep (10 batch sizes x 2 networks) natively, as the page's
// "Chart: latency against batch size" preset runs it (ui.mjs times the page).
const SWEEP_BATCHES = '1,5,10,20,50,100,200,500,1000,2000';
function nativeSweep() {
  const scenario = join(root, 'tests/fidelity/001-batched-nested-loop.sql');
  return best(() => {
    for (const network of ['multi-az', 'multi-region']) {
      execFileSync(cli, ['--profile', 'yb', '--sweep', `yb_bnl_batch_size=${SWEEP_BATCHES}`, '--set', `network=${network}`, scenario]);
    }
  });
}

// What the page's two workers do when article 000 is Run side by side (the
// script ui.mjs runs): each profile's packed, traced run, in Node, best of
// REPEATS. The page cannot paint both plans before the slower of them ends, so
// ui.mjs prints Run-to-picture beside it: what the page adds is a difference,
// and a ratio this machine's speed cancels out of.
function workerRuns() {
  const script = readFileSync(join(root, 'tests/fidelity/000-range-scan.sql'), 'utf8');
  const sink = { report() {} };
  const runs = {};
  for (const profile of ['pg', 'yb']) {
    runs[profile] = best(() => wasm.run_traced_packed(script, profile, '', sink));
  }
  return runs;
}

/** Seconds for one packed, traced run in Node (the worker's call), with a variant's overrides. */
function nodeRun(script, profile, overrides) {
  const settings = Object.entries(overrides).map(([k, v]) => `${k}=${v}`).join('\n');
  const sink = { report() {} };
  const start = process.hrtime.bigint();
  wasm.run_traced_packed(script, profile, settings, sink);
  return Number(process.hrtime.bigint() - start) / 1e9;
}

await (await import('./ui.mjs')).benchUi(root, { nativeSweep: nativeSweep(), workers: workerRuns(), nodeRun });
