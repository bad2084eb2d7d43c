// The buffer pool: one cell per frame, colored by the relation whose page it
// holds, dirty frames marked, the frame of the current access flashing blue
// (hit) or orange (read from storage), an eviction outlined dashed (with its
// write-back, if the page was dirty). Canvas: a 128MB pool is 16384 frames.
import { useEffect, useRef } from 'react';
import type { PoolState } from './state';
import { colorFor, HIT, READ } from '../shared/palette';
import { poolGrid, visibleFrames } from '../shared/layout';
import { count } from '../../format/numbers';

export type Flash =
  | { frame: number; kind: 'hit' | 'read' }
  | { frame: number; kind: 'evict'; page: string; written: boolean };

function flashText(f: Flash): string {
  switch (f.kind) {
    case 'hit':
      return `frame ${f.frame}: hit`;
    case 'read':
      return `frame ${f.frame}: read from storage`;
    case 'evict':
      return `frame ${f.frame}: ${f.page} evicted${f.written ? ', written back first (it was dirty)' : ''}`;
  }
}

/** The page's text color (the canvas cannot use CSS variables). */
function evictColor(): string {
  return getComputedStyle(document.documentElement).color || '#000';
}

/** Whether the page is drawn light on dark (its text colour is light): relations then take lighter colours. */
function onDark(): boolean {
  if (typeof document === 'undefined') return false;
  const m = /rgba?\((\d+),\s*(\d+),\s*(\d+)/.exec(evictColor());
  if (!m) return false;
  return (Number(m[1]) + Number(m[2]) + Number(m[3])) / 3 > 128;
}

export function PoolView({
  pool,
  relations,
  width,
  flash,
}: {
  pool: PoolState;
  relations: readonly string[];
  width: number;
  flash: Flash | null;
}) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const shown = visibleFrames(pool);
  const g = poolGrid(shown, width);
  const dark = onDark();
  useEffect(() => {
    const c = canvas.current?.getContext('2d');
    if (!c) return;
    c.clearRect(0, 0, g.cols * g.cell, g.rows * g.cell);
    const inner = Math.max(1, g.cell - 1);
    for (let frame = 0; frame < shown; frame++) {
      const x = (frame % g.cols) * g.cell;
      const y = Math.floor(frame / g.cols) * g.cell;
      const f = pool.frames.get(frame);
      c.fillStyle = f ? colorFor(relations, f.relation, dark) : 'rgba(127,127,127,0.15)';
      c.fillRect(x, y, inner, inner);
      if (f?.dirty && g.cell >= 6) {
        c.fillStyle = '#000';
        c.fillRect(x, y, Math.ceil(inner / 3), Math.ceil(inner / 3));
      }
    }
    if (flash) {
      const x = (flash.frame % g.cols) * g.cell;
      const y = Math.floor(flash.frame / g.cols) * g.cell;
      // An eviction reads as a dashed outline in the text color, not by hue.
      c.strokeStyle = flash.kind === 'hit' ? HIT : flash.kind === 'read' ? READ : evictColor();
      c.setLineDash(flash.kind === 'evict' ? [3, 2] : []);
      c.lineWidth = 3;
      c.strokeRect(x - 2, y - 2, inner + 4, inner + 4);
      c.setLineDash([]);
    }
  }, [pool, relations, flash, shown, g.cols, g.rows, g.cell, dark]);
  const used = pool.frames.size;
  const dirty = [...pool.frames.values()].filter((f) => f.dirty).length;
  return (
    <figure className="view pool-view" data-testid="pool-view">
      <figcaption>
        Buffer pool: {count(used)} of {count(pool.capacity)} frames used, {count(dirty)} dirty
        {shown < pool.capacity && ` (showing frames 0–${count(shown - 1)}; the rest are free)`}
        {flash && (
          <span className={`flash-${flash.kind}`} data-testid="pool-flash">
            {' '}
            — {flashText(flash)}
          </span>
        )}
      </figcaption>
      <canvas
        ref={canvas}
        width={g.cols * g.cell}
        height={g.rows * g.cell}
        aria-label="Buffer pool frames"
      />
      <ul className="legend">
        {relations.map((r) => (
          <li key={r}>
            <span className="swatch" style={{ background: colorFor(relations, r, dark) }} /> {r}
          </li>
        ))}
      </ul>
    </figure>
  );
}
