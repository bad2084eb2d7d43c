// The scan of the statement under the cursor, step by step. Top: a strip with
// one bar per step in the order the scan made them — on yb its height is the
// key comparisons the call made, so one seek and a flat run of nexts (a
// forward scan) looks nothing like a forest of seeks (a backward one); on pg a
// leaf step is a tall bar, a heap fetch a short one. Read requests cut the
// strip. Below: where each step landed, one lane per source (memtable, each
// SST by level; pg's index leaves and heap). Then this scan against the one
// before it. Too many steps for the width: one bar per pixel column (the
// columns' mean), and wheel zoom brings single steps back. D3 for the scales,
// React for the DOM.
import { memo, useMemo } from 'react';
import { scaleLinear } from 'd3-scale';
import { count } from '../../format/numbers';
import { addMark, chunkPaths } from '../shared/chunks';
import { useAxisZoom } from '../shared/useAxisZoom';
import { PhaseBands, PHASE_ROW } from './PhaseBands';
import { PhaseList } from './PhaseList';
import type { PhaseMark } from './phases';
import { TopNHeapView } from './TopNHeapView';
import type { HeapVisibility } from './visibility';
import { columnsOf, lanesOf, partsText, scalesOf, totalsText, type Column, type Cut, type ScanStep, type StepOp, type Totals } from './steps';

const LABEL = 124;
const RIGHT = 10;
const STRIP = 70;
const TOP = 18;
const LANE = 20;
/** Below this many pixels per step, the strip shows columns. */
const PX_PER_STEP = 3;

export const OP_NAMES: Record<StepOp, string> = {
  seek: 'seek',
  next: 'next',
  prev: 'prev',
  leaf: 'onto a leaf',
  heap: 'row from the heap',
  hit: 'buffer hit',
  read: 'read from storage',
};

/** The letter under each of the last steps (a buffer hit and a heap fetch both start with h). */
export const OP_LETTERS: Record<StepOp, string> = {
  seek: 'S',
  next: 'N',
  prev: 'P',
  leaf: 'L',
  heap: 'H',
  hit: 'B',
  read: 'R',
};

/** pg's bars: a read from storage tallest, a move onto a leaf, a hit, a heap fetch. */
const PG_HEIGHT: Record<StepOp, number> = { read: 1, leaf: 0.75, hit: 0.5, heap: 0.3, seek: 1, next: 1, prev: 1 };

function StepBars({
  steps,
  from,
  shown,
  x,
  height,
  step,
}: {
  steps: readonly ScanStep[];
  /** The first step in view (the ones before are off the left edge). */
  from: number;
  shown: number;
  x: (i: number) => number;
  height: (s: { comparisons: number; op: StepOp }) => number;
  step: number;
}) {
  const bars = [];
  for (let i = from; i < shown; i++) {
    const s = steps[i];
    if (!s) break;
    const h = height(s);
    bars.push(
      <rect
        key={i}
        x={x(i)}
        y={TOP + STRIP - h}
        width={Math.max(1, step - 1)}
        height={h}
        className={`step step-${s.op}${i === shown - 1 ? ' current' : ''}`}
      >
        <title>
          {`Step ${i + 1}: ${OP_NAMES[s.op]} in ${s.lane}` +
            (s.comparisons > 0 ? `, ${s.comparisons} key comparison(s)` : '') +
            (s.reads > 0 && s.comparisons > 0 ? `, ${s.reads} block(s) read` : '')}
        </title>
      </rect>,
    );
  }
  return <g>{bars}</g>;
}

/**
 * The zoomed-out strip: each pixel column as tall as its steps' mean, split by
 * op in proportion to what each op contributed (comparisons on yb, steps on
 * pg), so a column of two seeks and a prev per row shows both colors. One
 * path per op: a few elements to paint each frame, not one per column.
 */
function ColumnBars({
  columns,
  height,
}: {
  columns: readonly Column[];
  height: (s: { comparisons: number; op: StepOp }) => number;
}) {
  const paths = new Map<StepOp, Map<number, string[]>>();
  for (const column of columns) {
    const weight = (o: Column['ops'][number]) => (o.comparisons > 0 ? o.comparisons : o.steps * height({ comparisons: 0, op: o.op }));
    const total = column.ops.reduce((a, o) => a + weight(o), 0) || 1;
    const mean = column.ops.reduce((a, o) => a + height({ comparisons: o.comparisons / o.steps, op: o.op }) * o.steps, 0) / column.count;
    let top = TOP + STRIP;
    for (const o of column.ops) {
      const h = (mean * weight(o)) / total;
      top -= h;
      const chunks = paths.get(o.op) ?? new Map<number, string[]>();
      addMark(chunks, column.px, `M${column.px},${top.toFixed(1)}h1v${h.toFixed(1)}h-1z`);
      paths.set(o.op, chunks);
    }
  }
  return <g>{pathsOf(paths, 'step step-')}</g>;
}

