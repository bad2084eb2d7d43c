// A labelled line chart: a figure named "Chart: …", axes with titles and units
// (d3-axis), one line per series in the views' color-blind-safe palette, each
// with its own dash too, a legend, a data-table twin, and PNG/SVG/CSV export.
// Points can be clicked (or focused and Enter) to open what they stand for;
// the cursor line follows the player.
import { useId, useLayoutEffect, useMemo, useRef, type KeyboardEvent } from 'react';
import { select } from 'd3-selection';
import { axisBottom, axisLeft, type AxisDomain, type AxisScale } from 'd3-axis';
import type { ScaleLogarithmic } from 'd3-scale';
import { count } from '../format/numbers';
import { layoutChart, tableOf, toCsv, valleyOf, xAt, type ChartPoint, type ChartSeries, type Margin, type XScale } from './layout';
import { download, fileName, pngOf, standaloneSvg } from './exporting';
import { useWidth } from './useWidth';

export interface Tick {
  value: number | string;
  label: string;
}

export interface ChartProps {
  title: string;
  /** Axis titles, with their units: "batch size (rows)". */
  xTitle: string;
  yTitle: string;
  series: readonly ChartSeries[];
  /** The x ticks to show (default: the scale's own). */
  xTicks?: readonly Tick[] | undefined;
  formatX?: ((x: number | string) => string) | undefined;
  formatY?: ((y: number) => string) | undefined;
  /** What a click on a point does, and its verb for screen readers ("open this run"). */
  onPoint?: ((p: ChartPoint, series: string) => void) | undefined;
  pointAction?: string | undefined;
  /** Where the player is, as an x value: a vertical line. */
  cursorX?: number | string | undefined;
  /** Labels a line's lowest point when it lies inside, below both ends (the best batch size). */
  markMinimum?: boolean | undefined;
  /** One line under the chart: what to read in it. */
  caption?: string | undefined;
  width?: number;
  height?: number;
  testId?: string | undefined;
}

const MARGIN: Margin = { top: 12, right: 32, bottom: 46, left: 72 };

const SI = formatPrefix();

function formatPrefix(): (n: number) => string {
  const units: [number, string][] = [
    [1e9, 'G'],
    [1e6, 'M'],
    [1e3, 'k'],
  ];
  return (n) => {
    for (const [f, u] of units) if (Math.abs(n) >= f) return `${count(Math.round((n / f) * 10) / 10)}${u}`;
    return count(Math.round(n * 1000) / 1000);
  };
}

/** The data table's numbers: every digit (to a thousandth). */
function exact(n: number): string {
  return count(Math.round(n * 1000) / 1000);
}

/** Axis labels: short (12k, 1.2M); the data table gives every digit. */
function yFormat(n: number): string {
  if (n !== 0 && Math.abs(n) < 0.01) return n.toExponential(1);
  return SI(n);
}

function Axes({ x, y, height, width, xTicks, formatY }: { x: XScale; y: AxisScale<number>; height: number; width: number; xTicks?: readonly Tick[] | undefined; formatY: (n: number) => string }) {
  const bottom = useRef<SVGGElement>(null);
  const left = useRef<SVGGElement>(null);
  useLayoutEffect(() => {
    if (!bottom.current || !left.current) return;
    const xAxis = axisBottom(x as AxisScale<AxisDomain>);
    if (xTicks) {
      // Too many to read side by side: label every other (or third…) tick.
      const room = (width - MARGIN.left - MARGIN.right) / Math.max(1, xTicks.length);
      const step = Math.max(1, Math.ceil(44 / room));
      const labels = new Map(xTicks.map((t, i) => [String(t.value), i % step === 0 ? t.label : '']));
      xAxis.tickValues(xTicks.map((t) => t.value)).tickFormat((v) => labels.get(String(v)) ?? String(v));
    } else if ('ticks' in x) {
      xAxis.ticks(Math.max(2, Math.floor(width / 90)), '~s');
    }
    select(bottom.current).call(xAxis);
    const n = Math.max(2, Math.floor(height / 50));
    // A log scale's own tickFormat leaves the minor ticks unlabelled.
    const format = (v: AxisDomain) => formatY(Number(v));
    const yAxis = axisLeft(y).ticks(n);
    if ('base' in y) {
      // A log scale's own format labels 1, 2 and 5 of each decade, not the minor ticks.
      const log = y as ScaleLogarithmic<number, number>;
      yAxis.tickFormat(log.tickFormat(n, (log.domain()[0] ?? 0) >= 1 ? '~s' : '~g'));
    } else yAxis.tickFormat(format);
    select(left.current).call(yAxis);
  }, [x, y, height, width, xTicks, formatY]);
  return (
    <>
      <g ref={bottom} className="axis axis-x" transform={`translate(0,${height - MARGIN.bottom})`} />
      <g ref={left} className="axis axis-y" transform={`translate(${MARGIN.left},0)`} />
    </>
  );
}

