// The statement under the cursor on both engines, in one line: what each one
// spent (virtual time, and the counters that drive it), so the difference is
// read at a glance instead of compared across two columns.
import { count } from '../format/numbers';
import type { Profile, StatementReport } from './report';

/** One column of the comparison: a variant's name, engine, and its statement. */
export interface Side {
  name: string;
  profile: Profile;
  statement: StatementReport;
}

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

/** "pg 0.901 ms (…) · yb 3.892 ms, 4.3× pg's (…)" for one statement on two variants. */
export function compareSides(a: Side, b: Side): string {
  // A ratio needs time on both sides: with none on either, "Infinity× faster"
  // (or 0×) would be all the line said.
  const [ta, tb] = [a.statement.virtual_ms, b.statement.virtual_ms];
  const ratio = ta > 0 && tb > 0 ? tb / ta : null;
  const times =
    ratio === null
      ? ''
      : ratio >= 1
        ? `, ${ratio.toFixed(1)}× ${a.name}'s`
        : `, ${(1 / ratio).toFixed(1)}× faster than ${a.name}`;
  const cost = (s: Side) => (s.profile === 'pg' ? pgCost(s.statement.metrics) : ybCost(s.statement.metrics));
  return (
    `${a.name} ${a.statement.virtual_ms.toFixed(3)} ms (${cost(a)}) · ` +
    `${b.name} ${b.statement.virtual_ms.toFixed(3)} ms${times} (${cost(b)})`
  );
}

/** The default pair: pg against yb. */
export function compareLine(pg: StatementReport, yb: StatementReport): string {
  return compareSides({ name: 'pg', profile: 'pg', statement: pg }, { name: 'yb', profile: 'yb', statement: yb });
}
