// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { describeEvent } from './describe';
import type { TraceEvent } from '../trace/traceData';

const step = (descended: boolean, backward: boolean): TraceEvent => ({
  type: 'cursor_step',
  relation: 't_pkey',
  page: 6,
  backward,
  descended,
});

describe('a leaf step caption', () => {
  it('says the search came down from the root to the first leaf, not along a link', () => {
    const text = describeEvent(step(true, false));
    expect(text).toContain('came down from the root to leaf 6');
    expect(text).not.toContain('right-link');
  });

  it('names the sibling link for the leaves after it, both ways', () => {
    expect(describeEvent(step(false, false))).toContain('along the right-link to leaf 6');
    expect(describeEvent(step(false, true))).toContain('along the left-link to leaf 6');
    expect(describeEvent(step(true, true))).toContain('the last leaf holding keys in range');
  });
});
