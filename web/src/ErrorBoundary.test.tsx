import { afterEach, describe, expect, it, vi } from 'vitest';
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { ErrorBoundary } from './ErrorBoundary';

// React warns when act() is used outside a test environment flagged as such.
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let root: Root | null = null;
afterEach(() => {
  act(() => root?.unmount());
  root = null;
  document.body.innerHTML = '';
  vi.restoreAllMocks();
});

function Exploding({ when }: { when: () => boolean }) {
  if (when()) throw new Error('view exploded');
  return <p>all good</p>;
}

describe('ErrorBoundary', () => {
  it('shows the error instead of a blank page, and recovers on "Try again"', () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    let explode = true;
    const host = document.createElement('div');
    document.body.append(host);
    root = createRoot(host);
    act(() =>
      root?.render(
        <ErrorBoundary>
          <Exploding when={() => explode} />
        </ErrorBoundary>,
      ),
    );
    expect(host.querySelector('[role="alert"]')?.textContent).toContain('view exploded');

    explode = false;
    act(() => host.querySelector('button')?.click());
    expect(host.textContent).toBe('all good');
  });
});