/**
 * Where read requests cut the scan: a labelled line each while there is room
 * (40 px a request), else one path of unlabelled lines (the count is in the
 * caption).
 */
function Cuts({
  cuts,
  shown,
  x,
  plot,
  height,
}: {
  cuts: readonly Cut[];
  shown: number;
  x: (i: number) => number;
  plot: number;
  height: number;
}) {
  const visible: { c: Cut; n: number }[] = [];
  for (let i = 0; i < shown; i++) {
    const c = cuts[i];
    if (!c) break;
    const px = x(c.at);
    if (px >= LABEL - 1 && px <= LABEL + plot + 1) visible.push({ c, n: i + 1 });
  }
  if (visible.length * 40 > plot) {
    const chunks = new Map<number, string[]>();
    for (const { c } of visible) addMark(chunks, x(c.at), `M${x(c.at).toFixed(1)},${TOP}V${height}`);
    return (
      <g>
        {chunkPaths(chunks).map(([k, d]) => (
          <path key={k} d={d} className="cut-lines" />
        ))}
      </g>
    );
  }
  // A label is drawn only where it does not run into the one before it or
  // off the plot (the line still marks the request).
  let free = -Infinity;
  const labelled = visible.map(({ c, n }) => {
    const text = `request ${n}${c.tablets > 1 ? ` · ${c.tablets} tablets` : ''} · ${count(c.rows)} row(s)`;
    const left = x(c.at) + 3;
    const right = left + text.length * LABEL_CHAR_PX;
    const fits = left >= free && right <= LABEL + plot + 2;
    if (fits) free = right + 6;
    return { c, n, text: fits ? text : null };
  });
  return (
    <g>
      {labelled.map(({ c, n, text }) => (
        <g key={n} className="cut">
          <line x1={x(c.at)} x2={x(c.at)} y1={TOP - 14} y2={height} />
          {text && (
            <text x={x(c.at) + 3} y={TOP - 4} className="cut-label">
              {text}
            </text>
          )}
        </g>
      ))}
    </g>
  );
}

/** About how wide a character of a cut's label is (its font is the views' small one). */
const LABEL_CHAR_PX = 6.2;

/**
 * About how wide a character of a lane's label is: 0.72 rem at 0.55 em a
 * character, so presenter mode's larger root font (18 px) cuts sooner.
 */
function laneCharPx(): number {
  const root = typeof document === 'undefined' ? 16 : parseFloat(getComputedStyle(document.documentElement).fontSize) || 16;
  return root * 0.72 * 0.55;
}

/**
 * A lane's name cut to fit `px` (its whole name is its tooltip): the
 * relation's name is shortened at its end, the kind after it ("buffers",
 * "leaves", "heap", "VM") kept, so a long name never loses its start.
 */
export function fitLabel(text: string, px: number): string {
  const room = Math.floor(px / laneCharPx());
  if (text.length <= room) return text;
  const cut = text.lastIndexOf(' ');
  const [name, kind] = cut > 0 ? [text.slice(0, cut), text.slice(cut)] : [text, ''];
  const keep = Math.max(3, room - kind.length - 1);
  return `${name.slice(0, keep)}…${kind}`;
}

/**
 * pg's visibility map, a strip of bits per heap (one cell per page, filled
 * when all-visible: VACUUM fills them in), with the heap pages this scan has
 * fetched marked above it and the fetch just made drawn as an arrow to its
 * page. An Index Only Scan fetches exactly the rows on unfilled pages.
 */
