// The scan view (pg and yb): the statement under the cursor, step by step —
// the DocDB iterator's seeks, nexts and prevs over the LSM's sources, or the
// index cursor's leaves and heap fetches — against the scan before it. See
// steps.ts for what a step is.
import type { TraceEvent } from '../../trace/traceData';
import type { ViewDef, ViewProps } from '../registry';
import { ScanView } from './ScanView';
import { scanAt, type ScanState } from './state';
import { phaseMark, phaseText } from './phases';
import { partsText, scalesOf, totalOf, totalsText } from './steps';
import { count } from '../../format/numbers';

function Scan({ state, width, shared }: ViewProps<ScanState>) {
  const title = state.statement ? `Statement ${state.statement.index + 1}` : 'No statement yet';
  return (
    <ScanView
      steps={state.steps}
      shown={state.shown}
      totals={state.totals}
      cuts={state.cuts}
      cutsShown={state.cutsShown}
      phases={state.phases}
      phasesShown={state.phasesShown}
      title={title}
      previous={state.previous}
      heaps={state.heaps}
      width={width}
      shared={shared}
    />
  );
}

function where(e: Extract<TraceEvent, { type: 'iter_step' }>): string {
  if (e.sst === null) return "the memtable's skip list";
  return `SST ${e.sst} on L${e.level ?? 0} (its index block, then data block ${e.block ?? '?'}: the restart points, then the keys after one)`;
}

function describe(e: TraceEvent): string | null {
  switch (e.type) {
    case 'iter_step': {
      const reads = e.blocks_read > 0 ? `, reading ${count(e.blocks_read)} block(s)` : '';
      const n = totalOf(e.comparisons);
      const parts = partsText(e.comparisons);
      switch (e.op) {
        case 'next':
          return e.found
            ? `Next: one step to the following entry${reads} — ${n} key comparison(s) (${parts}). A forward scan is a seek, then nexts`
            : 'Next: past the last entry, the scan of this tablet ends';
        case 'prev':
          return `Prev: one step back${reads}. The skip list has no back links, so it searches again: ${n} key comparisons (${parts}). That is why a backward scan costs more than a forward one`;
        default: {
          // Why this seek, by its kind: a backward step is a seek of its own on DocDB.
          const why =
            e.op === 'seek_for_prev' || e.op === 'seek_to_last'
              ? 'A backward scan on DocDB seeks about twice per row'
              : 'A lookup or a forward scan starts with one seek; the rows after it are nexts';
          return `${e.op === 'seek' ? 'Seek' : e.op.replace(/_/g, ' ')}: a search of every source, landing in ${where(e)}${reads} — ${n} key comparison(s): ${parts}${e.found ? '' : '; nothing there'}. ${why}`;
        }
      }
    }
    case 'plan_phase':
      return phaseText(phaseMark(e, 0));
    case 'heap_fetch':
      if (e.bitmap)
        return `Bitmap Heap Scan: a row on ${e.relation} page ${e.page}. The index was read first, whole, into a bitmap of row addresses; now each marked page is read once, in page order, so no page is read twice and the reads go along the file. The planner chose it because the rows were too many, or too scattered, for one random read each, and too few to read the whole table`;
      return e.index_only
        ? `Heap fetch: the visibility map does not mark ${e.relation} page ${e.page} all-visible, so this Index Only Scan reads the row from the heap to check it is visible. VACUUM sets those bits; then the index alone answers`
        : `Index Scan: the row is read from ${e.relation} page ${e.page} (the index holds only its key and where the row is)`;
    default:
      return null;
  }
}

export const scanView: ViewDef<ScanState> = {
  id: 'scan',
  title: 'Scan',
  profiles: ['pg', 'yb'],
  readAt: scanAt,
  Component: Scan,
  jumps: {
    seek: { kinds: ['iter_step'], test: (e) => e.type === 'iter_step' && e.op.startsWith('seek') },
    'heap fetch': { kinds: ['heap_fetch'] },
    'plan phase': { kinds: ['plan_phase'] },
  },
  describe,
  scales: (state) => scalesOf(state.steps),
  summary(state) {
    if (!state.statement) return ['No statement has started yet'];
    if (state.steps.length === 0) return [`Statement ${state.statement.index + 1}: no scan steps recorded`];
    const now = state.totals;
    const lines = [
      `Statement ${state.statement.index + 1}: ${totalsText(now)}${state.cuts.length > 0 ? `, in ${count(state.cutsShown)} read request(s)` : ''}`,
    ];
    for (const p of state.phases.slice(0, state.phasesShown)) lines.push(phaseText(p));
    if (state.previous) lines.push(`The scan before (statement ${state.previous.index + 1}): ${totalsText(state.previous.totals)}`);
    for (const h of state.heaps) {
      const visible = h.visible.reduce((a, v) => a + v, 0);
      lines.push(`Visibility map of ${h.relation}: ${count(visible)} of ${count(h.pages)} heap page(s) all-visible`);
    }
    return lines;
  },
};
