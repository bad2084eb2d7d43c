// At a lecture stop, one line for the class: where the player paused. The
// column's own caption, just above its views, says what happened and why.
import type { TraceData } from '../trace/traceData';
import type { ResultColumn } from '../variants/runVariants';
import type { LectureStop } from './lecture';

export function LectureCaption({
  stops,
  position,
  tracks,
}: {
  stops: readonly LectureStop[];
  position: number;
  tracks: readonly { column: ResultColumn; trace: TraceData }[];
}) {
  const here = stops.filter((s) => s.position === position);
  if (here.length === 0) return null;
  const what = here.map((s) => `a ${s.kind} in ${tracks[s.track]?.column.name ?? '?'}`).join(' and ');
  return (
    <p className="lecture-caption" role="status" data-testid="lecture-caption">
      <strong>Paused at {what}</strong>: its caption, above the views, says what happened and why. Space or . plays on.
    </p>
  );
}

/** The switch for lecture pace (also the l key), with what it does. */
export function LectureSwitch({ on, onChange }: { on: boolean; onChange(on: boolean): void }) {
  return (
    <label className="lecture-switch">
      <input type="checkbox" checked={on} onChange={(e) => onChange(e.target.checked)} /> Lecture pace (l)
      <span className="lecture-what">: playing pauses on splits, flushes, compactions, read requests, backward seeks</span>
    </label>
  );
}
