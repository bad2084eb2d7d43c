// Charts of one run, over its statements: the counters that say how each
// engine spent its work, per statement, and the LSM's shape as the engine
// pictured it. The x axis is "statements run" (statement i's counters sit at
// i, after it ran; a snapshot taken before statement s sits at s). Pure.
import type { Report } from '../workbench/report';
import type { Profile } from '../workbench/report';
import type { TraceData } from '../trace/traceData';
import type { ChartSeries } from './layout';

export interface RunChart {
  id: string;
  title: string;
  yTitle: string;
  series: ChartSeries[];
  caption: string;
}

function perStatement(report: Report, counter: string): ChartSeries {
  return {
    name: counter,
    points: report.statements.map((s, i) => ({ x: i + 1, y: s.metrics[counter] ?? 0, key: String(i) })),
  };
}

/** Bytes written to SSTs (flushes and compactions) per byte flushed, over the statements so far. */
export function writeAmplification(report: Report): ChartSeries {
  let flushed = 0;
  let written = 0;
  return {
    name: 'write amplification so far',
    points: report.statements.map((s, i) => {
      flushed += s.metrics.flush_bytes ?? 0;
      written += (s.metrics.flush_bytes ?? 0) + (s.metrics.compaction_write_bytes ?? 0);
      return { x: i + 1, y: flushed > 0 ? written / flushed : null, key: String(i) };
    }),
  };
}

/** Memtables and each level's bytes, summed over tablets, at every snapshot of the run. */
export function lsmSizes(trace: TraceData): ChartSeries[] {
  const series = new Map<string, ChartSeries>();
  const add = (name: string, x: number, y: number, key: string) => {
    let s = series.get(name);
    if (!s) {
      s = { name, points: [] };
      series.set(name, s);
    }
    const last = s.points[s.points.length - 1];
    // Two snapshots around one statement: keep the later picture.
    if (last && last.x === x) last.y = y;
    else s.points.push({ x, y, key });
  };
  trace.snapshots.forEach((ref, j) => {
    const state = trace.snapshotState(j);
    if (state.profile !== 'yb') return;
    let memtables = 0;
    const levels = new Map<number, number>();
    for (const t of state.tablets) {
      memtables += t.memtable.bytes + t.immutables.reduce((n, m) => n + m.bytes, 0);
      for (const l of t.levels) levels.set(l.level, (levels.get(l.level) ?? 0) + l.bytes);
    }
    add('memtables', ref.statement, memtables, String(j));
    for (const [level, bytes] of [...levels].sort((a, b) => a[0] - b[0])) add(`L${level}`, ref.statement, bytes, String(j));
  });
  return [...series.values()];
}

/** The charts a run of `profile` has: only those with something to show. */
export function runCharts(profile: Profile, report: Report, trace: TraceData | null): RunChart[] {
  const nonzero = (s: ChartSeries[]) => s.some((x) => x.points.some((p) => (p.y ?? 0) > 0));
  const charts: RunChart[] =
    profile === 'pg'
      ? [
          {
            id: 'buffers',
            title: 'Buffer hits and reads per statement',
            yTitle: 'pages',
            series: [perStatement(report, 'shared_hit'), perStatement(report, 'shared_read')],
            caption: 'A hit found the page in the buffer pool; a read had to fetch it from storage.',
          },
          {
            id: 'dirty',
            title: 'Pages dirtied and written per statement',
            yTitle: 'pages',
            series: [perStatement(report, 'shared_dirtied'), perStatement(report, 'shared_written')],
            caption: 'Dirtied: changed in the pool. Written: a dirty page written out to make room, during the statement.',
          },
        ]
      : [
          {
            id: 'requests',
            title: 'Read requests and RPCs per statement',
            yTitle: 'count',
            series: [perStatement(report, 'storage_read_requests'), perStatement(report, 'rpc_count')],
            caption: 'Each RPC crosses the network and pays a round trip; a read request asks one tablet for rows.',
          },
          {
            id: 'flush',
            title: 'Bytes flushed and compacted per statement',
            yTitle: 'bytes',
            series: [perStatement(report, 'flush_bytes'), perStatement(report, 'compaction_write_bytes')],
            caption: 'A flush writes a full memtable as a new SST; a compaction rewrites SSTs into fewer, larger ones.',
          },
          {
            id: 'wamp',
            title: 'Write amplification so far',
            yTitle: 'bytes written per byte flushed (×)',
            series: [writeAmplification(report)],
            caption: 'Every byte reaches storage once by a flush, and again each time a compaction rewrites it.',
          },
        ];
  if (profile === 'yb' && trace) {
    charts.push({
      id: 'sizes',
      title: 'Memtable and level sizes',
      yTitle: 'bytes',
      series: lsmSizes(trace),
      caption: 'At each picture the engine took of itself (the player’s snapshots), summed over tablets.',
    });
  }
  return charts.filter((c) => nonzero(c.series));
}
