// A plan node's phases as the scan view shows them: a Hash Join's build then
// probe, a Merge Join's two reads in key order then its pass, a Sort. The
// engine records each phase when it ends (a `plan_phase` event), so the steps
// since the phase before belong to it. Pure functions of those events: the
// label a band carries and the sentence that says what happened and why.
import type { TopNHeap, TraceEvent } from '../../engine/schema.gen';
import { count } from '../../format/numbers';

export type PlanPhaseEvent = Extract<TraceEvent, { type: 'plan_phase' }>;

export interface PhaseMark {
  /** The statement's steps before the phase ended. */
  at: number;
  node: string;
  phase: string;
  relation: string;
  rowsIn: number;
  rowsOut: number;
  /** What EXPLAIN ANALYZE prints of it, or "". */
  detail: string;
  heap: TopNHeap | null;
}

export function phaseMark(e: PlanPhaseEvent, at: number): PhaseMark {
  return {
    at,
    node: e.node,
    phase: e.phase,
    relation: e.relation,
    rowsIn: e.rows_in,
    rowsOut: e.rows_out,
    detail: e.detail,
    heap: e.heap,
  };
}

/** The steps each phase covers: from the end of the one before to its own end. */
export function phaseSpans(phases: readonly PhaseMark[]): { mark: PhaseMark; from: number; to: number }[] {
  let from = 0;
  return phases.map((mark) => {
    const span = { mark, from, to: mark.at };
    from = mark.at;
    return span;
  });
}

/** A band's short label: "build: u", "probe: t", "merge", "top-N heap". */
export function phaseTitle(p: PhaseMark): string {
  if (p.node === 'Sort') return p.heap ? 'top-N heap' : 'sort';
  return p.relation ? `${p.phase}: ${p.relation}` : p.phase;
}

const rows = (n: number) => `${count(n)} row${n === 1 ? '' : 's'}`;

function hashJoin(p: PhaseMark): string {
  if (p.phase === 'build') {
    const unstored = p.rowsIn > p.rowsOut ? ` (${count(p.rowsIn - p.rowsOut)} with a NULL key, which can match nothing, were left out)` : '';
    const figures = p.detail ? ` — ${p.detail}` : '';
    return (
      `Hash Join, build: ${p.relation} was read and its ${rows(p.rowsOut)} went into a hash table on the join key${unstored}${figures}. ` +
      'The planner builds from the side it expects to be smaller, so the table fits in work_mem'
    );
  }
  return (
    `Hash Join, probe: each of ${p.relation}'s ${rows(p.rowsIn)} was hashed and looked up in that table, giving ${rows(p.rowsOut)} joined. ` +
    'Each table is read once, where a Nested Loop would search the inner table once per outer row'
  );
}

function mergeJoin(p: PhaseMark): string {
  if (p.phase === 'merge') {
    return (
      `Merge Join, the pass: both inputs walked in step, equal keys paired: ${rows(p.rowsOut)} joined. ` +
      "It stops once either side's keys run out, so the other side is read only that far"
    );
  }
  const order = p.detail === 'sorted on the join key' ? 'read, then sorted on the join key' : "read in its index's key order, so it needed no Sort";
  // Said once, at the first side: the view draws each side's reads together.
  const pulled =
    p.phase === 'outer' ? ". PostgreSQL pulls each side's rows one at a time as the pass asks for them; the view draws each side's reads together" : '';
  return `Merge Join, ${p.phase} side: ${rows(p.rowsIn)} of ${p.relation} ${order}${pulled}`;
}

