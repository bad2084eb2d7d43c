import type { EngineClient } from './engine/client';
import { EngineStatus } from './EngineStatus';
import { ErrorBoundary } from './ErrorBoundary';
import { ThemeSwitch } from './ThemeSwitch';
import { Workbench } from './workbench/Workbench';
import { PresenterButton } from './presenter/PresenterButton';
import { usePresenting } from './presenter/presenter';

export function App({ engine }: { engine: EngineClient }) {
  const presenting = usePresenting();
  return (
    <div className="app">
      <header className="app-header">
        <h1>IndexLab</h1>
        <p className="tagline">See how B+tree and LSM storage engines work, from the inside.</p>
        <ThemeSwitch />
      </header>
      <main>
        <ErrorBoundary>
          <Workbench engine={engine} />
        </ErrorBoundary>
      </main>
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
  );
}
