// @vitest-environment node
// A sweep is its separate runs: each point's report equals a run of the script
// with the variant's settings plus the point's values, on the real engine.
// And a sweep that cannot mean anything is refused before it runs.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import * as wasm from '../wasm-pkg/indexlab_wasm.js';
import type { Report } from '../workbench/report';
import type { SettingRow } from '../workbench/settings';
import type { Variant } from '../variants/variant';
import { planSweep, sweepProblems, type SweepSpec } from './spec';
import { refusedValues, runSweep, type RunReport } from './runSweep';
import { measureValue } from './measures';
import { sweepChart } from './chartData';
import { minimumOf } from '../charts/layout';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const script001 = readFileSync(`${root}tests/fidelity/001-batched-nested-loop.sql`, 'utf8');

const engine: RunReport = (script, profile, settings) =>
  Promise.resolve(JSON.parse(wasm.run_scenario(script, profile, settings)) as Report);

let rows: SettingRow[] = [];
beforeAll(() => {
  wasm.initSync({ module: readFileSync(`${root}web/src/wasm-pkg/indexlab_wasm_bg.wasm`) });
  rows = JSON.parse(wasm.settings_list()) as SettingRow[];
});

const yb: Variant = { id: 'yb', name: 'yb', profile: 'yb', overrides: {} };
const pg: Variant = { id: 'pg', name: 'pg', profile: 'pg', overrides: {} };

describe('a sweep', () => {
  const spec: SweepSpec = {
    axis: { settings: ['yb_bnl_batch_size'], values: ['1', '100', '1000'] },
    by: { settings: ['network'], values: ['multi-az', 'multi-region'] },
  };

  it('gives each point exactly the report of a separate run with those settings', async () => {
    const runs = planSweep(spec, [yb], { ysql_request_limit: '1024' }, rows);
    expect(runs).toHaveLength(6);
    const results = await runSweep(script001, runs, engine, 2, () => {});
    for (const r of results) {
      const alone = wasm.run_scenario(
        script001,
        'yb',
        `ysql_request_limit=1024\nyb_bnl_batch_size=${r.run.x}\nnetwork=${r.run.by ?? ''}`,
      );
      expect(JSON.stringify(r.report)).toBe(JSON.stringify(JSON.parse(alone)));
    }
  });

  it("charts article 001: one line per network, the best batch size moving with the round trip", async () => {
    const wide: SweepSpec = {
      ...spec,
      axis: { settings: ['yb_bnl_batch_size'], values: ['1', '10', '100', '200', '1000', '2000'] },
    };
    const results = await runSweep(script001, planSweep(wide, [yb], {}, rows), engine, 2, () => {});
    const chart = sweepChart(wide, results, 'virtual_ms');
    expect(chart.series.map((s) => s.name)).toEqual(['network=multi-az', 'network=multi-region']);
    const [az, region] = chart.series.map((s) => minimumOf(s)?.x);
    expect([100, 200]).toContain(az);
    expect([1000, 2000]).toContain(region);
  });

  it('sweeps each engine its own cache setting when the axis names one per engine', () => {
    const runs = planSweep({ axis: { settings: ['shared_buffers', 'block_cache_size'], values: ['1MB'] } }, [pg, yb], {}, rows);
    expect(runs.map((r) => r.point)).toEqual([{ shared_buffers: '1MB' }, { block_cache_size: '1MB' }]);
  });

  it('refuses what cannot mean anything, before running, in words', () => {
    const problems = (s: SweepSpec, vs: Variant[] = [yb], pinned = '') =>
      sweepProblems(s, vs, rows, (n) => n === pinned).join(' | ');
    expect(problems({ axis: { settings: ['yb_bnl_batch_size'], values: [] } })).toMatch(/at least one value/);
    expect(problems({ axis: { settings: [], values: ['1'] } })).toMatch(/name a setting/);
    expect(problems({ axis: { settings: ['nonsense'], values: ['1'] } })).toMatch(/unrecognized setting "nonsense"/);
    expect(problems({ axis: { settings: ['shared_buffers'], values: ['1MB'] } })).toMatch(/none of shared_buffers is a yb setting/);
    expect(problems({ axis: { settings: ['yb_bnl_batch_size'], values: ['1'] } }, [yb], 'yb_bnl_batch_size')).toMatch(
      /the script sets yb_bnl_batch_size itself/,
    );
    expect(
      problems({ axis: { settings: ['yb_bnl_batch_size'], values: ['1'] } }, [{ ...yb, overrides: { yb_bnl_batch_size: '5' } }]),
    ).toMatch(/variant yb sets yb_bnl_batch_size itself/);
    const many = Array.from({ length: 40 }, (_, i) => String(i + 1));
    expect(problems({ axis: { settings: ['yb_bnl_batch_size'], values: many }, by: { settings: ['network'], values: many.map((v) => `${v}ms`) } })).toMatch(
      /1600 runs .* at most 300/,
    );
    expect(problems({ axis: { settings: ['yb_bnl_batch_size'], values: ['1', '1'] } })).toMatch(/1 is listed twice/);
    expect(problems({ axis: { settings: ['yb_bnl_batch_size'], values: ['1', '10'] } })).toBe('');
  });

  it("has the engine say which values are out of range, in the engine's words", async () => {
    const runs = planSweep({ axis: { settings: ['yb_bnl_batch_size'], values: ['0', '10', '99999'] } }, [yb], {}, rows);
    const refused = await refusedValues(runs, engine);
    expect(refused).toHaveLength(2);
    expect(refused[0]).toMatch(/yb_bnl_batch_size=0: 0 is outside the valid range for parameter "yb_bnl_batch_size"/);
    expect(wasm.script_sets(script001, 'yb_bnl_batch_size')).toBe(false);
    expect(wasm.script_sets('/*+ Set(yb_bnl_batch_size 5) */ select 1', 'yb_bnl_batch_size')).toBe(true);
  });
});

describe('measures', () => {
  it('reads the measured statement (the last EXPLAIN), or bytes per row written in the steady state', () => {
    const report = JSON.parse(
      wasm.run_scenario(
        'create table t (id int primary key, v int);\ninsert into t select generate_series(1,1000), 0;\ninsert into t select generate_series(1001,2000), 0;\nexplain (analyze, buffers) select * from t where id = 5;\nselect 1;',
        'pg',
        '',
      ),
    ) as Report;
    const explain = report.statements[3];
    expect(measureValue(report, 'pg', 'virtual_ms')).toBe(explain?.virtual_ms);
    expect(measureValue(report, 'pg', 'shared_hit')).toBe(explain?.metrics.shared_hit ?? 0);
    // Two writing statements: the last quarter is the second one.
    const second = report.statements[2];
    expect(measureValue(report, 'pg', 'write_bytes_per_row')).toBe((second?.metrics.io_write_bytes ?? 0) / 1000);
  });
});
