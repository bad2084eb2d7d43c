// The counters of the statement under the cursor, per relation, beside the
// running totals up to it: what the engine did so far, and in this step.
import type { Profile, Report } from '../workbench/report';
import { KEY_METRICS } from '../workbench/report';
import { count } from '../format/numbers';

/** Totals of `name` over statements 0..=index. */
function runningTotal(report: Report, index: number, name: string): number {
  return report.statements
    .slice(0, index + 1)
    .reduce((sum, s) => sum + (s.metrics[name] ?? 0), 0);
}

export function StatementMetrics({
  id,
  profile,
  report,
  index,
}: {
  id: string;
  profile: Profile;
  report: Report;
  index: number;
}) {
  const s = report.statements[index];
  if (!s) return null;
  const names = KEY_METRICS[profile];
  const relations = Object.keys(s.relations).sort();
  return (
    <div className="statement-metrics" data-testid={`statement-metrics-${id}`} tabIndex={0} role="region" aria-label={`Counters of the statement (${id})`}>
      <p className="hint">
        Statement {index + 1} (line {s.line}): {s.tag || s.sql.split('\n')[0]} —{' '}
        {s.virtual_ms.toFixed(3)} ms
      </p>
      <table className="metrics wide">
        <thead>
          <tr>
            <th scope="col">counter</th>
            {relations.map((r) => (
              <th scope="col" key={r}>
                {r}
              </th>
            ))}
            <th scope="col">statement</th>
            <th scope="col">run so far</th>
          </tr>
        </thead>
        <tbody>
          {names.map((n) => (
            <tr key={n}>
              <th scope="row">{n}</th>
              {relations.map((r) => (
                <td key={r}>{count(s.relations[r]?.[n] ?? 0)}</td>
              ))}
              <td>{count(s.metrics[n] ?? 0)}</td>
              <td>{count(runningTotal(report, index, n))}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
