// One B+tree: levels root first, pages as boxes filled to their fill level, a
// level with many pages as a fill-density strip (canvas), the page the current
// event touched outlined.
import { useEffect, useRef } from 'react';
import type { TreeState } from '../player/treeState';
import { treeRows, type TreeRow } from './layout';

const ROW = 34;

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

export function BTreeView({
  tree,
  width,
  focus,
}: {
  tree: TreeState;
  width: number;
  focus: number | null;
}) {
  const rows = treeRows(tree, width, ROW);
  const leaves = tree.levels.get(0)?.length ?? 0;
  return (
    <figure className="view btree-view" data-testid={`btree-${tree.relation}`}>
      <figcaption>
        {tree.relation}: {rows.length} level(s), {leaves} leaf page(s)
      </figcaption>
      <svg width={width} height={rows.length * ROW} role="img" aria-label={`B+tree ${tree.relation}`}>
        {rows.map((row) =>
          row.mode === 'strip' ? (
            <Strip key={row.level} row={row} width={width} focus={focus} />
          ) : (
            <g key={row.level} transform={`translate(0, ${row.y})`}>
              {row.pages.map((p) => (
                <g key={p.page}>
                  <rect
                    x={p.x}
                    y={0}
                    width={p.w}
                    height={ROW - 10}
                    className={p.page === focus ? 'page focus' : 'page'}
                  />
                  <rect
                    x={p.x}
                    y={(ROW - 10) * (1 - p.fill)}
                    width={p.w}
                    height={(ROW - 10) * p.fill}
                    className="page-fill"
                  />
                </g>
              ))}
            </g>
          ),
        )}
      </svg>
    </figure>
  );
}
