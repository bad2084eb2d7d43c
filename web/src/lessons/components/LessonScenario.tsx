// <Scenario src="x.sql" variants="pg,yb" views="btree,scan" at="end" full="x-full.sql">
//   <Watch at="page_split">…</Watch>
// </Scenario>
// The lesson's script, run on its variants when the student presses Run (a
// prediction above it is made first), replayed with its views and captions;
// its <Watch> narrations pause the player where they speak.
import { Children, isValidElement, useCallback, useMemo, useRef, useState, type ReactNode } from 'react';
import { toEngineError } from '../../engine/api';
import { useEngine } from '../../engine/EngineContext';
import { CompactReplay } from '../../player/CompactReplay';
import type { Narration } from '../../player/narration';
import type { OpenAt } from '../../player/tracks';
import { encodeLink } from '../../share/link';
import { runVariants, type ResultColumn } from '../../variants/runVariants';
import { loadScript } from '../catalogue';
import { useLesson, useStepTask } from '../LessonContext';
import { markRan } from '../progress';
import { parseAt, parseVariants, parseViews, parseWatch, toVariant } from '../spec';
import { Watch, type WatchProps } from './Watch';
import { ColumnTitle } from '../../workbench/ColumnTitle';
import { ExplainPlans } from '../../workbench/ExplainPlans';
import { RunProgress } from '../../workbench/progress';
import { RunningStatus } from '../../workbench/RunningStatus';

/** Each variant's plans of an article-scale run: the figures the lesson quotes. */
function FullScalePlans({ columns }: { columns: readonly ResultColumn[] }) {
  return (
    <div className="lesson-plans" data-testid="full-scale-plans">
      {columns.map(
        (c) =>
          c.run && (
            <section key={c.id} aria-label={`Plans on ${c.name}`}>
              <ColumnTitle name={c.name} profile={c.profile} />
              <ExplainPlans id={`full-${c.id}`} profile={c.profile} report={c.run.report} />
            </section>
          ),
      )}
    </div>
  );
}

/**
 * Where an article-scale run opens: at the end of its last EXPLAIN, the query
 * whose plans are shown below the player (the engine records queries in full
 * even after a long load has spent the run's detail budget).
 */
function lastQuery(columns: readonly ResultColumn[]): OpenAt | undefined {
  const statements = columns[0]?.run?.report.statements ?? [];
  const index = statements.map((s) => s.explain !== null).lastIndexOf(true);
  return index < 0 ? undefined : { statement: index, at: 'end' };
}

type State =
  | { kind: 'idle' }
  | { kind: 'running'; scale: 'lesson' | 'full'; since: number; progress: RunProgress }
  | { kind: 'done'; scale: 'lesson' | 'full'; script: string; columns: ResultColumn[]; id: number }
  | { kind: 'failed'; message: string };

