// The articles' scripts, ready to run: each loads its script, the variants it
// compares, and the sweeps it suggests. The scripts are the fidelity tests'
// own files (tests/fidelity), so the page runs exactly what is tested.
import type { Variant } from '../variants/variant';
import { DEFAULT_VARIANTS } from '../variants/variant';
import { DEFAULT_SCRIPT } from '../workbench/defaultScript';
import { BATCH_SIZE_SWEEP, CACHE_SWEEP, type SweepPreset } from '../sweep/presets';

// Loaded when chosen: the page opens without them.
const FILES = import.meta.glob<string>('../../../tests/fidelity/00[1-4]-*.sql', { query: '?raw', import: 'default' });

/** The text of a fidelity script, by its file name. */
function fidelity(name: string): () => Promise<string> {
  return async () => {
    const load = FILES[`../../../tests/fidelity/${name}`];
    if (!load) throw new Error(`no example script ${name}`);
    return load();
  };
}

export interface Example {
  id: string;
  title: string;
  script: () => Promise<string>;
  variants: readonly Variant[];
  sweeps: readonly SweepPreset[];
}

const yb = (name: string, overrides: Record<string, string> = {}, id = 'yb'): Variant => ({ id, name, profile: 'yb', overrides });

export const EXAMPLES: readonly Example[] = [
  { id: '000', title: 'Article 000: a range scan, B+tree against LSM (10 000 rows)', script: () => Promise.resolve(DEFAULT_SCRIPT), variants: DEFAULT_VARIANTS, sweeps: [] },
  {
    id: '001',
    title: 'Article 001: batched nested loop across the network',
    script: fidelity('001-batched-nested-loop.sql'),
    variants: [yb('yb, no batching'), yb('yb, batches of 200', { yb_bnl_batch_size: '200' }, 'v2')],
    sweeps: [BATCH_SIZE_SWEEP],
  },
  {
    id: '002',
    title: 'Article 002: a write-heavy load (iibench), B-tree against LSM',
    script: fidelity('002-iibench.sql'),
    variants: CACHE_SWEEP.variants,
    sweeps: [CACHE_SWEEP],
  },
  { id: '003', title: 'Article 003: ASC or DESC, forward and backward scans', script: fidelity('003-backward-scan.sql'), variants: DEFAULT_VARIANTS, sweeps: [] },
  {
    id: '004',
    title: 'Article 004: the cost of secondary indexes (three of them)',
    // The article's harness prepends the table and N indexes; here N = 3.
    script: async () =>
      'create table demo (n bigint);\ncreate index demo1 on demo (n);\ncreate index demo2 on demo (n);\ncreate index demo3 on demo (n);\n' +
      (await fidelity('004-secondary-indexes.sql')()),
    variants: DEFAULT_VARIANTS,
    sweeps: [],
  },
];
