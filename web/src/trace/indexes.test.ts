// @vitest-environment node
// A caption about an index's page 0 says it is the metapage the tree view
// leaves out; a table's page 0 is an ordinary heap page.
import { describe, expect, it } from 'vitest';
import { nodeRun } from '../engine/nodeRun';
import { describeEvent } from '../player/describe';
import { indexesOf, pageName } from './indexes';

describe("an index's metapage", () => {
  it('is named as such in the pool captions, and only for indexes', () => {
    const script = 'create table t (id int primary key, v int);\ncreate index t_v on t (v);\ninsert into t select generate_series(1, 500), 0;\n';
    const run = nodeRun(script, 'pg', 'shared_buffers=128kB');
    const trace = run.trace;
    if (!trace) throw new Error('no trace');
    expect([...indexesOf(trace)].sort()).toEqual(['t_pkey', 't_v']);
    expect(pageName('t_pkey', 0, trace)).toContain('metapage');
    expect(pageName('t_pkey', 1, trace)).toBe('t_pkey page 1');
    expect(pageName('t', 0, trace)).toBe('t page 0');
    let captioned = 0;
    for (let i = 0; i < trace.length; i++) {
      const e = trace.event(i);
      if ((e.type === 'page_access' || e.type === 'page_evict') && e.page === 0 && e.relation === 't_v') {
        expect(describeEvent(e, trace)).toContain("t_v page 0 (the index's metapage");
        captioned += 1;
      }
    }
    expect(captioned).toBeGreaterThan(0);
  });
});
