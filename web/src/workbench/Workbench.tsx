// The workbench: a script, a Run button (or Ctrl/Cmd-Enter), the variants to
// run it on (pg and yb side by side by default), each variant's results, and
// the sweep. The engine runs in the workers; a long run can be cancelled.
import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { EngineClient } from '../engine/client';
import { LANES } from '../engine/client';
import { toEngineError } from '../engine/api';
import { Results, type OpenAt, type ResultColumn } from './Results';
import { RerunContext, type RerunWith } from '../player/rerun';
import { SettingsPanel } from './SettingsPanel';
import { SqlEditor } from './SqlEditor';
import { RunProgress } from './progress';
import { RunningStatus } from './RunningStatus';
import { firstError } from './report';
import { runVariants } from '../variants/runVariants';
import { useSettingsRows } from './useSettingsRows';
import { DEFAULT_VARIANTS, describeVariant, type Variant } from '../variants/variant';
import { VariantsEditor } from '../variants/VariantsEditor';
import { listProblems } from '../variants/problems';
import type { OpenPoint, SweepEngine } from '../sweep/SweepPanel';
import { measuredIndex } from '../sweep/measured';
import { EXAMPLES, type Example } from '../examples/examples';
import { decodeLink, encodeLink, type Decoded, type Scenario } from '../share/link';
import { ShareDialog } from '../share/ShareDialog';
import { PresenterButton } from '../presenter/PresenterButton';
import { DEFAULT_SCRIPT } from './defaultScript';

// The sweep and its charts (d3-axis, d3-shape) load after the first paint:
// the page opens on the editor without them.
const SweepPanel = lazy(() => import('../sweep/SweepPanel').then((m) => ({ default: m.SweepPanel })));

/** Once a run has lasted this long, the columns that have run are shown before the others end. */
const PREVIEW_AFTER_MS = 1000;

/** How a run is started: plain, with every step of one statement, or with other settings. */
interface Rerun {
  fullDetail?: number | undefined;
  overrides?: Record<string, string> | undefined;
  openAt?: OpenAt | undefined;
  /** Run these instead of the page's variants (a sweep's point), named in a note. */
  only?: { variant: Variant; note: string } | undefined;
  /** Run this script instead of the editor's (a sweep's point, as it was swept; a link's). */
  script?: string | undefined;
  /** Run these variants instead of the list's (a link's, before the list has them). */
  variants?: readonly Variant[] | undefined;
}

type Status =
  | { kind: 'idle' }
  | { kind: 'running'; since: number; progress: RunProgress; keys: string[]; names: Record<string, string> }
  | { kind: 'failed'; message: string };

/** What the results show: the columns of the last run, and what they are when not the variants. */
interface Shown {
  columns: ResultColumn[];
  note: string | null;
}

/** Puts the scenario (and the player's position) in the address, without a new history entry. */
function writeAddress(s: Scenario, at: number | undefined): void {
  history.replaceState(null, '', `${location.pathname}${location.search}${encodeLink({ ...s, at })}`);
}

/** The link the page was opened with (read once: the page then writes its own). */
function openedWith(): Decoded {
  return typeof location === 'undefined' ? { kind: 'none' } : decodeLink(location.hash);
}

