import { lazy, Suspense, useState } from 'react';
import type { EngineClient } from './engine/client';
import { EngineContext } from './engine/EngineContext';
import { EngineStatus } from './EngineStatus';
import { ErrorBoundary } from './ErrorBoundary';
import { ThemeSwitch } from './ThemeSwitch';
import { LessonIndex } from './lessons/LessonIndex';
import { lessonOf } from './lessons/catalogue';
import { PresenterButton } from './presenter/PresenterButton';
import { usePresenting } from './presenter/presenter';
import { useRoute, type Route } from './routes';
import { KeysHelp } from './player/KeysHelp';
import { usePageKeys } from './player/usePageKeys';

// The workbench (CodeMirror, the sweep) and a lesson's page load with their route.
const Workbench = lazy(() => import('./workbench/Workbench').then((m) => ({ default: m.Workbench })));
const LessonPage = lazy(() => import('./lessons/LessonPage').then((m) => ({ default: m.LessonPage })));

function Page({ route, engine }: { route: Route; engine: EngineClient }) {
  switch (route.kind) {
    case 'workbench':
      return <Workbench engine={engine} />;
    case 'lesson': {
      const lesson = lessonOf(route.slug);
      if (!lesson) return <LessonIndex notice={`There is no lesson "${route.slug.slice(0, 40)}"; here are the lessons.`} />;
      if (route.step > lesson.meta.steps.length) {
        return <LessonIndex notice={`"${lesson.meta.title}" has ${lesson.meta.steps.length} steps, not ${route.step}.`} />;
      }
      return <LessonPage key={`${route.slug}/${route.step}`} lesson={lesson} step={route.step} />;
    }
    case 'unknown':
      return <LessonIndex notice={`There is no page "${route.hash.slice(0, 40)}" in IndexLab; here are the lessons.`} />;
    case 'index':
      return <LessonIndex />;
  }
}

export function App({ engine }: { engine: EngineClient }) {
  const presenting = usePresenting();
  const route = useRoute();
  // p, f and ? work before anything has run (a player handles them once there is one).
  const [keysHelp, setKeysHelp] = useState(false);
  usePageKeys(() => setKeysHelp(true));
  return (
    <EngineContext.Provider value={engine}>
      <div className="app">
        <header className="app-header">
          <h1>
            <a href="#/">IndexLab</a>
          </h1>
          <p className="tagline">See how B+tree and LSM storage engines work, from the inside.</p>
          <nav className="app-nav" aria-label="IndexLab">
            <a href="#/" aria-current={route.kind === 'index' || route.kind === 'lesson' ? 'page' : undefined}>
              Lessons
            </a>
            <a href="#/workbench" aria-current={route.kind === 'workbench' ? 'page' : undefined}>
              Workbench
            </a>
          </nav>
          <ThemeSwitch />
        </header>
        <main>
          <ErrorBoundary>
            <Suspense fallback={<p className="hint">Loading…</p>}>
              <Page route={route} engine={engine} />
            </Suspense>
          </ErrorBoundary>
        </main>
        {keysHelp && <KeysHelp onClose={() => setKeysHelp(false)} />}
        {presenting && (
          <div className="presenter-corner">
            <PresenterButton />
          </div>
        )}
        <footer className="app-footer">
          <ErrorBoundary>
            <EngineStatus engine={engine} />
          </ErrorBoundary>
        </footer>
      </div>
    </EngineContext.Provider>
  );
}
