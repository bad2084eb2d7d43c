// The player: a cursor into a trace and the moves a student makes with it.
// Views are functions of the state at the cursor; this module computes that
// state two ways that must agree: incrementally (play, step forward: apply the
// next events to the current state) and from the nearest snapshot (scrub, step
// back, jump: start from the engine's picture, apply the events after it).

import type { Snapshot, Trace, TraceEvent } from './trace';

/** How a view's state changes with one event, and how it starts from a snapshot. */
export interface Reducer<S, Snap = unknown> {
  fromSnapshot(snapshot: Snap): S;
  apply(state: S, event: TraceEvent): S;
}

/** Applies events [from, to) of `events` to `state`. */
export function applyRange<S>(
  reducer: Reducer<S, never>,
  state: S,
  events: readonly TraceEvent[],
  from: number,
  to: number,
): S {
  let s = state;
  for (let i = from; i < to; i++) {
    const e = events[i];
    if (e) s = reducer.apply(s, e);
  }
  return s;
}

/** The playback speeds offered: events per tick scale with them. */
export const SPEEDS = [0.25, 0.5, 1, 2, 4, 8, 16] as const;

/** The cursor is the number of events applied: 0..=events.length. */
export function clampCursor(trace: Trace, cursor: number): number {
  if (!Number.isFinite(cursor)) return 0;
  return Math.max(0, Math.min(trace.events.length, Math.trunc(cursor)));
}

export interface StatementMark {
  index: number;
  at: number;
  sql: string;
}

// Marks are asked for on every frame while playing: found once per trace.
const marksOf = new WeakMap<Trace, StatementMark[]>();

/** Where each statement starts (the scrubber's marks), by event index. */
export function statementMarks(trace: Trace): readonly StatementMark[] {
  let marks = marksOf.get(trace);
  if (!marks) {
    marks = [];
    for (const [at, e] of trace.events.entries()) {
      if (e.type === 'statement_start') marks.push({ index: e.index, at, sql: e.sql });
    }
    marksOf.set(trace, marks);
  }
  return marks;
}

/** The statement a position is in (the last one started before it), or -1. */
export function statementOf(marks: readonly StatementMark[], position: number): number {
  let current = -1;
  for (const m of marks) {
    if (m.at < position) current = m.index;
    else break;
  }
  return current;
}

/**
 * To the next statement's start (or `end`), or back to the start of the
 * current one (the previous one's when already at a start), as a debugger steps.
 */
export function stepToMark(
  marks: readonly StatementMark[],
  end: number,
  position: number,
  direction: 1 | -1,
): number {
  if (direction > 0) return marks.find((m) => m.at > position)?.at ?? end;
  return marks.filter((m) => m.at < position).at(-1)?.at ?? 0;
}

/** The statement the cursor is in (the last one started before it), or -1. */
export function statementAt(trace: Trace, cursor: number): number {
  return statementOf(statementMarks(trace), cursor);
}

/** One event forward or back. */
export function stepEvent(trace: Trace, cursor: number, direction: 1 | -1): number {
  return clampCursor(trace, cursor + direction);
}

/**
 * To the start of the next statement, or back to the start of the current one
 * (or of the previous one when already at a start), as a debugger steps.
 */
export function stepStatement(trace: Trace, cursor: number, direction: 1 | -1): number {
  return stepToMark(statementMarks(trace), trace.events.length, cursor, direction);
}

/** The last snapshot at or before the cursor. */
export function snapshotBefore<S>(trace: Trace<S>, cursor: number): Snapshot<S> | undefined {
  let best: Snapshot<S> | undefined;
  for (const s of trace.snapshots) {
    if (s.at_event <= cursor && (!best || s.at_event >= best.at_event)) best = s;
  }
  return best;
}

/** The state after `cursor` events, from the nearest snapshot (a jump). */
export function stateAt<S, Snap>(
  trace: Trace<Snap>,
  cursor: number,
  reducer: Reducer<S, Snap>,
): S {
  const k = clampCursor(trace, cursor);
  const snap = snapshotBefore(trace, k);
  if (!snap) throw new Error('the trace has no snapshot to start from');
  return applyRange(reducer, reducer.fromSnapshot(snap.state), trace.events, snap.at_event, k);
}

