// @vitest-environment node
// The chart math on fixed data: which scales, where points land, the table
// twin and its CSV, and the run charts' derived series.
import { describe, expect, it } from 'vitest';
import { layoutChart, minimumOf, numericValues, tableOf, toCsv, valleyOf, wantsLog, type ChartSeries } from './layout';
import { writeAmplification } from './runCharts';
import type { Report } from '../workbench/report';

const margin = { top: 10, right: 10, bottom: 30, left: 50 };

describe('chart layout', () => {
  it('uses a log scale only when every value is positive and they span two decades', () => {
    expect(wantsLog([1, 10, 100])).toBe(true);
    expect(wantsLog([1, 10, 99])).toBe(false);
    expect(wantsLog([0, 10, 1000])).toBe(false);
    expect(wantsLog([5])).toBe(false);
  });

  it('reads axis values as numbers, sizes in bytes, or else an ordinal axis', () => {
    expect(numericValues(['1', '10', '2000'])).toEqual([1, 10, 2000]);
    expect(numericValues(['1MB', '4MB', '1GB'])).toEqual([1 << 20, 4 << 20, 1 << 30]);
    expect(numericValues(['multi-az', 'multi-region'])).toBeNull();
    expect(numericValues(['1MB', '5'])).toBeNull();
  });

  const series: ChartSeries[] = [
    { name: 'multi-az', points: [1, 10, 100, 1000].map((x, i) => ({ x, y: [2000, 200, 50, 100][i] ?? null, key: `a${x}` })) },
    { name: 'multi-region', points: [1, 10, 100, 1000].map((x, i) => ({ x, y: [180000, 19000, 2700, 1200][i] ?? null, key: `b${x}` })) },
  ];

  it('places points on log axes inside the plot, lower values lower', () => {
    const l = layoutChart(series, 600, 300, margin);
    expect(l.xLog).toBe(true);
    expect(l.yLog).toBe(true);
    const az = l.series[0];
    expect(az?.points.map((p) => Math.round(p.cx))).toEqual([50, 230, 410, 590]);
    for (const p of l.series.flatMap((s) => s.points)) {
      expect(p.cy).toBeGreaterThanOrEqual(margin.top - 0.001);
      expect(p.cy).toBeLessThanOrEqual(300 - margin.bottom + 0.001);
    }
    // 50 ms sits below 2000 ms (SVG y grows downwards).
    expect(az?.points[2]?.cy).toBeGreaterThan(az?.points[0]?.cy ?? 0);
    expect(az?.d.startsWith('M50,')).toBe(true);
    // Lines differ in dash as well as color.
    expect(new Set(l.series.map((s) => s.dash)).size).toBe(2);
    expect(new Set(l.series.map((s) => s.color)).size).toBe(2);
  });

  it('leaves gaps for missing values and uses an ordinal axis for names', () => {
    const l = layoutChart([{ name: 's', points: [{ x: 'a', y: 1, key: '1' }, { x: 'b', y: null, key: '2' }, { x: 'c', y: 0, key: '3' }] }], 400, 200, margin);
    expect(l.xLog || l.yLog).toBe(false);
    expect(l.series[0]?.points.map((p) => p.x)).toEqual(['a', 'c']);
  });

  it('finds the minimum, and gives the table twin and its CSV', () => {
    expect(minimumOf(series[0] as ChartSeries)?.x).toBe(100);
    expect(minimumOf(series[1] as ChartSeries)?.x).toBe(1000);
    // Only a valley is labelled: 100 lies below both ends; a falling line's minimum is its end.
    expect(valleyOf(series[0]?.points ?? [])?.x).toBe(100);
    expect(valleyOf(series[1]?.points ?? [])).toBeNull();
    expect(valleyOf([{ y: 10 }, { y: 9.8 }, { y: 10 }])).toBeNull();
    const { xs, rows } = tableOf(series);
    expect(xs).toEqual([1, 10, 100, 1000]);
    expect(rows[2]).toEqual([50, 2700]);
    expect(toCsv('batch size, rows', series)).toBe(
      '"batch size, rows",multi-az,multi-region\n1,2000,180000\n10,200,19000\n100,50,2700\n1000,100,1200\n',
    );
  });
});

describe('run charts', () => {
  it('compute write amplification as bytes written to SSTs per byte flushed, so far', () => {
    const st = (metrics: Record<string, number>) => ({ metrics }) as unknown as Report['statements'][number];
    const report = { statements: [st({}), st({ flush_bytes: 100 }), st({ compaction_write_bytes: 150 }), st({ flush_bytes: 100 })] } as unknown as Report;
    expect(writeAmplification(report).points.map((p) => p.y)).toEqual([null, 1, 2.5, 1.75]);
  });
});
