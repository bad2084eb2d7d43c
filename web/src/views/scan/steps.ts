// A scan as the scan view draws it: the statement's steps in order, each in
// the lane of the place it touched. On yb a step is one call on a tablet's
// DocDB iterator (seek, next, prev…) landing in the memtable or an SST's data
// block; on pg it is the index cursor moving onto a leaf, or a heap fetch.
// Read requests cut a yb scan into pieces. Pure functions of the trace.
import type { KeyComparisons } from '../../engine/schema.gen';
import type { TraceEvent } from '../../trace/traceData';

import { count } from '../../format/numbers';

export type IterStep = Extract<TraceEvent, { type: 'iter_step' }>;

export type StepOp = 'seek' | 'next' | 'prev' | 'leaf' | 'heap' | 'hit' | 'read';

export interface ScanStep {
  op: StepOp;
  /** The lane: "memtable", "SST 12 · L0", "t_pkey leaves", "t heap", "t_pkey buffers", "t VM buffers" (its visibility map). */
  lane: string;
  /** Key comparisons (yb); 0 on pg. */
  comparisons: number;
  /** Where they were made (yb). */
  parts: KeyComparisons | null;
  /** Blocks (yb) or pages (pg) this step read. */
  reads: number;
  /** The data block or page, when there is one. */
  place: number | null;
  found: boolean;
  backward: boolean;
  /**
   * A heap step of an Index Only Scan: what EXPLAIN counts as Heap Fetches.
   * A plain Index Scan reads each row from the heap too, but those are not
   * heap fetches.
   */
  indexOnly?: boolean;
  /** A heap step of a Bitmap Heap Scan: its pages come in page order, each read once. */
  bitmap?: boolean;
}

/**
 * A read request, as EXPLAIN counts them: one round of RPCs sent together,
 * however many tablets it reached (the engine traces one event per tablet,
 * back to back).
 */
export interface Cut {
  /** Steps before it. */
  at: number;
  rows: number;
  /** The tablets the round asked. */
  tablets: number;
}

export function totalOf(c: KeyComparisons): number {
  return c.memtable + c.files + c.index + c.restarts + c.keys + c.merge + c.versions;
}

/** Where a step's comparisons went, in words: "memtable 20 · index block 3 · …". */
export function partsText(c: KeyComparisons): string {
  const parts: [string, number][] = [
    ["the memtable's skip list", c.memtable],
    ["a level's files", c.files],
    ['the index block', c.index],
    ["the data block's restart points", c.restarts],
    ['the keys after a restart point', c.keys],
    ['picking among the sources', c.merge],
    ['checking the entry is a new key, not an older version', c.versions],
  ];
  return parts
    .filter(([, n]) => n > 0)
    .map(([what, n]) => `${what} ${n}`)
    .join(' · ');
}

/** One trace event as a scan step, or null for other events. */
export function stepOf(e: TraceEvent): ScanStep | null {
  switch (e.type) {
    case 'iter_step': {
      const op: StepOp = e.op === 'next' ? 'next' : e.op === 'prev' ? 'prev' : 'seek';
      return {
        op,
        lane: e.sst === null ? (e.found ? 'memtable' : 'off the end') : `SST ${e.sst} · L${e.level ?? 0}`,
        comparisons: totalOf(e.comparisons),
        parts: e.comparisons,
        reads: e.blocks_read,
        place: e.block,
        found: e.found,
        backward: e.op === 'prev' || e.op === 'seek_for_prev' || e.op === 'seek_to_last',
      };
    }
    case 'cursor_step':
      return { op: 'leaf', lane: `${e.relation} leaves`, comparisons: 0, parts: null, reads: 1, place: e.page, found: true, backward: e.backward };
    case 'page_access':
      return {
        op: e.hit ? 'hit' : 'read',
        // An Index Only Scan's look at the visibility map is a buffer access of its own (EXPLAIN counts it).
        lane: e.fork === 'vm' ? `${e.relation} VM buffers` : `${e.relation} buffers`,
        comparisons: 0,
        parts: null,
        reads: e.hit ? 0 : 1,
        place: e.page,
        found: true,
        backward: false,
      };
    case 'heap_fetch':
      return {
        op: 'heap',
        lane: `${e.relation} heap`,
        comparisons: 0,
        parts: null,
        reads: 1,
        place: e.page,
        found: true,
        backward: false,
        indexOnly: e.index_only,
        bitmap: e.bitmap,
      };
    default:
      return null;
  }
}

