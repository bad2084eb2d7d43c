// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { fractionDone, progressLine } from './progress';

describe('run progress', () => {
  it('is unknown until the engine reports, then counts each profile equally', () => {
    expect(fractionDone(['pg', 'yb'], {})).toBeNull();
    expect(fractionDone(['pg', 'yb'], { pg: { done: 50, total: 100 } })).toBe(0.25);
    expect(
      fractionDone(['pg', 'yb'], { pg: { done: 100, total: 100 }, yb: { done: 25, total: 100 } }),
    ).toBe(0.625);
    expect(fractionDone(['yb'], { yb: { done: 3, total: 4 } })).toBe(0.75);
    // An empty script has nothing to do: no division by zero.
    expect(fractionDone(['pg'], { pg: { done: 0, total: 0 } })).toBe(0);
  });

  it('says where each profile is', () => {
    expect(progressLine(['pg', 'yb'], { pg: { done: 100, total: 100 } })).toBe(
      'statements done: pg 100/100 · yb waiting',
    );
  });
});