function sort(p: PhaseMark): string {
  const memory = /Memory: (\S+)/.exec(p.detail)?.[1];
  const h = p.heap;
  if (h) {
    return (
      `Sort, a top-N heapsort for LIMIT ${count(h.bound)}: the first ${rows(h.held)} were held as they came; then only the best ${count(h.bound)} stayed, ` +
      `in a heap whose top is the worst of them. Each of the next ${rows(h.replaced + h.dropped)} was compared with that top once: ` +
      `${count(h.replaced)} replaced it, ${count(h.dropped)} were dropped. ` +
      `Memory held ${rows(h.held)} at most${memory ? ` (${memory})` : ''}, not all ${count(p.rowsIn)}`
    );
  }
  const why =
    p.rowsOut < p.rowsIn
      ? `a LIMIT of ${count(p.rowsOut)} keeps a heap only once more than twice that many rows come, and ${count(p.rowsIn)} did not`
      : 'no LIMIT bounds it, so every row is kept until the last one has come';
  return `Sort: all ${rows(p.rowsIn)} held in memory and quicksorted${memory ? ` (${memory})` : ''}; ${why}`;
}

function bitmapHeapScan(p: PhaseMark): string {
  if (p.phase === 'bitmap') {
    return (
      `Bitmap Heap Scan, the bitmap: ${p.relation} read first, whole: ${count(p.rowsIn)} matching entr${p.rowsIn === 1 ? 'y' : 'ies'} marked ` +
      `${p.detail}. Nothing is read from the table yet`
    );
  }
  return (
    `Bitmap Heap Scan, the table: the ${rows(p.rowsIn)} marked read from ${p.relation} (${p.detail}), each page once and in page order, ` +
    `${rows(p.rowsOut)} kept. Cheaper than a random read per row when the rows are many or scattered, and than the whole table when they are few`
  );
}

/** What the phase did and why, in a sentence. */
export function phaseText(p: PhaseMark): string {
  switch (p.node) {
    case 'Bitmap Heap Scan':
      return bitmapHeapScan(p);
    case 'Hash Join':
      return hashJoin(p);
    case 'Merge Join':
      return mergeJoin(p);
    case 'Sort':
      return sort(p);
    default:
      return `${p.node}, ${p.phase}: ${rows(p.rowsIn)} in, ${rows(p.rowsOut)} out`;
  }
}

/** Where a phase's label goes in the row under the lanes, or null when there is no room. */
export interface LabelSpot {
  x: number;
  text: string;
  anchor: 'start' | 'end';
}

/**
 * Each phase's label, left to right, none running into the one before or
 * off the plot (`left`..`right`): a band's label inside its band (its number
 * alone when the title does not fit), a marker's label after it, or before
 * it at the plot's right edge. `spans` are pixel extents; `charPx` about a
 * character's width.
 */
export function labelSpots(
  spans: readonly { title: string; x0: number; x1: number }[],
  left: number,
  right: number,
  charPx: number,
): (LabelSpot | null)[] {
  let free = left;
  return spans.map(({ title, x0, x1 }, k) => {
    const band = x1 - x0 >= 1;
    // A label may start a little right of its band to clear the one before.
    const start = Math.max(left, x0) + 3;
    const after = Math.max(start, free);
    const before = Math.min(right, x0) - 3;
    const number = String(k + 1);
    // A band's title stays inside it; its number, or a marker's label, may run on.
    const candidates: { spot: LabelSpot; limit: number }[] = [
      { spot: { x: after, text: title, anchor: 'start' }, limit: band ? Math.min(right, x1) : right },
      { spot: { x: after, text: number, anchor: 'start' }, limit: band ? Math.min(right, Math.max(x1, after + 3 * charPx)) : right },
      ...(band
        ? []
        : [
            { spot: { x: before, text: title, anchor: 'end' as const }, limit: right },
            { spot: { x: before, text: number, anchor: 'end' as const }, limit: right },
          ]),
    ];
    const fits = ({ spot, limit }: { spot: LabelSpot; limit: number }) => {
      const w = spot.text.length * charPx;
      const [a, b] = spot.anchor === 'start' ? [spot.x, spot.x + w] : [spot.x - w, spot.x];
      return a >= free && b <= limit;
    };
    const spot = candidates.find(fits)?.spot ?? null;
    if (spot) free = (spot.anchor === 'start' ? spot.x + spot.text.length * charPx : spot.x) + 6;
    return spot;
  });
}