export interface Totals {
  seeks: number;
  nexts: number;
  prevs: number;
  comparisons: number;
  leaves: number;
  /** An Index Only Scan's visits to the heap (EXPLAIN's Heap Fetches). */
  heapFetches: number;
  /** A plain Index Scan's rows read from the heap (not heap fetches). */
  heapRows: number;
  /** A Bitmap Heap Scan's heap pages, each read once (EXPLAIN's Heap Blocks). */
  bitmapPages: number;
  /** pg's buffer accesses: found in the pool, read from storage. */
  hits: number;
  reads: number;
  /** yb's blocks read (index, data and filter blocks, through the block cache or not). */
  blocks: number;
  steps: number;
}

const ZERO: Totals = { seeks: 0, nexts: 0, prevs: 0, comparisons: 0, leaves: 0, heapFetches: 0, heapRows: 0, bitmapPages: 0, hits: 0, reads: 0, blocks: 0, steps: 0 };

/**
 * The totals after one more step. `lastBitmapPage` is the page of the
 * statement's previous bitmap heap step: a bitmap's rows come in page order,
 * so a new page is one more of EXPLAIN's Heap Blocks.
 */
function addStep(t: Totals, s: ScanStep, lastBitmapPage: number | null): Totals {
  return {
    seeks: t.seeks + (s.op === 'seek' ? 1 : 0),
    nexts: t.nexts + (s.op === 'next' && s.found ? 1 : 0),
    prevs: t.prevs + (s.op === 'prev' ? 1 : 0),
    comparisons: t.comparisons + s.comparisons,
    leaves: t.leaves + (s.op === 'leaf' ? 1 : 0),
    heapFetches: t.heapFetches + (s.op === 'heap' && s.indexOnly ? 1 : 0),
    heapRows: t.heapRows + (s.op === 'heap' && !s.indexOnly ? 1 : 0),
    bitmapPages: t.bitmapPages + (s.bitmap && s.place !== lastBitmapPage ? 1 : 0),
    hits: t.hits + (s.op === 'hit' ? 1 : 0),
    reads: t.reads + (s.op === 'read' ? 1 : 0),
    blocks: t.blocks + (s.parts ? s.reads : 0),
    steps: t.steps + 1,
  };
}

export function totalsOf(steps: readonly ScanStep[], n = steps.length): Totals {
  let t = ZERO;
  let lastBitmapPage: number | null = null;
  for (let i = 0; i < n; i++) {
    const s = steps[i];
    if (!s) break;
    t = addStep(t, s, lastBitmapPage);
    if (s.bitmap) lastBitmapPage = s.place;
  }
  return { ...t, steps: n };
}

const scales = new WeakMap<readonly ScanStep[], { steps: number; comparisons: number }>();

/**
 * What a statement's scan draws on its axes: its steps, and the most key
 * comparisons one step made. A statement's steps are decoded once and kept
 * (state.ts), so this is computed once per statement, not per frame.
 */
export function scalesOf(steps: readonly ScanStep[]): { steps: number; comparisons: number } {
  let s = scales.get(steps);
  if (!s) {
    s = { steps: steps.length, comparisons: steps.reduce((a, x) => Math.max(a, x.comparisons), 0) };
    scales.set(steps, s);
  }
  return s;
}

