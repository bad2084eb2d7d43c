// @vitest-environment node
// The network view's grouping on small hand-made rounds and on real wasm
// traces of article 001: its rounds are the statement's read requests, its
// loops the join's, and the zoomed-out ticks count every round once.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import * as wasm from '../../wasm-pkg/indexlab_wasm.js';
import { decodeRun } from '../../engine/packed';
import { statementSpans } from '../../trace/statements';
import type { Message } from './rounds';
import { roundTicks, roundsOf, roundsUpTo, timeSplit } from './rounds';
import { networkAt } from './state';

const root = fileURLToPath(new URL('../../../../', import.meta.url));

/** A message; its tablet is the one its leader's number names unless given. */
function msg(kind: string, from: string, to: string, send_us: number, arrive_us: number, rows = 0, tablet?: number): Message {
  const leader = to === 'ysql' ? from : to;
  return { type: 'rpc', kind, from, to, tablet: tablet ?? Number(leader.slice(-1)), ops: 1, rows, bytes: 100, send_us, arrive_us };
}

describe('rounds', () => {
  // Two rounds: the first to two servers in parallel (the slower answers at
  // 900), then 100 µs on the query node, then one RPC.
  const messages = [
    msg('read', 'ysql', 'tserver-1', 0, 400),
    msg('read', 'ysql', 'tserver-2', 0, 400),
    msg('read response', 'tserver-1', 'ysql', 500, 900, 3),
    msg('read response', 'tserver-2', 'ysql', 450, 850, 2),
    msg('read', 'ysql', 'tserver-1', 1000, 1400),
    msg('read response', 'tserver-1', 'ysql', 1450, 1850, 1),
  ];

  it('groups requests sent together, with their answers', () => {
    const rounds = roundsOf(messages);
    expect(rounds.map((r) => [r.rpcs, r.rows, r.start_us, r.end_us])).toEqual([
      [2, 5, 0, 900],
      [1, 1, 1000, 1850],
    ]);
  });

  it('regroups only the round under way, to the same rounds as afresh', () => {
    for (let shown = 0; shown <= messages.length; shown++) {
      expect(roundsUpTo(messages, shown)).toEqual(roundsOf(messages.slice(0, shown)));
    }
  });

  it('splits the time along each round’s slowest RPC', () => {
    const split = timeSplit(roundsOf(messages), 2000);
    // Round 1: 800 on the wire, 100 at tserver-1; round 2: 800 and 50.
    expect(split.network_us).toBe(1600);
    expect(split.tserver_us).toBe(150);
    expect(split.query_us).toBe(250);
    expect(split.network_us + split.tserver_us + split.query_us).toBe(split.total_us);
  });
});

describe('a write with three copies', () => {
  // The leader (tserver-1) replicates to two followers and answers once one
  // of them (a majority with itself) has acknowledged.
  const messages = [
    msg('write', 'ysql', 'tserver-1', 0, 400, 0, 1),
    msg('replicate', 'tserver-1', 'tserver-2', 450, 850, 0, 1),
    msg('replicate', 'tserver-1', 'tserver-3', 450, 850, 0, 1),
    msg('replicate ack', 'tserver-2', 'tserver-1', 900, 1300, 0, 1),
    msg('replicate ack', 'tserver-3', 'tserver-1', 900, 1300, 0, 1),
    msg('write response', 'tserver-1', 'ysql', 1350, 1750, 0, 1),
  ];

  it('is one round, its replication on the wire', () => {
    const rounds = roundsOf(messages);
    expect(rounds).toHaveLength(1);
    expect(rounds[0]?.write).toBe(true);
    const split = timeSplit(rounds, 1750);
    // Request, append, acknowledgement, response: four half round trips.
    expect(split.network_us).toBe(1600);
    expect(split.tserver_us).toBe(150);
  });
});

