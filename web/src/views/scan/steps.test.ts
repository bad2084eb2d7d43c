// @vitest-environment node
// The scan view's steps on real wasm traces of article 003: per statement,
// the steps are the report's seeks, prevs and nexts; the zoomed-out columns
// count every step once at any width; the scan before is the forward one.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import * as wasm from '../../wasm-pkg/indexlab_wasm.js';
import { decodeRun } from '../../engine/packed';
import { statementSpans } from '../../trace/statements';
import { scanAt } from './state';
import { columnsOf, lanesOf, RunningTotals, totalsOf, totalsText, type ScanStep } from './steps';

const root = fileURLToPath(new URL('../../../../', import.meta.url));

beforeAll(() => {
  wasm.initSync({ module: readFileSync(`${root}web/src/wasm-pkg/indexlab_wasm_bg.wasm`) });
});

function run(profile: 'pg' | 'yb', script: string) {
  const r = decodeRun(wasm.run_traced_packed(script, profile, '', { report() {} }));
  if (!r.trace) throw new Error('no trace');
  return { report: r.report, trace: r.trace };
}

const ARTICLE_003 = readFileSync(`${root}tests/fidelity/003-backward-scan.sql`, 'utf8');

describe('article 003 on yb', () => {
  it('steps are the report’s iterator counts, statement by statement', () => {
    const { report, trace } = run('yb', ARTICLE_003);
    for (const span of statementSpans(trace)) {
      const s = scanAt(trace, span.end + 1);
      const t = totalsOf(s.steps);
      const m = report.statements[span.index]?.metrics ?? {};
      if (!/^explain/i.test(span.sql.trim())) continue;
      expect([t.seeks, t.nexts, t.prevs]).toEqual([
        m.rocksdb_number_db_seek,
        m.rocksdb_number_db_next ?? 0,
        m.rocksdb_number_db_prev ?? 0,
      ]);
      expect(s.cuts.length).toBe(m.storage_read_requests);
    }
  });

  it('the backward scan is compared with the forward one before it', () => {
    const { trace } = run('yb', ARTICLE_003);
    const backward = statementSpans(trace).find((s) => /order by id DESC/i.test(s.sql) && !/where id in/i.test(s.sql));
    if (!backward) throw new Error('no backward scan');
    const s = scanAt(trace, backward.end + 1);
    expect(s.previous?.totals.seeks).toBe(1);
    const now = totalsOf(s.steps);
    // The work the clock charges: many times the forward scan's comparisons.
    expect(now.comparisons).toBeGreaterThan(10 * (s.previous?.totals.comparisons ?? Infinity));
    // Halfway through, the picture holds half the steps, the same statement.
    const mid = scanAt(trace, Math.floor((backward.start + backward.end) / 2));
    expect(mid.statement?.index).toBe(backward.index);
    expect(mid.shown).toBeGreaterThan(0);
    expect(mid.shown).toBeLessThan(s.shown);
  });
});

describe('columns and lanes', () => {
  const step = (op: ScanStep['op'], lane: string, comparisons: number): ScanStep => ({
    op,
    lane,
    comparisons,
    parts: null,
    reads: 0,
    place: null,
    found: true,
    backward: false,
  });
  const steps = Array.from({ length: 1000 }, (_, i) =>
    step(i % 3 === 2 ? 'prev' : 'seek', i % 2 ? 'SST 4 · L1' : 'memtable', 20 + (i % 7)),
  );

  it('count every step once, however many share a column', () => {
    for (const width of [50, 333, 1000, 4000]) {
      const cols = columnsOf(steps, 0, steps.length, (i) => (i * width) / steps.length);
      expect(cols.reduce((a, c) => a + c.count, 0)).toBe(steps.length);
      const byOp = cols.flatMap((c) => c.ops).reduce((a, o) => a + o.comparisons, 0);
      expect(byOp).toBe(totalsOf(steps).comparisons);
    }
  });

  it('say no step yet before the first, in neither engine\'s words', () => {
    expect(totalsText(totalsOf([]))).toBe('no scan step yet');
    expect(totalsText(totalsOf(steps, 0))).toBe('no scan step yet');
    expect(totalsText(totalsOf(steps, 1))).toMatch(/seek\(s\)/);
  });

  it('running totals equal totals counted afresh', () => {
    const running = new RunningTotals(steps);
    for (const n of [0, 1, 2, 500, 999, 1000]) expect(running.upTo(n)).toEqual(totalsOf(steps, n));
  });

  it('put the memtable first, then SSTs by level', () => {
    expect(lanesOf([step('seek', 'SST 9 · L2', 1), step('seek', 'SST 3 · L0', 1), step('next', 'memtable', 1)])).toEqual([
      'memtable',
      'SST 3 · L0',
      'SST 9 · L2',
    ]);
  });
});

