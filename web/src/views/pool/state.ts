// The buffer pool view's state: which page each frame holds and whether it is
// dirty. Starts from a pg snapshot's frames; page accesses fill frames,
// evictions empty them, a checkpoint cleans every page.

import type { Reducer } from '../../trace/timeline';
import type { TraceEvent } from '../../trace/traceData';

export interface FrameState {
  relation: string;
  fork: string;
  page: number;
  dirty: boolean;
}

export interface PoolState {
  capacity: number;
  /** Frame number → what it holds (absent: free). */
  frames: ReadonlyMap<number, FrameState>;
}

export const poolReducer: Reducer<PoolState> = {
  fromSnapshot(s) {
    const frames = new Map<number, FrameState>();
    if (s.profile !== 'pg') return { capacity: 0, frames };
    for (const [frame, relation, fork, page, dirty] of s.pool.frames) {
      frames.set(frame, { relation, fork, page, dirty });
    }
    return { capacity: s.pool.capacity, frames };
  },
  apply(state, e: TraceEvent) {
    switch (e.type) {
      case 'page_evict': {
        const frames = new Map(state.frames);
        frames.delete(e.frame);
        return { ...state, frames };
      }
      case 'page_access': {
        const old = state.frames.get(e.frame);
        const same = old && old.relation === e.relation && old.fork === e.fork && old.page === e.page;
        const frames = new Map(state.frames);
        frames.set(e.frame, {
          relation: e.relation,
          fork: e.fork,
          page: e.page,
          dirty: e.dirtied || (same ? old.dirty : false),
        });
        return { ...state, frames };
      }
      case 'checkpoint': {
        const frames = new Map<number, FrameState>();
        for (const [id, f] of state.frames) frames.set(id, { ...f, dirty: false });
        return { ...state, frames };
      }
      default:
        return state;
    }
  },
};

/** Main-fork frames as sorted text lines: what two states must agree on. */
export function mainFrames(state: PoolState): string[] {
  return [...state.frames]
    .filter(([, f]) => f.fork === 'main')
    .map(([id, f]) => `${id} ${f.relation}/${f.page}${f.dirty ? ' dirty' : ''}`)
    .sort();
}
