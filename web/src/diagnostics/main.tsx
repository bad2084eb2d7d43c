// diagnostics.html: the engine's version, its self-test, and the test path
// that makes it panic (the app's page has no such button). Not linked from the
// app; testers and the e2e suite open it directly.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { EngineStatus } from '../EngineStatus';
import { ErrorBoundary } from '../ErrorBoundary';
import { createEngineClient } from '../engine/client';
import '../styles.css';

const root = document.getElementById('root');
if (!root) throw new Error('IndexLab: #root element missing from diagnostics.html');

const engine = createEngineClient();

createRoot(root).render(
  <StrictMode>
    <main className="app">
      <h1>IndexLab diagnostics</h1>
      <p>
        The engine's self-test, and a deliberate panic: after it the page replaces the engine's worker and keeps working.{' '}
        <a href="./">Back to IndexLab</a>
      </p>
      <ErrorBoundary>
        <EngineStatus engine={engine} diagnostics />
      </ErrorBoundary>
    </main>
  </StrictMode>,
);
