// The difference line of a statement across variants: for the virtual time and
// each counter, every variant's value and, against the first variant (the
// baseline), the difference and the ratio, with the largest cost marked.
// Pure: the table draws it, the tests check it.
import type { Report } from '../workbench/report';
import { KEY_METRICS, type Profile } from '../workbench/report';

export interface Column {
  name: string;
  profile: Profile;
  report: Report;
}

export interface Against {
  delta: number;
  /** value / baseline; null when the baseline is 0. */
  ratio: number | null;
}

export interface DifferenceRow {
  counter: string;
  /** Per column; null when that engine never reports this counter. */
  values: (number | null)[];
  /** Per column, against column 0; null for column 0 and where a value is missing. */
  against: (Against | null)[];
  /** The columns with the largest cost, when the values differ (none when all are equal). */
  largest: number[];
}

/** The counters a run's engine reports anywhere (a yb run has no shared_hit). */
function reported(report: Report): Set<string> {
  const names = new Set(Object.keys(report.totals.metrics));
  for (const s of report.statements) for (const k of Object.keys(s.metrics)) names.add(k);
  return names;
}

/** Virtual time, the key counters of each column's profile, then any other counter that differs. */
function countersOf(columns: readonly Column[], index: number): string[] {
  const names: string[] = ['virtual_ms'];
  const add = (n: string) => {
    if (!names.includes(n)) names.push(n);
  };
  for (const c of columns) for (const n of KEY_METRICS[c.profile]) add(n);
  const rest = new Set<string>();
  for (const c of columns) for (const k of Object.keys(c.report.statements[index]?.metrics ?? {})) rest.add(k);
  for (const n of [...rest].sort()) add(n);
  return names;
}

function valueOf(column: Column, known: Set<string>, index: number, counter: string): number | null {
  const s = column.report.statements[index];
  if (!s) return null;
  if (counter === 'virtual_ms') return s.virtual_ms;
  if (!known.has(counter) && !KEY_METRICS[column.profile].includes(counter)) return null;
  return s.metrics[counter] ?? 0;
}

/** The rows for statement `index` (empty when no column ran it). */
export function differenceRows(columns: readonly Column[], index: number): DifferenceRow[] {
  if (!columns.some((c) => c.report.statements[index])) return [];
  const known = columns.map((c) => reported(c.report));
  return countersOf(columns, index).flatMap((counter) => {
    const values = columns.map((c, i) => valueOf(c, known[i] ?? new Set(), index, counter));
    if (values.every((v) => v === null || v === 0) && counter !== 'virtual_ms') {
      // Zero everywhere: nothing to compare (but the key counters stay, as the panel shows them).
      if (!columns.some((c) => KEY_METRICS[c.profile].includes(counter))) return [];
    }
    const base = values[0] ?? null;
    const against = values.map((v, i) =>
      i === 0 || v === null || base === null ? null : { delta: v - base, ratio: base === 0 ? null : v / base },
    );
    return [{ counter, values, against, largest: largestOf(values) }];
  });
}

/** The indexes of the largest value, or none when fewer than two values differ. */
export function largestOf(values: readonly (number | null)[]): number[] {
  const present = values.flatMap((v, i) => (v === null ? [] : [[v, i] as const]));
  const max = Math.max(...present.map(([v]) => v));
  const at = present.filter(([v]) => v === max);
  return present.length < 2 || at.length === present.length ? [] : at.map(([, i]) => i);
}

/** "+1.2 ms (3.4×)" / "−20 (0.5×)" / "same". */
export function againstText(a: Against, format: (n: number) => string): string {
  if (a.delta === 0) return 'same';
  const sign = a.delta > 0 ? '+' : '−';
  const ratio = a.ratio === null ? '' : ` (${a.ratio >= 10 ? a.ratio.toFixed(0) : a.ratio.toFixed(2)}×)`;
  return `${sign}${format(Math.abs(a.delta))}${ratio}`;
}
