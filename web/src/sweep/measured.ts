// The statement a sweep measures in a run (and a point opens the player on):
// the last EXPLAIN, the query under study after the statements that load its
// data; the last statement when there is none, as the CLI's --sweep.
import type { Report, StatementReport } from '../workbench/report';

/** The last EXPLAIN, else the last statement. */
export function measuredStatement(report: Report): StatementReport | undefined {
  const s = report.statements;
  for (let i = s.length - 1; i >= 0; i--) if (s[i]?.explain) return s[i];
  return s[s.length - 1];
}

export function measuredIndex(report: Report): number {
  const m = measuredStatement(report);
  return m ? report.statements.indexOf(m) : -1;
}

