// Where a lesson's <Watch> narrations stop the player. A narration names an
// event ("the batch's keys arrive at their tablets together"), but the
// picture it speaks of is only true a few events later: a round of read
// requests is traced tablet by tablet (each server's work, then the RPCs), so
// at the round's first read request the network view has not drawn one of its
// arrows yet. A narrated event that is part of a round of RPCs therefore
// stops the player at the end of that round, when all its messages are drawn.
// (A lone request is traced the other way round, its RPCs first, then the
// read request: there the picture is already whole.)
import type { ReactNode } from 'react';
import type { Joint } from '../trace/joint';
import type { EventKind, TraceData } from '../trace/traceData';
import { isRequest } from '../views/network/rounds';

/** A narration: after the `nth` event of kind `at` (in `variant`'s column, or any). */
export interface Narration {
  at: string;
  nth: number;
  variant: string | undefined;
  words: ReactNode;
}

/**
 * The views that show a narrated event, best first: the picture a narration
 * speaks of, which the page brings on screen beside it. A round of RPCs is
 * the network view's, or, where the scenario does not show it, the scan
 * view's (its read requests cut the scan).
 */
const VIEWS_OF: Readonly<Record<string, readonly string[]>> = {
  read_request: ['network', 'scan'],
  rpc: ['network'],
  join_loop: ['network', 'scan'],
  iter_step: ['scan', 'lsm'],
  cursor_step: ['scan', 'btree'],
  heap_fetch: ['scan'],
  plan_phase: ['scan'],
  visibility_change: ['scan'],
  page_split: ['btree'],
  page_access: ['pool', 'scan'],
  page_evict: ['pool'],
  checkpoint: ['pool'],
  memtable_insert: ['lsm'],
  memtable_sealed: ['lsm'],
  flush: ['lsm'],
  compaction_start: ['lsm'],
  compaction_finish: ['lsm'],
};

/** The view (id) among `shown` that pictures a narrated event of `kind`, if any. */
export function viewOfMoment(kind: string, shown: readonly string[]): string | undefined {
  return (VIEWS_OF[kind] ?? []).find((v) => shown.includes(v));
}

/** Kinds that happen inside a round of RPCs: their moment lasts until the round is drawn. */
const IN_A_ROUND: ReadonlySet<EventKind> = new Set<EventKind>(['read_request', 'rpc', 'join_loop']);
/** Events a round's tablet-server work is traced as, before its RPCs. */
const SERVER_WORK: ReadonlySet<EventKind> = new Set<EventKind>(['read_request', 'iter_step', 'block_cache', 'memtable_insert', 'memtable_sealed']);

/**
 * The cursor just after the moment event `i` belongs to: for an event inside
 * a round of RPCs, just after the round's last message (its RPCs are traced
 * together, after the servers' work); for any other event, just after it.
 */
export function momentEnd(trace: TraceData, i: number): number {
  if (!IN_A_ROUND.has(trace.kind(i))) return i + 1;
  if (trace.kind(i) === 'read_request' && answeredBefore(trace, i)) return i + 1;
  let end = i + 1;
  let sent: number | undefined;
  let seenRpc = false;
  for (let k = i + (trace.kind(i) === 'join_loop' ? 1 : 0); k < trace.length; k++) {
    const kind = trace.kind(k);
    if (kind === 'rpc') {
      const e = trace.event(k);
      if (e.type !== 'rpc') break;
      const request = isRequest(e);
      // A request sent at another moment starts the next round.
      if (request && sent !== undefined && e.send_us !== sent) break;
      if (request) sent = e.send_us;
      seenRpc = true;
      end = k + 1;
    } else if (seenRpc || !SERVER_WORK.has(kind)) {
      // The round's messages are contiguous: anything else after them ends it.
      break;
    }
  }
  return end;
}

/** Whether read request `i`'s RPCs were traced just before it (only the server's work between). */
function answeredBefore(trace: TraceData, i: number): boolean {
  for (let k = i - 1; k >= 0; k--) {
    const kind = trace.kind(k);
    if (kind === 'rpc') return true;
    if (kind === 'read_request' || !SERVER_WORK.has(kind)) return false;
  }
  return false;
}

/**
 * The joint position a narration of event `i` (of track `k`) stops at. A
 * statement's end waits for every column to finish the statement ("the join
 * is over in every column"): the columns advance in proportion, so one may
 * still have its last events to go when another is done.
 */
function stopAfter(joint: Joint, k: number, trace: TraceData, i: number): number {
  const e = trace.kind(i) === 'statement_end' ? trace.event(i) : undefined;
  const all = e?.type === 'statement_end' ? joint.positionAfterStatement(e.index) : undefined;
  return all ?? joint.positionOf(k, momentEnd(trace, i));
}

/** Where each narration's moment ends on the joint player (ascending), or none if its run lacks the event. */
export function narrationStops(
  joint: Joint,
  tracks: readonly { column: { name: string }; trace: TraceData }[],
  narrations: readonly Narration[],
  from = 0,
): { position: number; narration: Narration }[] {
  const stops: { position: number; narration: Narration }[] = [];
  // Events are counted from `from` (a statement's start): "the first read request" of that statement.
  const origin = joint.cursors(from);
  for (const n of narrations) {
    let best = Infinity;
    tracks.forEach((t, k) => {
      if (n.variant !== undefined && t.column.name !== n.variant) return;
      let seen = 0;
      for (let i = from === 0 ? 0 : (origin[k] ?? 0); i < t.trace.length; i++) {
        if (t.trace.kind(i) !== n.at) continue;
        seen += 1;
        if (seen === n.nth) {
          best = Math.min(best, stopAfter(joint, k, t.trace, i));
          break;
        }
      }
    });
    if (Number.isFinite(best)) stops.push({ position: best, narration: n });
  }
  return stops.sort((a, b) => a.position - b.position);
}
