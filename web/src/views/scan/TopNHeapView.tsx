// A top-N heapsort, drawn: along the input (left to right, in 32 slices), how
// many rows still went into memory; and the heap itself, its slots. Rows in
// a random order crowd in at the start and rarely later, once the heap holds
// good rows; rows that come in the wanted order fill it once and never
// again; rows in the opposite order each replace its top. D3 for the scale,
// React for the DOM.
import { scaleLinear } from 'd3-scale';
import type { TopNHeap } from '../../engine/schema.gen';
import { count } from '../../format/numbers';

const LABEL = 124;
const RIGHT = 10;
const HIGH = 44;
/** Slots drawn one by one up to this bound; a larger heap is one bar. */
const MAX_SLOTS = 60;

export function TopNHeapView({ heap, rows, width }: { heap: TopNHeap; rows: number; width: number }) {
  const plot = width - LABEL - RIGHT;
  const slice = plot / Math.max(1, heap.entered.length);
  const y = scaleLinear()
    .domain([0, Math.max(1, ...heap.entered)])
    .range([0, HIGH]);
  const slots = Math.min(Number(heap.bound), MAX_SLOTS);
  const slot = Math.min(14, plot / Math.max(1, slots));
  const heapTop = HIGH + 34;
  return (
    <figure className="top-n-heap" data-testid="top-n-heap">
      <svg width={width} height={heapTop + 20} role="img" aria-label={`Top-N heap: ${count(heap.held + heap.replaced)} of ${count(rows)} rows went into memory`}>
        <text x={LABEL - 6} y={HIGH / 2 + 8} textAnchor="end" className="lane-label">
          into memory
        </text>
        {heap.entered.map((n, i) => (
          <rect key={i} x={LABEL + i * slice} y={6 + HIGH - y(n)} width={Math.max(1, slice - 1)} height={y(n)} className="heap-entered">
            <title>{`rows ${count(Math.floor((i * rows) / heap.entered.length) + 1)}–${count(Math.floor(((i + 1) * rows) / heap.entered.length))}: ${count(n)} went into memory`}</title>
          </rect>
        ))}
        <line x1={LABEL} x2={width - RIGHT} y1={6 + HIGH} y2={6 + HIGH} className="baseline" />
        <text x={LABEL} y={HIGH + 20} className="lane-label">
          first row
        </text>
        <text x={width - RIGHT} y={HIGH + 20} textAnchor="end" className="lane-label">
          row {count(rows)}
        </text>
        <text x={LABEL - 6} y={heapTop + 12} textAnchor="end" className="lane-label">
          the heap
        </text>
        {Number(heap.bound) <= MAX_SLOTS ? (
          Array.from({ length: slots }, (_, i) => (
            <rect key={i} x={LABEL + i * slot} y={heapTop} width={Math.max(1, slot - 2)} height={16} className={`heap-slot${i === 0 ? ' heap-top' : ''}`} />
          ))
        ) : (
          <rect x={LABEL} y={heapTop} width={plot} height={16} className="heap-slot" />
        )}
      </svg>
      <figcaption className="heap-caption">
        The heap holds {count(heap.bound)} row(s); its top (filled) is the worst of them, the row each newcomer must beat.
      </figcaption>
    </figure>
  );
}
