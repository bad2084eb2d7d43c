// @vitest-environment node
// The charts of a real yb run: flushes and compactions per statement equal the
// report's counters, and the LSM's sizes come from the engine's snapshots.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import * as wasm from '../wasm-pkg/indexlab_wasm.js';
import { decodeRun } from '../engine/packed';
import { lsmSizes, runCharts } from './runCharts';

const root = fileURLToPath(new URL('../../../', import.meta.url));

beforeAll(() => {
  wasm.initSync({ module: readFileSync(`${root}web/src/wasm-pkg/indexlab_wasm_bg.wasm`) });
});

describe('charts of a run', () => {
  const script = `create table t (id int, v int, primary key (id asc));
insert into t select generate_series(1,3000), 0;
insert into t select generate_series(3001,6000), 0;
insert into t select generate_series(6001,9000), 0;
select count(*) from t;
`;

  it('draw a yb run from its report and its snapshots', () => {
    const run = decodeRun(wasm.run_traced_packed(script, 'yb', 'write_buffer_size=64kB', { report() {} }));
    const charts = runCharts('yb', run.report, run.trace);
    expect(charts.map((c) => c.id)).toEqual(['requests', 'flush', 'wamp', 'sizes']);
    const flush = charts.find((c) => c.id === 'flush')?.series[0];
    expect(flush?.points.map((p) => p.y)).toEqual(run.report.statements.map((s) => s.metrics.flush_bytes ?? 0));
    expect(flush?.points.some((p) => (p.y ?? 0) > 0)).toBe(true);
    // The last picture: every byte flushed is in some level, the memtables hold the rest.
    const sizes = lsmSizes(run.trace ?? (undefined as never));
    const levels = sizes.filter((s) => s.name.startsWith('L'));
    const flushed = run.report.statements.reduce((n, s) => n + (s.metrics.flush_bytes ?? 0), 0);
    const atEnd = levels.reduce((n, s) => n + (s.points[s.points.length - 1]?.y ?? 0), 0);
    expect(atEnd).toBeGreaterThan(0);
    expect(atEnd).toBeLessThanOrEqual(flushed + (run.report.statements.reduce((n, s) => n + (s.metrics.compaction_write_bytes ?? 0), 0)));
    expect(sizes.map((s) => s.name)[0]).toBe('memtables');
  });

  it('draw a pg run: buffer hits and reads per statement, as the report counts them', () => {
    const run = decodeRun(wasm.run_traced_packed(script, 'pg', 'shared_buffers=128kB', { report() {} }));
    const charts = runCharts('pg', run.report, run.trace);
    expect(charts.map((c) => c.id)).toEqual(['buffers', 'dirty']);
    const [hit] = charts[0]?.series ?? [];
    expect(hit?.points.map((p) => p.y)).toEqual(run.report.statements.map((s) => s.metrics.shared_hit ?? 0));
    // 16 frames for 9 000 rows: the loads write dirty pages out to make room.
    const [, written] = charts[1]?.series ?? [];
    expect(written?.points.map((p) => p.y)).toEqual(run.report.statements.map((s) => s.metrics.shared_written ?? 0));
    expect(written?.points.some((p) => (p.y ?? 0) > 0)).toBe(true);
  });
});
