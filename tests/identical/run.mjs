#!/usr/bin/env node
// `npm run identical`: the same scenario gives the same bytes natively and in
// wasm. Every tests/fidelity and lesson script runs on both profiles through
// the native CLI (`--traced`, a release build) and through the wasm build in
// Node (`run_traced`, what the page's worker calls); the two JSON texts
// (report and trace) must be byte-identical. Prints one line per script and
// exits 1 on any difference.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const pkg = join(root, 'web/src/wasm-pkg');
const wasm = await import(pathToFileURL(join(pkg, 'indexlab_wasm.js')).href);
wasm.initSync({ module: readFileSync(join(pkg, 'indexlab_wasm_bg.wasm')) });

execFileSync('cargo', ['build', '--quiet', '--release', '--manifest-path', 'engine-wasm/Cargo.toml', '-p', 'indexlab-cli'], {
  cwd: root,
  stdio: 'inherit',
});
const cli = join(root, 'engine-wasm/target/release/indexlab-cli');

const scripts = [
  ...readdirSync(join(root, 'tests/fidelity')).map((f) => join(root, 'tests/fidelity', f)),
  ...readdirSync(join(root, 'lessons'), { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .flatMap((d) => readdirSync(join(root, 'lessons', d.name)).map((f) => join(root, 'lessons', d.name, f))),
].filter((f) => f.endsWith('.sql'));

const hash = (s) => createHash('sha256').update(s).digest('hex').slice(0, 16);
let same = 0;
let different = 0;
for (const file of scripts) {
  const script = readFileSync(file, 'utf8');
  const native = execFileSync(cli, [file, '--profile', 'both', '--traced'], {
    encoding: 'utf8',
    maxBuffer: 1 << 30,
  }).trimEnd();
  const fromWasm = wasm.run_traced(script, 'both', '');
  const ok = native === fromWasm;
  if (ok) same += 1;
  else different += 1;
  console.log(
    `${ok ? 'same' : 'DIFFERENT'}  ${relative(root, file)}  native ${native.length} B ${hash(native)}  wasm ${fromWasm.length} B ${hash(fromWasm)}`,
  );
}
console.log(`${same} passed, ${different} failed`);
process.exit(different === 0 ? 0 : 1);