function VisibilityStrips({
  heaps,
  steps,
  shown,
  width,
}: {
  heaps: readonly HeapVisibility[];
  steps: readonly ScanStep[];
  shown: number;
  width: number;
}) {
  const plot = width - LABEL - RIGHT;
  const ROW_H = 34;
  const current = shown > 0 ? steps[shown - 1] : undefined;
  return (
    <svg width={width} height={heaps.length * ROW_H + 4} className="vm-strips" role="img" aria-label="Visibility map">
      {heaps.map((h, k) => {
        const cell = plot / Math.max(1, h.pages);
        const y = 4 + k * ROW_H;
        const px = (page: number) => LABEL + page * cell;
        const visible = new Map<number, string[]>();
        const fetched = new Map<number, string[]>();
        for (let p = 0; p < h.pages; p++) {
          if (h.visible[p]) addMark(visible, px(p), `M${px(p).toFixed(1)},${y + 14}h${Math.max(0.5, cell).toFixed(2)}v12h${(-Math.max(0.5, cell)).toFixed(2)}z`);
        }
        const seen = new Set<number>();
        for (let i = 0; i < shown; i++) {
          const s = steps[i];
          if (s?.op !== 'heap' || s.lane !== `${h.relation} heap` || s.place === null || seen.has(s.place)) continue;
          seen.add(s.place);
          addMark(fetched, px(s.place), `M${px(s.place).toFixed(1)},${y + 4}h${Math.max(1, cell).toFixed(2)}v8h${(-Math.max(1, cell)).toFixed(2)}z`);
        }
        const arrow = current?.op === 'heap' && current.lane === `${h.relation} heap` && current.place !== null;
        return (
          <g key={h.relation}>
            <text x={LABEL - 6} y={y + 24} textAnchor="end" className="lane-label">
              <title>{`${h.relation} VM`}</title>
              {fitLabel(`${h.relation} VM`, LABEL - 10)}
            </text>
            <rect x={LABEL} y={y + 14} width={plot} height={12} className="vm-empty" />
            {chunkPaths(visible).map(([c, d]) => (
              <path key={`v${c}`} d={d} className="vm-visible" />
            ))}
            {chunkPaths(fetched).map(([c, d]) => (
              <path key={`f${c}`} d={d} className="step-heap" />
            ))}
            {arrow && current.place !== null && (
              <path d={`M${px(current.place) + cell / 2},${y}v12`} className="fetch-arrow" markerEnd="url(#scan-arrow)" />
            )}
          </g>
        );
      })}
      <defs>
        <marker id="scan-arrow" viewBox="0 0 6 6" refX="6" refY="3" markerWidth="6" markerHeight="6" orient="auto">
          <path d="M0,0 L6,3 L0,6 z" className="arrow-head" />
        </marker>
      </defs>
    </svg>
  );
}

/** Chunked paths per op, as path elements with class `prefix + op`. */
function pathsOf(paths: Map<StepOp, Map<number, string[]>>, prefix: string) {
  return [...paths].flatMap(([op, chunks]) =>
    chunkPaths(chunks).map(([k, d]) => <path key={`${op}-${k}`} d={d} className={`${prefix}${op}`} />),
  );
}

/** Steps the close-up shows: the last ones up to the cursor. */
const CLOSE_UP = 48;

/**
 * The last steps up to the cursor at full size, whatever the zoom above: the
 * step just made on the right, each bar as tall as its comparisons, with its
 * op's initial under it. A student stepping through a scan sees each seek,
 * next or prev arrive here.
 */
function CloseUp({
  steps,
  shown,
  width,
  height,
}: {
  steps: readonly ScanStep[];
  shown: number;
  width: number;
  height: (s: { comparisons: number; op: StepOp }) => number;
}) {
  // As many of the last steps as get 6 px each (48 on a desktop), each with its letter when there is room for it.
  const slots = Math.max(4, Math.min(CLOSE_UP, Math.floor((width - LABEL - RIGHT) / 6)));
  const from = Math.max(0, shown - slots);
  const w = (width - LABEL - RIGHT) / slots;
  const letters = w >= 8;
  const bars = [];
  for (let i = from; i < shown; i++) {
    const s = steps[i];
    if (!s) break;
    const h = height(s) * 0.6;
    const x = LABEL + (i - from) * w;
    // Keyed by slot, not by step: as the window slides the same elements
    // take the next steps (attribute updates, not new elements a frame).
    bars.push(
      <g key={i - from}>
        <rect x={x} y={44 - h} width={Math.max(1, w - 2)} height={h} className={`step step-${s.op}${i === shown - 1 ? ' current' : ''}`} />
        {letters && (
          <text x={x + (w - 2) / 2} y={56} textAnchor="middle" className="op-initial">
            {OP_LETTERS[s.op]}
          </text>
        )}
      </g>,
    );
  }
  return (
    <svg width={width} height={60} className="scan-close-up" aria-hidden="true">
      <text x={LABEL - 6} y={30} textAnchor="end" className="lane-label">
        last {Math.min(slots, shown)} steps
      </text>
      <line x1={LABEL} x2={width - RIGHT} y1={44} y2={44} className="baseline" />
      {bars}
    </svg>
  );
}

