// One line per event, for the player's caption (what just happened).
import { kb } from '../views/format';
import type { TraceEvent } from './trace';

export function describeEvent(e: TraceEvent | undefined): string {
  if (!e) return 'Start of the run';
  switch (e.type) {
    case 'statement_start':
      return `Statement ${e.index + 1}: ${e.sql.split('\n')[0] ?? ''}`;
    case 'statement_end':
      return `Statement ${e.index + 1} done`;
    case 'page_access':
      return `${e.relation} page ${e.page}: ${e.hit ? 'buffer hit' : 'read from storage'} in frame ${e.frame}${e.dirtied ? ', now dirty' : ''}`;
    case 'page_evict':
      return `${e.relation} page ${e.page} evicted from frame ${e.frame}${e.written ? ' (dirty: written back first)' : ''}`;
    case 'page_split':
      return `${e.relation}: page ${e.page} (level ${e.level}) split, new right page ${e.new_page}${e.new_root !== null ? `, new root ${e.new_root}` : ''}`;
    case 'tuple_insert':
      return `${e.relation}: tuple inserted on page ${e.page}`;
    case 'visibility_change':
      return `${e.relation} page ${e.page}: ${e.all_visible ? 'all-visible' : 'no longer all-visible'}`;
    case 'cursor_step':
      return `${e.relation}: scan ${e.backward ? 'back' : 'on'} to leaf ${e.page}`;
    case 'checkpoint':
      return `Checkpoint: ${e.pages_written} dirty page(s) written`;
    case 'memtable_insert':
      return `${e.relation} tablet ${e.tablet}: entry into the memtable (${e.bytes} bytes)`;
    case 'memtable_sealed':
      return `${e.relation} tablet ${e.tablet}: memtable sealed (${e.entries} entries)`;
    case 'flush':
      return `${e.relation} tablet ${e.tablet}: flushed to SST ${e.sst} (${e.entries} entries, ${e.deletes} tombstone(s))`;
    case 'compaction_start':
      return `${e.relation} tablet ${e.tablet}: compaction of SSTs ${e.inputs.join(', ')} into L${e.output_level}`;
    case 'compaction_finish':
      return `${e.relation} tablet ${e.tablet}: compaction done, SST(s) ${e.outputs.map((o) => o.id).join(', ') || 'none'} replace ${e.inputs.join(', ')}; dropped ${e.dropped_versions} old version(s) and ${e.dropped_tombstones} tombstone(s)`;
    case 'read_request':
      return `${e.relation} tablet ${e.tablet}: read request, ${e.seeks} seek(s), ${e.nexts} next(s), ${e.rows} row(s); block cache ${e.cache_hits} hit(s), ${e.cache_misses} miss(es)`;
    case 'block_cache':
      return `Block cache of tserver-${e.tserver + 1}: ${kb(e.used)} of ${kb(e.capacity)}`;
    case 'rpc':
      return `${e.kind}: ${e.from} → ${e.to}, tablet ${e.tablet}, ${e.ops} op(s), ${e.bytes} bytes`;
  }
}
