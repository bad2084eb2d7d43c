// A run's trace as the player reads it: events by index, decoded on demand,
// and the snapshots the engine took. Two sources give the same interface: a
// packed trace from the worker (engine/packed.ts: bytes, decoded event by
// event as the player reaches them) and a JSON trace (the CLI's --traced, and
// tests). See ARCHITECTURE.md "The trace".
import { EVENT_KINDS, type EngineSnapshot, type Trace, type TraceEvent } from '../engine/schema.gen';

export type EventKind = (typeof EVENT_KINDS)[number];

/**
 * Events a student can jump to: their kinds (checked on the kind codes, with
 * no decoding), and, when only some events of those kinds count, a test.
 */
export interface Jump {
  kinds: readonly EventKind[];
  test?: (e: TraceEvent) => boolean;
}

export interface SnapshotRef {
  /** The snapshot stands before this event (a statement's start, or the end). */
  at_event: number;
  statement: number;
}

export interface TraceData {
  /** Events recorded. */
  readonly length: number;
  /** Detail events the budgets dropped, in all. */
  readonly dropped: number;
  /** Snapshots in order of `at_event`. */
  readonly snapshots: readonly SnapshotRef[];
  kind(i: number): EventKind;
  event(i: number): TraceEvent;
  snapshotState(j: number): EngineSnapshot;
}

const present = new WeakMap<TraceData, ReadonlySet<EventKind>>();

/** The kinds of event a trace holds: one pass over the kind codes, then kept. */
export function kindsIn(trace: TraceData): ReadonlySet<EventKind> {
  let kinds = present.get(trace);
  if (!kinds) {
    const found = new Set<EventKind>();
    for (let i = 0; i < trace.length; i++) found.add(trace.kind(i));
    kinds = found;
    present.set(trace, kinds);
  }
  return kinds;
}

/** A trace already parsed from JSON. */
export function fromJson(trace: Trace): TraceData {
  return {
    length: trace.events.length,
    dropped: trace.dropped,
    snapshots: trace.snapshots.map((s) => ({ at_event: s.at_event, statement: s.statement })),
    kind: (i) => trace.events[i]?.type ?? 'statement_start',
    event(i) {
      const e = trace.events[i];
      if (!e) throw new RangeError(`no event ${i} in a trace of ${trace.events.length}`);
      return e;
    },
    snapshotState(j) {
      const s = trace.snapshots[j];
      if (!s) throw new RangeError(`no snapshot ${j}`);
      return s.state;
    },
  };
}

export { EVENT_KINDS };
export type { EngineSnapshot, TraceEvent };
