// One cursor over the traces of the profiles run side by side. The engines
// record different numbers of events for the same statement (pg touches pages,
// yb writes memtables), so the joint timeline cuts at statements: a statement
// is a segment as long as the longest profile's share of it, and inside it
// every profile advances in proportion. Both reach each statement's start and
// end together, which is what lets a student compare them statement by
// statement. With one trace the joint position is that trace's cursor.
import { statementMarks, statementOf, stepToMark, type StatementMark } from './player';
import type { Trace, TraceEvent } from './trace';

/** A profile's events [from, to) inside one segment. */
interface Span {
  from: number;
  to: number;
}

interface Segment {
  /** The statement's index, or -1 for events before the first statement. */
  index: number;
  sql: string;
  start: number;
  length: number;
  spans: Span[];
}

function segmentsOf(traces: readonly Trace[]): Segment[] {
  const marks = traces.map((t) => statementMarks(t));
  const indexes = [...new Set(marks.flat().map((m) => m.index))].sort((a, b) => a - b);
  const spanOf = (k: number, index: number): Span => {
    const own = marks[k] ?? [];
    const n = traces[k]?.events.length ?? 0;
    const i = own.findIndex((m) => m.index === index);
    // A profile without this statement (it stopped at an error) waits where
    // its next statement starts, or at its end.
    if (i < 0) {
      const at = own.find((m) => m.index > index)?.at ?? n;
      return { from: at, to: at };
    }
    return { from: own[i]?.at ?? n, to: own[i + 1]?.at ?? n };
  };
  const before: Segment = {
    index: -1,
    sql: '',
    start: 0,
    length: 0,
    spans: traces.map((t, k) => ({ from: 0, to: marks[k]?.[0]?.at ?? t.events.length })),
  };
  const segments = [before];
  for (const index of indexes) {
    const spans = traces.map((_, k) => spanOf(k, index));
    const sql = marks.flat().find((m) => m.index === index)?.sql ?? '';
    segments.push({ index, sql, start: 0, length: 0, spans });
  }
  let start = 0;
  for (const s of segments) {
    s.start = start;
    s.length = Math.max(0, ...s.spans.map((sp) => sp.to - sp.from));
    start += s.length;
  }
  return segments;
}

export class Joint {
  readonly length: number;
  private readonly segments: Segment[];
  private readonly marksCache: StatementMark[];

  constructor(readonly traces: readonly Trace[]) {
    this.segments = segmentsOf(traces);
    const last = this.segments.at(-1);
    this.length = last ? last.start + last.length : 0;
    this.marksCache = this.segments
      .filter((s) => s.index >= 0)
      .map((s) => ({ index: s.index, at: s.start, sql: s.sql }));
  }

  clamp(position: number): number {
    if (!Number.isFinite(position)) return 0;
    return Math.max(0, Math.min(this.length, Math.trunc(position)));
  }

  /** Where each statement starts, in joint positions (the scrubber's marks). */
  marks(): readonly StatementMark[] {
    return this.marksCache;
  }

  /** Each trace's cursor (events applied) at a joint position. */
  cursors(position: number): number[] {
    const p = this.clamp(position);
    const seg = this.segments.find((s) => p >= s.start && p < s.start + s.length);
    if (!seg) return this.traces.map((t) => t.events.length);
    return seg.spans.map(
      (sp) => sp.from + Math.floor(((sp.to - sp.from) * (p - seg.start)) / seg.length),
    );
  }

  /** The first joint position at which trace `k` has applied `cursor` events. */
  positionOf(k: number, cursor: number): number {
    // A trace's spans are contiguous in segment order, so the first one that
    // reaches `cursor` (at its end, too) gives the earliest position.
    for (const seg of this.segments) {
      const sp = seg.spans[k];
      const n = sp ? sp.to - sp.from : 0;
      if (!sp || n === 0 || cursor < sp.from || cursor > sp.to) continue;
      return seg.start + Math.ceil((seg.length * (cursor - sp.from)) / n);
    }
    return cursor <= 0 ? 0 : this.length;
  }

  /** The statement under the position (the last one started before it), or -1. */
  statementAt(position: number): number {
    return statementOf(this.marksCache, position);
  }

  stepEvent(position: number, direction: 1 | -1): number {
    return this.clamp(position + direction);
  }

  /** To the next statement's start, or back to this one's (the previous one's at a start). */
  stepStatement(position: number, direction: 1 | -1): number {
    return stepToMark(this.marksCache, this.length, position, direction);
  }

  /**
   * Just after the next event (in any trace) that `wanted` accepts: the
   * earliest such position past `position`, or the end.
   */
  nextWhere(position: number, wanted: (e: TraceEvent) => boolean): number {
    const cursors = this.cursors(position);
    let best = this.length;
    this.traces.forEach((t, k) => {
      for (let i = cursors[k] ?? 0; i < t.events.length; i++) {
        const e = t.events[i];
        if (e && wanted(e)) {
          best = Math.min(best, this.positionOf(k, i + 1));
          return;
        }
      }
    });
    return best;
  }

  /** Whether any trace holds an event `wanted` accepts. */
  has(wanted: (e: TraceEvent) => boolean): boolean {
    return this.traces.some((t) => t.events.some(wanted));
  }
}
