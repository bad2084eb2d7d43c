// The statement under the cursor on both engines, in one line: what each one
// spent (virtual time, and the counters that drive it), so the difference is
// read at a glance instead of compared across two columns.
import { count } from '../views/shared/format';
import type { StatementReport } from './report';

function pgCost(m: Record<string, number>): string {
  const hit = m.shared_hit ?? 0;
  const read = m.shared_read ?? 0;
  return `${count(hit + read)} buffer access(es), ${count(read)} from storage`;
}

function ybCost(m: Record<string, number>): string {
  const requests = m.storage_read_requests ?? 0;
  const rpcs = m.rpc_count ?? 0;
  return `${count(requests)} read request(s), ${count(rpcs)} RPC(s)`;
}

/** "pg 0.901 ms (…) · yb 3.892 ms, 4.3× pg (…)" for one statement on both engines. */
export function compareLine(pg: StatementReport, yb: StatementReport): string {
  const ratio = pg.virtual_ms > 0 ? yb.virtual_ms / pg.virtual_ms : null;
  const times =
    ratio === null
      ? ''
      : ratio >= 1
        ? `, ${ratio.toFixed(1)}× pg's`
        : `, ${(1 / ratio).toFixed(1)}× faster than pg`;
  return (
    `pg ${pg.virtual_ms.toFixed(3)} ms (${pgCost(pg.metrics)}) · ` +
    `yb ${yb.virtual_ms.toFixed(3)} ms${times} (${ybCost(yb.metrics)})`
  );
}