export function Workbench({ engine }: { engine: EngineClient }) {
  const [link] = useState(openedWith);
  const linked = link.kind === 'scenario' ? link.scenario : null;
  const script = useRef(linked?.script ?? DEFAULT_SCRIPT);
  const [example, setExample] = useState<Example | undefined>(linked ? undefined : EXAMPLES[0]);
  // The editor's text when it was (re)opened: the default, a link's or an example's.
  const [initialScript, setInitialScript] = useState(linked?.script ?? DEFAULT_SCRIPT);
  // Bumped when the script (or the variants) are replaced from outside their editors.
  const [scriptGeneration, setScriptGeneration] = useState(0);
  const [generation, setGeneration] = useState(0);
  const [variants, setVariants] = useState<readonly Variant[]>(linked?.variants ?? DEFAULT_VARIANTS);
  const [overrides, setOverrides] = useState<Record<string, string>>(linked?.settings ?? {});
  const [linkError, setLinkError] = useState<string | null>(link.kind === 'error' ? link.message : null);
  // The scenario of the variants' run on screen: the address holds it, with the player's position.
  const [shownScenario, setShownScenario] = useState<Scenario | null>(null);
  const position = useRef<number | undefined>(undefined);
  // The scenario the Share dialog shows (null: closed).
  const [sharing, setSharing] = useState<Scenario | null>(null);
  const rows = useSettingsRows(engine);
  const [shown, setShown] = useState<Shown>({
    columns: DEFAULT_VARIANTS.map((v) => ({ id: v.id, name: v.name, profile: v.profile, run: undefined })),
    note: null,
  });
  // Each run gets a number: the replays start over on a new run.
  const [runId, setRunId] = useState(0);
  const [status, setStatus] = useState<Status>({ kind: 'idle' });
  // The columns that have run while others still run (null: none yet, or no run under way).
  const [preview, setPreview] = useState<ResultColumn[] | null>(null);
  const previewTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  // Where the next player opens (undefined: the end of the run).
  const [openAt, setOpenAt] = useState<OpenAt | undefined>(undefined);
  // How the runs shown were made (to redo one statement in full), and the last
  // run of the variants (to go back to after looking at a sweep's point).
  const [current, setCurrent] = useState<Rerun>({});
  const [last, setLast] = useState<Rerun>({});
  const resultsTop = useRef<HTMLDivElement>(null);

  const run = useCallback(
    async (how: Rerun = {}) => {
      const { fullDetail } = how;
      const settingsNow = how.overrides ?? overrides;
      const chosen = how.only ? [how.only.variant] : (how.variants ?? variants);
      const problems = listProblems(rows, chosen);
      if (problems.length > 0) {
        setStatus({ kind: 'failed', message: problems.join('; ') });
        return;
      }
      const since = Date.now();
      const keys = chosen.map((v) => v.id);
      const names = Object.fromEntries(chosen.map((v) => [v.id, v.name]));
      const progress = new RunProgress();
      setStatus({ kind: 'running', since, progress, keys, names });
      try {
        const columns = await runVariants(
          how.script ?? script.current,
          chosen,
          settingsNow,
          (text, profile, settings, lane, onProgress) =>
            // Spread over the workers: two variants run in parallel.
            engine.runTracedPacked(text, profile, settings, (_, done, total) => onProgress(done, total), lane),
          {
            fullDetail,
            onProgress: (id, done, total) => progress.report(id, done, total),
            // A column that has run is shown while the others run (article
            // 000: pg's picture a second or two before yb's), once the run
            // has lasted long enough to be waited for: in a short run,
            // drawing the column twice would only delay the whole picture.
            onColumn: (partial) => {
              clearTimeout(previewTimer.current);
              previewTimer.current = setTimeout(
                () => setPreview(partial),
                Math.max(0, PREVIEW_AFTER_MS - (Date.now() - since)),
              );
            },
          },
        );
        clearTimeout(previewTimer.current);
        setPreview(null);
        setShown({ columns, note: how.only?.note ?? null });
        // A sweep's point opens below the sweep: bring it into view.
        if (how.only) requestAnimationFrame(() => resultsTop.current?.scrollIntoView({ block: 'start' }));
        setCurrent({ overrides: how.overrides, only: how.only, script: how.script, variants: how.variants });
        if (!how.only) {
          setLast({ overrides: how.overrides });
          const shownNow = { script: how.script ?? script.current, variants: [...chosen], settings: { ...settingsNow } };
          setShownScenario(shownNow);
          position.current = undefined;
          writeAddress(shownNow, undefined);
        } else setShownScenario(null);
        setOpenAt(how.openAt ?? (fullDetail === undefined ? undefined : { statement: fullDetail, at: 'start' }));
        setRunId((n) => n + 1);
        setStatus({ kind: 'idle' });
      } catch (err) {
        clearTimeout(previewTimer.current);
        setPreview(null);
        setStatus({ kind: 'failed', message: toEngineError(err).message });
      }
    },
    [engine, variants, overrides, rows],
  );

  // A link opens on its run, at its position.
  const openedLink = useRef(false);
  useEffect(() => {
    if (openedLink.current || !linked) return;
    openedLink.current = true;
    void run({
      script: linked.script,
      variants: linked.variants,
      overrides: linked.settings,
      openAt: linked.at === undefined ? undefined : { position: linked.at },
    });
    // Only on the first render: later changes are the user's.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // A link pasted into this tab's address bar opens as a fresh page would.
  // (The page's own address updates use replaceState, which fires no hashchange;
  // another route is the App's to show.)
  useEffect(() => {
    const reopen = () => {
      if (location.hash.startsWith('#/play?')) location.reload();
    };
    window.addEventListener('hashchange', reopen);
    return () => window.removeEventListener('hashchange', reopen);
  }, []);

  // The address follows the player, a moment after it stops moving.
  const addressTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const onPosition = useCallback(
    (p: number) => {
      position.current = p;
      clearTimeout(addressTimer.current);
      if (shownScenario) addressTimer.current = setTimeout(() => writeAddress(shownScenario, p), 400);
    },
    [shownScenario],
  );


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

  const sweepEngine = useMemo<SweepEngine>(
    () => ({
      run: (text, profile, settings, lane) => engine.runReport(text, profile, settings, lane),
      lanes: LANES,
      scriptSets: (text, name) => engine.call((api) => api.scriptSets(text, name)),
      cancel: () => engine.cancel(),
    }),
    [engine],
  );

  // A sweep's point, opened in the player: exactly that run (its script, the
  // page's settings then, the variant's and the point's), on the statement the
  // chart measured.
  const openPoint = ({ run: p, report, script: text, page }: OpenPoint) => {
    const point = Object.entries(p.point)
      .map(([k, v]) => `${k}=${v}`)
      .join(', ');
    const variant: Variant = {
      ...p.variant,
      id: 'point',
      name: `${p.variant.name}, ${point}`,
      overrides: { ...p.variant.overrides, ...p.point },
    };
    const at = measuredIndex(report);
    void run({
      only: { variant, note: `One run of the sweep: ${describeVariant(variant.profile, variant.overrides)}.` },
      script: text,
      overrides: { ...page },
      openAt: at < 0 ? undefined : { statement: at, at: 'end' },
    });
  };

  const loadExample = async (id: string) => {
    const ex = EXAMPLES.find((e) => e.id === id);
    if (!ex) return;
    const text = await ex.script();
    script.current = text;
    setInitialScript(text);
    setExample(ex);
    setVariants(ex.variants);
    setGeneration((g) => g + 1);
    setScriptGeneration((g) => g + 1);
  };

  // The results change with a run, not with the page around them: starting a
  // run must not redraw the last run's views while the workers need the cores.
  const results = useMemo(
    () => (
      <RerunContext.Provider value={rerun}>
        {/* Keyed by run: a new run starts a new player, at its end. */}
            <Results
              key={runId}
              columns={shown.columns}
              openAt={openAt}
              onFullDetail={(index) => void run({ ...current, fullDetail: index })}
              onPosition={onPosition}
              note={
                shown.note && (
                  <p className="point-note" role="note" data-testid="point-note">
                    {shown.note}{' '}
                    <button type="button" onClick={() => void run(last)}>
                      Back to the variants
                    </button>
                  </p>
                )
              }
            />
      </RerunContext.Provider>
    ),
    [rerun, runId, shown, openAt, run, current, last, onPosition],
  );

  const running = status.kind === 'running';
  return (
    <div className="workbench">
      <div className="editor-pane">
        <div className="toolbar">
          <button type="button" onClick={() => void run()} disabled={running}>
            Run
          </button>
          <label>
            Example{' '}
            <select value={example?.id ?? ''} onChange={(e) => void loadExample(e.target.value)} aria-label="Example">
              {example === undefined && <option value="">(your own script)</option>}
              {EXAMPLES.map((e) => (
                <option key={e.id} value={e.id}>
                  {e.title}
                </option>
              ))}
            </select>
          </label>
          {status.kind === 'running' && (
            <RunningStatus
              since={status.since}
              keys={status.keys}
              names={status.names}
              progress={status.progress}
              onCancel={() => engine.cancel()}
            />
          )}
          <button
            type="button"
            onClick={() =>
              setSharing(
                shownScenario
                  ? { ...shownScenario, at: position.current }
                  : { script: script.current, variants: [...variants], settings: overrides },
              )
            }
          >
            Share
          </button>
          <PresenterButton />
          <span className="shortcut">Ctrl/Cmd-Enter runs</span>
        </div>
        <SqlEditor
          key={scriptGeneration}
          initial={initialScript}
          onChange={(t) => {
            script.current = t;
          }}
          onRun={() => void run()}
          error={firstError(shown.columns)}
        />
        <VariantsEditor key={`v${generation}`} variants={variants} rows={rows} onChange={setVariants} />
        <SettingsPanel rows={rows} overrides={overrides} onChange={(name, value) => setOverrides((o) => ({ ...o, [name]: value }))} />
        {linkError && (
          <p className="run-error" role="alert" data-testid="link-error">
            {linkError}{' '}
            <button type="button" onClick={() => setLinkError(null)}>
              Dismiss
            </button>
          </p>
        )}
        {sharing && (
          <ShareDialog
            base={new URL('./', location.href).href}
            scenario={sharing}
            onClose={() => setSharing(null)}
          />
        )}
        {status.kind === 'failed' && (
          <p className="run-error" role="alert" data-testid="engine-run-error">
            {status.message}
          </p>
        )}
        <Suspense fallback={<p className="hint">Loading the sweep…</p>}>
        <SweepPanel
          engine={sweepEngine}
          script={() => script.current}
          variants={variants}
          page={overrides}
          rows={rows}
          presets={example?.sweeps ?? []}
          onVariants={(v) => {
            setVariants(v);
            setGeneration((g) => g + 1);
          }}
          onOpen={openPoint}
        />
        </Suspense>
      </div>
      <div ref={resultsTop} />
      {preview ? (
        <Results key="preview" columns={preview} waiting={preview.flatMap((c) => (c.run ? [] : [c.name]))} />
      ) : (
        results
      )}
    </div>
  );
}
