// Each EXPLAIN of a run, as the engine printed it, with why the planner chose
// it (the engine's sentences, one per cost-based choice, with the costs it
// beat) and the key counters of its statement: the workbench's columns and a
// lesson's article-scale run show the same plans. Text only: nothing from a
// script becomes HTML.
import { count } from '../format/numbers';
import { firstLine, keyMetrics, type Profile, type Report } from './report';

export function ExplainPlans({ id, profile, report }: { id: string; profile: Profile; report: Report }) {
  const explains = report.statements.filter((s) => s.explain);
  return explains.map((s, i) => (
    <article className="explain" key={`${s.line}-${s.run}-${i}`}>
      <h3>
        line {s.line}: <code>{firstLine(s.sql)}</code>
      </h3>
      <pre data-testid={`explain-${id}`} tabIndex={0} aria-label={`Plan of line ${s.line}`}>
        {s.explain}
      </pre>
      {s.why.length > 0 && (
        <div className="plan-why" data-testid={`why-${id}`}>
          <h4>Why this plan</h4>
          <ul>
            {s.why.map((w) => (
              <li key={w}>{w}</li>
            ))}
          </ul>
        </div>
      )}
      <table className="metrics">
        <tbody>
          {keyMetrics(profile, s.metrics).map(([name, value]) => (
            <tr key={name}>
              <th scope="row">{name}</th>
              <td>{count(value)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </article>
  ));
}
