// @vitest-environment node
// Variants side by side: each column is exactly the run of its variant alone;
// the list edits keep ids stable; the difference rows compare against the
// first column and mark the largest cost.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import * as wasm from '../wasm-pkg/indexlab_wasm.js';
import { decodeRun } from '../engine/packed';
import type { Report } from '../workbench/report';
import { runVariants, type RunPacked } from './runVariants';
import { addVariant, DEFAULT_VARIANTS, moveVariant, parseOverrides, removeVariant, updateVariant, type Variant } from './variant';
import { againstText, differenceRows, largestOf } from './difference';
import { listProblems } from './problems';
import type { SettingRow } from '../workbench/settings';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const script003 = readFileSync(`${root}tests/fidelity/003-backward-scan.sql`, 'utf8');

beforeAll(() => {
  wasm.initSync({ module: readFileSync(`${root}web/src/wasm-pkg/indexlab_wasm_bg.wasm`) });
});

const packed: RunPacked = (script, profile, settings, _lane, onProgress) =>
  Promise.resolve(wasm.run_traced_packed(script, profile, settings, { report: (_: string, d: number, t: number) => onProgress(d, t) }));

describe('columns as they arrive', () => {
  it('shows each column that has run while the others run, and ends on those same columns', async () => {
    // yb's lane answers only once the page has been told about pg's column.
    let release: () => void = () => {};
    const held = new Promise<void>((r) => (release = r));
    const run: RunPacked = async (script, profile, settings, lane, onProgress) => {
      if (profile === 'yb') await held;
      return packed(script, profile, settings, lane, onProgress);
    };
    const heard: (string | undefined)[][] = [];
    let early: unknown;
    const final = await runVariants('select 1;', DEFAULT_VARIANTS, {}, run, {
      onColumn: (columns) => {
        heard.push(columns.map((c) => (c.run ? c.id : undefined)));
        early = columns[0]?.run;
        release();
      },
    });
    expect(heard).toEqual([['pg', undefined]]);
    expect(final.map((c) => c.run?.report.profile)).toEqual(['pg', 'yb']);
    // Decoded once: the page's caches of pg's trace serve the final columns too.
    expect(final[0]?.run).toBe(early);
  });
});

describe('variants side by side', () => {
  const variants: Variant[] = [
    ...DEFAULT_VARIANTS,
    { id: 'v3', name: 'yb unpacked', profile: 'yb', overrides: { yb_enable_packed_row: 'off' } },
    { id: 'v4', name: 'pg full leaves', profile: 'pg', overrides: { leaf_fillfactor: '100' } },
  ];

  it('gives each column the report and trace of that variant run alone', async () => {
    const page = { cost_cpu_comparison: '20ns' };
    const columns = await runVariants(script003, variants, page, packed);
    expect(columns.map((c) => c.name)).toEqual(['pg', 'yb', 'yb unpacked', 'pg full leaves']);
    for (const [i, v] of variants.entries()) {
      const settings = Object.entries({ ...page, ...v.overrides })
        .map(([k, x]) => `${k}=${x}`)
        .join('\n');
      const alone = decodeRun(wasm.run_traced_packed(script003, v.profile, settings, { report() {} }));
      const column = columns[i];
      expect(JSON.stringify(column?.run?.report)).toBe(JSON.stringify(alone.report));
      expect(column?.run?.trace?.length).toBe(alone.trace?.length);
    }
    // Each ran with the page's settings and its own, and no other's.
    expect(columns.map((c) => c.run?.report.settings)).toEqual([
      { cost_cpu_comparison: '20ns' },
      { cost_cpu_comparison: '20ns' },
      { cost_cpu_comparison: '20ns', yb_enable_packed_row: 'off' },
      { cost_cpu_comparison: '20ns', leaf_fillfactor: '100' },
    ]);
  });

  it('compares each counter against the first variant, with the largest cost marked', async () => {
    const columns = await runVariants(script003, variants.slice(0, 3), {}, packed);
    const compared = columns.map((c) => ({ name: c.name, profile: c.profile, report: c.run?.report as Report }));
    const rows = differenceRows(compared, 3); // the backward scan
    const time = rows.find((r) => r.counter === 'virtual_ms');
    const pg = compared[0]?.report.statements[3]?.virtual_ms ?? 0;
    const yb = compared[1]?.report.statements[3]?.virtual_ms ?? 0;
    expect(time?.values.slice(0, 2)).toEqual([pg, yb]);
    expect(time?.against[1]).toEqual({ delta: yb - pg, ratio: yb / pg });
    expect(time?.against[0]).toBeNull();
    // pg has no read requests; yb has no buffer hits: shown as missing, not zero.
    expect(rows.find((r) => r.counter === 'storage_read_requests')?.values[0]).toBeNull();
    expect(rows.find((r) => r.counter === 'shared_hit')?.values[1]).toBeNull();
    expect(differenceRows(compared, 99)).toEqual([]);
  });
});

