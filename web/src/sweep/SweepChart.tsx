// One chart of a sweep: a measure of every kept run against the swept value,
// with the control that picks the measure (the runs are not redone).
import { useMemo } from 'react';
import { Chart } from '../charts/Chart';
import type { SettingRow } from '../workbench/settings';
import { sweepChart } from './chartData';
import { measureOf, type Measure } from './measures';
import type { SweepResult } from './runSweep';
import type { SweepSpec } from './spec';

export function SweepChart({
  spec,
  results,
  measure: id,
  measures,
  rows,
  label,
  onMeasure,
  onRemove,
  onOpen,
  testId,
}: {
  spec: SweepSpec;
  results: readonly SweepResult[];
  measure: string;
  measures: readonly Measure[];
  rows: readonly SettingRow[];
  /** The measure control's name ("Measure", "Measure of chart 2"). */
  label: string;
  onMeasure(id: string): void;
  onRemove?: (() => void) | undefined;
  onOpen(result: SweepResult): void;
  testId?: string | undefined;
}) {
  const chart = useMemo(() => sweepChart(spec, results, id), [spec, results, id]);
  const measure = measureOf(id);
  const xName = spec.axis.settings.join(' / ');
  // Values with their own unit (4MB) say it; bare numbers take the setting's.
  const bare = spec.axis.values.every((v) => Number.isFinite(Number(v)));
  const xUnit = bare ? (rows.find((r) => r.name === spec.axis.settings[0])?.unit ?? '') : '';
  return (
    <div className="sweep-chart">
      <label className="sweep-measure">
        {label}{' '}
        <select value={id} onChange={(e) => onMeasure(e.target.value)}>
          {measures.map((m) => (
            <option key={m.id} value={m.id}>
              {m.label}
            </option>
          ))}
        </select>
        {onRemove && (
          <button type="button" onClick={onRemove}>
            Remove this chart
          </button>
        )}
      </label>
      <Chart
        testId={testId}
        title={`${measure.label} against ${xName}`}
        xTitle={`${xName}${xUnit ? ` (${xUnit})` : ''}`}
        yTitle={`${measure.short}${measure.unit ? ` (${measure.unit})` : ''}`}
        series={chart.series}
        xTicks={chart.xTicks}
        formatX={chart.formatX}
        onPoint={(p) => {
          const r = results.find((x) => x.run.key === p.key);
          if (r) onOpen(r);
        }}
        pointAction="open this run in the player"
        markMinimum
        width={960}
        caption={`${measure.plain}. Click a point to open that run in the player.`}
      />
    </div>
  );
}
