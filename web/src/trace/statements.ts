// Where each statement lies in a trace, and whether its steps were recorded
// in full or summarized (core/src/trace/budget.rs). Found once per trace from
// the kind codes, decoding only the statement events.
import type { StatementDetail } from '../engine/schema.gen';
import type { TraceData } from './traceData';

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

/** In words, for the caption of a summarized statement. */
export function summaryText(span: StatementSpan): string {
  const d = span.detail;
  if (d?.kind !== 'summarized') return '';
  const what = `Statement ${span.index + 1} made ${d.dropped.toLocaleString('en-US')} detail steps (page accesses, memtable writes, reads)`;
  const why = d.run_budget
    ? `more than the ${d.budget.toLocaleString('en-US')} left of this run's trace_run_events`
    : `more than trace_statement_events = ${d.budget.toLocaleString('en-US')}`;
  return `${what}, ${why}: only its splits, flushes and compactions were recorded, so the views show the state before it until it ends.`;
}