describe('editing the list', () => {
  it('adds, renames, reorders and removes, keeping ids', () => {
    let v = addVariant(DEFAULT_VARIANTS);
    expect(v.map((x) => [x.id, x.name, x.profile])).toEqual([
      ['pg', 'pg', 'pg'],
      ['yb', 'yb', 'yb'],
      ['v3', 'yb 2', 'yb'],
    ]);
    v = updateVariant(v, 'v3', { name: 'yb, batches of 1024', overrides: { yb_bnl_batch_size: '1024' } });
    v = moveVariant(v, 'v3', -1);
    expect(v.map((x) => x.id)).toEqual(['pg', 'v3', 'yb']);
    expect(moveVariant(v, 'pg', -1).map((x) => x.id)).toEqual(['pg', 'v3', 'yb']);
    v = removeVariant(v, 'pg');
    expect(v.map((x) => x.name)).toEqual(['yb, batches of 1024', 'yb']);
    expect(removeVariant(removeVariant(v, 'yb'), 'v3')).toHaveLength(1);
  });

  it('reads settings as name=value, and names a line that is not one', () => {
    expect(parseOverrides('yb_bnl_batch_size=1024; network = multi-az\n')).toEqual({
      overrides: { yb_bnl_batch_size: '1024', network: 'multi-az' },
    });
    expect(parseOverrides('batch 1024')).toEqual({ error: '"batch 1024" is not name=value (for example yb_bnl_batch_size=1024)' });
  });

  it('marks every largest value unless all are equal, and words the difference', () => {
    expect(largestOf([1, 3, 3])).toEqual([1, 2]);
    expect(largestOf([2, 2])).toEqual([]);
    expect(largestOf([5, null])).toEqual([]);
    expect(againstText({ delta: 2, ratio: 3 }, String)).toBe('+2 (3.00×)');
    expect(againstText({ delta: -20, ratio: 0.5 }, String)).toBe('−20 (0.50×)');
    expect(againstText({ delta: 0, ratio: 1 }, String)).toBe('same');
  });
});

describe('a list that cannot run', () => {
  it('names a setting of the other engine, an unknown one, and names that do not tell columns apart', () => {
    const rows = JSON.parse(wasm.settings_list()) as SettingRow[];
    const list: Variant[] = [
      { id: 'a', name: 'pg', profile: 'pg', overrides: { yb_bnl_batch_size: '10' } },
      { id: 'b', name: 'pg', profile: 'yb', overrides: { nonsense: '1' } },
      { id: 'c', name: ' ', profile: 'yb', overrides: {} },
    ];
    expect(listProblems(rows, list)).toEqual([
      'pg: yb_bnl_batch_size is a yb setting: a pg run would ignore it',
      'pg: unrecognized setting "nonsense"',
      'Every variant needs a name',
      'Two variants are called "pg": rename one so the columns and lines can be told apart',
    ]);
    expect(listProblems(rows, [...DEFAULT_VARIANTS])).toEqual([]);
  });
});
