import { describe, expect, it } from 'vitest';
import { fillText } from './btree/BTreeView';
import { scanView } from './scan';
import { isQuery } from './scan/state';
import { lsmView } from './lsm';
import type { TraceEvent } from '../trace/traceData';

// Captions true to their context: what a step did and why, for this step.
const seek = (op: string) =>
  ({
    type: 'iter_step',
    relation: 't',
    tablet: 0,
    op,
    found: true,
    blocks_read: 0,
    comparisons: { memtable: 3, files: 0, index: 0, restarts: 0, keys: 0, merge: 0, versions: 1 },
  }) as unknown as TraceEvent;

describe('captions', () => {
  it('a forward seek does not talk about backward scans; a backward one does', () => {
    expect(scanView.describe?.(seek('seek'))).not.toContain('backward');
    expect(scanView.describe?.(seek('seek'))).toContain('starts with one seek');
    expect(scanView.describe?.(seek('seek_for_prev'))).toContain('A backward scan on DocDB seeks about twice per row');
    expect(scanView.describe?.(seek('seek'))).toContain('checking the entry is a new key, not an older version 1');
  });

  it('the scan before it is a query’s, not CREATE INDEX’s', () => {
    expect(isQuery('select * from t where id < 10')).toBe(true);
    expect(isQuery('EXPLAIN (ANALYZE, BUFFERS) SELECT 1')).toBe(true);
    expect(isQuery('explain analyze with x as (select 1) select * from x')).toBe(true);
    expect(isQuery('-- the scan\nselect 1')).toBe(true);
    expect(isQuery('create index on t (v)')).toBe(false);
    expect(isQuery('update t set v = 1')).toBe(false);
    expect(isQuery('explain analyze insert into t values (1)')).toBe(false);
  });

  it('a page holding a few entries is never labelled 0 %', () => {
    expect(fillText(0.002)).toBe('<1%');
    expect(fillText(0)).toBe('0%');
    expect(fillText(0.9)).toBe('90%');
  });

  it('sizes are in kB and MB, not raw bytes', () => {
    const e = { type: 'block_cache', tserver: 0, used: 158_001, capacity: 536_870_912 } as unknown as TraceEvent;
    expect(lsmView.describe?.(e)).toBe('The block cache of tserver-1 now holds 154.3 kB of 512.0 MB');
  });
});

describe('lane names', () => {
  it('keep their start and their kind when cut to fit', async () => {
    const { fitLabel } = await import('./scan/ScanView');
    expect(fitLabel('t heap', 114)).toBe('t heap');
    const cut = fitLabel('customers_pkey buffers', 114);
    expect(cut.startsWith('custo')).toBe(true);
    expect(cut.endsWith('… buffers')).toBe(true);
    expect(cut.length * 16 * 0.72 * 0.55).toBeLessThanOrEqual(114);
  });
});
