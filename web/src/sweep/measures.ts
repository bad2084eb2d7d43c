// What a sweep's chart plots for each run: one number out of the run's report.
// Two kinds, both read from the engine's counters, never typed in:
//  - a statement's counter or virtual time, on the *measured* statement: the
//    last EXPLAIN (the query under study, after the statements that load its
//    data), or the last statement when there is none (as the CLI's --sweep);
//  - bytes per row written, over the last quarter of the writing statements
//    (the steady state of a load, once the indexes outgrow a small cache).
import type { Report } from '../workbench/report';
import type { Profile } from '../workbench/report';
import { GLOSSARY } from '../glossary/glossary';
import { measuredStatement } from './measured';

export { measuredIndex, measuredStatement } from './measured';

export interface Measure {
  id: string;
  /** As the chart's title says it. */
  label: string;
  /** As the y axis says it (short: the title has the rest). */
  short: string;
  unit: string;
  /** One line in plain words. */
  plain: string;
}

/** Counters a run's reads from storage are made of, per engine. */
const STORAGE_READ: Record<Profile, string[]> = {
  pg: ['io_read_bytes'],
  // Compaction reads its input SSTs from the device, past the block cache.
  yb: ['io_read_bytes', 'compaction_read_bytes'],
};

export const PER_ROW_MEASURES: readonly Measure[] = [
  {
    id: 'read_bytes_per_row',
    label: 'bytes read from storage per row written',
    short: 'read per row written',
    unit: 'bytes/row',
    plain: 'Device reads (cache misses; for the LSM, compaction reads too) per row inserted, updated or deleted, in the steady state (last quarter of the writes)',
  },
  {
    id: 'write_bytes_per_row',
    label: 'bytes written to storage per row written',
    short: 'written per row written',
    unit: 'bytes/row',
    plain: 'Device writes (dirty pages; for the LSM, flushes and compactions) per row written, in the steady state',
  },
];

/** The measure of a counter (or virtual time) on the measured statement. */
export function statementMeasure(counter: string): Measure {
  const term = GLOSSARY[counter];
  return {
    id: counter,
    label: counter === 'virtual_ms' ? 'virtual time of the measured statement' : `${counter} of the measured statement`,
    short: counter === 'virtual_ms' ? 'virtual time' : counter,
    unit: term?.unit ?? '',
    plain: term?.plain ?? counter,
  };
}

export function measureOf(id: string): Measure {
  return PER_ROW_MEASURES.find((m) => m.id === id) ?? statementMeasure(id);
}

const WRITES = /^(INSERT|UPDATE|DELETE|MERGE)\b/;

/** Bytes of `counters` per row written over the last quarter of the writing statements. */
function perRowWritten(report: Report, counters: readonly string[]): number | null {
  const writes = report.statements.filter((s) => WRITES.test(s.tag) && s.row_count > 0);
  if (writes.length === 0) return null;
  const tail = writes.slice(Math.floor((writes.length * 3) / 4));
  const rows = tail.reduce((n, s) => n + s.row_count, 0);
  const bytes = tail.reduce((n, s) => n + counters.reduce((b, c) => b + (s.metrics[c] ?? 0), 0), 0);
  return bytes / rows;
}

/** The measure's value for a run, or null when the run has nothing to measure (or failed). */
export function measureValue(report: Report, profile: Profile, id: string): number | null {
  if (report.error) return null;
  if (id === 'read_bytes_per_row') return perRowWritten(report, STORAGE_READ[profile]);
  if (id === 'write_bytes_per_row') return perRowWritten(report, ['io_write_bytes']);
  const s = measuredStatement(report);
  if (!s) return null;
  return id === 'virtual_ms' ? s.virtual_ms : (s.metrics[id] ?? 0);
}

/** Every measure a set of reports can give: per-row ones, virtual time, and each counter seen. */
export function measuresFor(reports: readonly Report[]): Measure[] {
  const counters = new Set<string>();
  for (const r of reports) {
    const s = measuredStatement(r);
    for (const k of Object.keys(s?.metrics ?? {})) counters.add(k);
  }
  return [statementMeasure('virtual_ms'), ...PER_ROW_MEASURES, ...[...counters].sort().map(statementMeasure)];
}
