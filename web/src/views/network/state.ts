// The network view's state: the statement under the cursor and the messages
// it has sent up to the cursor, read straight from the trace (no snapshot
// keeps messages, and between statements the picture is still the last
// statement's). Each statement's messages are decoded once and kept.
import { statementAtCursor, statementSpans, type StatementSpan } from '../../trace/statements';
import type { TraceData } from '../../trace/traceData';
import type { JoinLoop, Message } from './rounds';

export interface NetworkState {
  statement: StatementTimes | null;
  /** Every recorded message of the statement, and how many the cursor has reached. */
  messages: readonly Message[];
  shown: number;
  /** A Batched Nested Loop's loops in the statement, and how many have begun. */
  loops: readonly JoinLoop[];
  loopsShown: number;
}

export interface StatementTimes {
  index: number;
  sql: string;
  start_us: number;
  /** When it ended, once the cursor is past its end (null before). */
  end_us: number | null;
  /** When it ends in the run (null if the run stopped inside it): the time axis. */
  final_us: number | null;
}

interface StatementMessages {
  messages: Message[];
  /** Each message's event index, ascending. */
  at: number[];
  loops: JoinLoop[];
  loopAt: number[];
}

const cache = new WeakMap<TraceData, Map<number, StatementMessages>>();

function messagesOfSpan(trace: TraceData, span: StatementSpan): StatementMessages {
  let byStatement = cache.get(trace);
  if (!byStatement) {
    byStatement = new Map();
    cache.set(trace, byStatement);
  }
  let found = byStatement.get(span.start);
  if (!found) {
    found = { messages: [], at: [], loops: [], loopAt: [] };
    const end = Math.min(span.end, trace.length);
    for (let i = span.start; i < end; i++) {
      const kind = trace.kind(i);
      if (kind !== 'rpc' && kind !== 'join_loop') continue;
      const e = trace.event(i);
      if (e.type === 'rpc') {
        found.messages.push(e);
        found.at.push(i);
      } else if (e.type === 'join_loop') {
        found.loops.push(e);
        found.loopAt.push(i);
      }
    }
    byStatement.set(span.start, found);
  }
  return found;
}

/** How many of the ascending `at` are below `cursor`. */
function countBelow(at: readonly number[], cursor: number): number {
  let lo = 0;
  let hi = at.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((at[mid] ?? 0) < cursor) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export function networkAt(trace: TraceData, cursor: number): NetworkState {
  const span = statementAtCursor(statementSpans(trace), cursor);
  if (!span) return { statement: null, messages: [], shown: 0, loops: [], loopsShown: 0 };
  const start = trace.event(span.start);
  const end = span.end < trace.length ? trace.event(span.end) : undefined;
  const final_us = end?.type === 'statement_end' ? end.at_us : null;
  const { messages, at, loops, loopAt } = messagesOfSpan(trace, span);
  return {
    statement: {
      index: span.index,
      sql: span.sql,
      start_us: start.type === 'statement_start' ? start.at_us : 0,
      end_us: cursor > span.end ? final_us : null,
      final_us,
    },
    messages,
    shown: countBelow(at, cursor),
    loops,
    loopsShown: countBelow(loopAt, cursor),
  };
}

/** The time the network view's axis spans: from the statement's start to its end or its last arrival. */
export function timeSpan(state: NetworkState): number {
  const start = state.statement?.start_us ?? 0;
  const lastArrival = state.messages.reduce((a, m) => Math.max(a, m.arrive_us), start);
  return Math.max(state.statement?.final_us ?? lastArrival, lastArrival, start + 1) - start;
}
