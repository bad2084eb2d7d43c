import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { ErrorBoundary } from './ErrorBoundary';
import { createEngineClient } from './engine/client';
import './styles.css';

const root = document.getElementById('root');
if (!root) throw new Error('IndexLab: #root element missing from index.html');

// One engine worker for the page's lifetime; the client replaces it after a panic.
const engine = createEngineClient();
// A link runs its scenario at once: both workers start compiling the engine now.
if (location.hash.startsWith('#/play')) engine.warm();

createRoot(root).render(
  <StrictMode>
    <ErrorBoundary>
      <App engine={engine} />
    </ErrorBoundary>
  </StrictMode>,
);
