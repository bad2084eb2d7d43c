// Sweeps a script suggests: the comparisons the articles draw, one click from
// their scripts. Only the question is written here (which setting, which
// values, what to plot); every number on the chart comes from the engine.
import type { Variant } from '../variants/variant';
import type { SweepSpec } from './spec';

export interface SweepPreset {
  label: string;
  spec: SweepSpec;
  /** What to chart, one chart per measure. */
  measures: string[];
  /** The variants it compares (the page's are replaced). */
  variants: Variant[];
  /** What to look for, in plain words. */
  read: string;
}

const yb: Variant = { id: 'yb', name: 'yb', profile: 'yb', overrides: {} };
const pg: Variant = { id: 'pg', name: 'pg', profile: 'pg', overrides: {} };

/** Article 001: latency against batch size, one line per network. */
export const BATCH_SIZE_SWEEP: SweepPreset = {
  label: 'Latency against batch size, per network (article 001)',
  spec: {
    axis: { settings: ['yb_bnl_batch_size'], values: ['1', '5', '10', '20', '50', '100', '200', '500', '1000', '2000'] },
    by: { settings: ['network'], values: ['multi-az', 'multi-region'] },
  },
  measures: ['virtual_ms'],
  variants: [yb],
  read: 'What to look for: small batches pay a round trip per batch; large ones make the inner side do more work per loop. The best size is where the two costs meet; compare where it lies on each network.',
};

/** Article 002: storage reads per insert against the cache size, B-tree against LSM. */
export const CACHE_SWEEP: SweepPreset = {
  label: 'Reads and writes per insert against cache size, B-tree vs LSM (article 002)',
  spec: {
    axis: { settings: ['shared_buffers', 'block_cache_size'], values: ['1MB', '4MB', '16MB', '64MB', '128MB'] },
  },
  measures: ['read_bytes_per_row', 'write_bytes_per_row'],
  variants: [
    { ...pg, name: 'B-tree (pg)' },
    // The memtable shrunk with the data, so the LSM flushes and compacts during the load.
    { ...yb, name: 'LSM (yb)', overrides: { write_buffer_size: '1MB' } },
  ],
  read: "What to look for: the B-tree must read a secondary index's leaf before changing it, so its reads depend on whether the indexes fit in its cache; the LSM writes blind into its memtable, and its reads are its compactions', whatever the cache. On the writes chart, the B-tree writes pages back as it evicts them, while the LSM's flushes and compactions rewrite every row at any cache size.",
};