/** The counters in words (what the summary and the caption say). */
export function totalsText(t: Totals): string {
  // No step yet: either engine's words would be about a scan that is not there.
  if (t.steps === 0) return 'no scan step yet';
  if (t.leaves + t.heapFetches + t.heapRows + t.hits + t.reads > 0 && t.seeks + t.nexts + t.prevs === 0) {
    // Heap fetches are an Index Only Scan's (EXPLAIN's word); a plain Index
    // Scan's rows read from the heap are named as such.
    const pages = t.bitmapPages > 0 ? ` on ${count(t.bitmapPages)} page(s), each read once, in page order` : '';
    const heap = [
      ...(t.heapRows > 0 ? [`${count(t.heapRows)} row(s) read from the heap${pages}`] : []),
      ...(t.heapFetches > 0 || t.heapRows === 0 ? [`${count(t.heapFetches)} heap fetch(es)`] : []),
    ];
    return `${count(t.hits + t.reads)} buffer access(es) (${count(t.reads)} read from storage), ${count(t.leaves)} leaf page(s) walked, ${heap.join(', ')}`;
  }
  return `${count(t.seeks)} seek(s), ${count(t.nexts)} next(s), ${count(t.prevs)} prev(s), ${count(t.comparisons)} key comparison(s), ${count(t.blocks)} block(s) read`;
}

/** Lanes in a stable order: memtable first, SSTs by level then id, then the rest. */
export function lanesOf(steps: readonly ScanStep[]): string[] {
  const lanes = [...new Set(steps.map((s) => s.lane))];
  const rank = (l: string) => {
    if (l === 'memtable') return [0, 0, 0];
    const m = /^SST (\d+) · L(\d+)$/.exec(l);
    if (m) return [1, Number(m[2]), Number(m[1])];
    if (l.endsWith(' buffers')) return [2, 0, 0];
    if (l.endsWith(' leaves')) return [2, 1, 0];
    if (l.endsWith(' heap')) return [3, 0, 0];
    return [4, 0, 0];
  };
  return lanes.sort((a, b) => {
    const [x, y] = [rank(a), rank(b)];
    return (x[0] ?? 0) - (y[0] ?? 0) || (x[1] ?? 0) - (y[1] ?? 0) || (x[2] ?? 0) - (y[2] ?? 0) || a.localeCompare(b);
  });
}

/** Steps per pixel column, by op (the zoomed-out strip). */
export interface Column {
  px: number;
  count: number;
  /** Per op: its steps and their comparisons in this column, in a fixed op order. */
  ops: { op: StepOp; steps: number; comparisons: number }[];
}

const OP_ORDER: readonly StepOp[] = ['seek', 'prev', 'next', 'read', 'hit', 'leaf', 'heap'];

/**
 * Steps `from..to` by pixel column. `x` must not decrease with i (steps are
 * laid out in order), so a column is complete when the next step lands right
 * of it: one pass, no lookups.
 */
export function columnsOf(steps: readonly ScanStep[], from: number, to: number, x: (i: number) => number): Column[] {
  const columns: Column[] = [];
  let current: Column | undefined;
  for (let i = from; i < to; i++) {
    const s = steps[i];
    if (!s) break;
    const px = Math.floor(x(i));
    if (!current || current.px !== px) {
      current = { px, count: 0, ops: [] };
      columns.push(current);
    }
    current.count += 1;
    let o = current.ops.find((c) => c.op === s.op);
    if (!o) {
      o = { op: s.op, steps: 0, comparisons: 0 };
      current.ops.push(o);
      current.ops.sort((a, b) => OP_ORDER.indexOf(a.op) - OP_ORDER.indexOf(b.op));
    }
    o.steps += 1;
    o.comparisons += s.comparisons;
  }
  return columns;
}

/** Running totals of a statement's steps: the totals of its first n steps in O(1). */
export class RunningTotals {
  private readonly prefix: Totals[];

  constructor(steps: readonly ScanStep[]) {
    this.prefix = [ZERO];
    let t = ZERO;
    let lastBitmapPage: number | null = null;
    for (const s of steps) {
      t = addStep(t, s, lastBitmapPage);
      if (s.bitmap) lastBitmapPage = s.place;
      this.prefix.push(t);
    }
  }

  upTo(n: number): Totals {
    return this.prefix[Math.max(0, Math.min(n, this.prefix.length - 1))] ?? (this.prefix[0] as Totals);
  }
}
