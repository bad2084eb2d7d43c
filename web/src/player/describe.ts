// The caption for the event under the cursor: what just happened, and why.
// A view describes its own events (views/*/index.tsx); the rest are here.
import { VIEWS } from '../views/registry';
import type { Jump, TraceData, TraceEvent } from '../trace/traceData';
import { count, size } from '../format/numbers';

function general(e: TraceEvent): string {
  switch (e.type) {
    case 'statement_start':
      return `Statement ${e.index + 1} starts: ${e.sql.split('\n')[0] ?? ''}`;
    case 'statement_end':
      return `Statement ${e.index + 1} done`;
    case 'tuple_insert':
      return `${e.relation}: a row went into heap page ${e.page} (line pointer ${e.offset}): the heap keeps rows in arrival order, wherever there is room`;
    case 'visibility_change':
      return e.all_visible
        ? `${e.relation} page ${e.page} is now all-visible in the visibility map: an index-only scan can skip fetching its rows from the heap`
        : `${e.relation} page ${e.page} is no longer all-visible: index-only scans must check its rows in the heap again`;
    case 'cursor_step':
      if (e.descended) {
        return e.backward
          ? `${e.relation}: the search came down from the root to leaf ${e.page}, the last leaf holding keys in range: a backward scan starts at the high end and reads toward the low one`
          : `${e.relation}: the search came down from the root to leaf ${e.page}, the first leaf holding keys in range: one page per level of the tree, then the scan reads along the leaves`;
      }
      return e.backward
        ? `${e.relation}: the scan steps back along the left-link to leaf ${e.page}: PostgreSQL's leaves link both ways, so reading an index backward costs about what reading it forward does`
        : `${e.relation}: the scan moves on along the right-link to leaf ${e.page}, without going back up the tree`;
    case 'read_request':
      return `${e.relation} tablet ${e.tablet}: one read request: ${count(e.seeks)} seek(s) and ${count(e.nexts)} next(s) in the LSM, ${count(e.rows)} row(s) returned; block cache ${count(e.cache_hits)} hit(s), ${count(e.cache_misses)} miss(es). Each request is a round trip from the query node to a tablet server, which is why putting many keys in one request (batching) saves time`;
    case 'rpc':
      return `${e.kind}: ${e.from} → ${e.to} (tablet ${e.tablet}), ${count(e.ops)} op(s), ${count(e.rows)} row(s), ${size(e.bytes)}; ${(e.arrive_us - e.send_us).toFixed(0)} µs on the wire`;
    default:
      return e.type.replace(/_/g, ' ');
  }
}

export function describeEvent(e: TraceEvent | undefined, trace?: TraceData): string {
  if (!e) return 'Start of the run';
  for (const v of VIEWS) {
    const text = v.describe(e, trace);
    if (text) return text;
  }
  return general(e);
}

/** Jumps every run offers, beside those its views declare. */
export const GENERAL_JUMPS: Readonly<Record<string, Jump>> = {
  statement: { kinds: ['statement_start'] },
  'read request': { kinds: ['read_request'] },
  'network message': { kinds: ['rpc'] },
};