function Compare({ now, before, beforeIndex, yb }: { now: Totals; before: Totals; beforeIndex: number; yb: boolean }) {
  const cost = (t: Totals) => (yb ? t.comparisons : t.hits + t.reads);
  const unit = yb ? 'key comparisons' : "buffer accesses: EXPLAIN's shared hit + read";
  const w = scaleLinear()
    .domain([0, Math.max(cost(now), cost(before), 1)])
    .range([0, 260]);
  const rows = [
    { label: `Statement ${beforeIndex + 1}`, t: before, cls: 'before' },
    { label: 'This one so far', t: now, cls: 'now' },
  ];
  return (
    <div className="scan-compare">
      <p className="scan-compare-title">Against the scan before it ({unit}):</p>
      {rows.map((r) => (
        <div key={r.cls} className="scan-compare-row">
          <span className="scan-compare-label">{r.label}</span>
          <svg width={262} height={12} aria-hidden="true">
            <rect x={0} y={1} width={Math.max(1, w(cost(r.t)))} height={10} className={`compare-${r.cls}`} />
          </svg>
          <span className="scan-compare-figure">{count(cost(r.t))}</span>
          <span className="scan-compare-detail">{totalsText(r.t)}</span>
        </div>
      ))}
    </div>
  );
}

export const ScanView = memo(function ScanView({
  steps,
  shown,
  totals,
  cuts,
  cutsShown,
  phases,
  phasesShown,
  title,
  previous,
  heaps,
  width,
  shared,
}: {
  steps: readonly ScanStep[];
  shown: number;
  totals: Totals;
  cuts: readonly Cut[];
  cutsShown: number;
  /** The plan's phases (a Hash Join's build and probe, a Sort) and how many have ended. */
  phases: readonly PhaseMark[];
  phasesShown: number;
  title: string;
  previous: { index: number; totals: Totals } | null;
  /** pg: the visibility maps at the cursor. */
  heaps: readonly HeapVisibility[];
  width: number;
  /** The most steps and comparisons among the columns beside this one: drawn on one scale. */
  shared?: Readonly<Record<string, number>> | undefined;
}) {
  const plot = width - LABEL - RIGHT;
  const { svg, t } = useAxisZoom(plot, 5000);
  const lanes = useMemo(() => lanesOf(steps), [steps]);
  const yb = steps.some((s) => s.op === 'seek' || s.op === 'next' || s.op === 'prev');
  const base = scaleLinear()
    .domain([0, Math.max(steps.length, shared?.steps ?? 0, 1)])
    .range([0, plot]);
  const scale = t.rescaleX(base);
  // The scale is linear: one multiply-add per step (the strip may lay out
  // tens of thousands of steps a frame).
  const step = scale(1) - scale(0);
  const origin = LABEL + scale(0);
  const x = (i: number) => origin + step * i;
  const detailed = step >= PX_PER_STEP;
  const maxComparisons = Math.max(scalesOf(steps).comparisons, shared?.comparisons ?? 0, 1);
  const height = (s: { comparisons: number; op: StepOp }) =>
    yb ? Math.max(2, (STRIP * s.comparisons) / maxComparisons) : PG_HEIGHT[s.op] * STRIP;
  const current = shown > 0 ? steps[shown - 1] : undefined;
  const laneTop = TOP + STRIP + 10;
  const lanesBottom = laneTop + lanes.length * LANE;
  const svgHeight = lanesBottom + 4 + (phases.length > 0 ? PHASE_ROW : 0);
  // The top-N heap of a Sort the cursor has passed.
  const sorted = phases.slice(0, phasesShown).find((p) => p.heap);
  // Only the steps in view are laid out.
  const [first, last] = scale.domain() as [number, number];
  const from = Math.max(0, Math.floor(first) - 1);
  const upTo = Math.min(shown, Math.ceil(last) + 1);
  const columns = detailed ? [] : columnsOf(steps, from, upTo, x);
  return (
    <figure className="view scan-view" data-testid="scan-view" aria-label={`Scan: ${title}, ${totalsText(totals)}`}>
      <figcaption>
        Scan: {title} — {totalsText(totals)}
        {cuts.length > 0 && `, ${count(cutsShown)} of ${count(cuts.length)} read request(s)`}
        {shared !== undefined && ' · drawn to the same scale as the other column(s)'}
        {!detailed && ' · one bar per pixel here: wheel to zoom in'}
      </figcaption>
      {steps.length === 0 ? (
        <p className="hint">This statement scanned nothing step by step (or its detail was summarized).</p>
      ) : (
        <svg ref={svg} width={width} height={svgHeight} className="scan-svg" role="img" aria-label={`Steps of ${title}`}>
          <defs>
            <clipPath id="scan-plot">
              <rect x={LABEL} y={0} width={plot} height={svgHeight} />
            </clipPath>
          </defs>
          <text x={LABEL - 6} y={TOP + STRIP / 2} textAnchor="end" className="lane-label">
            {yb ? 'comparisons' : 'steps'}
          </text>
          <line x1={LABEL} x2={width - RIGHT} y1={TOP + STRIP} y2={TOP + STRIP} className="baseline" />
          {lanes.map((l, i) => (
            <g key={l}>
              <text x={LABEL - 6} y={laneTop + i * LANE + LANE / 2 + 4} textAnchor="end" className="lane-label">
                <title>{l}</title>
                {fitLabel(l, LABEL - 10)}
              </text>
              <line x1={LABEL} x2={width - RIGHT} y1={laneTop + i * LANE + LANE / 2} y2={laneTop + i * LANE + LANE / 2} className="lane" />
            </g>
          ))}
          {phases.length > 0 && (
            <text x={LABEL - 6} y={lanesBottom + 19} textAnchor="end" className="lane-label">
              plan phases
            </text>
          )}
          <g clipPath="url(#scan-plot)">
            {phases.length > 0 && (
              <PhaseBands phases={phases} phasesShown={phasesShown} x={x} top={TOP} bottom={lanesBottom} left={LABEL} right={width - RIGHT} />
            )}
            {detailed ? (
              <StepBars steps={steps} from={from} shown={upTo} x={x} height={height} step={step} />
            ) : (
              <ColumnBars columns={columns} height={height} />
            )}
            <LaneMarks steps={steps} from={from} shown={upTo} lanes={lanes} x={x} top={laneTop} detailed={detailed} />
            <Cuts cuts={cuts} shown={cutsShown} x={x} plot={plot} height={svgHeight} />
          </g>
        </svg>
      )}
      {!yb && heaps.length > 0 && (
        <VisibilityStrips heaps={heaps} steps={steps} shown={shown} width={width} />
      )}
      {phases.length > 0 && <PhaseList phases={phases} phasesShown={phasesShown} />}
      {sorted?.heap && <TopNHeapView heap={sorted.heap} rows={sorted.rowsIn} width={width} />}
      {steps.length > 0 && shown > 0 && <CloseUp steps={steps} shown={shown} width={width} height={height} />}
      {current?.parts && (
        <p className="scan-current" data-testid="scan-current">
          Step {count(shown)}: {OP_NAMES[current.op]}, {current.comparisons} key comparison(s) — {partsText(current.parts)}
        </p>
      )}
      {steps.length > 0 && (
        <ul className="legend scan-legend">
          {(yb ? (['seek', 'next', 'prev'] as const) : (['hit', 'read', 'leaf', 'heap'] as const)).map((op) => (
            <li key={op}>
              <span className={`swatch step-${op}`} aria-hidden="true" /> {OP_LETTERS[op]}: {OP_NAMES[op]}
            </li>
          ))}
          {yb && <li>bar height: key comparisons of the step</li>}
          {!yb && heaps.length > 0 && (
            <li>
              <span className="swatch vm-swatch" aria-hidden="true" /> all-visible page in the visibility map
            </li>
          )}
        </ul>
      )}
      {previous && steps.length > 0 && <Compare now={totals} before={previous.totals} beforeIndex={previous.index} yb={yb} />}
    </figure>
  );
});