describe('yb: a batched nested loop', () => {
  it('counts a round sent to many tablets as one read request, as EXPLAIN does', () => {
    const script = readFileSync(`${root}lessons/02-batched-nested-loop/batched.sql`, 'utf8');
    const { report, trace } = run('yb', script);
    const join = statementSpans(trace).find((s) => /join customers/i.test(s.sql));
    if (!join) throw new Error('no join');
    const s = scanAt(trace, join.end + 1);
    const m = report.statements[join.index]?.metrics ?? {};
    expect(s.cuts.length).toBe(m.storage_read_requests);
    // Rounds of lookups reach several of the ten tablets at once.
    expect(Math.max(...s.cuts.map((c) => c.tablets))).toBeGreaterThan(1);
    expect(s.cuts.reduce((n, c) => n + c.rows, 0)).toBeGreaterThan(0);
  });
});

describe('pg: a plain Index Scan reads rows from the heap, which are not heap fetches', () => {
  it('the view says 0 heap fetches where EXPLAIN does, and names the rows read', () => {
    const { report, trace } = run(
      'pg',
      'create table t (id bigint primary key, v bigint); insert into t select generate_series(1, 3000), 0;\n' +
        'explain (analyze, buffers) select * from t where id < 2000 order by id;',
    );
    const t = totalsOf(scanAt(trace, (statementSpans(trace).at(-1)?.end ?? 0) + 1).steps);
    expect(t.heapFetches).toBe(report.statements[2]?.metrics.heap_fetches ?? 0);
    expect(t.heapFetches).toBe(0);
    expect(t.heapRows).toBe(1999);
    expect(totalsText(t)).toContain('1\u202f999 row(s) read from the heap');
    expect(totalsText(t)).not.toContain('heap fetch');
  });
});

describe('pg: a Bitmap Heap Scan reads the index first, then each heap page once', () => {
  it('the view counts the rows EXPLAIN returns, on the pages its Heap Blocks names, and its buffers', () => {
    const { report, trace } = run(
      'pg',
      'create table t (id int primary key, k int, v text);\n' +
        "insert into t select g, g % 100, 'v' || g from generate_series(1, 10000) g;\n" +
        'create index t_k on t (k);\n' +
        'explain (analyze, buffers) select * from t where k = 3;',
    );
    const plan = report.statements[3]?.explain ?? '';
    expect(plan).toContain('Bitmap Heap Scan on t');
    const blocks = Number(/Heap Blocks: exact=(\d+)/.exec(plan)?.[1]);
    const steps = scanAt(trace, (statementSpans(trace).at(-1)?.end ?? 0) + 1).steps;
    const t = totalsOf(steps);
    expect(t.heapRows).toBe(100);
    expect(t.bitmapPages).toBe(blocks);
    expect(new RunningTotals(steps).upTo(steps.length)).toEqual(t);
    const m = report.statements[3]?.metrics;
    expect(t.hits + t.reads).toBe((m?.shared_hit ?? 0) + (m?.shared_read ?? 0));
    expect(totalsText(t)).toContain(`100 row(s) read from the heap on ${blocks} page(s), each read once, in page order`);
    // Every leaf step comes before the first heap step: the bitmap is built first.
    const firstHeap = steps.findIndex((s) => s.op === 'heap');
    expect(steps.slice(firstHeap).some((s) => s.op === 'leaf')).toBe(false);
    // And the heap pages come in page order.
    const pages = steps.filter((s) => s.op === 'heap').map((s) => s.place ?? 0);
    expect(pages).toEqual([...pages].sort((a, b) => a - b));
  });
});

