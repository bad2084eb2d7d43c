// @vitest-environment node
// The landing page's miniature on real runs of both engines: the picture it
// loops through shows splits, flushes and a compaction, and both engines
// show the same number of keys written at every moment of the loop.
import { describe, expect, it } from 'vitest';
import { nodeRun } from '../engine/nodeRun';
import { settingsLines } from '../workbench/settings';
import type { Profile } from '../views/registry';
import { cursorAt, KEYS, SCRIPT, SETTINGS, tally, trackOf } from './miniature';

function track(profile: Profile) {
  const run = nodeRun(SCRIPT, profile, settingsLines(SETTINGS[profile]));
  if (!run.trace) throw new Error(`no trace: ${run.report.error?.message ?? ''}`);
  return trackOf(profile, run.trace);
}

describe('the landing miniature', () => {
  const pg = track('pg');
  const yb = track('yb');

  it('runs to the end with every key written, and something worth seeing happens on both', () => {
    const end = tally(pg, cursorAt(pg, 1));
    expect(end.keys).toBe(KEYS);
    // Leaves split often enough to grow a tree of several leaves under a root.
    expect(end.events.page_split ?? 0).toBeGreaterThanOrEqual(5);
    const lsm = tally(yb, cursorAt(yb, 1));
    expect(lsm.keys).toBe(KEYS);
    expect(lsm.events.flush ?? 0).toBeGreaterThanOrEqual(3);
    expect(lsm.events.compaction_finish ?? 0).toBeGreaterThanOrEqual(1);
  });

  it('keeps both engines at the same key all through the loop, and never moves backwards', () => {
    let before = [0, 0];
    for (let step = 0; step <= 200; step++) {
      const t = step / 200;
      const cursors = [cursorAt(pg, t), cursorAt(yb, t)];
      const [a, b] = [tally(pg, cursors[0] ?? 0).keys, tally(yb, cursors[1] ?? 0).keys];
      expect(Math.abs(a - b)).toBeLessThanOrEqual(1);
      expect(cursors[0]).toBeGreaterThanOrEqual(before[0] ?? 0);
      expect(cursors[1]).toBeGreaterThanOrEqual(before[1] ?? 0);
      before = cursors;
    }
    expect(cursorAt(pg, 0)).toBe(0);
    expect(cursorAt(pg, 1)).toBe(pg.trace.length);
  });

  it('captions the last split or flush, so the words say why the picture changed', () => {
    const at = cursorAt(pg, 1);
    const last = pg.notable[at] ?? -1;
    expect(last).toBeGreaterThanOrEqual(0);
    expect(pg.trace.kind(last)).toBe('page_split');
    expect(yb.trace.kind(yb.notable[cursorAt(yb, 1)] ?? -1)).toMatch(/flush|compaction|sealed/);
  });
});
