// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { count, groupDigits, kb, kbPrecise, size, THIN } from './numbers';

describe('sizes', () => {
  it('read against a limit with a decimal: a memtable just over 16 kB is not "17 kB of 16 kB"', () => {
    expect(kb(16_384 + 58)).toBe('17 kB');
    expect(kbPrecise(16_384 + 58)).toBe('16.1 kB');
    expect(kbPrecise(16_384)).toBe('16.0 kB');
    expect(kbPrecise(128 << 20)).toBe('128.0 MB');
  });

  it('says bytes only when a size is small', () => {
    expect(size(200)).toBe('200 bytes');
    expect(size(158_001)).toBe('155 kB');
  });
});

describe('one number format', () => {
  it('groups thousands with a narrow no-break space, never a comma', () => {
    expect(count(1_234_567)).toBe(`1${THIN}234${THIN}567`);
    expect(count(999)).toBe('999');
    expect(count(0.25)).toBe('0.25');
    expect(count(-2500)).toBe(`-2${THIN}500`);
  });

  it("rewrites a lesson's prose numbers the same way, and nothing else", () => {
    expect(groupDigits('the 2 500 newest of 1 000 000 rows')).toBe(`the 2${THIN}500 newest of 1${THIN}000${THIN}000 rows`);
    expect(groupDigits('2,500 rows')).toBe(`2${THIN}500 rows`);
    expect(groupDigits('ids 100, 200 and 300; 12 1234; year 2026')).toBe('ids 100, 200 and 300; 12 1234; year 2026');
  });
});