describe('pg: an index-only scan before and after VACUUM', () => {
  it('the heap fetches go away, the leaves stay', () => {
    const { report, trace } = run(
      'pg',
      `create table t (id bigint primary key, v bigint);
insert into t select generate_series(1, 5000), 0;
explain (analyze, buffers) select id from t where id < 4000 order by id;
vacuum t;
explain (analyze, buffers) select id from t where id < 4000 order by id;`,
    );
    const spans = statementSpans(trace);
    const last = spans.at(-1);
    if (!last) throw new Error('no statements');
    const after = scanAt(trace, last.end + 1);
    const before = after.previous?.totals;
    const now = totalsOf(after.steps);
    expect(before?.heapFetches).toBe(report.statements[2]?.metrics.heap_fetches);
    expect(before?.heapFetches).toBeGreaterThan(0);
    expect(now.heapFetches).toBe(0);
    expect(now.leaves).toBe(before?.leaves);
    // Fewer buffers: the heap pages are no longer visited (the article's
    // 616 becoming 346), down to the index's own pages.
    const buffers = (t: typeof now | undefined) => (t ? t.hits + t.reads : 0);
    expect(buffers(now)).toBeLessThan(buffers(before));
    expect(buffers(before) - buffers(now)).toBeGreaterThan(0);
    const e = (i: number) => report.statements[i]?.explain ?? '';
    const shared = (text: string) => Number(/shared hit=(\d+)/.exec(text)?.[1] ?? 0) + Number(/read=(\d+)/.exec(text)?.[1] ?? 0);
    // Every buffer access EXPLAIN counts is a step: the index's, the heap's and the visibility map's pages.
    expect(buffers(now)).toBe(shared(e(4)));
    expect(buffers(before)).toBe(shared(e(2)));
    expect(after.steps.some((s) => s.lane.endsWith(' VM buffers'))).toBe(true);
  });
});

describe('pg: the visibility map at the cursor', () => {
  it('VACUUM fills it in, a later insert clears its page', () => {
    const { trace } = run(
      'pg',
      `create table t (id bigint primary key, v bigint);
insert into t select generate_series(1, 3000), 0;
vacuum t;
insert into t values (3001, 0);`,
    );
    const spans = statementSpans(trace);
    const [, load, vacuum, insert] = spans;
    if (!load || !vacuum || !insert) throw new Error('statements');
    const at = (k: number) => scanAt(trace, k).heaps.find((h) => h.relation === 't');
    const count = (k: number) => at(k)?.visible.reduce((a, v) => a + v, 0);
    const pages = at(vacuum.end + 1)?.pages ?? 0;
    expect(pages).toBeGreaterThan(10);
    expect(count(load.end + 1)).toBe(0);
    expect(count(vacuum.end + 1)).toBe(pages);
    // The new row goes to the last page, whose bit it clears.
    const after = at(insert.end + 1);
    expect(count(insert.end + 1)).toBe(pages - 1);
    expect(after?.visible[pages - 1]).toBe(0);
  });
});

