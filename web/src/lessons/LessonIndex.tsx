// The landing page: both engines at work in miniature, the lessons, what each teaches and how long it takes,
// how far this browser's student got, and the workbench one click away.
import { lazy, Suspense } from 'react';
import { lessonHref } from '../routes';
import { LESSONS } from './catalogue';
import { resetProgress, stepsDone, useProgress } from './progress';

// Its views and the trace decoder load after the page's text (not in the first download).
const EngineMiniature = lazy(() => import('../landing/EngineMiniature').then((m) => ({ default: m.EngineMiniature })));

export function LessonIndex({ notice }: { notice?: string | null | undefined }) {
  const progress = useProgress();
  const started = LESSONS.some((l) => stepsDone(progress, l.slug, l.meta.steps.length) > 0);
  return (
    <div className="lesson-index">
      {notice && (
        <p className="run-error" role="alert" data-testid="route-error">
          {notice}
        </p>
      )}
      <section className="lesson-intro">
        <h2>Learn how databases store and find your rows</h2>
        <p>
          Each lesson runs real SQL on two storage engines in your browser: a PostgreSQL-like B+tree with its heap and
          buffer pool, and a YugabyteDB-like LSM tree with its memtable, files and tablets across a network. You guess
          what will happen, run it, and watch the engine do it, step by step.
        </p>
        <p>
          Rather experiment freely? <a href="#/workbench">Open the workbench</a>: your own script, on both engines, with
          every counter.
        </p>
      </section>
      <Suspense fallback={<div className="miniature miniature-loading" />}>
        <EngineMiniature />
      </Suspense>
      <ol className="lesson-list">
        {LESSONS.map((l) => {
          const total = l.meta.steps.length;
          const done = stepsDone(progress, l.slug, total);
          const next = l.meta.steps.findIndex((_, i) => !progress.done[`${l.slug}/${i + 1}`]);
          const href = lessonHref(l.slug, next < 0 ? 1 : next + 1);
          return (
            <li key={l.slug} className="lesson-card" data-testid={`lesson-${l.slug}`}>
              <h3>
                <span className="lesson-number">Lesson {Number(l.slug.slice(0, 2))}</span>
                <a href={href}>{l.meta.title}</a>
              </h3>
              <p>{l.meta.summary}</p>
              <p className="hint">
                {l.meta.minutes} minutes · {total} step{total === 1 ? '' : 's'}
                {l.meta.source ? ` · after ${l.meta.source}` : ''}
              </p>
              <details>
                <summary>What you will learn</summary>
                <ul>
                  {l.meta.learn.map((x) => (
                    <li key={x}>{x}</li>
                  ))}
                </ul>
              </details>
              <p className="lesson-progress">
                <progress max={total} value={done} aria-label={`${l.meta.title}: steps done`} />{' '}
                {done === total ? 'Done' : done === 0 ? 'Not started' : `${done} of ${total} steps done`}
                {' · '}
                <a href={href}>{done === 0 ? 'Start' : done === total ? 'Read it again' : 'Continue'}</a>
              </p>
            </li>
          );
        })}
      </ol>
      {started && (
        <p>
          <button type="button" className="secondary" onClick={() => resetProgress()}>
            Reset my progress
          </button>
        </p>
      )}
    </div>
  );
}