describe('article 001 on real traces', () => {
  beforeAll(() => {
    wasm.initSync({ module: readFileSync(`${root}web/src/wasm-pkg/indexlab_wasm_bg.wasm`) });
  });
  const script = readFileSync(`${root}tests/fidelity/001-batched-nested-loop.sql`, 'utf8');

  for (const batch of [1, 1024]) {
    it(`batch ${batch}: rounds are read requests, loops are the join's`, () => {
      const run = decodeRun(wasm.run_traced_packed(script, 'yb', `yb_bnl_batch_size=${batch}`, { report() {} }));
      const trace = run.trace;
      if (!trace) throw new Error('no trace');
      const join = statementSpans(trace).find((s) => /join demo b/i.test(s.sql));
      if (!join) throw new Error('no join statement');
      const state = networkAt(trace, join.end + 1);
      const rounds = roundsOf(state.messages.slice(0, state.shown));
      const report = run.report.statements[join.index];
      expect(rounds.length).toBe(report?.metrics.storage_read_requests);
      expect(rounds.reduce((a, r) => a + r.rpcs, 0)).toBe(report?.metrics.rpc_count);
      expect(state.loops.length).toBe(Math.ceil(2000 / batch));
      // Zoomed out, every round is one tick's worth, whatever the width.
      for (const px of [100, 540, 5000]) {
        const start = rounds[0]?.start_us ?? 0;
        const span = (rounds.at(-1)?.end_us ?? start + 1) - start;
        const ticks = roundTicks(rounds, (us) => ((us - start) / span) * px);
        expect([...ticks.values()].reduce((a, n) => a + n, 0)).toBe(rounds.length);
      }
      // Mid-statement, the picture holds what has happened so far.
      const mid = networkAt(trace, Math.floor((join.start + join.end) / 2));
      expect(mid.shown).toBeLessThan(state.shown);
      expect(mid.statement?.index).toBe(join.index);
    });
  }

  it('with three copies, each write round replicates to the followers', () => {
    const script = 'set replication_factor = 3;\ncreate table w (id int primary key) split into 3 tablets;\ninsert into w values (1), (2), (3);\n';
    const run = decodeRun(wasm.run_traced_packed(script, 'yb', '', { report() {} }));
    const trace = run.trace;
    if (!trace) throw new Error('no trace');
    const insert = statementSpans(trace).find((s) => /^insert/i.test(s.sql));
    if (!insert) throw new Error('no insert');
    const state = networkAt(trace, insert.end + 1);
    const rounds = roundsOf(state.messages);
    // A write request goes to one tablet; the requests flushed together are one round.
    expect(rounds.reduce((a, r) => a + r.rpcs, 0)).toBe(run.report.statements[insert.index]?.metrics.storage_write_requests);
    for (const r of rounds) {
      expect(r.write).toBe(true);
      const leaders = new Set(r.messages.filter((m) => m.kind === 'write').map((m) => m.to));
      const appends = r.messages.filter((m) => m.kind === 'replicate');
      // Two followers per tablet written, never the leader itself.
      expect(appends.length).toBe(2 * r.rpcs);
      // Each leader replicates its own tablet to the two other servers.
      for (const m of appends) expect(m.from).not.toBe(m.to);
      expect(leaders.size).toBe(r.rpcs);
    }
  });
});

describe('the time axis', () => {
  it('labels each tick once, with the decimals its step needs, and no more ticks than fit', async () => {
    const { scaleLinear } = await import('d3-scale');
    const { axisTicks } = await import('./NetworkView');
    // An empty statement: a 1 µs domain would read "0.00 ms" five times.
    const empty = axisTicks(scaleLinear().domain([0, 1]).range([0, 300]), 300);
    expect(new Set(empty.map((t) => t.label)).size).toBe(empty.length);
    // 8.28 ms on 300 px: whole milliseconds, each label narrower than the room between ticks.
    const x = scaleLinear().domain([0, 8280]).range([0, 300]);
    const run = axisTicks(x, 300);
    expect(run.map((t) => t.label)).toEqual(['0 ms', '2 ms', '4 ms', '6 ms', '8 ms']);
    const gap = x(run[1]?.v ?? 0) - x(run[0]?.v ?? 0);
    expect(gap).toBeGreaterThan(Math.max(...run.map((t) => t.label.length)) * 6.2);
    const fine = axisTicks(scaleLinear().domain([0, 960]).range([0, 600]), 600);
    expect(fine.map((t) => t.label).slice(0, 2)).toEqual(['0.0 ms', '0.2 ms']);
  });
});
