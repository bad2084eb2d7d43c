// One cursor over the traces of the variants run side by side. The engines
// record different numbers of events for the same statement (pg touches pages,
// yb writes memtables), so the joint timeline cuts at statements: a statement
// is a segment as long as the longest trace's share of it, and inside it every
// trace advances in proportion, rounded up. So at any joint position past a
// segment's start every trace has applied that statement's start: the columns
// never disagree on which statement is under the cursor. With one trace the
// joint position is that trace's cursor.
import { statementSpans } from './statements';
import { kindsIn, type Jump, type TraceData } from './traceData';

/** A trace's events [from, to) inside one segment. */
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

export interface StatementMark {
  index: number;
  /** Joint position of the statement's start. */
  at: number;
  sql: string;
}

function segmentsOf(traces: readonly TraceData[]): Segment[] {
  const starts = traces.map((t) => statementSpans(t).map((s) => ({ index: s.index, at: s.start, sql: s.sql })));
  const indexes = [...new Set(starts.flat().map((m) => m.index))].sort((a, b) => a - b);
  const spanOf = (k: number, index: number): Span => {
    const own = starts[k] ?? [];
    const n = traces[k]?.length ?? 0;
    const i = own.findIndex((m) => m.index === index);
    // A trace without this statement (it stopped at an error) waits where
    // its next statement starts, or at its end.
    if (i < 0) {
      const at = own.find((m) => m.index > index)?.at ?? n;
      return { from: at, to: at };
    }
    return { from: own[i]?.at ?? n, to: own[i + 1]?.at ?? n };
  };
  const segments: Segment[] = [
    {
      index: -1,
      sql: '',
      start: 0,
      length: 0,
      spans: traces.map((t, k) => ({ from: 0, to: starts[k]?.[0]?.at ?? t.length })),
    },
  ];
  for (const index of indexes) {
    const spans = traces.map((_, k) => spanOf(k, index));
    const sql = starts.flat().find((m) => m.index === index)?.sql ?? '';
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

  constructor(readonly traces: readonly TraceData[]) {
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
    if (!seg) return this.traces.map((t) => t.length);
    const o = p - seg.start;
    return seg.spans.map((sp) => sp.from + Math.ceil(((sp.to - sp.from) * o) / seg.length));
  }

  /** The first joint position at which trace `k` has applied `cursor` events. */
  positionOf(k: number, cursor: number): number {
    // Spans are contiguous in segment order: the first that reaches `cursor`
    // gives the earliest position (the inverse of cursors' rounding up).
    for (const seg of this.segments) {
      const sp = seg.spans[k];
      const n = sp ? sp.to - sp.from : 0;
      if (!sp || n === 0 || cursor < sp.from || cursor > sp.to) continue;
      if (cursor === sp.from) return seg.start;
      return seg.start + Math.floor((seg.length * (cursor - sp.from - 1)) / n) + 1;
    }
    return cursor <= 0 ? 0 : this.length;
  }

  /** The statement under the position (the last one started before it), or -1. */
  statementAt(position: number): number {
    let current = -1;
    for (const m of this.marksCache) {
      if (m.at < position) current = m.index;
      else break;
    }
    return current;
  }

  stepEvent(position: number, direction: 1 | -1): number {
    return this.clamp(position + direction);
  }

  /** To the next statement's start, or back to this one's (the previous one's at a start). */
  stepStatement(position: number, direction: 1 | -1): number {
    if (direction > 0) return this.marksCache.find((m) => m.at > position)?.at ?? this.length;
    return this.marksCache.filter((m) => m.at < position).at(-1)?.at ?? 0;
  }

  /** Where statement `index` has run whole: the next statement's start, or the end. */
  positionAfterStatement(index: number): number | undefined {
    if (!this.marksCache.some((m) => m.index === index)) return undefined;
    return this.marksCache.find((m) => m.index > index)?.at ?? this.length;
  }

  /** Just past the start of statement `index` (its first position), or undefined. */
  positionOfStatement(index: number): number | undefined {
    const m = this.marksCache.find((s) => s.index === index);
    return m ? Math.min(this.length, m.at + 1) : undefined;
  }

  /**
   * Just after the next event (in any trace) the jump wants: the earliest such
   * position past `position`, or the end. Only events of its kinds are decoded.
   */
  nextWhere(position: number, jump: Jump): number {
    const cursors = this.cursors(position);
    let best = this.length;
    this.traces.forEach((t, k) => {
      for (let i = cursors[k] ?? 0; i < t.length; i++) {
        if (!jump.kinds.includes(t.kind(i))) continue;
        if (!jump.test || jump.test(t.event(i))) {
          best = Math.min(best, this.positionOf(k, i + 1));
          return;
        }
      }
    });
    return best;
  }

  /** Whether any trace holds events of the jump's kinds (by kind code: nothing decoded). */
  has(jump: Jump): boolean {
    return this.traces.some((t) => {
      const kinds = kindsIn(t);
      return jump.kinds.some((k) => kinds.has(k));
    });
  }
}
