// The landing page's miniature: one small script run on both engines, and
// what its picture shows at each moment of the loop. Pure functions of the
// runs' traces, so the page and its tests read the same numbers.
import type { TraceData } from '../trace/traceData';
import type { Profile } from '../views/registry';

/** How many keys the miniature inserts: enough for splits and flushes, few enough to follow. */
export const KEYS = 400;

/**
 * The keys arrive scattered (i × 7919 mod 400 visits every number from 1 to
 * 400 once, 7919 being prime), so the B+tree splits pages in its middle and
 * the LSM's memtable sorts what arrived out of order before each flush.
 */
export const SCRIPT = `create table t (id int primary key, v int) split into 1 tablets;
insert into t select (i * 7919) % ${KEYS} + 1, 0 from generate_series(0, ${KEYS - 1}) i;
`;

/**
 * Sizes shrunk so that a few hundred keys show what millions would: 1 kB
 * B+tree pages (8 kB in PostgreSQL) hold about 45 keys each; a 4 kB memtable
 * (128 MB in YugabyteDB) flushes every hundred keys, and three files in level
 * 0 start a compaction.
 */
export const SETTINGS: Readonly<Record<Profile, Readonly<Record<string, string>>>> = {
  pg: { page_size: '1kB' },
  yb: { write_buffer_size: '4kB', level0_file_num_compaction_trigger: '3' },
};

/** The event that writes one key, per engine. */
const KEY_EVENT: Record<Profile, string> = { pg: 'tuple_insert', yb: 'memtable_insert' };

/** The events worth a caption, per engine: what changed the picture's shape. */
const NOTABLE: Record<Profile, readonly string[]> = {
  pg: ['page_split'],
  yb: ['memtable_sealed', 'flush', 'compaction_start', 'compaction_finish'],
};

/** Seconds one pass of the loop takes, and how long the finished picture stays before it starts again. */
export const PASS_SECONDS = 12;
export const HOLD_SECONDS = 3;

/** What one engine's trace says at each cursor: keys written so far, what they caused, the last notable event. */
export interface MiniatureTrack {
  profile: Profile;
  trace: TraceData;
  /** counts.get(kind)[k]: events of `kind` (the key event and the notable ones) among the first k. */
  counts: ReadonlyMap<string, Int32Array>;
  /** notable[k]: the index of the last notable event among the first k, or -1. */
  notable: Int32Array;
  /** written[j]: the cursor just after the j-th key's event (written[0] = 0). */
  written: Int32Array;
}

export function trackOf(profile: Profile, trace: TraceData): MiniatureTrack {
  const counted = [KEY_EVENT[profile], ...NOTABLE[profile]];
  const counts = new Map(counted.map((kind) => [kind, new Int32Array(trace.length + 1)]));
  const notable = new Int32Array(trace.length + 1).fill(-1);
  const written = [0];
  for (let i = 0; i < trace.length; i++) {
    const kind = trace.kind(i);
    for (const [k, c] of counts) c[i + 1] = (c[i] ?? 0) + (k === kind ? 1 : 0);
    notable[i + 1] = NOTABLE[profile].includes(kind) ? i : (notable[i] ?? -1);
    if (kind === KEY_EVENT[profile]) written.push(i + 1);
  }
  return { profile, trace, counts, notable, written: Int32Array.from(written) };
}

/**
 * The cursor `t` (0 … 1) of the way through the keys: both engines show the
 * same number of keys written at the same moment, however many events each
 * spends on a key. Between two keys the cursor moves through the events in
 * between (a page split, a flush), so each is drawn; at 1 the run is whole.
 */
export function cursorAt(track: MiniatureTrack, t: number): number {
  const { written, trace } = track;
  const keys = written.length - 1;
  const f = Math.min(1, Math.max(0, t)) * keys;
  if (f >= keys) return trace.length;
  const j = Math.floor(f);
  const from = written[j] ?? 0;
  const to = written[j + 1] ?? trace.length;
  return from + Math.round((f - j) * (to - from));
}

/** Counts of what happened by `cursor`, for the line under each picture. */
export function tally(track: MiniatureTrack, cursor: number): { keys: number; events: Record<string, number> } {
  const at = (kind: string) => track.counts.get(kind)?.[Math.min(cursor, track.trace.length)] ?? 0;
  const events = Object.fromEntries(NOTABLE[track.profile].map((kind) => [kind, at(kind)]));
  return { keys: at(KEY_EVENT[track.profile]), events };
}