describe('pg: which buffer accesses are a scan’s', () => {
  const SCRIPT = `create table w (id int primary key, v int);
insert into w select g, 0 from generate_series(1, 3000) g;
update w set v = 1 where id = 5;
explain (analyze, buffers) select * from w where id < 100;
`;

  it('an INSERT’s are never decoded; an UPDATE through the index and a query keep theirs', () => {
    const { trace } = run('pg', SCRIPT);
    const decoded = new Map<string, number>();
    const counting = {
      ...trace,
      length: trace.length,
      dropped: trace.dropped,
      snapshots: trace.snapshots,
      kind: (i: number) => trace.kind(i),
      event: (i: number) => {
        decoded.set(trace.kind(i), (decoded.get(trace.kind(i)) ?? 0) + 1);
        return trace.event(i);
      },
      snapshotState: (j: number) => trace.snapshotState(j),
    };
    const spans = statementSpans(counting);
    const [, insert, update, query] = spans;
    if (!insert || !update || !query) throw new Error('four statements');
    const accesses = (from: number, to: number) => {
      let n = 0;
      for (let i = from; i < to; i++) if (trace.kind(i) === 'page_access') n += 1;
      return n;
    };
    expect(accesses(insert.start, insert.end)).toBeGreaterThan(3000);

    expect(scanAt(counting, insert.end + 1).steps).toHaveLength(0);
    expect(decoded.get('page_access') ?? 0).toBe(0);

    const ops = (s: readonly ScanStep[]) => new Set(s.map((x) => x.op));
    expect(ops(scanAt(counting, update.end + 1).steps)).toEqual(new Set(['leaf', 'heap', 'hit']));
    expect(ops(scanAt(counting, query.end + 1).steps)).toContain('hit');
    expect(decoded.get('page_access')).toBe(accesses(update.start, update.end) + accesses(query.start, query.end));
  });
});

describe('pg: a Hash Join builds, then probes; a LIMIT sorts through a top-N heap', () => {
  const TABLES =
    'create table t (id int primary key, a int, b int);\n' +
    'insert into t select g, g % 100, g % 7 from generate_series(1, 10000) g;\n' +
    'vacuum analyze t;\n' +
    'create table u (id int primary key, t_id int);\n' +
    'insert into u select g, g * 3 from generate_series(1, 50) g;\n' +
    'analyze u;\nset enable_mergejoin = off;\n';

  it("the build covers the inner table's steps, the probe the outer's, with EXPLAIN's rows", () => {
    const { report, trace } = run('pg', `${TABLES}explain (analyze, buffers) select * from t join u on u.t_id = t.id;`);
    const last = statementSpans(trace).at(-1);
    if (!last) throw new Error('no statements');
    const s = scanAt(trace, last.end + 1);
    expect(s.phases.map((p) => [p.phase, p.relation, p.rowsIn, p.rowsOut])).toEqual([
      ['build', 'u', 50, 50],
      ['probe', 't', 10000, 50],
    ]);
    expect(s.phasesShown).toBe(2);
    const [build, probe] = s.phases;
    if (!build || !probe) throw new Error('two phases');
    expect(s.steps.slice(0, build.at).every((x) => x.lane.startsWith('u '))).toBe(true);
    expect(s.steps.slice(build.at, probe.at).every((x) => x.lane.startsWith('t '))).toBe(true);
    expect(probe.at).toBe(s.steps.length);
    // The build names the Hash node's figures as EXPLAIN prints them.
    expect(report.statements.at(-1)?.explain).toContain(build.detail);
    // Halfway through the probe, one phase has ended.
    const mid = scanAt(trace, trace.length - 2 - Math.floor((probe.at - build.at) / 2));
    expect(mid.phasesShown).toBe(1);
  });

  it('the Sort under a LIMIT records its heap: the rows that went into memory, slice by slice', () => {
    const { trace } = run('pg', `${TABLES}explain (analyze) select * from t order by b desc, id limit 10;`);
    const last = statementSpans(trace).at(-1);
    if (!last) throw new Error('no statements');
    const sort = scanAt(trace, last.end + 1).phases.at(-1);
    expect(sort?.node).toBe('Sort');
    const heap = sort?.heap;
    if (!heap) throw new Error('no heap');
    expect(heap.entered).toHaveLength(32);
    expect(heap.entered.reduce((a, n) => a + n, 0)).toBe(heap.held + heap.replaced);
    expect(heap.held + heap.replaced + heap.dropped).toBe(10000);
  });
});
