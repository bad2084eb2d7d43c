// One profile's results: its error, then each statement's EXPLAIN and key
// counters, then its views at the player's cursor. Text only: nothing from a
// script becomes HTML.
import { lazy, Suspense } from 'react';
import { Replay } from '../player/Replay';
import { count } from '../format/numbers';
import type { SharedScales } from '../player/sharedScales';
import { ColumnTitle } from './ColumnTitle';
import { ExplainPlans } from './ExplainPlans';
import { inSettings, type Profile, type TracedRun } from './report';

// Charts load with their first use (d3-axis, d3-shape stay out of the first paint).
const RunCharts = lazy(() => import('../charts/RunCharts').then((m) => ({ default: m.RunCharts })));

export function ProfileResults({
  id,
  name,
  profile,
  run,
  cursor,
  onFullDetail,
  onSeekStatement,
  atStop = false,
  shared,
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
  /** The scales its views share with the columns beside it. */
  shared?: SharedScales | undefined;
}) {
  const { report } = run;
  return (
    <section className="profile-results" data-testid={`results-${id}`}>
      <ColumnTitle name={name} profile={profile} />
      {report.error && (
        <p className="run-error" role="alert" data-testid={`error-${id}`}>
          {inSettings(report.error)
            ? `${name}'s settings: ${report.error.message}`
            : `Line ${report.error.line}, column ${report.error.column}: ${report.error.message}`}
        </p>
      )}
      <p className="run-summary">
        {count(report.statements.length)} statement run(s), {report.totals.virtual_ms.toFixed(3)} ms of
        virtual time
      </p>
      <ExplainPlans id={id} profile={profile} report={report} />
      {!report.statements.some((s) => s.explain) && !report.error && (
        <p className="hint">Add an EXPLAIN (ANALYZE …) statement to see a plan here.</p>
      )}
      {run.trace && cursor !== null && (
        <Replay id={id} profile={profile} trace={run.trace} report={report} cursor={cursor} onFullDetail={onFullDetail} atStop={atStop} shared={shared} />
      )}
      <Suspense fallback={null}>
        <RunCharts name={name} profile={profile} run={run} cursor={cursor} onSeekStatement={onSeekStatement} />
      </Suspense>
    </section>
  );
}
