// One profile's replay: that engine's views (from the registry), the caption
// of the event under the cursor, the statement's answer (its tag and rows)
// and its counters, all functions of the cursor (trace/timeline.ts). Inside a
// summarized statement the views keep the picture from before it, and the
// column says so and offers to re-run that statement with every step.
import { useId, useMemo, useRef, useState } from 'react';
import { download } from '../charts/exporting';
import { viewPng, viewSvg } from '../views/shared/exportView';
import { useWidth } from '../charts/useWidth';
import { isSummarized, statementAtCursor, statementSpans, summaryText } from '../trace/statements';
import type { TraceData } from '../trace/traceData';
import { viewStateAt, viewsFor, type AnyView, type Profile } from '../views/registry';
import type { Report } from '../workbench/report';
import { describeEvent } from './describe';
import { StatementMetrics } from './StatementMetrics';
import { StatementAnswer } from '../answers/StatementAnswer';
import { scaleKey, type SharedScales } from './sharedScales';

/**
 * The width views are laid out at before their column is measured, and the
 * least they get: a 280 px screen leaves a lesson's column about 220 px, and a
 * view drawn wider than its box would be cut at the edge.
 */
const FALLBACK_WIDTH = 540;
const MIN_WIDTH = 200;

function ViewAt({
  view,
  trace,
  cursor,
  column,
  width,
  shared,
}: {
  view: AnyView;
  trace: TraceData;
  cursor: number;
  column: string;
  width: number;
  shared: Readonly<Record<string, number>> | undefined;
}) {
  const stateAt = useMemo(() => viewStateAt(view, trace), [trace, view]);
  const state = stateAt(cursor);
  const last = cursor > 0 ? trace.event(cursor - 1) : undefined;
  const { Component } = view;
  const frame = useRef<HTMLDivElement>(null);
  const summary = useId();
  const [failed, setFailed] = useState<string | null>(null);
  const name = `${column}-${view.id}-event-${cursor}`;
  const save = (kind: 'png' | 'svg') => {
    const el = frame.current;
    if (!el) return;
    setFailed(null);
    const made = kind === 'png' ? viewPng(el) : Promise.resolve(new Blob([viewSvg(el)], { type: 'image/svg+xml' }));
    made.then(
      (blob) => download(`indexlab-${name}.${kind}`, blob),
      (e: unknown) => setFailed(e instanceof Error ? e.message : String(e)),
    );
  };
  // Focusable, named and described: a keyboard reaches each view, a screen reader reads it in words.
  return (
    <div
      className="view-frame"
      data-view={view.id}
      ref={frame}
      tabIndex={0}
      role="group"
      aria-label={`${view.title} (${column})`}
      aria-describedby={summary}
    >
      <Component state={state} trace={trace} cursor={cursor} stateAt={stateAt} last={last} width={width} shared={shared} />
      <ul id={summary} className="sr-only view-summary" data-testid={`summary-${view.id}-${column}`} aria-label={`${view.title}, in words`}>
        {view.summary(state).map((line: string, i: number) => (
          <li key={i}>{line}</li>
        ))}
      </ul>
      <p className="view-export">
        <button type="button" className="secondary" aria-label={`Download ${view.title} (${column}) as PNG`} onClick={() => save('png')}>
          PNG
        </button>
        <button type="button" className="secondary" aria-label={`Download ${view.title} (${column}) as SVG`} onClick={() => save('svg')}>
          SVG
        </button>
        {failed && <span role="alert">{failed}</span>}
      </p>
    </div>
  );
}

export function Replay({
  id,
  profile,
  trace,
  report,
  cursor,
  onFullDetail,
  views,
  compact = false,
  atStop = false,
  shared,
  foldCaption = false,
}: {
  /** The column's id (test ids use it). */
  id: string;
  profile: Profile;
  trace: TraceData;
  report: Report;
  /** Events applied: the page's one player sets it for every profile. */
  cursor: number;
  /** Re-runs the scenario with every step of statement `index` recorded. */
  onFullDetail?: ((index: number) => void) | undefined;
  /** Only these views (ids), in the registry's order; all when undefined. */
  views?: readonly string[] | undefined;
  /** Without the statement's counters (an embed: the player, the views, a caption). */
  compact?: boolean;
  /** The player paused here at a lecture stop: the caption is what the class reads. */
  atStop?: boolean;
  /** The scales this column shares with the columns beside it (sharedScales.ts). */
  shared?: SharedScales | undefined;
  /**
   * Fold the engine's caption (a phone at a lesson's narrated moment: the
   * narration speaks for it, and the view it names must fit below it).
   */
  foldCaption?: boolean;
}) {
  // Views are laid out at their column's real width (in presenter mode, its
  // zoomed width: the page is scaled, not the text squeezed).
  const frame = useRef<HTMLDivElement>(null);
  const width = Math.max(MIN_WIDTH, useWidth(frame, FALLBACK_WIDTH));
  const shown = viewsFor(profile).filter((v) => !views || views.includes(v.id));
  const spans = statementSpans(trace);
  const span = statementAtCursor(spans, cursor);
  const summarized = isSummarized(span) && span !== undefined && cursor <= span.end;
  // What the statement under the cursor answered (none before the first starts).
  const answered = span ? report.statements[span.index] : undefined;
  return (
    <section className="replay" data-testid={`replay-${id}`}>
      {foldCaption ? (
        <details className="event-caption folded">
          <summary>What the engine did here</summary>
          <p data-testid={`event-${id}`}>{describeEvent(cursor > 0 ? trace.event(cursor - 1) : undefined, trace)}</p>
        </details>
      ) : (
        <p className={atStop ? 'event-caption at-stop' : 'event-caption'} data-testid={`event-${id}`}>
          {describeEvent(cursor > 0 ? trace.event(cursor - 1) : undefined, trace)}
        </p>
      )}
      {summarized && span && (
        <p className="summarized" role="note" data-testid={`summarized-${id}`}>
          {summaryText(span, trace)}{' '}
          {onFullDetail && (
            <button type="button" onClick={() => onFullDetail(span.index)}>
              Show every step of statement {span.index + 1}
            </button>
          )}
        </p>
      )}
      {answered && span && <StatementAnswer id={id} statement={answered} index={span.index} compact={compact} />}
      {!compact && <StatementMetrics id={id} profile={profile} report={report} index={Math.max(0, span?.index ?? 0)} />}
      <div className="views" ref={frame}>
        {shown.map((v) => (
          <ViewAt key={v.id} view={v} trace={trace} cursor={cursor} column={id} width={width} shared={shared?.get(scaleKey(profile, v.id))} />
        ))}
      </div>
    </section>
  );
}
