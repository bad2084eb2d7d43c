// One step of a lesson: where it is in the lesson, its text (MDX, loaded on
// demand) with the lesson components, and the way on. Reaching the next step
// marks this one done.
import { lazy, Suspense, useMemo, type ComponentProps, type ComponentType, type LazyExoticComponent } from 'react';
import { lessonHref } from '../routes';
import { loadStep, type Lesson } from './catalogue';
import { LessonContext } from './LessonContext';
import { markDone, resetProgress, useProgress } from './progress';
import { Hue } from './components/Hue';
import { LessonScenario } from './components/LessonScenario';
import { LessonTerm } from './components/LessonTerm';
import { Predict } from './components/Predict';
import { Watch } from './components/Watch';
import { PresenterButton } from '../presenter/PresenterButton';

/** A code block: focusable, since it may scroll sideways on a phone. */
function CodeBlock(props: ComponentProps<'pre'>) {
  return <pre tabIndex={0} {...props} />;
}

/**
 * The components a step's MDX may use (the build allows these names only:
 * spec.ts COMPONENTS), and how Markdown's code blocks render.
 */
const COMPONENTS = { Scenario: LessonScenario, Watch, Predict, Term: LessonTerm, Hue, pre: CodeBlock };

type StepComponent = LazyExoticComponent<ComponentType<{ components?: Record<string, unknown> }>>;

/** One lazy component per step, made once (a new one each render would remount the step). */
const STEP_COMPONENTS = new Map<string, StepComponent>();

function stepComponent(slug: string, file: string): StepComponent {
  const key = `${slug}/${file}`;
  let c = STEP_COMPONENTS.get(key);
  if (!c) {
    c = lazy(async () => ({ default: await loadStep(slug, file) }));
    STEP_COMPONENTS.set(key, c);
  }
  return c;
}

export function LessonPage({ lesson, step }: { lesson: Lesson; step: number }) {
  const { slug, meta } = lesson;
  const total = meta.steps.length;
  const file = meta.steps[step - 1]?.file ?? '';
  const Step = stepComponent(slug, file);
  const progress = useProgress();
  const context = useMemo(() => ({ slug, step }), [slug, step]);
  const title = meta.steps[step - 1]?.title ?? '';
  return (
    <LessonContext.Provider value={context}>
      <div className="lesson-page">
        <nav className="lesson-nav" aria-label="Lesson">
          <p>
            <a href="#/">All lessons</a> · <strong>{meta.title}</strong>
          </p>
          <ol className="lesson-steps">
            {meta.steps.map((s, i) => (
              <li key={s.file} aria-current={i + 1 === step ? 'step' : undefined}>
                <a href={lessonHref(slug, i + 1)}>
                  {s.title}
                  {progress.done[`${slug}/${i + 1}`] && <span className="done-mark"> ✓<span className="sr-only"> done</span></span>}
                </a>
              </li>
            ))}
          </ol>
          <p className="lesson-tools">
            <button type="button" className="secondary" onClick={() => resetProgress(slug)}>
              Reset this lesson
            </button>{' '}
            <PresenterButton />
          </p>
        </nav>
        <article className="lesson-step" aria-labelledby="step-title">
          <p className="hint">
            Step {step} of {total}
          </p>
          <h2 id="step-title">{title}</h2>
          <Suspense fallback={<p className="hint">Loading the step…</p>}>
            {/* eslint-disable-next-line react-hooks/static-components -- made once per step and kept (STEP_COMPONENTS) */}
            <Step components={COMPONENTS} />
          </Suspense>
          <p className="lesson-next">
            {step > 1 && <a href={lessonHref(slug, step - 1)}>← {meta.steps[step - 2]?.title}</a>}{' '}
            {step < total ? (
              <a className="button" href={lessonHref(slug, step + 1)} onClick={() => markDone(slug, step)}>
                Next: {meta.steps[step]?.title} →
              </a>
            ) : (
              <a className="button" href="#/" onClick={() => markDone(slug, step)}>
                Finish the lesson ✓
              </a>
            )}
          </p>
        </article>
      </div>
    </LessonContext.Provider>
  );
}
