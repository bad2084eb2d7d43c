// The Sweep control: a setting (or two, as a grid) over values, for every
// variant. Problems are reported before anything runs; the runs go to the
// workers with a progress bar and Cancel; the chart plots any measure of the
// kept results, and a click on a point opens that run in the player.
import { useCallback, useEffect, useMemo, useState } from 'react';
import type { SettingRow } from '../workbench/settings';
import type { Report } from '../workbench/report';
import type { Variant } from '../variants/variant';
import { SweepChart } from './SweepChart';
import { measuresFor } from './measures';
import { planSweep, splitList, sweepProblems, type SweepRun, type SweepSpec } from './spec';
import { refusedValues, runSweep, type RunReport, type SweepResult } from './runSweep';
import type { SweepPreset } from './presets';
import { listProblems } from '../variants/problems';

export interface SweepEngine {
  run: RunReport;
  lanes: number;
  scriptSets(script: string, name: string): Promise<boolean>;
  cancel(): void;
}

interface Form {
  settings: string;
  values: string;
  bySettings: string;
  byValues: string;
}

type Status =
  | { kind: 'idle' }
  | { kind: 'checking' }
  | { kind: 'running'; done: number; total: number; since: number }
  | { kind: 'problems'; messages: string[] }
  | { kind: 'failed'; message: string };

function specOf(f: Form): SweepSpec {
  const by = splitList(f.bySettings);
  return {
    axis: { settings: splitList(f.settings), values: splitList(f.values) },
    by: by.length > 0 || f.byValues.trim() ? { settings: by, values: splitList(f.byValues) } : undefined,
  };
}

function formOf(spec: SweepSpec): Form {
  return {
    settings: spec.axis.settings.join(', '),
    values: spec.axis.values.join(', '),
    bySettings: spec.by?.settings.join(', ') ?? '',
    byValues: spec.by?.values.join(', ') ?? '',
  };
}

export interface Kept {
  spec: SweepSpec;
  results: SweepResult[];
  /** The script and page settings the runs used: a point re-opens exactly its run. */
  script: string;
  page: Readonly<Record<string, string>>;
  /** One chart per measure. */
  measures: string[];
}

/** A point of a sweep, with what it takes to run it again. */
export interface OpenPoint {
  run: SweepRun;
  report: Report;
  script: string;
  page: Readonly<Record<string, string>>;
}

