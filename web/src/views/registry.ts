// The views the player can show, one folder each (ARCHITECTURE.md "How to add
// a view"). A view declares the profiles it serves, its reducer (how its state
// starts from a snapshot and changes with an event), its component, the events
// a student can jump to and how it describes them, and a text summary of its
// state (read by screen readers, and what tests compare). Adding a view is its
// folder and one line here.
import type { ComponentType } from 'react';
import { Timeline, type Reducer } from '../trace/timeline';
import type { Jump, TraceData, TraceEvent } from '../trace/traceData';
import { btreeView } from './btree';
import { lsmView } from './lsm';
import { networkView } from './network';
import { poolView } from './pool';
import { scanView } from './scan';

export type Profile = 'pg' | 'yb';

export interface ViewProps<S> {
  state: S;
  trace: TraceData;
  cursor: number;
  /** The view's states (a view may look at the state one event back). */
  stateAt(cursor: number): S;
  /** The last event applied, if any. */
  last: TraceEvent | undefined;
  width: number;
  /**
   * The largest of this view's `scales` among the columns side by side that
   * show it for the same engine (this one included), or undefined when it is
   * alone: drawn on these, two columns compare by length, not by label.
   */
  shared?: Readonly<Record<string, number>> | undefined;
}

interface ViewBase<S> {
  id: string;
  title: string;
  profiles: readonly Profile[];
  Component: ComponentType<ViewProps<S>>;
  /** Events worth jumping to, by what a student would call them. */
  jumps: Readonly<Record<string, Jump>>;
  /** A caption for this view's events (what happened and why), or null for others; `trace` is the run's. */
  describe(e: TraceEvent, trace?: TraceData): string | null;
  /** The state in words, one line per part. */
  summary(state: S): string[];
  /**
   * The measures this view draws on an axis (a statement's time, its steps),
   * which columns side by side share (see `ViewProps.shared`).
   */
  scales?(state: S): Readonly<Record<string, number>>;
}

/**
 * A view's state at a cursor comes one of two ways. Most views replay a
 * reducer from the nearest snapshot (trace/timeline.ts). A view of the
 * statement under the cursor (its messages, its scan) reads that statement's
 * events straight from the trace: no snapshot keeps them, and between two
 * statements the picture is still the last one's.
 */
export type ViewDef<S> = ViewBase<S> &
  ({ reducer: Reducer<S>; readAt?: never } | { readAt(trace: TraceData, cursor: number): S; reducer?: never });

/** Type-erased, for the list (each view is checked where it is defined). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyView = ViewDef<any>;

export const VIEWS: readonly AnyView[] = [btreeView, poolView, scanView, lsmView, networkView];

export function viewsFor(profile: Profile): readonly AnyView[] {
  return VIEWS.filter((v) => v.profiles.includes(profile));
}

/**
 * A view's state at any cursor of `trace`: read straight from the trace, or
 * replayed by its reducer from the nearest snapshot (one Timeline, kept).
 */
export function viewStateAt(view: AnyView, trace: TraceData): (cursor: number) => unknown {
  if (view.readAt) return (k) => view.readAt(trace, k);
  const timeline = new Timeline(trace, view.reducer);
  return (k) => timeline.stateAt(k);
}