function LaneMarks({
  steps,
  from,
  shown,
  lanes,
  x,
  top,
  detailed,
}: {
  steps: readonly ScanStep[];
  from: number;
  shown: number;
  lanes: readonly string[];
  x: (i: number) => number;
  top: number;
  detailed: boolean;
}) {
  // One mark per step (per pixel column and lane when zoomed out), drawn as
  // one path per op.
  // Steps come in order, so a column's lanes are known when the next starts.
  let column = -1;
  const seen = new Set<number>();
  const paths = new Map<StepOp, Map<number, string[]>>();
  const laneIndex = new Map(lanes.map((l, i) => [l, i]));
  const w = detailed ? 3 : 1;
  for (let i = from; i < shown; i++) {
    const s = steps[i];
    if (!s) break;
    const px = Math.floor(x(i));
    const lane = laneIndex.get(s.lane) ?? 0;
    if (!detailed) {
      if (px !== column) {
        column = px;
        seen.clear();
      }
      if (seen.has(lane)) continue;
      seen.add(lane);
    }
    const chunks = paths.get(s.op) ?? new Map<number, string[]>();
    addMark(chunks, px, `M${px},${top + lane * LANE + 4}h${w}v${LANE - 8}h${-w}z`);
    paths.set(s.op, chunks);
  }
  return <g>{pathsOf(paths, 'mark step-')}</g>;
}