export function SweepPanel({
  engine,
  script,
  variants,
  page,
  rows,
  presets,
  onVariants,
  onOpen,
}: {
  engine: SweepEngine;
  script: () => string;
  variants: readonly Variant[];
  page: Readonly<Record<string, string>>;
  rows: readonly SettingRow[];
  presets: readonly SweepPreset[];
  onVariants(v: Variant[]): void;
  /** Opens one run of the sweep in the player: its script, page settings and report. */
  onOpen(point: OpenPoint): void;
}) {
  const [form, setForm] = useState<Form>({ settings: '', values: '', bySettings: '', byValues: '' });
  const [status, setStatus] = useState<Status>({ kind: 'idle' });
  const [kept, setKept] = useState<Kept | null>(null);
  const [now, setNow] = useState(0);
  // What to look for in a preset's chart.
  const [read, setRead] = useState<string | null>(null);

  const start = useCallback(async (spec: SweepSpec, vs: readonly Variant[], measures?: string[]) => {
    setStatus({ kind: 'checking' });
    const text = script();
    const names = [...spec.axis.settings, ...(spec.by?.settings ?? [])];
    const pinned = new Set<string>();
    try {
      for (const n of names) if (await engine.scriptSets(text, n)) pinned.add(n);
      const problems = [...listProblems(rows, vs), ...sweepProblems(spec, vs, rows, (n) => pinned.has(n))];
      const runs = problems.length === 0 ? planSweep(spec, vs, page, rows) : [];
      if (problems.length === 0) problems.push(...(await refusedValues(runs, engine.run)));
      if (problems.length > 0) {
        setStatus({ kind: 'problems', messages: problems });
        return;
      }
      const since = Date.now();
      setStatus({ kind: 'running', done: 0, total: runs.length, since });
      const results = await runSweep(text, runs, engine.run, engine.lanes, (_, done, total) =>
        setStatus({ kind: 'running', done, total, since }),
      );
      setKept((k) => ({ spec, results, script: text, page, measures: measures ?? k?.measures ?? ['virtual_ms'] }));
      setStatus({ kind: 'idle' });
    } catch (err) {
      setStatus({ kind: 'failed', message: err instanceof Error ? err.message : String(err) });
    }
  }, [engine, page, rows, script]);

  useEffect(() => {
    if (status.kind !== 'running') return;
    const t = setInterval(() => setNow(Date.now()), 200);
    return () => clearInterval(t);
  }, [status.kind]);

  const busy = status.kind === 'running' || status.kind === 'checking';
  const measures = useMemo(() => measuresFor(kept?.results.map((r) => r.report) ?? []), [kept]);
  const setMeasure = (i: number, id: string | null) =>
    setKept((k) =>
      k && {
        ...k,
        measures: id === null ? k.measures.filter((_, j) => j !== i) : k.measures.map((m, j) => (j === i ? id : m)),
      },
    );
  const failed = kept?.results.filter((r) => r.report.error) ?? [];

  return (
    <section className="sweep" aria-labelledby="sweep-title" data-testid="sweep">
      <h2 id="sweep-title">Sweep a setting</h2>
      {presets.length > 0 && (
        <p className="sweep-presets">
          {presets.map((p) => (
            <button
              type="button"
              key={p.label}
              disabled={busy}
              onClick={() => {
                setForm(formOf(p.spec));
                onVariants(p.variants);
                setRead(p.read);
                void start(p.spec, p.variants, p.measures);
              }}
            >
              Chart: {p.label}
            </button>
          ))}
        </p>
      )}
      <form
        className="sweep-form"
        onSubmit={(e) => {
          e.preventDefault();
          setRead(null);
          void start(specOf(form), variants);
        }}
      >
        <label>
          Setting{' '}
          <input
            list="sweep-settings"
            value={form.settings}
            placeholder="yb_bnl_batch_size"
            onChange={(e) => setForm({ ...form, settings: e.target.value })}
            aria-describedby="sweep-settings-help"
          />
        </label>
        <label>
          Values{' '}
          <input value={form.values} placeholder="1, 10, 100, 1000" onChange={(e) => setForm({ ...form, values: e.target.value })} />
        </label>
        <label>
          Second setting (optional){' '}
          <input list="sweep-settings" value={form.bySettings} placeholder="network" onChange={(e) => setForm({ ...form, bySettings: e.target.value })} />
        </label>
        <label>
          Second values{' '}
          <input value={form.byValues} placeholder="multi-az, multi-region" onChange={(e) => setForm({ ...form, byValues: e.target.value })} />
        </label>
        <datalist id="sweep-settings">
          {rows.map((r) => (
            <option key={r.name} value={r.name} />
          ))}
        </datalist>
        <button type="submit" disabled={busy}>
          Sweep
        </button>
        <p id="sweep-settings-help" className="hint">
          Each value runs the script once per variant. Name one setting per engine, separated by commas, to sweep both
          engines' caches at once (shared_buffers, block_cache_size).
        </p>
      </form>
      {status.kind === 'checking' && <p role="status">Checking the sweep…</p>}
      {status.kind === 'running' && (
        <p className="running" role="status" data-testid="sweep-running">
          <progress aria-label="Sweep progress" max={status.total} value={status.done} /> {status.done} of {status.total} runs,{' '}
          {Math.max(0, (now - status.since) / 1000).toFixed(1)} s{' '}
          <button type="button" onClick={() => engine.cancel()}>
            Cancel
          </button>
        </p>
      )}
      {status.kind === 'problems' && (
        <div className="run-error" role="alert" data-testid="sweep-problems">
          <p>Nothing ran:</p>
          <ul>
            {status.messages.map((m) => (
              <li key={m}>{m}</li>
            ))}
          </ul>
        </div>
      )}
      {status.kind === 'failed' && (
        <p className="run-error" role="alert">
          {status.message}
        </p>
      )}
      {kept && (
        <>
          {kept.measures.map((m, i) => (
            <SweepChart
              key={i}
              testId={i === 0 ? 'sweep-chart' : `sweep-chart-${i + 1}`}
              spec={kept.spec}
              results={kept.results}
              measure={m}
              measures={measures}
              rows={rows}
              label={i === 0 ? 'Measure' : `Measure of chart ${i + 1}`}
              onMeasure={(id) => setMeasure(i, id)}
              onRemove={i === 0 ? undefined : () => setMeasure(i, null)}
              onOpen={(r) => onOpen({ run: r.run, report: r.report, script: kept.script, page: kept.page })}
            />
          ))}
          <button type="button" onClick={() => setKept((k) => k && { ...k, measures: [...k.measures, 'virtual_ms'] })}>
            Add a chart of the same runs
          </button>
          {read && <p className="chart-read">{read}</p>}
          {failed.length > 0 && (
            <p className="run-error" role="alert">
              {failed.length} run(s) failed, left out of the chart: {failed[0]?.run.variant.name} at {failed[0]?.run.x}:{' '}
              {failed[0]?.report.error?.message}
            </p>
          )}
        </>
      )}
    </section>
  );
}
