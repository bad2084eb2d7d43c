// While a run is under way the page must not redraw the last run's results:
// each redraw of their views and canvases takes a core the two engine workers
// need (article 000 ran a second slower for it). Only the status line moves.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { readFileSync } from 'node:fs';
import type { EngineClient } from '../engine/client';
import * as wasm from '../wasm-pkg/indexlab_wasm.js';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const seen = vi.hoisted(() => ({ results: 0, waiting: [] as string[][] }));

// The heavy children are stood in for: the results count their renders and
// note which columns they were told are still running.
vi.mock('./Results', () => ({
  Results: ({ waiting = [] }: { waiting?: string[] }) => {
    seen.results += 1;
    seen.waiting.push(waiting);
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

describe('columns that have run, while the others run', () => {
  // Beside this file's folder (jsdom's import.meta.url is not a file URL).
  wasm.initSync({ module: readFileSync(new URL('../wasm-pkg/indexlab_wasm_bg.wasm', `file://${import.meta.dirname}/`)) });
  const bytes = (profile: 'pg' | 'yb') => wasm.run_traced_packed('select 1;', profile, '', { report() {} });

  async function start() {
    vi.useFakeTimers();
    const { engine, runs } = fakeEngine();
    const host = document.createElement('div');
    document.body.append(host);
    root = createRoot(host);
    await act(async () => root?.render(<Workbench engine={engine} />));
    const button = [...host.querySelectorAll('button')].find((b) => b.textContent === 'Run');
    await act(async () => button?.click());
    seen.waiting.length = 0;
    return runs;
  }
  const shownWaiting = () => seen.waiting.filter((w) => w.length > 0);

  it('are shown once the run has lasted a second, naming the ones still running', async () => {
    const [pg] = await start();
    await act(async () => {
      vi.advanceTimersByTime(200);
      pg?.finish(bytes('pg'));
    });
    await act(async () => vi.advanceTimersByTime(500));
    expect(shownWaiting()).toEqual([]);
    await act(async () => vi.advanceTimersByTime(400));
    expect(shownWaiting().at(-1)).toEqual(['yb']);
  });

  it('are not drawn twice in a run that ends before then', async () => {
    const [pg, yb] = await start();
    await act(async () => {
      vi.advanceTimersByTime(200);
      pg?.finish(bytes('pg'));
    });
    await act(async () => {
      vi.advanceTimersByTime(300);
      yb?.finish(bytes('yb'));
    });
    await act(async () => vi.advanceTimersByTime(2000));
    expect(shownWaiting()).toEqual([]);
    expect(seen.waiting.length).toBeGreaterThan(0);
  });
});
