// One B+tree: levels root first, pages as boxes filled to their fill level, a
// level with many pages as a fill-density strip (canvas), the page the current
// event touched outlined. Wheel or pinch zooms along the levels, drag pans
// (d3-zoom computes the transform, React draws); zoomed in, a level of many
// pages turns back into boxes and each box shows its page number and fill.
import { useEffect, useId, useRef } from 'react';
import type { TreeState } from './state';
import { treeRows, type PageBox, type TreeRow } from '../shared/layout';
import { useAxisZoom } from '../shared/useAxisZoom';
import { count } from '../../format/numbers';

const ROW = 40;
const NONE: ReadonlySet<number> = new Set();

function Strip({ row, width, focus }: { row: TreeRow; width: number; focus: number | null }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    const c = canvas.current?.getContext('2d');
    if (!c) return;
    c.clearRect(0, 0, width, ROW - 10);
    for (const p of row.pages) {
      // Darker = fuller: a 7000-leaf level stays one readable band.
      c.fillStyle = `rgba(0, 114, 178, ${0.15 + 0.85 * p.fill})`;
      c.fillRect(p.x, 0, Math.max(1, p.w), ROW - 10);
      if (p.page === focus) {
        c.fillStyle = '#D55E00';
        c.fillRect(p.x - 1, 0, Math.max(3, p.w + 2), ROW - 10);
      }
    }
  }, [row, width, focus]);
  return (
    <foreignObject x={0} y={row.y} width={width} height={ROW - 10}>
      <canvas ref={canvas} width={width} height={ROW - 10} />
    </foreignObject>
  );
}

/**
 * The leaves' sibling links, both ways (nbtree's btpo_prev/btpo_next): a
 * two-headed link under each pair of neighbours wide enough to show one.
 */
function LeafChain({ pages, y, head }: { pages: readonly PageBox[]; y: number; head: string }) {
  const links = [];
  for (let i = 1; i < pages.length; i++) {
    const [a, b] = [pages[i - 1], pages[i]];
    if (!a || !b || a.w < 24 || b.w < 24) continue;
    links.push(
      <line
        key={b.page}
        x1={a.x + a.w - 10}
        x2={b.x + 10}
        y1={y}
        y2={y}
        className="chain"
        markerStart={`url(#${head})`}
        markerEnd={`url(#${head})`}
      />,
    );
  }
  return <g aria-hidden="true">{links}</g>;
}

export function BTreeView({
  tree,
  width,
  focus,
  trail = NONE,
}: {
  tree: TreeState;
  width: number;
  focus: number | null;
  /** Pages the last few events touched (a descent, a scan's steps). */
  trail?: ReadonlySet<number> | undefined;
}) {
  // No glide while the reader zooms or pans: the boxes follow the hand.
  const { svg, t, zooming } = useAxisZoom(width, 200);
  // One arrowhead marker per tree: ids are page-wide.
  const head = `chain-${useId().replace(/[^\w-]/g, '')}`;
  // Lay out at the zoomed width, then shift: only the x axis zooms.
  const rows = treeRows(tree, width * t.k, ROW, t.k).map((r) => ({
    ...r,
    pages: r.pages
      .map((p) => ({ ...p, x: p.x + t.x }))
      .filter((p) => p.x + p.w >= 0 && p.x <= width),
  }));
  const leaves = tree.levels.get(0)?.length ?? 0;
  return (
    <figure className="view btree-view" data-testid={`btree-${tree.relation}`}>
      <figcaption>
        {tree.relation}: {rows.length} level(s), {count(leaves)} leaf page(s)
        {t.k > 1 && ` — zoomed ${t.k.toFixed(1)}× (scroll to zoom, drag to pan)`}
      </figcaption>
      <svg
        ref={svg}
        width={width}
        height={rows.length * ROW}
        role="img"
        aria-label={`B+tree ${tree.relation}`}
        className={zooming ? 'zoomable zooming' : 'zoomable'}
      >
        <defs>
          <marker
            id={head}
            viewBox="0 0 6 6"
            refX="5"
            refY="3"
            markerWidth="5"
            markerHeight="5"
            orient="auto-start-reverse"
          >
            <path d="M0,0 L6,3 L0,6 z" className="chain-head" />
          </marker>
        </defs>
        {rows.map((row) =>
          row.mode === 'strip' ? (
            <Strip key={row.level} row={row} width={width} focus={focus} />
          ) : (
            <g key={row.level} transform={`translate(0, ${row.y})`}>
              {row.level === 0 && <LeafChain pages={row.pages} y={ROW - 5} head={head} />}
              {row.pages.map((p) => {
                const h = ROW - 10;
                // Geometry as CSS, so a split glides: pages move over, the new
                // half grows out of the page that divided (styles.css).
                const fill = { width: `${p.w}px`, y: `${h * (1 - p.fill)}px`, height: `${h * p.fill}px` };
                return (
                  <g key={p.page} className="page-g" style={{ transform: `translate(${p.x}px, 0px)` }}>
                    <rect
                      y={0}
                      height={h}
                      style={{ width: `${p.w}px` }}
                      className={
                        p.page === focus ? 'page focus' : trail.has(p.page) ? 'page trail' : 'page'
                      }
                    />
                    <rect style={fill} className="page-fill" />
                    {p.w > 56 && (
                      <text x={4} y={ROW - 14} className="page-label">
                        p{p.page} {fillText(p.fill)}
                      </text>
                    )}
                    {p.w > 90 && tree.high.has(p.page) && (
                      <text x={4} y={11} className="page-high">
                        <title>the page&apos;s high key: every key on it is at most this</title>≤{' '}
                        {tree.high.get(p.page) ?? '+∞'}
                      </text>
                    )}
                  </g>
                );
              })}
            </g>
          ),
        )}
      </svg>
    </figure>
  );
}

/**
 * A page's fill as a label: a page holding a few entries is "<1%", never
 * "0%" (a root of two downlinks is not empty).
 */
export function fillText(fill: number): string {
  if (fill > 0 && fill < 0.005) return '<1%';
  return `${Math.round(fill * 100)}%`;
}
