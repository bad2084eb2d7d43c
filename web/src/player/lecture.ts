// Lecture pace: playing pauses on the events a teacher talks about, the first
// of each kind in each statement (a bulk load's thousand splits pause once, at
// the first; step on to see the others). Pure: positions on the joint player.
import type { Joint } from '../trace/joint';
import type { Jump, TraceData, TraceEvent } from '../trace/traceData';

export interface LectureKind {
  name: string;
  jump: Jump;
}

const backwardSeek = (e: TraceEvent) => e.type === 'iter_step' && (e.op === 'seek_for_prev' || e.op === 'seek_to_last');

export const LECTURE_KINDS: readonly LectureKind[] = [
  { name: 'page split', jump: { kinds: ['page_split'] } },
  { name: 'flush', jump: { kinds: ['flush'] } },
  { name: 'compaction', jump: { kinds: ['compaction_start'] } },
  { name: 'read request', jump: { kinds: ['read_request'] } },
  { name: 'backward seek', jump: { kinds: ['iter_step'], test: backwardSeek } },
  { name: 'backward step', jump: { kinds: ['cursor_step'], test: (e) => e.type === 'cursor_step' && e.backward } },
];

/** A pause: where the player stops (just after the event), and which event of which trace. */
export interface LectureStop {
  position: number;
  track: number;
  event: number;
  kind: string;
}

/** Every stop of the run, in player order. */
export function lectureStops(joint: Joint, traces: readonly TraceData[]): LectureStop[] {
  const stops: LectureStop[] = [];
  traces.forEach((t, track) => {
    let seen = new Set<string>();
    for (let i = 0; i < t.length; i++) {
      const kind = t.kind(i);
      if (kind === 'statement_start') seen = new Set();
      for (const k of LECTURE_KINDS) {
        if (seen.has(k.name) || !k.jump.kinds.includes(kind)) continue;
        if (k.jump.test && !k.jump.test(t.event(i))) continue;
        seen.add(k.name);
        stops.push({ position: joint.positionOf(track, i + 1), track, event: i, kind: k.name });
      }
    }
  });
  return stops.sort((a, b) => a.position - b.position || a.track - b.track);
}

/** The first stop past `from` and no further than `to`, if any. */
export function stopBetween(stops: readonly LectureStop[], from: number, to: number): LectureStop | undefined {
  return stops.find((s) => s.position > from && s.position <= to);
}