export function Chart({
  title,
  xTitle,
  yTitle,
  series,
  xTicks,
  formatX = String,
  formatY = yFormat,
  onPoint,
  pointAction = 'open it',
  cursorX,
  caption,
  markMinimum = false,
  width: widest = 720,
  height: tallest = 300,
  testId,
}: ChartProps) {
  const svg = useRef<SVGSVGElement>(null);
  const box = useRef<HTMLElement>(null);
  // Laid out at the width it has (up to `widest`), a little shorter when narrow.
  const width = Math.max(260, Math.min(widest, useWidth(box, widest)));
  const height = Math.round(Math.min(tallest, Math.max(200, width * 0.5)));
  const titleId = useId();
  const layout = useMemo(() => layoutChart(series, width, height, MARGIN), [series, width, height]);
  const { xs, rows } = useMemo(() => tableOf(series), [series]);
  const name = `Chart: ${title}`;
  const act = (p: ChartPoint, s: string) => onPoint?.(p, s);
  const onKey = (e: KeyboardEvent, p: ChartPoint, s: string) => {
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      act(p, s);
    }
  };
  const cursor = cursorX === undefined ? null : xAt(layout.x, cursorX);
  const empty = layout.series.every((s) => s.points.length === 0);
  const frame = { title, legend: layout.series };
  return (
    <figure className="chart" aria-label={name} data-testid={testId} ref={box}>
      <figcaption id={titleId} className="chart-title">
        {title}
        {layout.yLog || layout.xLog ? (
          <span className="chart-scale"> ({[layout.xLog && 'x', layout.yLog && 'y'].filter(Boolean).join(' and ')} on a log scale)</span>
        ) : null}
      </figcaption>
      <svg ref={svg} width={width} height={height} viewBox={`0 0 ${width} ${height}`} className="chart-svg" role="group" aria-labelledby={titleId}>
        <Axes x={layout.x} y={layout.y} height={height} width={width} xTicks={xTicks} formatY={formatY} />
        <text className="axis-title" x={(MARGIN.left + width - MARGIN.right) / 2} y={height - 8} textAnchor="middle" fill="currentColor">
          {xTitle}
        </text>
        <text
          className="axis-title"
          transform={`translate(14,${(MARGIN.top + height - MARGIN.bottom) / 2}) rotate(-90)`}
          textAnchor="middle"
          fill="currentColor"
        >
          {yTitle}
        </text>
        {cursor !== null && Number.isFinite(cursor) && (
          <line className="chart-cursor" x1={cursor} x2={cursor} y1={MARGIN.top} y2={height - MARGIN.bottom} stroke="currentColor" />
        )}
        {layout.series.map((s) => (
          <g key={s.name}>
            <path d={s.d} fill="none" stroke={s.color} strokeWidth={2.5} strokeDasharray={s.dash || undefined} />
            {s.points.map((p) => (
              <circle
                key={p.key}
                cx={p.cx}
                cy={p.cy}
                r={onPoint ? 6 : 3.5}
                fill={s.color}
                stroke="var(--bg, #fff)"
                strokeWidth={1.5}
                className={onPoint ? 'chart-point' : undefined}
                data-series={s.name}
                data-x={String(p.x)}
                {...(onPoint
                  ? {
                      role: 'button',
                      tabIndex: 0,
                      'aria-label': `${s.name}, ${formatX(p.x)}: ${formatY(p.y)}; ${pointAction}`,
                      onClick: () => act(p, s.name),
                      onKeyDown: (e: KeyboardEvent) => onKey(e, p, s.name),
                    }
                  : { 'aria-hidden': true })}
              >
                <title>{`${s.name}, ${formatX(p.x)}: ${formatY(p.y)}`}</title>
              </circle>
            ))}
          </g>
        ))}
        {markMinimum &&
          layout.series.map((s) => {
            const low = valleyOf(s.points);
            return (
              low && (
                <text key={`min-${s.name}`} className="chart-min" x={low.cx} y={low.cy + 20} textAnchor="middle" fill={s.color}>
                  lowest: {formatX(low.x)}
                </text>
              )
            );
          })}
        {empty && (
          <text x={width / 2} y={height / 2} textAnchor="middle" fill="currentColor">
            nothing to plot: every run failed or had nothing to measure
          </text>
        )}
      </svg>
      <ul className="chart-legend" aria-label={`Legend of ${title}`}>
        {layout.series.map((s) => (
          <li key={s.name}>
            <svg width="28" height="10" aria-hidden="true">
              <line x1="0" x2="28" y1="5" y2="5" stroke={s.color} strokeWidth={3} strokeDasharray={s.dash || undefined} />
            </svg>{' '}
            {s.name}
          </li>
        ))}
      </ul>
      {caption && <p className="chart-caption">{caption}</p>}
      <div className="chart-actions">
        <details className="chart-table">
          <summary>Data table</summary>
          <table>
            <caption className="sr-only">{title}, as a table</caption>
            <thead>
              <tr>
                <th scope="col">{xTitle}</th>
                {series.map((s) => (
                  <th scope="col" key={s.name}>
                    {s.name} ({yTitle})
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {xs.map((x, i) => (
                <tr key={String(x)}>
                  <th scope="row">{formatX(x)}</th>
                  {(rows[i] ?? []).map((v, j) => (
                    <td key={j}>{v === null ? '—' : exact(v)}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </details>
        <button type="button" aria-label={`Download ${title} as PNG`} onClick={() => svg.current && void pngOf(svg.current, frame).then((b) => download(fileName(title, 'png'), b))}>
          PNG
        </button>
        <button
          type="button"
          aria-label={`Download ${title} as SVG`}
          onClick={() => svg.current && download(fileName(title, 'svg'), new Blob([standaloneSvg(svg.current, frame)], { type: 'image/svg+xml' }))}
        >
          SVG
        </button>
        <button
          type="button"
          aria-label={`Download ${title} as CSV`}
          onClick={() => download(fileName(title, 'csv'), new Blob([toCsv(xTitle, series, formatX)], { type: 'text/csv' }))}
        >
          CSV
        </button>
      </div>
    </figure>
  );
}
