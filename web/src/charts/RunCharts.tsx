// One column's run charts, under its views. The chart's cursor is the
// player's: it marks the statement the player is on; a click on a point (when
// the run is short enough to click) moves the player there.
import { useMemo, useState } from 'react';
import type { Profile, TracedRun } from '../workbench/report';
import { statementAtCursor, statementSpans } from '../trace/statements';
import { Chart } from './Chart';
import { runCharts } from './runCharts';

/** More points than this, and each is no longer its own button. */
const CLICKABLE = 60;

export function RunCharts({
  name,
  profile,
  run,
  cursor,
  onSeekStatement,
}: {
  name: string;
  profile: Profile;
  run: TracedRun;
  cursor: number | null;
  onSeekStatement?: ((index: number) => void) | undefined;
}) {
  // Drawn only while open: a closed list costs nothing while the player plays.
  const [open, setOpen] = useState(false);
  const charts = useMemo(() => runCharts(profile, run.report, run.trace), [profile, run]);
  if (charts.length === 0) return null;
  const span = run.trace && cursor !== null ? statementAtCursor(statementSpans(run.trace), cursor) : undefined;
  const at = span ? span.index + 1 : undefined;
  const few = run.report.statements.length <= CLICKABLE;
  return (
    <details className="run-charts" data-testid={`run-charts-${name}`} onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary>Charts of this run ({charts.length})</summary>
      {open && charts.map((c) => (
        <Chart
          key={c.id}
          testId={`run-chart-${c.id}`}
          title={`${c.title} (${name})`}
          xTitle="statements run"
          yTitle={c.yTitle}
          series={c.series}
          cursorX={at}
          caption={c.caption}
          width={540}
          height={220}
          onPoint={few && onSeekStatement && c.id !== 'sizes' ? (p) => onSeekStatement(Number(p.key)) : undefined}
          pointAction="move the player to this statement"
        />
      ))}
    </details>
  );
}
