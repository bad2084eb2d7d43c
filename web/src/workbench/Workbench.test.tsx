// While a run is under way the page must not redraw the last run's results:
// each redraw of their views and canvases takes a core the two engine workers
// need (article 000 ran a second slower for it). Only the status line moves.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import type { EngineClient } from '../engine/client';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const seen = vi.hoisted(() => ({ results: 0 }));

// The heavy children are stood in for: the results count their renders.
vi.mock('./Results', () => ({
  Results: () => {
    seen.results += 1;
    return <div data-testid="results" />;
  },
}));
vi.mock('./SqlEditor', () => ({ SqlEditor: () => <textarea aria-label="script" /> }));
vi.mock('../sweep/SweepPanel', () => ({ SweepPanel: () => null }));

const { Workbench } = await import('./Workbench');

let root: Root | null = null;
afterEach(() => {
  act(() => root?.unmount());
  root = null;
  document.body.innerHTML = '';
  vi.useRealTimers();
});

/** An engine whose runs end when the test says, reporting progress on demand. */
function fakeEngine() {
  const runs: { progress: (done: number, total: number) => void; finish: (bytes: Uint8Array) => void }[] = [];
  const engine = {
    call: () => Promise.resolve('[]'),
    runTracedPacked: (_s: string, _p: string, _settings: string, onProgress: (p: string, d: number, t: number) => void) =>
      new Promise<Uint8Array>((finish) => {
        runs.push({ progress: (d, t) => onProgress('x', d, t), finish });
      }),
    cancel: () => undefined,
  };
  return { engine: engine as unknown as EngineClient, runs };
}

describe('the workbench during a run', () => {
  it('redraws the status line, not the results', async () => {
    vi.useFakeTimers();
    const { engine, runs } = fakeEngine();
    const host = document.createElement('div');
    document.body.append(host);
    root = createRoot(host);
    await act(async () => root?.render(<Workbench engine={engine} />));
    const button = [...host.querySelectorAll('button')].find((b) => b.textContent === 'Run');
    await act(async () => button?.click());
    expect(runs).toHaveLength(2);
    const before = seen.results;

    for (let i = 1; i <= 20; i++) {
      await act(async () => {
        for (const r of runs) r.progress(i, 105);
        vi.advanceTimersByTime(200);
      });
    }
    const status = host.querySelector('[data-testid="running"]')?.textContent ?? '';
    expect(status).toContain('20/105');
    expect(status).toMatch(/4\.\d s$/);
    expect(seen.results).toBe(before);
  });
});
