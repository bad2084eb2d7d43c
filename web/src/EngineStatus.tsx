// The engine card, folded at the foot of the page: proves the wasm engine runs
// in its worker (version + self-test). The diagnostics page (diagnostics.html)
// shows it open, with a button that makes the engine panic: testers exercise
// the crash path there, and a student never meets that button.
import { useEffect, useRef, useState } from 'react';
import type { EngineClient } from './engine/client';
import { toEngineError } from './engine/api';

const SEED = 42;
const KEYS = 1000;

type Result =
  | { kind: 'ready'; version: string; selftest: string }
  | { kind: 'failed'; message: string };

async function probe(engine: EngineClient): Promise<Result> {
  try {
    const version = await engine.call((api) => api.version());
    const selftest = await engine.call((api) => api.selftest(SEED, KEYS));
    return { kind: 'ready', version, selftest };
  } catch (err) {
    return { kind: 'failed', message: toEngineError(err).message };
  }
}

export function EngineStatus({ engine, diagnostics = false }: { engine: EngineClient; diagnostics?: boolean }) {
  // Each request gets a number; the card shows "starting" until its answer arrives.
  const [request, setRequest] = useState(0);
  const [answer, setAnswer] = useState<{ request: number; result: Result } | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    void probe(engine).then((result) => {
      if (live) setAnswer({ request, result });
    });
    return () => {
      live = false;
    };
  }, [engine, request]);

  const status = answer?.request === request ? answer.result : null;
  const shownError = error ?? (status?.kind === 'failed' ? status.message : null);
  // An error unfolds the card (and it stays as the reader left it after).
  const card = useRef<HTMLDetailsElement>(null);
  useEffect(() => {
    if (shownError && card.current) card.current.open = true;
  }, [shownError]);

  const panic = async () => {
    setError(null);
    try {
      await engine.call((api) => api.panicForTest('requested from the page'));
    } catch (err) {
      setError(toEngineError(err).message);
    }
  };

  const rerun = () => {
    setError(null);
    setRequest((r) => r + 1);
  };

  return (
    // Folded away: a student comes for the workbench; a failure opens it.
    <details className="card engine-card" ref={card} open={diagnostics || undefined}>
      <summary>
        <h2 id="engine-title">About the engine</h2>
      </summary>
      {status === null && <p data-testid="engine-loading">Starting the engine…</p>}
      {status?.kind === 'ready' && (
        <dl className="facts">
          <dt>Version</dt>
          <dd data-testid="engine-version">indexlab-engine {status.version}</dd>
          <dt>
            Self-test (seed {SEED}, {KEYS} keys)
          </dt>
          <dd>
            <code data-testid="engine-selftest">{status.selftest}</code>
          </dd>
          <dt>Runs in</dt>
          <dd>a Web Worker, as WebAssembly</dd>
        </dl>
      )}
      {shownError && (
        <div role="alert" className="error-box" data-testid="engine-error">
          {shownError}
        </div>
      )}
      <div className="actions">
        <button type="button" onClick={rerun}>
          Run the self-test again
        </button>
        {diagnostics && (
          <button type="button" className="secondary" onClick={() => void panic()}>
            Make the engine panic (test)
          </button>
        )}
      </div>
    </details>
  );
}
