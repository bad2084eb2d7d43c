// The lessons' small pure parts: routes, progress, the verdict on a guess,
// and that the catalogue the page shows is the lessons' folders.
import { beforeEach, describe, expect, it } from 'vitest';
import { routeOf } from '../routes';
import { LESSONS } from './catalogue';
import { closeness } from './components/Predict';
import { markDone, markRan, resetProgress, saveGuess, stepsDone, taskDone, useProgress } from './progress';
import { answerOf, parsePredict, parseVariants } from './spec';
import type { Report } from '../engine/schema.gen';

describe('routes', () => {
  it.each([
    ['', { kind: 'index' }],
    ['#/', { kind: 'index' }],
    ['#/lesson/01-range-scans/3', { kind: 'lesson', slug: '01-range-scans', step: 3 }],
    ['#/lesson/01-range-scans', { kind: 'lesson', slug: '01-range-scans', step: 1 }],
    ['#/lesson/01-range-scans/0', { kind: 'lesson', slug: '01-range-scans', step: 1 }],
    ['#/workbench', { kind: 'workbench' }],
    ['#/play?v=1&s=abc', { kind: 'workbench' }],
    ['#/lessonx', { kind: 'unknown', hash: '#/lessonx' }],
  ])('%s', (hash, route) => {
    expect(routeOf(hash)).toEqual(route);
  });
});

describe('progress', () => {
  beforeEach(() => resetProgress());
  it('keeps steps done and guesses per lesson, and forgets one lesson on reset', () => {
    markDone('01-x', 1);
    markDone('01-x', 3);
    markDone('02-y', 1);
    saveGuess('01-x/1/How many?', '12');
    const read = () => JSON.parse(localStorage.getItem('indexlab-progress') ?? '{}') as { done: Record<string, boolean>; guesses: Record<string, string> };
    expect(stepsDone(read(), '01-x', 4)).toBe(2);
    expect(read().guesses['01-x/1/How many?']).toBe('12');
    resetProgress('01-x');
    expect(stepsDone(read(), '01-x', 4)).toBe(0);
    expect(stepsDone(read(), '02-y', 4)).toBe(1);
    expect(typeof useProgress).toBe('function');
  });

  it('knows which tasks of a step are done: a guess saved, a scenario run', () => {
    const read = () => JSON.parse(localStorage.getItem('indexlab-progress') ?? '{}') as Parameters<typeof taskDone>[0];
    const guess = { kind: 'guess', key: '01-x/2/How many?' } as const;
    const run = { kind: 'run', key: '01-x/2/a.sql:null:' } as const;
    saveGuess('01-x/1/How many?', '3');
    expect(taskDone(read(), guess)).toBe(false);
    saveGuess(guess.key, '0');
    expect(taskDone(read(), guess)).toBe(true);
    expect(taskDone(read(), run)).toBe(false);
    markRan(run.key);
    expect(taskDone(read(), run)).toBe(true);
    resetProgress('01-x');
    expect(taskDone(read(), run)).toBe(false);
  });

  it('survives damaged storage', () => {
    localStorage.setItem('indexlab-progress', '{not json');
    markDone('01-x', 2);
    expect(stepsDone(JSON.parse(localStorage.getItem('indexlab-progress') ?? '{}'), '01-x', 2)).toBe(1);
  });
});

describe('a prediction', () => {
  it('says how close a guess was', () => {
    expect(closeness(5, 5)).toBe('Exactly right.');
    expect(closeness(95, 100)).toContain('Within 10 %');
    expect(closeness(10, 5000)).toContain('factor of 500');
    expect(closeness(3, 5)).toContain('1.7×');
    expect(closeness(0, 5)).toBe('Too low.');
  });

  it('takes its answer from the report, and refuses a line with no EXPLAIN', () => {
    const report = {
      error: null,
      statements: [
        { line: 2, explain: null, metrics: { shared_hit: 9 }, virtual_ms: 1 },
        { line: 5, explain: 'Index Only Scan', metrics: { shared_hit: 63 }, virtual_ms: 1.2 },
      ],
    } as unknown as Report;
    const spec = parsePredict({ src: 'a.sql', variant: 'pg', line: 5, counter: 'heap_fetches', question: 'q' });
    if (typeof spec === 'string') throw new Error(spec);
    // A counter the report left out (it stayed at zero) is 0; an unknown name is an error.
    expect(answerOf(spec, { pg: report })).toEqual({ kind: 'number', value: 0 });
    expect(answerOf({ ...spec, counter: 'nonsense' }, { pg: report }).kind).toBe('error');
    expect(answerOf({ ...spec, line: 2 }, { pg: report }).kind).toBe('error');
    const variants = parseVariants([{ name: 'a', profile: 'pg' }, { name: 'b', profile: 'pg', settings: 'x=1' }]);
    expect(Array.isArray(variants) && variants.map((v) => v.name)).toEqual(['a', 'b']);
    expect(parseVariants('pg,oracle')).toMatch(/not pg, yb or pg,yb/);
  });
});

describe('the catalogue', () => {
  it('lists lessons 0 to 5 in order, each with its steps', () => {
    expect(LESSONS.map((l) => l.slug.slice(0, 2))).toEqual(['00', '01', '02', '03', '04', '05']);
    for (const l of LESSONS) expect(l.meta.steps.length).toBeGreaterThan(0);
  });
});
