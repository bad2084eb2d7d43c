// @vitest-environment node
// Columns side by side share their scales: on real traces, a nested loop of
// one RPC per row beside a batched one draws both on the longer one's time.
import { describe, expect, it } from 'vitest';
import { nodeRun } from '../engine/nodeRun';
import type { TraceData } from '../trace/traceData';
import { networkAt, timeSpan } from '../views/network/state';
import { scaleKey, sharedScales } from './sharedScales';

function packed(script: string, profile: 'pg' | 'yb', settings = ''): TraceData {
  const run = nodeRun(script, profile, settings);
  if (!run.trace) throw new Error(`no trace: ${run.report.error?.message ?? ''}`);
  return run.trace;
}

const SCRIPT = `create table a (id bigint primary key, b bigint) split into 1 tablets;
create table b (id bigint primary key) split into 3 tablets;
insert into a select n, n from generate_series(1, 40) n;
insert into b select generate_series(1, 40);
select count(*) from a join b on b.id = a.b;
`;

describe('shared scales', () => {
  it('gives two yb columns the longer time axis, and a column alone none', () => {
    const one = packed(SCRIPT, 'yb', 'yb_bnl_batch_size=1');
    const batched = packed(SCRIPT, 'yb', 'yb_bnl_batch_size=1024');
    const end = (t: TraceData) => t.length;
    const own = [timeSpan(networkAt(one, end(one))), timeSpan(networkAt(batched, end(batched)))];
    expect(own[0]).toBeGreaterThan(2 * (own[1] ?? 0));
    const shared = sharedScales([
      { profile: 'yb', trace: one, cursor: end(one) },
      { profile: 'yb', trace: batched, cursor: end(batched) },
    ]);
    expect(shared.get(scaleKey('yb', 'network'))?.time).toBe(Math.max(...own));
    expect(shared.get(scaleKey('yb', 'scan'))?.steps).toBeGreaterThan(0);
    // pg beside yb: different engines, different measures, nothing shared.
    const pg = packed(SCRIPT, 'pg');
    expect(
      sharedScales([
        { profile: 'pg', trace: pg, cursor: end(pg) },
        { profile: 'yb', trace: one, cursor: end(one) },
      ]).size,
    ).toBe(0);
  });
});
