// The articles' scripts, ready to run: each loads its script, the variants it
// compares, and the sweeps it suggests. The scripts are the fidelity tests'
// own files (tests/fidelity), so the page runs exactly what is tested.
import type { Variant } from '../variants/variant';
import { DEFAULT_VARIANTS } from '../variants/variant';
import { DEFAULT_SCRIPT } from '../workbench/defaultScript';
import { BATCH_SIZE_SWEEP, CACHE_SWEEP, type SweepPreset } from '../sweep/presets';
import script001 from '../../../tests/fidelity/001-batched-nested-loop.sql?raw';
import script002 from '../../../tests/fidelity/002-iibench.sql?raw';
import script003 from '../../../tests/fidelity/003-backward-scan.sql?raw';
import script004 from '../../../tests/fidelity/004-secondary-indexes.sql?raw';

export interface Example {
  id: string;
  title: string;
  script: string;
  variants: readonly Variant[];
  sweeps: readonly SweepPreset[];
}

const yb = (name: string, overrides: Record<string, string> = {}, id = 'yb'): Variant => ({ id, name, profile: 'yb', overrides });

export const EXAMPLES: readonly Example[] = [
  { id: '000', title: 'Article 000: a range scan, B+tree against LSM (10 000 rows)', script: DEFAULT_SCRIPT, variants: DEFAULT_VARIANTS, sweeps: [] },
  {
    id: '001',
    title: 'Article 001: batched nested loop across the network',
    script: script001,
    variants: [yb('yb, no batching'), yb('yb, batches of 200', { yb_bnl_batch_size: '200' }, 'v2')],
    sweeps: [BATCH_SIZE_SWEEP],
  },
  {
    id: '002',
    title: 'Article 002: a write-heavy load (iibench), B-tree against LSM',
    script: script002,
    variants: CACHE_SWEEP.variants,
    sweeps: [CACHE_SWEEP],
  },
  { id: '003', title: 'Article 003: ASC or DESC, forward and backward scans', script: script003, variants: DEFAULT_VARIANTS, sweeps: [] },
  {
    id: '004',
    title: 'Article 004: the cost of secondary indexes (three of them)',
    script:
      'create table demo (n bigint);\ncreate index demo1 on demo (n);\ncreate index demo2 on demo (n);\ncreate index demo3 on demo (n);\n' +
      script004,
    variants: DEFAULT_VARIANTS,
    sweeps: [],
  },
];
