// The math of a line chart, pure (d3-scale and d3-shape do it; React draws):
// which scales, where each point and line goes. Tested on fixed data.
import { scaleLinear, scaleLog, scalePoint, type ScaleLinear, type ScaleLogarithmic, type ScalePoint } from 'd3-scale';
import { line } from 'd3-shape';
import { PALETTE } from '../views/shared/palette';

export interface ChartPoint {
  /** Where on the x axis: a number, or a category (its label) on an ordinal axis. */
  x: number | string;
  /** The value; null is a gap (a run that failed, or has nothing to measure). */
  y: number | null;
  /** What a click on it opens (a sweep run's key, a statement's index). */
  key: string;
}

export interface ChartSeries {
  name: string;
  points: ChartPoint[];
}

export type NumericScale = ScaleLinear<number, number> | ScaleLogarithmic<number, number>;
export type XScale = NumericScale | ScalePoint<string>;

export interface Margin {
  top: number;
  right: number;
  bottom: number;
  left: number;
}

export interface PlacedPoint extends ChartPoint {
  cx: number;
  cy: number;
  y: number;
}

export interface PlacedSeries {
  name: string;
  color: string;
  /** A dash pattern per series: lines differ in more than color. */
  dash: string;
  d: string;
  points: PlacedPoint[];
}

export interface ChartLayout {
  width: number;
  height: number;
  margin: Margin;
  x: XScale;
  y: NumericScale;
  xLog: boolean;
  yLog: boolean;
  series: PlacedSeries[];
}

/** Dashes per series, in palette order. */
export const DASHES = ['', '6 3', '2 3', '8 3 2 3', '1 2', '10 4'] as const;

/** A log scale when every value is positive and they span two decades or more. */
export function wantsLog(values: readonly number[]): boolean {
  if (values.length < 2 || values.some((v) => !(v > 0))) return false;
  return Math.max(...values) / Math.min(...values) >= 100;
}

const SIZE = /^(\d+(?:\.\d+)?)\s*(B|kB|MB|GB|TB)$/i;
const FACTOR: Record<string, number> = { b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3, tb: 1024 ** 4 };

/**
 * Axis values as numbers: all plain numbers, or all sizes with a unit
 * ("4MB", counted in bytes); otherwise null and the axis is ordinal, in the
 * order given.
 */
export function numericValues(values: readonly string[]): number[] | null {
  if (values.length === 0) return null;
  if (values.every((v) => v.trim() !== '' && Number.isFinite(Number(v)))) return values.map(Number);
  const sizes = values.map((v) => SIZE.exec(v.trim()));
  if (sizes.every((m) => m !== null)) {
    return sizes.map((m) => Number(m?.[1]) * (FACTOR[(m?.[2] ?? 'b').toLowerCase()] ?? 1));
  }
  return null;
}

function xScaleOf(series: readonly ChartSeries[], left: number, right: number): { x: XScale; log: boolean } {
  const xs = series.flatMap((s) => s.points.map((p) => p.x));
  if (xs.every((v) => typeof v === 'number')) {
    const nums = xs as number[];
    const log = wantsLog(nums);
    const lo = Math.min(...nums);
    const hi = Math.max(...nums);
    const domain: [number, number] = lo === hi ? [lo - 1 || 0, hi + 1] : [lo, hi];
    return { x: (log ? scaleLog() : scaleLinear()).domain(domain).range([left, right]), log };
  }
  const labels = [...new Set(xs.map(String))];
  return { x: scalePoint<string>().domain(labels).range([left, right]).padding(0.3), log: false };
}

function yScaleOf(series: readonly ChartSeries[], bottom: number, top: number): { y: NumericScale; log: boolean } {
  const ys = series.flatMap((s) => s.points.flatMap((p) => (p.y === null ? [] : [p.y])));
  const log = wantsLog(ys);
  if (log) {
    return { y: scaleLog().domain([Math.min(...ys), Math.max(...ys)]).range([bottom, top]).nice(), log };
  }
  const hi = Math.max(0, ...ys);
  const lo = Math.min(0, ...ys);
  return { y: scaleLinear().domain([lo, hi === lo ? lo + 1 : hi]).range([bottom, top]).nice(), log };
}

/** Where an x value sits. */
export function xAt(x: XScale, v: number | string): number {
  return typeof v === 'number' && 'ticks' in x ? (x as NumericScale)(v) : ((x as ScalePoint<string>)(String(v)) ?? 0);
}

export function layoutChart(series: readonly ChartSeries[], width: number, height: number, margin: Margin): ChartLayout {
  const { x, log: xLog } = xScaleOf(series, margin.left, width - margin.right);
  const { y, log: yLog } = yScaleOf(series, height - margin.bottom, margin.top);
  const path = line<PlacedPoint>()
    .defined((p) => Number.isFinite(p.cy))
    .x((p) => p.cx)
    .y((p) => p.cy);
  const placed = series.map((s, i) => {
    const points = s.points.flatMap((p) => (p.y === null ? [] : [{ ...p, y: p.y, cx: xAt(x, p.x), cy: y(p.y) }]));
    return {
      name: s.name,
      color: PALETTE[i % PALETTE.length] ?? '#7F7F7F',
      dash: DASHES[i % DASHES.length] ?? '',
      d: path(points) ?? '',
      points,
    };
  });
  return { width, height, margin, x, y, xLog, yLog, series: placed };
}

/** The lowest point of a series (the best batch size, the cheapest cache). */
export function minimumOf(s: ChartSeries): ChartPoint | null {
  let best: ChartPoint | null = null;
  for (const p of s.points) if (p.y !== null && (best === null || p.y < (best.y as number))) best = p;
  return best;
}

/**
 * The lowest point of a line when it is a valley: inside the line and at
 * least 5% below both ends (the best batch size between two costs). A line
 * that falls or rises all the way has its minimum at an end, plain to see.
 */
export function valleyOf<P extends { y: number | null }>(points: readonly P[]): P | null {
  const present = points.filter((p) => p.y !== null);
  if (present.length < 3) return null;
  const low = present.reduce((a, p) => ((p.y as number) < (a.y as number) ? p : a));
  const first = present[0]?.y as number;
  const last = present[present.length - 1]?.y as number;
  const y = low.y as number;
  return y < 0.95 * first && y < 0.95 * last ? low : null;
}

/** Rows for the data-table twin and the CSV: one per x, one column per series. */
export function tableOf(series: readonly ChartSeries[]): { xs: (number | string)[]; rows: (number | null)[][] } {
  const xs: (number | string)[] = [];
  for (const s of series) for (const p of s.points) if (!xs.includes(p.x)) xs.push(p.x);
  const rows = xs.map((x) => series.map((s) => s.points.find((p) => p.x === x)?.y ?? null));
  return { xs, rows };
}

/** The table as CSV (RFC 4180 quoting). */
export function toCsv(xTitle: string, series: readonly ChartSeries[], xLabel: (x: number | string) => string = String): string {
  const quote = (s: string) => (/[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);
  const { xs, rows } = tableOf(series);
  const head = [xTitle, ...series.map((s) => s.name)].map(quote).join(',');
  const body = xs.map((x, i) => [quote(xLabel(x)), ...(rows[i] ?? []).map((v) => (v === null ? '' : String(v)))].join(','));
  return [head, ...body].join('\n') + '\n';
}
