// The workbench: a script, a Run button (or Ctrl/Cmd-Enter), the profile
// choice (pg, yb, or both side by side), and each profile's results. The
// engine runs in the worker; a long run can be cancelled.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { EngineClient } from '../engine/client';
import { toEngineError } from '../engine/api';
import { Results, type OpenAt } from './Results';
import { RerunContext, type RerunWith } from '../player/rerun';
import { SettingsPanel } from './SettingsPanel';
import { SqlEditor } from './SqlEditor';
import { settingsLines } from './settings';
import { fractionDone, progressLine, type Progress } from './progress';
import { decodeRun } from '../engine/packed';
import { DEFAULT_SCRIPT } from './defaultScript';
import { firstError, type Profile, type ProfileChoice, type Runs } from './report';


/** How a run is started: plain, with every step of one statement, or with other settings. */
interface Rerun {
  fullDetail?: number;
  overrides?: Record<string, string>;
  openAt?: OpenAt | undefined;
}

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

  // Where the next player opens (undefined: the end of the run).
  const [openAt, setOpenAt] = useState<OpenAt | undefined>(undefined);

  const run = useCallback(
    async (how: Rerun = {}) => {
      const { fullDetail } = how;
      const settingsNow = how.overrides ?? overrides;
      const since = Date.now();
      setStatus({ kind: 'running', since, progress: {} });
      const onProgress = (profile: Profile, done: number, total: number) =>
        setStatus((s) =>
          s.kind === 'running' && s.since === since
            ? { ...s, progress: { ...s.progress, [profile]: { done, total } } }
            : s,
        );
      try {
        const o =
          fullDetail === undefined ? settingsNow : { ...settingsNow, trace_full_detail_statement: String(fullDetail + 1) };
        const settings = settingsLines(o);
        const wanted: Profile[] = choice === 'both' ? ['pg', 'yb'] : [choice];
        // One worker per profile: they run in parallel.
        const packed = await Promise.all(
          wanted.map((p) => engine.runTracedPacked(script.current, p, settings, onProgress)),
        );
        const next: Runs = {};
        wanted.forEach((p, i) => {
          const bytes = packed[i];
          if (bytes) next[p] = decodeRun(bytes);
        });
        setRuns(next);
        setOpenAt(how.openAt ?? (fullDetail === undefined ? undefined : { statement: fullDetail, at: 'start' }));
        setRunId((n) => n + 1);
        setStatus({ kind: 'idle' });
      } catch (err) {
        setStatus({ kind: 'failed', message: toEngineError(err).message });
      }
    },
    [engine, choice, overrides],
  );

  // Elapsed time while running, so a long run visibly progresses.
  useEffect(() => {
    if (status.kind !== 'running') return;
    const t = setInterval(() => setNow(Date.now()), 200);
    return () => clearInterval(t);
  }, [status.kind]);

  // A view's setting control (the network view's round trip): the setting
  // changes in the panel too, and the run is redone on the same statement.
  const rerun = useMemo<RerunWith>(
    () => ({
      value: (name) => overrides[name],
      set(name, value, statement) {
        const next = { ...overrides, [name]: value };
        setOverrides(next);
        void run({ overrides: next, openAt: statement === undefined ? undefined : { statement, at: 'end' } });
      },
    }),
    [overrides, run],
  );

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
      <RerunContext.Provider value={rerun}>
      <Results
        key={runId}
        profiles={profiles}
        runs={runs}
        openAt={openAt}
        onFullDetail={(index) => void run({ fullDetail: index })}
      />
      </RerunContext.Provider>
    </div>
  );
}
