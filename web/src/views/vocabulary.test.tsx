// @vitest-environment node
// One vocabulary, one number: at the end of every EXPLAIN in every lesson
// scenario's columns, each number a view quotes for its statement under a
// counter's name is that counter, as EXPLAIN prints it. Read requests are
// EXPLAIN's Storage Read Requests; RPCs are the RPCs sent; heap fetches are
// its Heap Fetches; seeks and nexts are DocDB's; buffer accesses are shared
// hit + read (the visibility map's pages included).
import { fileURLToPath } from 'node:url';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { lessonSteps, scenariosOf } from '../../build/lessonScenarios';
import { statementSpans } from '../trace/statements';
import type { TraceData } from '../trace/traceData';
import { viewStateAt, viewsFor, type AnyView } from './registry';

const root = fileURLToPath(new URL('../../../', import.meta.url));

/** What a view says at `cursor`: its labels, captions and text, and its summary in words. */
function wordsOf(view: AnyView, trace: TraceData, cursor: number): string[] {
  const stateAt = viewStateAt(view, trace);
  const { Component } = view;
  const markup = renderToStaticMarkup(
    <Component state={stateAt(cursor)} trace={trace} cursor={cursor} stateAt={stateAt} last={cursor > 0 ? trace.event(cursor - 1) : undefined} width={600} />,
  );
  const labels = [...markup.matchAll(/aria-label="([^"]*)"/g)].map((m) => m[1] ?? '');
  const text = markup
    .replace(/<title>[^<]*<\/title>/g, '\n')
    .replace(/<[^>]+>/g, '\n')
    .split('\n');
  return [...labels, ...text, ...(view.summary(stateAt(cursor)) as string[])].map((s) => s.replace(/&#x27;/g, "'").trim()).filter(Boolean);
}

const NUM = '(\\d[\\d\\u202f]*)';
const number = (s: string | undefined) => Number((s ?? '').replace(/\u202f/g, ''));

/** A view's headline for statement `n` ("Scan: Statement 6 — …"), the line that speaks of that statement's counters. */
const headline = (kind: string, n: number) => new RegExp(`^${kind}: Statement ${n}\\b`);

interface Claim {
  view: string;
  says: RegExp;
  counter: string;
  value(metrics: Record<string, number>): number;
}

const m = (name: string) => (metrics: Record<string, number>) => metrics[name] ?? 0;

/** Counters each view quotes in its headline, and the EXPLAIN counter each must equal. */
const CLAIMS: Record<'pg' | 'yb', readonly Claim[]> = {
  yb: [
    { view: 'Scan', says: new RegExp(`${NUM} seek\\(s\\)`), counter: 'rocksdb_number_db_seek', value: m('rocksdb_number_db_seek') },
    { view: 'Scan', says: new RegExp(`${NUM} next\\(s\\)`), counter: 'rocksdb_number_db_next', value: m('rocksdb_number_db_next') },
    { view: 'Scan', says: new RegExp(`${NUM} prev\\(s\\)`), counter: 'rocksdb_number_db_prev', value: m('rocksdb_number_db_prev') },
    { view: 'Scan', says: new RegExp(`of ${NUM} read request\\(s\\)`), counter: 'storage_read_requests', value: m('storage_read_requests') },
    { view: 'Network', says: new RegExp(`${NUM} RPC\\(s\\)`), counter: 'rpc_count', value: m('rpc_count') },
  ],
  pg: [
    { view: 'Scan', says: new RegExp(`${NUM} heap fetch\\(es\\)`), counter: 'heap_fetches', value: m('heap_fetches') },
    {
      view: 'Scan',
      says: new RegExp(`${NUM} buffer access\\(es\\)`),
      counter: 'shared_hit + shared_read',
      value: (x) => (x.shared_hit ?? 0) + (x.shared_read ?? 0),
    },
  ],
};

/** How often each claim was checked, over every lesson (each must be, somewhere). */
const checkedClaims = new Map<string, number>();
const claimKey = (profile: string, c: Claim) => `${profile} ${c.view}: ${c.counter}`;

describe('one vocabulary, one number', () => {
  for (const { lesson, file, path } of lessonSteps(`${root}lessons`)) {
    it(`${lesson}/${file}: every counter a view quotes at the end of an EXPLAIN is EXPLAIN's`, { timeout: 60_000 }, async () => {
      let checked = 0;
      let explains = 0;
      for (const s of await scenariosOf(path)) {
        for (const { v, run } of s.runs) {
          const spans = statementSpans(run.trace);
          run.report.statements.forEach((st, i) => {
            if (st.explain === null) return;
            explains += 1;
            const span = spans.find((x) => x.index === i);
            if (!span) return;
            const cursor = Math.min(span.end + 1, run.trace.length);
            const where = `${s.src} on ${v.name}, statement ${i + 1} (line ${st.line})`;
            const words = viewsFor(v.profile).flatMap((view) => wordsOf(view, run.trace, cursor));
            for (const claim of CLAIMS[v.profile]) {
              const line = words.find((w) => headline(claim.view, i + 1).test(w) && claim.says.test(w));
              if (!line) continue;
              expect(number(claim.says.exec(line)?.[1]), `${where}: "${line}" against ${claim.counter}`).toBe(claim.value(st.metrics));
              checked += 1;
              checkedClaims.set(claimKey(v.profile, claim), (checkedClaims.get(claimKey(v.profile, claim)) ?? 0) + 1);
            }
          });
        }
      }
      // Each EXPLAIN's scan or network view quotes its counters: a step with EXPLAINs has numbers to check.
      if (explains > 0) expect(checked).toBeGreaterThan(0);
    });
  }

  // Run after the steps (vitest runs a file's tests in order): a claim whose
  // words no view prints any more would otherwise be skipped silently.
  it('checked every claim somewhere in the lessons', () => {
    for (const profile of ['pg', 'yb'] as const) {
      for (const claim of CLAIMS[profile]) expect(checkedClaims.get(claimKey(profile, claim)) ?? 0, claimKey(profile, claim)).toBeGreaterThan(0);
    }
  });
});
