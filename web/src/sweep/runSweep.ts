// Runs a planned sweep on the engine workers, a few runs at a time, and keeps
// each run's report. The engine does the work; this only schedules it.
import type { Report } from '../workbench/report';
import { valuesToCheck, type SweepRun } from './spec';
import { settingsLines } from '../workbench/settings';

export interface SweepResult {
  run: SweepRun;
  report: Report;
}

/** What the sweep needs from the engine: one untraced run on a worker lane. */
export type RunReport = (script: string, profile: 'pg' | 'yb', settings: string, lane: number) => Promise<Report>;

/**
 * The engine's own message for each value it refuses ("0 is outside the valid
 * range for parameter …"), found by applying the value to an empty script:
 * cheap, and exactly the check a run would make.
 */
export async function refusedValues(runs: readonly SweepRun[], run: RunReport): Promise<string[]> {
  const problems: string[] = [];
  for (const c of valuesToCheck(runs)) {
    const report = await run('', c.profile, `${c.name}=${c.value}`, 0);
    if (report.error) problems.push(`${c.name}=${c.value}: ${report.error.message}`);
  }
  return problems;
}

/** Runs every point, `lanes` at a time; `onDone` hears each finished run. */
export async function runSweep(
  script: string,
  runs: readonly SweepRun[],
  run: RunReport,
  lanes: number,
  onDone: (result: SweepResult, done: number, total: number) => void,
): Promise<SweepResult[]> {
  const results: SweepResult[] = new Array<SweepResult>(runs.length);
  let next = 0;
  let done = 0;
  const worker = async (lane: number) => {
    while (next < runs.length) {
      const i = next++;
      const r = runs[i] as SweepRun;
      const report = await run(script, r.variant.profile, settingsLines(r.settings), lane);
      results[i] = { run: r, report };
      done += 1;
      onDone(results[i], done, runs.length);
    }
  };
  await Promise.all(Array.from({ length: Math.min(lanes, runs.length) }, (_, lane) => worker(lane)));
  return results;
}