/** Moves from (cursor, state) to `target`: forward by applying events, else by a jump. */
export function seek<S, Snap>(
  trace: Trace<Snap>,
  from: { cursor: number; state: S },
  target: number,
  reducer: Reducer<S, Snap>,
): { cursor: number; state: S } {
  const k = clampCursor(trace, target);
  const snap = snapshotBefore(trace, k);
  // Going forward past a snapshot is cheaper from the snapshot.
  if (k < from.cursor || (snap && snap.at_event > from.cursor)) {
    return { cursor: k, state: stateAt(trace, k, reducer) };
  }
  return { cursor: k, state: applyRange(reducer, from.state, trace.events, from.cursor, k) };
}

/** Events to advance per animation tick at `speed` (1× = one event a tick). */
export function eventsPerTick(speed: number, carry: number): { steps: number; carry: number } {
  const total = carry + speed;
  const steps = Math.floor(total);
  return { steps, carry: total - steps };
}

/**
 * States along a trace, remembered every `stride` events as they are computed,
 * so stepping back or scrubbing costs at most `stride` events from a
 * remembered state or from the engine's snapshot, whichever is nearer.
 */
export class Timeline<S, Snap> {
  private readonly checkpoints = new Map<number, S>();
  /** The last state asked for: playing asks for the next few events each frame. */
  private last: { cursor: number; state: S } | undefined;

  constructor(
    readonly trace: Trace<Snap>,
    readonly reducer: Reducer<S, Snap>,
    readonly stride = 256,
  ) {}

  stateAt(cursor: number): S {
    const k = clampCursor(this.trace, cursor);
    const last = this.last;
    // A little way forward from the last answer (a frame of playback): only
    // the events in between, not a replay from the checkpoint.
    if (last && last.cursor <= k && k - last.cursor < this.stride) {
      const state = applyRange(this.reducer, last.state, this.trace.events, last.cursor, k);
      this.last = { cursor: k, state };
      return state;
    }
    const state = this.fromCheckpoint(k);
    this.last = { cursor: k, state };
    return state;
  }

  private fromCheckpoint(k: number): S {
    const base = Math.floor(k / this.stride) * this.stride;
    let state = this.checkpoints.get(base);
    let at = base;
    if (state === undefined) {
      const snap = snapshotBefore(this.trace, base);
      if (!snap) throw new Error('the trace has no snapshot to start from');
      // Start from the nearer of the snapshot and the last remembered state.
      let from = snap.at_event;
      state = this.reducer.fromSnapshot(snap.state);
      for (let c = base - this.stride; c > from; c -= this.stride) {
        const s = this.checkpoints.get(c);
        if (s !== undefined) {
          from = c;
          state = s;
          break;
        }
      }
      for (let c = from; c < base; ) {
        const next = Math.min(base, (Math.floor(c / this.stride) + 1) * this.stride);
        state = applyRange(this.reducer, state, this.trace.events, c, next);
        this.checkpoints.set(next, state);
        c = next;
      }
      this.checkpoints.set(base, state);
      at = base;
    }
    // A snapshot between the checkpoint and k is a shorter start.
    const snap = snapshotBefore(this.trace, k);
    if (snap && snap.at_event > at) {
      state = this.reducer.fromSnapshot(snap.state);
      at = snap.at_event;
    }
    return applyRange(this.reducer, state, this.trace.events, at, k);
  }
}

/** The cursor just after the next event past `cursor` that `wanted` accepts (or the end). */
export function nextWhere(
  trace: Trace,
  cursor: number,
  wanted: (e: TraceEvent) => boolean,
): number {
  for (let i = clampCursor(trace, cursor); i < trace.events.length; i++) {
    const e = trace.events[i];
    if (e && wanted(e)) return i + 1;
  }
  return trace.events.length;
}

/** The same, for events of one of `types`. */
export function nextOfType(trace: Trace, cursor: number, types: readonly string[]): number {
  return nextWhere(trace, cursor, (e) => types.includes(e.type));
}
