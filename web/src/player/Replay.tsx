// One profile's replay: the views of that engine (pg: its B+trees and the
// buffer pool; yb: its tablets' LSMs) and the statement's counters, all
// functions of the cursor. Jumps start from the engine's snapshots (through
// Timelines), so any position costs at most a stride of events.
import { useMemo } from 'react';
import { BTreeView } from '../views/BTreeView';
import { BlockCaches, LsmView } from '../views/LsmView';
import { PoolView, type Flash } from '../views/PoolView';
import { describeEvent } from './describe';
import { lsmReducer, type LsmState, type SstMeta, type YbSnapshotState } from './lsmState';
import { statementAt, Timeline } from './player';
import { StatementMetrics } from './StatementMetrics';
import type { Report } from '../workbench/report';
import { poolReducer, type PgSnapshotState } from './poolState';
import type { Trace, TraceEvent } from './trace';
import { treeReducer, type PgTreesSnapshot } from './treeState';
import { count } from '../views/format';

const WIDTH = 540;

type PgTrace = Trace<PgSnapshotState & PgTreesSnapshot>;

function focusOf(e: TraceEvent | undefined) {
  let page: { relation: string; page: number } | null = null;
  let flash: Flash | null = null;
  const ssts = new Set<number>();
  if (e?.type === 'page_split') page = { relation: e.relation, page: e.new_page };
  if (e?.type === 'page_access') flash = { frame: e.frame, kind: e.hit ? 'hit' : 'read' };
  if (e?.type === 'page_evict') {
    flash = {
      frame: e.frame,
      kind: 'evict',
      page: `${e.relation} page ${e.page}${e.fork === 'main' ? '' : ` (${e.fork})`}`,
      written: e.written,
    };
  }
  if (e?.type === 'flush') ssts.add(e.sst);
  if (e?.type === 'compaction_start') e.inputs.forEach((i) => ssts.add(i));
  if (e?.type === 'compaction_finish') e.outputs.forEach((o) => ssts.add(o.id));
  return { page, flash, ssts };
}

const NO_SSTS: ReadonlySet<number> = new Set();

/** How many events back the highlighted path of a tree reaches. */
const TRAIL = 12;

/** Per index, the pages its last events touched in this statement: the descent or scan in progress. */
function trailsOf(trace: Trace, cursor: number): Map<string, Set<number>> {
  const trails = new Map<string, Set<number>>();
  for (let i = cursor - 1; i >= Math.max(0, cursor - TRAIL); i--) {
    const e = trace.events[i];
    if (!e || e.type === 'statement_start') break;
    if (e.type === 'page_access' || e.type === 'cursor_step') {
      const set = trails.get(e.relation) ?? new Set<number>();
      set.add(e.page);
      trails.set(e.relation, set);
    }
  }
  return trails;
}

function PgViews({ trace, cursor }: { trace: PgTrace; cursor: number }) {
  const trees = useMemo(() => new Timeline(trace, treeReducer), [trace]);
  const pool = useMemo(() => new Timeline(trace, poolReducer), [trace]);
  const t = trees.stateAt(cursor);
  const p = pool.stateAt(cursor);
  const focus = focusOf(trace.events[cursor - 1]);
  const trails = trailsOf(trace, cursor);
  const relations = [...new Set([...p.frames.values()].map((f) => f.relation))].sort();
  return (
    <>
      {[...t.values()].map((tree) => (
        <BTreeView
          key={tree.relation}
          tree={tree}
          width={WIDTH}
          focus={focus.page?.relation === tree.relation ? focus.page.page : null}
          trail={trails.get(tree.relation)}
        />
      ))}
      <PoolView pool={p} relations={relations} width={WIDTH} flash={focus.flash} />
    </>
  );
}

/** The inputs of the compaction that just finished, as they were, and where they went. */
function leavingOf(lsm: Timeline<LsmState, YbSnapshotState>, e: TraceEvent | undefined, cursor: number) {
  if (e?.type !== 'compaction_finish') return null;
  const before = lsm.stateAt(cursor - 1).tablets.get(e.tablet);
  if (!before) return null;
  const ssts = new Map<number, SstMeta>();
  for (const id of e.inputs) {
    const m = before.ssts.get(id);
    if (m) ssts.set(id, m);
  }
  return { tablet: e.tablet, level: before.running.get(e.id) ?? 1, ssts };
}

function YbViews({ trace, cursor }: { trace: Trace<YbSnapshotState>; cursor: number }) {
  const lsm = useMemo(() => new Timeline(trace, lsmReducer), [trace]);
  const state = lsm.stateAt(cursor);
  const last = trace.events[cursor - 1];
  const focus = focusOf(last);
  const leaving = leavingOf(lsm, last, cursor);
  return (
    <>
      <BlockCaches caches={state.caches} />
      {[...state.tablets].map(([id, t]) => (
        <LsmView
          key={id}
          id={id}
          tablet={t}
          width={WIDTH}
          // Tablets the event did not touch get the same props as last frame,
          // so they are not drawn again (LsmView is memoized).
          focus={[...focus.ssts].some((s) => t.ssts.has(s)) ? focus.ssts : NO_SSTS}
          leaving={leaving?.tablet === id ? leaving : undefined}
        />
      ))}
    </>
  );
}

export function Replay({
  profile,
  trace,
  report,
  cursor,
}: {
  profile: 'pg' | 'yb';
  trace: Trace;
  report: Report;
  /** Events applied: the page's one player sets it for every profile. */
  cursor: number;
}) {
  return (
    <section className="replay" data-testid={`replay-${profile}`}>
      <p className="event-caption" data-testid={`event-${profile}`}>
        {describeEvent(trace.events[cursor - 1])}
      </p>
      {trace.dropped > 0 && (
        <p className="hint">
          {count(trace.dropped)} detail events were not recorded (statements over
          trace_detail_rows keep only splits, flushes and compactions).
        </p>
      )}
      <StatementMetrics
        profile={profile}
        report={report}
        index={Math.max(0, statementAt(trace, cursor))}
      />
      <div className="views">
        {profile === 'pg' ? (
          <PgViews trace={trace as PgTrace} cursor={cursor} />
        ) : (
          <YbViews trace={trace as Trace<YbSnapshotState>} cursor={cursor} />
        )}
      </div>
    </section>
  );
}
