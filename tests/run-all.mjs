#!/usr/bin/env node
// Every check `npm test` runs, in order, stopping at the first failure.
// Setup (npm packages, wasm toolchain and build, Chromium) has already run.
import { spawnSync } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const cargo = ['--manifest-path', 'engine-wasm/Cargo.toml'];
// The engine's TypeScript schema generator is a feature: on in every step, so
// they share one build, and `cargo test` fails when web/src/engine/schema.gen.ts
// is stale (`npm run schema` rewrites it).
const features = ['--features', 'indexlab-engine/ts'];

const steps = [
  ['rustfmt', 'cargo', ['fmt', '--all', ...cargo, '--', '--check']],
  ['clippy', 'cargo', ['clippy', '--workspace', '--all-targets', ...cargo, ...features, '--', '-D', 'warnings']],
  ['cargo test', 'cargo', ['test', '--workspace', ...cargo, ...features]],
  // 1 000 generated scripts on a throwaway PostgreSQL and on both profiles
  // (`npm run difftest -- --n 100000` for a long run). The test profile reuses
  // what `cargo test` just built.
  [
    'differential (PostgreSQL)',
    'cargo',
    ['run', '--quiet', '--profile', 'test', ...cargo, ...features, '-p', 'indexlab-difftest', '--bin', 'difftest', '--', '--n', '1000'],
  ],
  // The published experiments of tests/corpus, run as psql runs them on
  // PostgreSQL and both profiles: how much runs, and no misleading refusal.
  [
    'corpus (PostgreSQL)',
    'cargo',
    ['run', '--quiet', '--profile', 'test', ...cargo, ...features, '-p', 'indexlab-difftest', '--bin', 'difftest', '--', '--corpus', 'tests/corpus'],
  ],
  // Seeded planner scripts (tables of 100 to 50 000 rows, indexes, ANALYZE):
  // each EXPLAIN's plan shape against PostgreSQL 15's, with a floor under
  // the share that agrees (`npm run difftest -- --plans --n 1000` measures more).
  [
    'plans (PostgreSQL)',
    'cargo',
    ['run', '--quiet', '--profile', 'test', ...cargo, ...features, '-p', 'indexlab-difftest', '--bin', 'difftest', '--', '--plans', '--n', '100', '--min-share', '90'],
  ],
  ['typescript', 'npx', ['tsc', '-p', 'web/tsconfig.json', '--noEmit']],
  ['eslint', 'npx', ['eslint', '-c', 'web/eslint.config.js', '--max-warnings', '0', 'web', 'tests']],
  ['vitest', 'npx', ['vitest', 'run', '--config', 'web/vite.config.ts']],
  ['vite build', 'npx', ['vite', 'build', '--config', 'web/vite.config.ts']],
  ['playwright', 'npx', ['playwright', 'test', '-c', 'tests/e2e/playwright.config.ts']],
];

let passed = 0;
for (const [name, cmd, args] of steps) {
  const started = Date.now();
  console.log(`\n=== ${name}: ${cmd} ${args.join(' ')}`);
  const r = spawnSync(cmd, args, { stdio: 'inherit', cwd: root });
  const secs = ((Date.now() - started) / 1000).toFixed(1);
  if (r.status !== 0) {
    console.log(`=== ${name}: FAILED after ${secs}s`);
    console.log(`steps: ${passed} passed, 1 failed`);
    process.exit(1);
  }
  console.log(`=== ${name}: ok (${secs}s)`);
  passed += 1;
}
console.log(`steps: ${passed} passed, 0 failed`);
