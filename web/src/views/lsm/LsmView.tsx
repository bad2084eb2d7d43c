// One tablet's LSM: the memtable filling toward its budget, sealed memtables,
// then the SSTs. On the keys axis (the default) each SST spans its key range,
// every L0 file in its own lane, so a student sees which files overlap and
// what a compaction must merge; on the bytes axis the levels' sizes compare.
// Wheel zooms along the axis, drag pans (d3-zoom computes, React draws);
// zoomed in, each SST shows its entries and tombstones. SSTs the current event
// made or merged are outlined; a compaction's inputs fade out under its outputs.
import { memo, useState } from 'react';
import type { SstMeta, TabletState } from './state';
import { count, kb, kbPrecise } from '../../format/numbers';
import { lsmLanes, type SstRect } from '../shared/layout';
import { useAxisZoom } from '../shared/useAxisZoom';

const ROW = 20;
const LABEL = 40;
/** The pseudo-level of a compaction's departing inputs (sorts after every level). */
const GHOSTS = 1_000_000;

function SstBox({ s, lane, focus }: { s: SstRect; lane: number; focus: boolean }) {
  const h = (ROW - 6) * s.h;
  const y = 3 + (ROW - 6 - h) / 2;
  const tomb = s.entries > 0 ? s.deletes / s.entries : 0;
  return (
    <g>
      <rect
        x={LABEL + s.x}
        y={lane + y}
        width={s.w}
        height={h}
        className={focus ? 'sst focus' : 'sst'}
        data-sst={s.id}
      >
        <title>
          {`SST ${s.id}: ${kb(s.bytes)}, ${count(s.entries)} entries (each a version of a row, or a ` +
            `tombstone), ${count(s.deletes)} of them tombstone(s)`}
        </title>
      </rect>
      {/* The share of tombstones, as a dark band along the bottom. */}
      {tomb > 0 && (
        <rect
          x={LABEL + s.x}
          y={lane + y + h - Math.max(2, h * tomb)}
          width={s.w}
          height={Math.max(2, h * tomb)}
          className="sst-tombstones"
        />
      )}
      {s.w > 44 && (
        <text x={LABEL + s.x + 3} y={lane + ROW / 2 + 4} className="sst-label">
          {s.w > 190
            ? `SST ${s.id} · ${count(s.entries)} entries · ${count(s.deletes)} tombstones`
            : `SST ${s.id}`}
        </text>
      )}
    </g>
  );
}

export const LsmView = memo(function LsmView({
  id,
  tablet,
  width,
  focus,
  leaving,
}: {
  id: number;
  tablet: TabletState;
  width: number;
  focus: ReadonlySet<number>;
  /** A compaction's inputs, just replaced: drawn fading out in the output level. */
  leaving?: { level: number; ssts: ReadonlyMap<number, SstMeta> } | undefined;
}) {
  const { svg, t } = useAxisZoom(width, 500);
  const [axis, setAxis] = useState<'keys' | 'bytes'>('keys');
  const inner = (width - LABEL) * t.k;
  const shift = (r: SstRect) => ({ ...r, x: r.x + t.x });
  // The inputs a compaction just replaced are laid out with the live SSTs (one
  // key scale), as a pseudo-level of their own that draws in the output level.
  const withGhosts =
    leaving && axis === 'keys'
      ? {
          ...tablet,
          levels: new Map([...tablet.levels, [GHOSTS, [...leaving.ssts.keys()]]]),
          ssts: new Map([...tablet.ssts, ...leaving.ssts]),
        }
      : tablet;
  const all = lsmLanes(withGhosts, inner, axis).map((l) => ({ ...l, ssts: l.ssts.map(shift) }));
  const lanes = all.filter((l) => l.level !== GHOSTS);
  const ghosts = all.find((l) => l.level === GHOSTS)?.ssts ?? [];
  const ghostLane = lanes.findIndex((l) => l.level === leaving?.level);
  const mem = tablet.writeBufferSize
    ? Math.min(1, tablet.memtable.bytes / tablet.writeBufferSize)
    : 0;
  const entries = [...tablet.ssts.values()].reduce((n, m) => n + m.entries, 0);
  const deletes = [...tablet.ssts.values()].reduce((n, m) => n + m.deletes, 0);
  return (
    <figure className="view lsm-view" data-testid={`lsm-${id}`}>
      <figcaption>
        {tablet.relation}, tablet {id}
        {tablet.tserver >= 0 ? ` on tserver-${tablet.tserver + 1}` : ''}: memtable{' '}
        {count(tablet.memtable.entries)} entries ({kbPrecise(tablet.memtable.bytes)} of{' '}
        {kbPrecise(tablet.writeBufferSize)}), {tablet.immutables} sealed; in SST files (a DELETE's tombstones count once
        flushed): {count(tablet.ssts.size)} SST(s), {count(entries)} entries, {count(deletes)} tombstone(s)
        {t.k > 1 && ` — zoomed ${t.k.toFixed(1)}×`}
        <label className="axis-switch">
          {' '}
          x:{' '}
          <select
            value={axis}
            onChange={(e) => setAxis(e.target.value as 'keys' | 'bytes')}
            aria-label={`Axis of tablet ${id}`}
          >
            <option value="keys">key range</option>
            <option value="bytes">bytes</option>
          </select>
        </label>
      </figcaption>
      <svg
        ref={svg}
        width={width}
        height={(lanes.length + 1) * ROW}
        role="img"
        aria-label={`LSM of tablet ${id}`}
        className="zoomable"
      >
        <text x={0} y={ROW - 6} className="level-label">
          mem
        </text>
        <rect x={LABEL} y={3} width={width - LABEL} height={ROW - 6} className="memtable" />
        <rect x={LABEL} y={3} width={(width - LABEL) * mem} height={ROW - 6} className="memtable-fill" />
        {lanes.map((l, i) => (
          <g key={`${l.level}-${i}`}>
            {l.first && (
              <text x={0} y={(i + 2) * ROW - 6} className="level-label">
                L{l.level}
              </text>
            )}
            {l.ssts.map((s) => (
              <SstBox key={s.id} s={s} lane={(i + 1) * ROW} focus={focus.has(s.id)} />
            ))}
            {/* On top: outlines only, so the outputs stay readable under them. */}
            {i === ghostLane &&
              ghosts.map((s) => (
                <rect
                  key={`ghost-${s.id}`}
                  x={LABEL + s.x}
                  y={(i + 1) * ROW + 2}
                  width={s.w}
                  height={ROW - 4}
                  className="sst leaving"
                  data-leaving={s.id}
                />
              ))}
          </g>
        ))}
      </svg>
    </figure>
  );
});

/** The block cache of each tablet server: bytes held of its capacity. */
export function BlockCaches({
  caches,
}: {
  caches: ReadonlyMap<number, { capacity: number; used: number }>;
}) {
  if (caches.size === 0) return null;
  return (
    <figure className="view block-caches" data-testid="block-caches">
      <figcaption>Block cache per tablet server (data, index and filter blocks read)</figcaption>
      {[...caches].map(([tserver, c]) => (
        <div key={tserver} className="cache-row">
          <span className="cache-name">tserver-{tserver + 1}</span>
          <progress max={c.capacity || 1} value={c.used} aria-label={`Block cache of tserver-${tserver + 1}`} />
          <span className="cache-figures">
            {kb(c.used)} of {kb(c.capacity)}
          </span>
        </div>
      ))}
    </figure>
  );
}
