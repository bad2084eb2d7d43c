// The workbench: a script, a Run button (or Ctrl/Cmd-Enter), the profile
// choice (pg, yb, or both side by side), and each profile's results. The
// engine runs in the worker; a long run can be cancelled.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { EngineClient } from '../engine/client';
import { toEngineError } from '../engine/api';
import { Results } from './Results';
import { SettingsPanel } from './SettingsPanel';
import { SqlEditor } from './SqlEditor';
import { settingsLines } from './settings';
import { fractionDone, progressLine, type Progress } from './progress';
import { firstError, parseRuns, type Profile, type ProfileChoice, type Runs } from './report';

export const DEFAULT_SCRIPT = `-- Article 000 at 10 000 rows: a range scan on a B+tree and on an LSM.
create table demo (id bigserial primary key, value timestamptz);
create index demo_value on demo ( value desc, id );
insert into demo(value) select clock_timestamp() from generate_series(1,10000);
explain (analyze, buffers, dist, costs off, summary off)
  select * from demo where value < now() order by value desc limit 500;
`;

type Status =
  | { kind: 'idle' }
  | { kind: 'running'; since: number; progress: Progress }
  | { kind: 'failed'; message: string };


export function Workbench({ engine }: { engine: EngineClient }) {
  const script = useRef(DEFAULT_SCRIPT);
  const [choice, setChoice] = useState<ProfileChoice>('both');
  const [overrides, setOverrides] = useState<Record<string, string>>({});
  const [runs, setRuns] = useState<Runs>({});
  // Each run gets a number: the replays start over on a new run.
  const [runId, setRunId] = useState(0);
  const [status, setStatus] = useState<Status>({ kind: 'idle' });
  const [now, setNow] = useState(0);

  const run = useCallback(async () => {
    const since = Date.now();
    setStatus({ kind: 'running', since, progress: {} });
    const onProgress = (profile: Profile, done: number, total: number) =>
      setStatus((s) =>
        s.kind === 'running' && s.since === since
          ? { ...s, progress: { ...s.progress, [profile]: { done, total } } }
          : s,
      );
    try {
      const settings = settingsLines(overrides);
      const json = await engine.runTraced(script.current, choice, settings, onProgress);
      setRuns(parseRuns(json, choice));
      setRunId((n) => n + 1);
      setStatus({ kind: 'idle' });
    } catch (err) {
      setStatus({ kind: 'failed', message: toEngineError(err).message });
    }
  }, [engine, choice, overrides]);

  // Elapsed time while running, so a long run visibly progresses.
  useEffect(() => {
    if (status.kind !== 'running') return;
    const t = setInterval(() => setNow(Date.now()), 200);
    return () => clearInterval(t);
  }, [status.kind]);

  const running = status.kind === 'running';
  // Stable per choice: the results memoize on it.
  const profiles = useMemo<Profile[]>(() => (choice === 'both' ? ['pg', 'yb'] : [choice]), [choice]);
  return (
    <div className="workbench">
      <div className="editor-pane">
        <div className="toolbar">
          <button type="button" onClick={() => void run()} disabled={running}>
            Run
          </button>
          <label>
            Profile{' '}
            <select
              value={choice}
              onChange={(e) => setChoice(e.target.value as ProfileChoice)}
              aria-label="Profile"
            >
              <option value="both">pg and yb side by side</option>
              <option value="pg">pg only</option>
              <option value="yb">yb only</option>
            </select>
          </label>
          {running && (
            <>
              <span className="running" role="status" data-testid="running">
                <progress
                  aria-label="Running"
                  max={1}
                  value={fractionDone(profiles, status.progress) ?? undefined}
                />{' '}
                {progressLine(profiles, status.progress)},{' '}
                {Math.max(0, (now - status.since) / 1000).toFixed(1)} s
              </span>
              <button type="button" onClick={() => engine.cancel()}>
                Cancel
              </button>
            </>
          )}
          <span className="shortcut">Ctrl/Cmd-Enter runs</span>
        </div>
        <SqlEditor
          initial={DEFAULT_SCRIPT}
          onChange={(t) => {
            script.current = t;
          }}
          onRun={() => void run()}
          error={firstError(runs)}
        />
        <SettingsPanel
          engine={engine}
          overrides={overrides}
          onChange={(name, value) => setOverrides((o) => ({ ...o, [name]: value }))}
        />
        {status.kind === 'failed' && (
          <p className="run-error" role="alert" data-testid="engine-run-error">
            {status.message}
          </p>
        )}
      </div>
      {/* Keyed by run: a new run starts a new player, at its end. */}
      <Results key={runId} profiles={profiles} runs={runs} />
    </div>
  );
}
