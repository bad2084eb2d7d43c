// The scan view's state: the steps of the statement under the cursor, read
// straight from the trace (each statement's decoded once), how many the
// cursor has reached, where read requests cut the scan, and the totals of the
// last scan before it, for the side-by-side contrast (article 003's forward
// then backward; article 000's scan before and after VACUUM).
import { statementAtCursor, statementSpans, type StatementSpan } from '../../trace/statements';
import type { TraceData } from '../../trace/traceData';
import { phaseMark, type PhaseMark } from './phases';
import { RunningTotals, stepOf, type Cut, type ScanStep, type Totals } from './steps';
import { visibilityAt, type HeapVisibility } from './visibility';

interface StatementSteps {
  steps: ScanStep[];
  running: RunningTotals;
  /** Each step's event index, ascending. */
  at: number[];
  cuts: Cut[];
  cutAt: number[];
  phases: PhaseMark[];
  /** Each phase's event index, ascending. */
  phaseAt: number[];
}

export interface ScanState {
  statement: { index: number; sql: string } | null;
  steps: readonly ScanStep[];
  shown: number;
  /** The totals of the steps shown. */
  totals: Totals;
  cuts: readonly Cut[];
  cutsShown: number;
  /** The plan's phases (a Hash Join's build and probe, a Sort…), and how many have ended at the cursor. */
  phases: readonly PhaseMark[];
  phasesShown: number;
  /** The last earlier statement with scan steps, and its totals. */
  previous: { index: number; sql: string; totals: Totals } | null;
  /** pg: each heap's visibility map at the cursor (at most three heaps). */
  heaps: readonly HeapVisibility[];
}

const SCAN_KINDS = new Set(['iter_step', 'cursor_step', 'heap_fetch', 'read_request', 'page_access', 'plan_phase']);

/** Kinds whose steps are an index cursor's or the heap's (a leaf, a heap fetch). */
const CURSOR_KINDS = new Set(['cursor_step', 'heap_fetch']);

/**
 * pg's buffer accesses are a scan's steps in a statement that reads: a query,
 * or one whose index cursor moved. (An INSERT's accesses are its writes: the
 * buffer pool view shows those.) Told from the SQL and the events' kinds, so
 * an INSERT's many buffer accesses are never decoded.
 */
function reads(trace: TraceData, span: StatementSpan, end: number): boolean {
  if (/^\s*(explain|select|with|values|table)\b/i.test(span.sql)) return true;
  for (let i = span.start; i < end; i++) if (CURSOR_KINDS.has(trace.kind(i))) return true;
  return false;
}
const cache = new WeakMap<TraceData, Map<number, StatementSteps>>();

function stepsOfSpan(trace: TraceData, span: StatementSpan): StatementSteps {
  let byStatement = cache.get(trace);
  if (!byStatement) {
    byStatement = new Map();
    cache.set(trace, byStatement);
  }
  let found = byStatement.get(span.start);
  if (found) return found;
  const steps: ScanStep[] = [];
  const at: number[] = [];
  const cuts: Cut[] = [];
  const cutAt: number[] = [];
  const phases: PhaseMark[] = [];
  const phaseAt: number[] = [];
  const end = Math.min(span.end, trace.length);
  // Keep the cursor and heap steps only (an UPDATE's scan), not its writes' buffers.
  const buffers = reads(trace, span, end);
  for (let i = span.start; i < end; i++) {
    const kind = trace.kind(i);
    if (!SCAN_KINDS.has(kind) || (kind === 'page_access' && !buffers)) continue;
    const e = trace.event(i);
    if (e.type === 'plan_phase') {
      phases.push(phaseMark(e, steps.length));
      phaseAt.push(i);
      continue;
    }
    if (e.type === 'read_request') {
      // Back to back with the one before (no step between): the same round,
      // one read request in EXPLAIN; it is complete at its last tablet.
      const last = cuts.at(-1);
      if (last && last.at === steps.length && cutAt.length > 0) {
        last.rows += e.rows;
        last.tablets += 1;
        cutAt[cutAt.length - 1] = i;
      } else {
        cuts.push({ at: steps.length, rows: e.rows, tablets: 1 });
        cutAt.push(i);
      }
      continue;
    }
    const step = stepOf(e);
    if (step) {
      steps.push(step);
      at.push(i);
    }
  }
  found = { steps, running: new RunningTotals(steps), at, cuts, cutAt, phases, phaseAt };
  byStatement.set(span.start, found);
  return found;
}

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

/** A SELECT (or WITH, VALUES, TABLE), possibly under EXPLAIN with its options. */
export function isQuery(sql: string): boolean {
  const text = sql.replace(/^(\s|--[^\n]*\n)+/, '');
  return /^(explain\b(\s*\([^)]*\))?(\s+(analyze|verbose))*\s+)?\(*\s*(select|with|values|table)\b/i.test(text);
}

export function scanAt(trace: TraceData, cursor: number): ScanState {
  const spans = statementSpans(trace);
  const span = statementAtCursor(spans, cursor);
  if (!span) {
    return {
      statement: null,
      steps: [],
      shown: 0,
      totals: new RunningTotals([]).upTo(0),
      cuts: [],
      cutsShown: 0,
      phases: [],
      phasesShown: 0,
      previous: null,
      heaps: [],
    };
  }
  const own = stepsOfSpan(trace, span);
  let previous: ScanState['previous'] = null;
  for (let j = spans.indexOf(span) - 1; j >= 0 && !previous; j--) {
    const s = spans[j];
    if (!s) break;
    // The scan before it is a query's: CREATE INDEX or an UPDATE reads rows
    // too, but comparing a query with it says nothing.
    if (!isQuery(s.sql)) continue;
    const before = stepsOfSpan(trace, s);
    if (before.steps.length > 0) {
      previous = { index: s.index, sql: s.sql, totals: before.running.upTo(before.steps.length) };
    }
  }
  const shown = countBelow(own.at, cursor);
  return {
    statement: { index: span.index, sql: span.sql },
    steps: own.steps,
    shown,
    totals: own.running.upTo(shown),
    cuts: own.cuts,
    cutsShown: countBelow(own.cutAt, cursor),
    phases: own.phases,
    phasesShown: countBelow(own.phaseAt, cursor),
    previous,
    heaps: [...visibilityAt(trace, cursor).values()].slice(0, 3),
  };
}
