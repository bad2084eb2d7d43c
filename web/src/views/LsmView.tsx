// One tablet's LSM: the memtable filling toward its budget, sealed memtables,
// then each level's SSTs as rectangles sized by bytes; SSTs the current event
// made or merged are highlighted.
import type { TabletState } from '../player/lsmState';
import { lsmRows } from './layout';

const ROW = 22;

function kb(bytes: number): string {
  return bytes >= 1 << 20 ? `${(bytes / (1 << 20)).toFixed(1)} MB` : `${Math.ceil(bytes / 1024)} kB`;
}

export function LsmView({
  id,
  tablet,
  width,
  focus,
}: {
  id: number;
  tablet: TabletState;
  width: number;
  focus: ReadonlySet<number>;
}) {
  const rows = lsmRows(tablet, width - 40);
  const mem = tablet.writeBufferSize
    ? Math.min(1, tablet.memtable.bytes / tablet.writeBufferSize)
    : 0;
  return (
    <figure className="view lsm-view" data-testid={`lsm-${id}`}>
      <figcaption>
        {tablet.relation}, tablet {id}
        {tablet.tserver >= 0 ? ` on tserver-${tablet.tserver + 1}` : ''}: memtable{' '}
        {tablet.memtable.entries.toLocaleString('en-US')} entries ({kb(tablet.memtable.bytes)} of{' '}
        {kb(tablet.writeBufferSize)}), {tablet.immutables} sealed
      </figcaption>
      <svg width={width} height={(rows.length + 1) * ROW} role="img" aria-label="LSM levels">
        <text x={0} y={ROW - 8} className="level-label">
          mem
        </text>
        <rect x={40} y={4} width={width - 40} height={ROW - 8} className="memtable" />
        <rect x={40} y={4} width={(width - 40) * mem} height={ROW - 8} className="memtable-fill" />
        {rows.map((r, i) => (
          <g key={r.level} transform={`translate(0, ${(i + 1) * ROW})`}>
            <text x={0} y={ROW - 8} className="level-label">
              L{r.level}
            </text>
            {r.ssts.map((s) => (
              <rect
                key={s.id}
                x={40 + s.x}
                y={4}
                width={s.w}
                height={ROW - 8}
                className={focus.has(s.id) ? 'sst focus' : 'sst'}
                data-sst={s.id}
              >
                <title>
                  SST {s.id}: {kb(s.bytes)}
                </title>
              </rect>
            ))}
          </g>
        ))}
      </svg>
    </figure>
  );
}
