#!/usr/bin/env node
// `npm run sim -- FILE.sql [options]`: runs the native CLI (a release build) from the
// directory npm was started in, so relative scenario paths work from anywhere.
import { spawnSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const r = spawnSync(
  'cargo',
  [
    'run',
    '--quiet',
    '--release',
    '--manifest-path',
    join(root, 'engine-wasm/Cargo.toml'),
    '-p',
    'indexlab-cli',
    '--',
    ...process.argv.slice(2),
  ],
  { stdio: 'inherit', cwd: process.env.INIT_CWD ?? process.cwd() },
);
if (r.error) {
  console.error(`sim: could not run cargo: ${r.error.message}`);
  process.exit(1);
}
process.exit(r.status ?? 1);
