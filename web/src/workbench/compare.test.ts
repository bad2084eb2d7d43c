// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { compareLine } from './compare';
import type { StatementReport } from './report';

function stmt(virtual_ms: number, metrics: Record<string, number>): StatementReport {
  return {
    sql: 'select 1',
    line: 1,
    run: 1,
    tag: 'SELECT 1',
    columns: [],
    rows: [],
    row_count: 1,
    explain: null,
    notices: [],
    title: null,
    footers: [],
    rows_line: true,
    why: [],
    metrics,
    relations: {},
    replicas: [],
    virtual_ms,
  };
}

describe('compareLine', () => {
  it('puts both engines and the ratio of their times in one line', () => {
    const pg = stmt(1.266, { shared_hit: 63, shared_read: 2 });
    const yb = stmt(2.856, { storage_read_requests: 5, rpc_count: 5 });
    expect(compareLine(pg, yb)).toBe(
      "pg 1.266 ms (65 buffer access(es), 2 from storage) · yb 2.856 ms, 2.3× pg's (5 read request(s), 5 RPC(s))",
    );
  });

  it('says when yb was the faster one, and stays quiet on a zero-time pg', () => {
    expect(compareLine(stmt(4, {}), stmt(1, {}))).toContain('4.0× faster than pg');
    expect(compareLine(stmt(0, {}), stmt(1, {}))).toContain('yb 1.000 ms (');
  });

  it('gives no ratio when yb spent no time (a CREATE TABLE): not "Infinity× faster"', () => {
    const line = compareLine(stmt(0.001, {}), stmt(0, {}));
    expect(line).toContain('yb 0.000 ms (');
    expect(line).not.toContain('×');
  });
});
