// The engine's report as the page reads it (core/src/report_json.rs), and the
// pure helpers the result panels use.

import type { Report, ReportError, StatementReport } from '../engine/schema.gen';
import type { TraceData } from '../trace/traceData';

export type { Report, ReportError, StatementReport };
export type Profile = 'pg' | 'yb';

export interface TracedRun {
  report: Report;
  trace: TraceData | null;
}

/** The counters each profile's panel shows first (the ones the articles discuss). */
export const KEY_METRICS: Record<Profile, string[]> = {
  pg: ['shared_hit', 'shared_read', 'shared_dirtied', 'shared_written', 'heap_fetches', 'wal_bytes'],
  yb: [
    'storage_read_requests',
    'storage_rows_scanned',
    'rocksdb_number_db_seek',
    'rocksdb_number_db_next',
    'rocksdb_insert',
    'rpc_count',
  ],
};

/** The key counters of a statement, in the panel's order (absent ones are 0). */
export function keyMetrics(profile: Profile, metrics: Record<string, number>): [string, number][] {
  return KEY_METRICS[profile].map((name) => [name, metrics[name] ?? 0]);
}

/** The first error of the runs shown (every variant reports the same script error), if any. */
export function firstError(columns: readonly { run?: TracedRun | undefined }[]): ReportError | null {
  for (const c of columns) {
    const e = c.run?.report.error;
    if (e && !inSettings(e)) return e;
  }
  return null;
}

/** Whether the run's settings, not a line of its script, are what is wrong (the engine names no line). */
export function inSettings(e: ReportError): boolean {
  return e.line === 0;
}

/** A statement's first line, for a compact list. */
export function firstLine(sql: string): string {
  const line = sql.split('\n')[0] ?? '';
  return sql.includes('\n') ? `${line} …` : line;
}

/** 1-based line and column → offset in `doc`, clamped into it. */
export function offsetOf(doc: string, line: number, column: number): number {
  const lines = doc.split('\n');
  const l = Math.max(1, Math.min(line, lines.length));
  let offset = 0;
  for (let i = 0; i < l - 1; i++) offset += (lines[i]?.length ?? 0) + 1;
  const width = lines[l - 1]?.length ?? 0;
  return offset + Math.max(0, Math.min(column - 1, width));
}
