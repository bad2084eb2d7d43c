// The plan's phases over the scan's steps: a band behind the steps each phase
// covers (a Hash Join's build, then its probe), and a row of labels under the
// lanes. A phase with no steps of its own (a Sort after the scan, a Merge
// Join's pass) is a marker where it ended. The phase the cursor is in is
// drawn stronger.
import { labelSpots, phaseSpans, phaseTitle, type PhaseMark } from './phases';

/** The height of the label row under the lanes. */
export const PHASE_ROW = 24;

/** About how wide a character of a label is (the views' small font). */
const CHAR_PX = 6.2;

export function PhaseBands({
  phases,
  phasesShown,
  x,
  top,
  bottom,
  left,
  right,
}: {
  phases: readonly PhaseMark[];
  /** Phases ended at the cursor: the next one is in progress. */
  phasesShown: number;
  x: (i: number) => number;
  /** The bands' top and bottom (the strip's top, the lanes' bottom); the label row is below. */
  top: number;
  bottom: number;
  /** The plot's edges: a label never runs past them. */
  left: number;
  right: number;
}) {
  const spans = phaseSpans(phases).map(({ mark, from, to }, k) => ({
    mark,
    title: `${k + 1} ${phaseTitle(mark)}`,
    x0: x(from),
    x1: x(to),
  }));
  const spots = labelSpots(spans, left, right, CHAR_PX);
  return (
    <g className="phase-bands">
      {spans.map(({ mark, x0, x1 }, k) => {
        const state = k < phasesShown ? 'done' : k === phasesShown ? 'now' : 'later';
        const spot = spots[k];
        const [a, b] = [Math.max(left, x0), Math.min(right, x1)];
        return (
          <g key={k} className={`phase phase-${state}`} data-phase={mark.phase}>
            {x1 - x0 >= 1 ? (
              <rect x={x0} y={top} width={x1 - x0} height={bottom - top} className={`phase-band phase-band-${k % 2}`} />
            ) : (
              <line x1={x0} x2={x0} y1={top} y2={bottom + 8} className="phase-marker" />
            )}
            {b > a && <line x1={a} x2={b} y1={bottom + 5} y2={bottom + 5} className="phase-extent" />}
            {spot && (
              <text x={spot.x} y={bottom + 19} textAnchor={spot.anchor} className="phase-label">
                <title>{phaseTitle(mark)}</title>
                {spot.text}
              </text>
            )}
          </g>
        );
      })}
    </g>
  );
}
