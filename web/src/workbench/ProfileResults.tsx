// One profile's results: its error, then each statement's EXPLAIN and key
// counters, then its views at the player's cursor. Text only: nothing from a
// script becomes HTML.
import { lazy, Suspense } from 'react';
import { Replay } from '../player/Replay';
import { firstLine, keyMetrics, type Profile, type TracedRun } from './report';
import { count } from '../views/shared/format';

// Charts load with their first use (d3-axis, d3-shape stay out of the first paint).
const RunCharts = lazy(() => import('../charts/RunCharts').then((m) => ({ default: m.RunCharts })));

const TITLES: Record<Profile, { name: string; parts: string }> = {
  pg: { name: 'PostgreSQL', parts: 'B+tree, heap, buffer pool' },
  yb: { name: 'YugabyteDB', parts: 'LSM, DocDB, tablets' },
};

/** A column's heading: the variant's name and the engine it runs on. */
export function ColumnTitle({ name, profile }: { name: string; profile: Profile }) {
  return (
    <h2>
      {name === profile ? TITLES[profile].name : name}
      <span className="column-engine">
        {name === profile ? ` (${TITLES[profile].parts})` : ` — ${TITLES[profile].name} (${TITLES[profile].parts})`}
      </span>
    </h2>
  );
}

export function ProfileResults({
  id,
  name,
  profile,
  run,
  cursor,
  onFullDetail,
  onSeekStatement,
  atStop = false,
}: {
  /** The column's id (a variant's): test ids use it. */
  id: string;
  /** The variant's name ("pg", "yb, batches of 200"). */
  name: string;
  profile: Profile;
  run: TracedRun;
  /** This profile's cursor under the page's player (none: no replay). */
  cursor: number | null;
  onFullDetail?: ((index: number) => void) | undefined;
  /** Moves the player to the end of statement `index` (a click on a run chart). */
  onSeekStatement?: ((index: number) => void) | undefined;
  /** The player paused at a lecture stop of this column's. */
  atStop?: boolean;
}) {
  const { report } = run;
  const explains = report.statements.filter((s) => s.explain);
  return (
    <section className="profile-results" data-testid={`results-${id}`}>
      <ColumnTitle name={name} profile={profile} />
      {report.error && (
        <p className="run-error" role="alert" data-testid={`error-${id}`}>
          Line {report.error.line}, column {report.error.column}: {report.error.message}
        </p>
      )}
      <p className="run-summary">
        {report.statements.length} statement run(s), {report.totals.virtual_ms.toFixed(3)} ms of
        virtual time
      </p>
      {explains.map((s, i) => (
        <article className="explain" key={`${s.line}-${s.run}-${i}`}>
          <h3>
            line {s.line}: <code>{firstLine(s.sql)}</code>
          </h3>
          <pre data-testid={`explain-${id}`} tabIndex={0} aria-label={`Plan of line ${s.line}`}>
            {s.explain}
          </pre>
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
      ))}
      {explains.length === 0 && !report.error && (
        <p className="hint">Add an EXPLAIN (ANALYZE …) statement to see a plan here.</p>
      )}
      {run.trace && cursor !== null && (
        <Replay id={id} profile={profile} trace={run.trace} report={report} cursor={cursor} onFullDetail={onFullDetail} atStop={atStop} />
      )}
      <Suspense fallback={null}>
        <RunCharts name={name} profile={profile} run={run} cursor={cursor} onSeekStatement={onSeekStatement} />
      </Suspense>
    </section>
  );
}
