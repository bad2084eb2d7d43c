// The state a view shows at cursor k (k events applied), as a pure function:
// the nearest snapshot at or before k, then the recorded events after it up
// to k, skipping the events of summarized statements (their detail was not
// recorded, so the view keeps the picture from before them until the next
// snapshot, and says so). However the cursor got to k (play, step, scrub,
// jump, reload), the state is the same. See ARCHITECTURE.md "The player".
import type { EngineSnapshot, TraceData, TraceEvent } from './traceData';
import { isSummarized, spanOfEvent, statementSpans } from './statements';

/** How a view's state starts from a snapshot and changes with one event. */
export interface Reducer<S> {
  fromSnapshot(snapshot: EngineSnapshot): S;
  apply(state: S, event: TraceEvent): S;
}

/** The cursor is the number of events applied: 0..=length. */
export function clampCursor(trace: TraceData, cursor: number): number {
  if (!Number.isFinite(cursor)) return 0;
  return Math.max(0, Math.min(trace.length, Math.trunc(cursor)));
}

/** The index of the last snapshot at or before cursor k, or -1. */
export function snapshotIndexBefore(trace: TraceData, k: number): number {
  let lo = 0;
  let hi = trace.snapshots.length - 1;
  let best = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const s = trace.snapshots[mid];
    if (s && s.at_event <= k) {
      best = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return best;
}

/** Whether event i belongs to a summarized statement (and is not applied). */
function skipped(trace: TraceData, i: number): boolean {
  return isSummarized(spanOfEvent(statementSpans(trace), i));
}

/** Applies events [from, to), skipping summarized statements' events. */
export function applyRange<S>(trace: TraceData, reducer: Reducer<S>, state: S, from: number, to: number): S {
  let s = state;
  for (let i = from; i < to; i++) {
    if (!skipped(trace, i)) s = reducer.apply(s, trace.event(i));
  }
  return s;
}

/** The state at cursor k, computed directly (the definition the Timeline must agree with). */
export function stateAt<S>(trace: TraceData, reducer: Reducer<S>, cursor: number): S {
  const k = clampCursor(trace, cursor);
  const j = snapshotIndexBefore(trace, k);
  const snap = trace.snapshots[j];
  if (!snap) throw new Error('the trace has no snapshot to start from');
  return applyRange(trace, reducer, reducer.fromSnapshot(trace.snapshotState(j)), snap.at_event, k);
}

/**
 * The same function, remembered: states every `stride` events after each
 * snapshot, and the last answer (a frame of playback asks for the next few
 * events). Every shortcut starts from a state on the same chain (the nearest
 * snapshot at or before k), so it returns exactly what stateAt would.
 */
export class Timeline<S> {
  private readonly checkpoints = new Map<number, S>();
  private last: { cursor: number; snapshot: number; state: S } | undefined;

  constructor(
    readonly trace: TraceData,
    readonly reducer: Reducer<S>,
    readonly stride = 256,
  ) {}

  stateAt(cursor: number): S {
    const k = clampCursor(this.trace, cursor);
    const j = snapshotIndexBefore(this.trace, k);
    const snap = this.trace.snapshots[j];
    if (!snap) throw new Error('the trace has no snapshot to start from');
    const last = this.last;
    let from: number;
    let state: S;
    if (last && last.snapshot === j && last.cursor <= k && k - last.cursor < this.stride) {
      from = last.cursor;
      state = last.state;
    } else {
      ({ from, state } = this.checkpointBefore(j, snap.at_event, k));
    }
    state = applyRange(this.trace, this.reducer, state, from, k);
    this.last = { cursor: k, snapshot: j, state };
    return state;
  }

  /** The remembered state nearest below k on snapshot j's chain, computing the missing ones. */
  private checkpointBefore(j: number, at: number, k: number): { from: number; state: S } {
    const key = (c: number) => j * 2 ** 32 + c;
    const offsets = Math.floor((k - at) / this.stride);
    // Walk down to the highest remembered checkpoint, then up to the one wanted.
    let n = offsets;
    while (n > 0 && !this.checkpoints.has(key(at + n * this.stride))) n--;
    let state = n > 0 ? (this.checkpoints.get(key(at + n * this.stride)) as S) : this.reducer.fromSnapshot(this.trace.snapshotState(j));
    for (; n < offsets; n++) {
      const c = at + n * this.stride;
      state = applyRange(this.trace, this.reducer, state, c, c + this.stride);
      this.checkpoints.set(key(c + this.stride), state);
    }
    return { from: at + offsets * this.stride, state };
  }
}
