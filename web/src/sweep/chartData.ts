// A sweep's results as chart series: one line per variant (and per value of
// the second setting), the chosen measure against the swept value.
import type { ChartSeries } from '../charts/layout';
import { numericValues } from '../charts/layout';
import type { Tick } from '../charts/Chart';
import { measureValue } from './measures';
import type { SweepResult } from './runSweep';
import type { SweepSpec } from './spec';

export interface SweepChart {
  series: ChartSeries[];
  xTicks: Tick[];
  /** The swept value's label for a position on the x axis. */
  formatX: (x: number | string) => string;
}

/** The line a run belongs to: "yb" or "yb, network=multi-az". */
export function seriesName(r: SweepResult, spec: SweepSpec, variants: number): string {
  const by = r.run.by === undefined ? '' : `${spec.by?.settings.join('/') ?? ''}=${r.run.by}`;
  if (variants === 1 && by) return by;
  return by ? `${r.run.variant.name}, ${by}` : r.run.variant.name;
}

export function sweepChart(spec: SweepSpec, results: readonly SweepResult[], measure: string): SweepChart {
  const values = spec.axis.values;
  const nums = numericValues(values);
  const xOf = (v: string): number | string => (nums ? (nums[values.indexOf(v)] ?? v) : v);
  const labelOf = new Map(values.map((v) => [String(xOf(v)), v]));
  const variants = new Set(results.map((r) => r.run.variant.id)).size;
  const series: ChartSeries[] = [];
  for (const r of results) {
    const name = seriesName(r, spec, variants);
    let s = series.find((x) => x.name === name);
    if (!s) {
      s = { name, points: [] };
      series.push(s);
    }
    s.points.push({ x: xOf(r.run.x), y: measureValue(r.report, r.run.variant.profile, measure), key: r.run.key });
  }
  return {
    series,
    xTicks: values.map((v) => ({ value: xOf(v), label: v })),
    formatX: (x) => labelOf.get(String(x)) ?? String(x),
  };
}
