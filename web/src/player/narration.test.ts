// The view a narration names: the one the page brings on screen beside it.
import { describe, expect, it } from 'vitest';
import { viewOfMoment } from './narration';

describe('the view a narrated moment names', () => {
  it('is the picture of the event, among the views the scenario shows', () => {
    const all = ['btree', 'pool', 'scan', 'lsm', 'network'];
    expect(viewOfMoment('read_request', all)).toBe('network');
    expect(viewOfMoment('page_split', all)).toBe('btree');
    expect(viewOfMoment('flush', all)).toBe('lsm');
    expect(viewOfMoment('page_evict', all)).toBe('pool');
    expect(viewOfMoment('heap_fetch', all)).toBe('scan');
  });

  it('falls back to the next view that pictures it, or to none', () => {
    // A round of RPCs where the network view is not shown: the scan view's read requests cut the scan.
    expect(viewOfMoment('read_request', ['btree', 'scan', 'lsm'])).toBe('scan');
    expect(viewOfMoment('cursor_step', ['btree', 'pool'])).toBe('btree');
    expect(viewOfMoment('page_split', ['scan', 'network'])).toBeUndefined();
    expect(viewOfMoment('statement_end', ['scan'])).toBeUndefined();
  });
});
