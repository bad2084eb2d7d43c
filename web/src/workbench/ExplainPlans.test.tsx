// The plans of a run with why the planner chose them: the engine's sentences
// under each plan, as text, and nothing when the engine gave none (yb, or a
// plan without a choice).
import { afterEach, describe, expect, it } from 'vitest';
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { ExplainPlans } from './ExplainPlans';
import type { Report, StatementReport } from './report';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let root: Root | null = null;
afterEach(() => {
  act(() => root?.unmount());
  root = null;
  document.body.innerHTML = '';
});

function render(report: Report): HTMLElement {
  const host = document.createElement('div');
  document.body.append(host);
  root = createRoot(host);
  act(() => root?.render(<ExplainPlans id="pg" profile="pg" report={report} />));
  return host;
}

function statement(over: Partial<StatementReport>): StatementReport {
  return {
    sql: 'explain select * from t where a < 10;',
    line: 3,
    run: 1,
    tag: 'EXPLAIN',
    columns: ['QUERY PLAN'],
    rows: [],
    row_count: 0,
    explain: 'Bitmap Heap Scan on t',
    notices: [],
    title: null,
    footers: [],
    rows_line: true,
    why: [],
    metrics: {},
    relations: {},
    replicas: [],
    virtual_ms: 0,
    ...over,
  };
}

function report(statements: StatementReport[]): Report {
  return {
    profile: 'pg',
    settings: [],
    statements,
    totals: { metrics: {}, virtual_ms: 0 },
    error: null,
  } as unknown as Report;
}

describe('ExplainPlans', () => {
  it('says under the plan why the planner chose it, each sentence as text', () => {
    const why = ['Bitmap Heap Scan: about 1000 of 10000 rows match <b>x</b> (estimated cost 95.53; a Seq Scan: 188.00).'];
    const host = render(report([statement({ why })]));
    const box = host.querySelector('[data-testid="why-pg"]');
    expect(box?.querySelector('h4')?.textContent).toBe('Why this plan');
    expect([...(box?.querySelectorAll('li') ?? [])].map((li) => li.textContent)).toEqual(why);
    expect(box?.querySelector('b')).toBeNull();
  });

  it('shows no reasons when the engine gave none', () => {
    const host = render(report([statement({})]));
    expect(host.querySelector('[data-testid="why-pg"]')).toBeNull();
    expect(host.querySelector('[data-testid="explain-pg"]')?.textContent).toBe('Bitmap Heap Scan on t');
  });
});
