// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { kb, kbPrecise } from './format';

describe('sizes', () => {
  it('read against a limit with a decimal: a memtable just over 16 kB is not "17 kB of 16 kB"', () => {
    expect(kb(16_384 + 58)).toBe('17 kB');
    expect(kbPrecise(16_384 + 58)).toBe('16.1 kB');
    expect(kbPrecise(16_384)).toBe('16.0 kB');
    expect(kbPrecise(128 << 20)).toBe('128.0 MB');
  });
});
