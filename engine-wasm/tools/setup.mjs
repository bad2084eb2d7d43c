#!/usr/bin/env node
// Installs what `npm start`, `npm test` and `npm run build` need, skipping what is
// already there, then (with --wasm) builds the engine to WebAssembly.
//
//   --wasm     Rust target wasm32-unknown-unknown, wasm-bindgen-cli at exactly the
//              version Cargo.lock pins, then the wasm build into web/src/wasm-pkg/
//   --browser  a Chromium for Playwright (Debian's package when run as root)
//   --postgres PostgreSQL's server programs for the differential tests (Debian's
//              package when run as root); the tests start their own throwaway
//              server, so no service is started or configured here
//
// Plain Node, no npm packages: it runs before `npm ci` has.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync, mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findChromium } from '../../tests/e2e/chromium.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const workspace = join(root, 'engine-wasm');
const args = new Set(process.argv.slice(2));

// Progress goes to stderr, so a command's own output (difftest --record,
// sim --json) can be redirected to a file clean.
function log(msg) {
  console.error(`[setup] ${msg}`);
}

function fail(msg) {
  console.error(`[setup] ${msg}`);
  process.exit(1);
}

function run(cmd, argv, opts = {}) {
  const r = spawnSync(cmd, argv, { stdio: 'inherit', cwd: root, ...opts });
  if (r.error) fail(`could not run ${cmd}: ${r.error.message}`);
  if (r.status !== 0) fail(`${cmd} ${argv.join(' ')} exited with ${r.status}`);
}

function output(cmd, argv) {
  try {
    return execFileSync(cmd, argv, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  } catch {
    return null;
  }
}

// npm packages: reinstall when node_modules is missing or older than the lock file.
function ensureNpmPackages() {
  const stamp = join(root, 'node_modules', '.package-lock.json');
  const lock = join(root, 'package-lock.json');
  if (existsSync(stamp) && statSync(stamp).mtimeMs >= statSync(lock).mtimeMs) {
    log('npm packages: up to date');
    return;
  }
  log('npm packages: installing (npm ci)');
  run('npm', ['ci', '--no-audit', '--no-fund']);
}

function ensureCargo() {
  if (output('cargo', ['--version']) === null) {
    fail(
      'cargo not found. Install Rust with rustup (https://rustup.rs), then run this again; ' +
        'the wasm target and wasm-bindgen-cli are installed automatically.',
    );
  }
}

function ensureWasmTarget() {
  const installed = output('rustup', ['target', 'list', '--installed']);
  if (installed === null) {
    fail('rustup not found: the wasm32-unknown-unknown target is installed through rustup.');
  }
  if (installed.split('\n').includes('wasm32-unknown-unknown')) {
    log('rust target wasm32-unknown-unknown: present');
    return;
  }
  log('rust target wasm32-unknown-unknown: installing');
  run('rustup', ['target', 'add', 'wasm32-unknown-unknown']);
}

// The CLI must match the wasm-bindgen crate exactly, or the generated glue breaks.
function lockedWasmBindgenVersion() {
  const lock = readFileSync(join(workspace, 'Cargo.lock'), 'utf8');
  const m = lock.match(/\[\[package\]\]\nname = "wasm-bindgen"\nversion = "([^"]+)"/);
  if (!m) fail('engine-wasm/Cargo.lock does not pin wasm-bindgen');
  return m[1];
}

function ensureWasmBindgenCli() {
  if (!existsSync(join(workspace, 'Cargo.lock'))) {
    run('cargo', ['generate-lockfile'], { cwd: workspace });
  }
  const want = lockedWasmBindgenVersion();
  const have = output('wasm-bindgen', ['--version']);
  if (have && have.trim() === `wasm-bindgen ${want}`) {
    log(`wasm-bindgen-cli ${want}: present`);
    return;
  }
  log(`wasm-bindgen-cli ${want}: installing (was: ${have ? have.trim() : 'none'})`);
  run('cargo', ['install', '--locked', 'wasm-bindgen-cli', '--version', want, '--force']);
}

function buildWasm() {
  log('building the engine to wasm (release)');
  run('cargo', [
    'build',
    '--release',
    '--target',
    'wasm32-unknown-unknown',
    '-p',
    'indexlab-wasm',
    '--manifest-path',
    join(workspace, 'Cargo.toml'),
  ]);
  const wasm = join(workspace, 'target/wasm32-unknown-unknown/release/indexlab_wasm.wasm');
  const out = join(root, 'web/src/wasm-pkg');
  mkdirSync(out, { recursive: true });
  run('wasm-bindgen', ['--target', 'web', '--out-dir', out, wasm]);
  log(`wasm glue written to ${out}`);
}

// A Debian package the tests need: found already, or installed with apt-get
// when running as root; otherwise a message saying what to install.
function ensureDebianPackage({ name, find, missing }) {
  const found = find();
  if (found) {
    log(`${name}: ${found}`);
    return;
  }
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!isRoot) fail(missing);
  log(`${name}: installing Debian's package (apt-get)`);
  run('apt-get', ['update', '-qq']);
  run('apt-get', ['install', '-y', '-qq', name], {
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  if (!find()) fail(`apt-get installed ${name} but it was not found`);
}

function ensureBrowser() {
  ensureDebianPackage({
    name: 'chromium',
    find: findChromium,
    missing:
      'No Chromium found for Playwright. Install it (Debian/Ubuntu: `sudo apt-get install chromium`) ' +
      'or point INDEXLAB_CHROMIUM at a Chromium or Chrome binary.',
  });
}

// The differential tests run initdb and postgres themselves (engine-wasm/difftest
// finds them the same way: $INDEXLAB_PG_BIN, Debian's /usr/lib/postgresql/N/bin,
// or the PATH).
function findPostgres() {
  const dirs = [];
  if (process.env.INDEXLAB_PG_BIN) dirs.push(process.env.INDEXLAB_PG_BIN);
  const debian = '/usr/lib/postgresql';
  if (existsSync(debian)) {
    for (const v of readdirSync(debian).sort((a, b) => Number(b) - Number(a))) {
      dirs.push(join(debian, v, 'bin'));
    }
  }
  dirs.push(...(process.env.PATH ?? '').split(':'));
  return dirs.find((d) => d && existsSync(join(d, 'initdb')) && existsSync(join(d, 'postgres')));
}

function ensurePostgres() {
  ensureDebianPackage({
    name: 'postgresql',
    find: findPostgres,
    missing:
      "PostgreSQL's server programs (initdb, postgres) were not found. Install them " +
      '(Debian/Ubuntu: `sudo apt-get install postgresql`) or point INDEXLAB_PG_BIN at their folder.',
  });
}

ensureNpmPackages();
if (args.has('--wasm')) {
  ensureCargo();
  ensureWasmTarget();
  ensureWasmBindgenCli();
  buildWasm();
}
if (args.has('--browser')) ensureBrowser();
if (args.has('--postgres')) ensurePostgres();