export function LessonScenario({
  src,
  variants,
  views,
  at,
  full,
  children,
}: {
  src: string;
  variants?: unknown;
  views?: string;
  at?: string | number;
  full?: string;
  children?: ReactNode;
}) {
  const { slug, step } = useLesson();
  const engine = useEngine();
  // Running it (at either scale) is one of the step's tasks.
  const ranKey = `${slug}/${step}/${src}:${JSON.stringify(variants ?? null)}:${String(at ?? '')}`;
  useStepTask({ kind: 'run', key: ranKey });
  const [state, setState] = useState<State>({ kind: 'idle' });
  const [position, setPosition] = useState<number | undefined>(undefined);
  // Each run's number: a new run starts a new player.
  const runs = useRef(0);
  const section = useRef<HTMLElement>(null);
  const spec = useMemo(() => {
    const v = parseVariants(variants);
    const w = parseViews(views);
    const a = parseAt(at);
    if (typeof v === 'string' || typeof w === 'string' || typeof a === 'string') {
      return { error: [v, w, a].filter((x) => typeof x === 'string').join('; ') };
    }
    const narrations: Narration[] = Children.toArray(children).flatMap((c) => {
      if (!isValidElement<WatchProps>(c) || c.type !== Watch) return [];
      const parsed = parseWatch(c.props as unknown as Record<string, unknown>, v);
      return typeof parsed === 'string' ? [] : [{ ...parsed, words: c.props.children }];
    });
    return { variants: v, views: w, at: a, narrations };
  }, [variants, views, at, children]);

  const run = useCallback(
    async (scale: 'lesson' | 'full') => {
      if ('error' in spec) return;
      const progress = new RunProgress();
      setState({ kind: 'running', scale, since: Date.now(), progress });
      try {
        const script = await loadScript(slug, scale === 'full' && full ? full : src);
        const columns = await runVariants(
          script,
          spec.variants.map(toVariant),
          {},
          (text, profile, settings, lane, onProgress) =>
            engine.runTracedPacked(text, profile, settings, (_, done, total) => onProgress(done, total), lane),
          { onProgress: (id, done, total) => progress.report(id, done, total) },
        );
        runs.current += 1;
        setState({ kind: 'done', scale, script, columns, id: runs.current });
        markRan(ranKey);
        // The player the student just asked for, brought on screen when it
        // opened below it: the keys step it, and they should see it move.
        requestAnimationFrame(() => {
          const player = section.current?.querySelector('.compact-replay');
          if (player && player.getBoundingClientRect().top > window.innerHeight - 120) {
            player.scrollIntoView({ block: 'start', behavior: 'smooth' });
          }
        });
      } catch (e) {
        const error = toEngineError(e);
        // Cancelled: back to where the student was before Run, with nothing lost.
        setState(error.message === 'Cancelled' ? { kind: 'idle' } : { kind: 'failed', message: error.message });
      }
    },
    [engine, slug, src, full, spec, ranKey],
  );

  if ('error' in spec) {
    return (
      <p className="run-error" role="alert">
        This scenario is written wrong: {spec.error}
      </p>
    );
  }
  // The player opens at a statement when the lesson says so. The lesson's
  // `at` names a line of its own script, not of the article-scale one: that
  // run opens at the end of its last query, whose plans are below it.
  const openAt = ((): OpenAt | undefined => {
    if (state.kind !== 'done') return undefined;
    if (state.scale === 'full') return lastQuery(state.columns);
    if (spec.at.kind === 'end') return undefined;
    if (spec.at.kind === 'start') return { position: 0 };
    const line = spec.at.line;
    const index = state.columns[0]?.run?.report.statements.findIndex((s) => s.line === line) ?? -1;
    // With narrations, the player waits at the statement's start: playing it shows them.
    if (index < 0) return undefined;
    return { statement: index, at: spec.narrations.length > 0 ? 'start' : 'end' };
  })();
  const names = spec.variants.map((v) => v.name).join(' and ');
  const link =
    state.kind === 'done'
      ? encodeLink({ script: state.script, variants: spec.variants.map(toVariant), settings: {}, at: position })
      : null;
  return (
    <section className="lesson-scenario" ref={section} aria-label={`Scenario ${src}`} data-testid={`scenario-${src}`}>
      <div className="lesson-scenario-bar">
        <button type="button" onClick={() => void run('lesson')} disabled={state.kind === 'running'}>
          {state.kind === 'done' && state.scale === 'lesson' ? 'Run it again' : `Run ${src} on ${names}`}
        </button>
        {full && (
          <button type="button" className="secondary" onClick={() => void run('full')} disabled={state.kind === 'running'}>
            Run at the article's scale
          </button>
        )}
        {link && (
          <a href={link} target="_blank" rel="noopener noreferrer">
            Open in the workbench
          </a>
        )}
      </div>
      {state.kind === 'idle' && (
        <p className="hint">
          Press Run: the script runs in your browser, on {names}, and the player replays what each engine did.
        </p>
      )}
      {state.kind === 'running' && (
        <p className="hint lesson-running">
          Running {state.scale === 'full' ? `${full} (the article's scale: this takes a few seconds)` : src}:{' '}
          <RunningStatus
            since={state.since}
            keys={spec.variants.map((v, i) => toVariant(v, i).id)}
            names={Object.fromEntries(spec.variants.map((v, i) => [toVariant(v, i).id, v.name]))}
            progress={state.progress}
            onCancel={() => engine.cancel()}
          />
        </p>
      )}
      {state.kind === 'failed' && (
        <p className="run-error" role="alert">
          {state.message}
        </p>
      )}
      {state.kind === 'done' && (
        <>
          {state.scale === 'full' && (
            <p className="hint">
              At the article's scale, opened at the end of its last query: the views show that query in full (the load
              before it is summarized), and its plans are below the player, with the article's counters. Run it again for
              the lesson's size.
            </p>
          )}
          <CompactReplay
            key={state.id}
            columns={state.columns}
            views={spec.views ?? undefined}
            at={undefined}
            openAt={openAt}
            narrations={state.scale === 'lesson' ? spec.narrations : []}
            onPosition={setPosition}
          />
          {state.scale === 'full' && <FullScalePlans columns={state.columns} />}
        </>
      )}
    </section>
  );
}
