// One step of a lesson: where it is in the lesson, its text (MDX, loaded on
// demand) with the lesson components, and the way on. The step is done when
// its predictions are answered and its scenarios have run (a step of text
// alone: when it is read), however the student got there.
import {
  lazy,
  Suspense,
  useCallback,
  useEffect,
  useMemo,
  useState,
  type ComponentProps,
  type ComponentType,
  type LazyExoticComponent,
} from 'react';
import { lessonHref } from '../routes';
import { loadStep, type Lesson } from './catalogue';
import { LessonContext } from './LessonContext';
import { markDone, resetProgress, taskDone, useProgress, type Task } from './progress';
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

/** Rendered after the step's text: tells the page the text (and its components) are there. */
function Shown({ onShown }: { onShown(): void }) {
  useEffect(() => onShown(), [onShown]);
  return null;
}

export function LessonPage({ lesson, step }: { lesson: Lesson; step: number }) {
  const { slug, meta } = lesson;
  const total = meta.steps.length;
  const file = meta.steps[step - 1]?.file ?? '';
  const Step = stepComponent(slug, file);
  const progress = useProgress();
  // What the step's components ask of the student, as they register it.
  const [tasks, setTasks] = useState<readonly Task[]>([]);
  const register = useCallback((task: Task) => {
    setTasks((t) => [...t, task]);
    return () => setTasks((t) => t.filter((x) => x !== task));
  }, []);
  // The step's text has rendered (its components have registered).
  const [shown, setShown] = useState<string | null>(null);
  const here = `${slug}/${step}`;
  const allDone = tasks.every((t) => taskDone(progress, t));
  useEffect(() => {
    if (shown === here && allDone) markDone(slug, step);
  }, [shown, here, allDone, slug, step]);
  const context = useMemo(() => ({ slug, step, register }), [slug, step, register]);
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
            <Shown onShown={() => setShown(here)} />
          </Suspense>
          <p className="lesson-next">
            {step > 1 && <a href={lessonHref(slug, step - 1)}>← {meta.steps[step - 2]?.title}</a>}{' '}
            {step < total ? (
              <a className="button" href={lessonHref(slug, step + 1)}>
                Next: {meta.steps[step]?.title} →
              </a>
            ) : (
              <a className="button" href="#/">
                Back to the lessons
              </a>
            )}
          </p>
        </article>
      </div>
    </LessonContext.Provider>
  );
}
