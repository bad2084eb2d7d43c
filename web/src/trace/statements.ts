// Where each statement lies in a trace, and whether its steps were recorded
// in full or summarized (core/src/trace/budget.rs). Found once per trace from
// the kind codes, decoding only the statement events.
import type { StatementDetail } from '../engine/schema.gen';
import type { TraceData } from './traceData';
import { count } from '../format/numbers';

export interface StatementSpan {
  /** The statement's place in the report (0-based; the page shows index + 1). */
  index: number;
  sql: string;
  /** Its statement_start event. */
  start: number;
  /** Its statement_end event (the trace's length when the run stopped inside it). */
  end: number;
  detail: StatementDetail | null;
}

const spansOf = new WeakMap<TraceData, StatementSpan[]>();

export function statementSpans(trace: TraceData): readonly StatementSpan[] {
  let spans = spansOf.get(trace);
  if (spans) return spans;
  spans = [];
  for (let i = 0; i < trace.length; i++) {
    const kind = trace.kind(i);
    if (kind === 'statement_start') {
      const e = trace.event(i);
      if (e.type === 'statement_start') {
        spans.push({ index: e.index, sql: e.sql, start: i, end: trace.length, detail: null });
      }
    } else if (kind === 'statement_end') {
      const e = trace.event(i);
      const open = spans.at(-1);
      if (e.type === 'statement_end' && open && open.index === e.index) {
        open.end = i;
        open.detail = e.detail;
      }
    }
  }
  spansOf.set(trace, spans);
  return spans;
}

/** The span holding event `i` (a statement's own events, start and end included). */
export function spanOfEvent(spans: readonly StatementSpan[], i: number): StatementSpan | undefined {
  let lo = 0;
  let hi = spans.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const s = spans[mid];
    if (!s) break;
    if (i < s.start) hi = mid - 1;
    else if (i > s.end) lo = mid + 1;
    else return s;
  }
  return undefined;
}

/**
 * The statement under cursor k (k events applied): the last one whose start
 * is among them, or undefined before the first.
 */
export function statementAtCursor(spans: readonly StatementSpan[], k: number): StatementSpan | undefined {
  let found: StatementSpan | undefined;
  for (const s of spans) {
    if (s.start < k) found = s;
    else break;
  }
  return found;
}

export function isSummarized(span: StatementSpan | undefined): boolean {
  return span?.detail?.kind === 'summarized';
}

/**
 * The statement (0-based) whose start the views' picture inside `span` comes
 * from: the last snapshot's, unless only fully recorded statements lie between
 * it and `span` (their events are applied), when it is `span` itself. Once a
 * run's budget is spent no snapshot follows a summarized statement, so the
 * picture can be several statements old.
 */
export function pictureFrom(trace: TraceData, span: StatementSpan): number {
  const spans = statementSpans(trace);
  let snapshot: { at_event: number; statement: number } | undefined;
  for (const s of trace.snapshots) {
    if (s.at_event <= span.start) snapshot = s;
    else break;
  }
  if (!snapshot) return span.index;
  const from = snapshot.statement;
  const between = spans.filter((s) => s.index >= from && s.index < span.index);
  return between.some(isSummarized) ? from : span.index;
}

/** In words, for the caption of a summarized statement. */
export function summaryText(span: StatementSpan, trace: TraceData): string {
  const d = span.detail;
  if (d?.kind !== 'summarized') return '';
  const what = `Statement ${span.index + 1} made ${count(d.dropped)} detail steps (page accesses, memtable writes, reads)`;
  const why = d.run_budget
    ? `more than the ${count(d.budget)} left of this run's detail budget (trace_run_events; trace_query_events for queries)`
    : `more than trace_statement_events = ${count(d.budget)}`;
  const from = pictureFrom(trace, span);
  const picture =
    from === span.index
      ? 'the views show the state before it until it ends'
      : `the views show the state before statement ${from + 1}, the last picture taken (the run's budget was spent), until it ends`;
  return `${what}, ${why}: only its splits, flushes and compactions were recorded, so ${picture}.`;
}
