// A student's progress, kept in this browser (localStorage): the steps done,
// and each prediction's guess. Read through a store so every view of it
// (the index, the step list) follows a change at once.
import { useSyncExternalStore } from 'react';

export interface Progress {
  /** "slug/step" → true when done. */
  done: Record<string, boolean>;
  /** "slug/step/question" → the student's guess, as typed or picked. */
  guesses: Record<string, string>;
  /** "slug/step/scenario" → true once that scenario has run. */
  ran: Record<string, boolean>;
}

const KEY = 'indexlab-progress';
const EMPTY: Progress = { done: {}, guesses: {}, ran: {} };
const listeners = new Set<() => void>();
let cached: { text: string | null; value: Progress } | undefined;

function read(): Progress {
  let text: string | null = null;
  try {
    text = localStorage.getItem(KEY);
  } catch {
    // Storage off (a private window): progress lasts for the page.
  }
  if (cached && cached.text === text) return cached.value;
  let value = EMPTY;
  try {
    const o = text ? (JSON.parse(text) as Partial<Progress>) : {};
    value = { done: { ...(o.done ?? {}) }, guesses: { ...(o.guesses ?? {}) }, ran: { ...(o.ran ?? {}) } };
  } catch {
    value = EMPTY;
  }
  cached = { text, value };
  return value;
}

function write(p: Progress): void {
  const text = JSON.stringify(p);
  try {
    localStorage.setItem(KEY, text);
  } catch {
    // Kept in memory only.
  }
  cached = { text, value: p };
  listeners.forEach((l) => l());
}

export function markDone(slug: string, step: number): void {
  const p = read();
  if (p.done[`${slug}/${step}`]) return;
  write({ ...p, done: { ...p.done, [`${slug}/${step}`]: true } });
}

/** Records that a step's scenario ran (once is enough). */
export function markRan(key: string): void {
  const p = read();
  if (p.ran[key]) return;
  write({ ...p, ran: { ...p.ran, [key]: true } });
}

/**
 * A step's task, as a component on it registers it: a prediction to answer
 * (its guess's key) or a scenario to run (its run's key).
 */
export type Task = { kind: 'guess'; key: string } | { kind: 'run'; key: string };

/** Whether the student has done `task`. */
export function taskDone(p: Progress, task: Task): boolean {
  return task.kind === 'guess' ? p.guesses[task.key] !== undefined : p.ran[task.key] === true;
}

export function saveGuess(key: string, guess: string): void {
  const p = read();
  write({ ...p, guesses: { ...p.guesses, [key]: guess } });
}

/** Forgets one lesson's progress, or everything. */
export function resetProgress(slug?: string): void {
  if (slug === undefined) return write(EMPTY);
  const p = read();
  const keep = <T,>(r: Record<string, T>) => Object.fromEntries(Object.entries(r).filter(([k]) => !k.startsWith(`${slug}/`)));
  write({ done: keep(p.done), guesses: keep(p.guesses), ran: keep(p.ran) });
}

export function stepsDone(p: Pick<Progress, 'done'>, slug: string, steps: number): number {
  let n = 0;
  for (let i = 1; i <= steps; i++) if (p.done[`${slug}/${i}`]) n += 1;
  return n;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  const onStorage = (e: StorageEvent) => e.key === KEY && listener();
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

export function useProgress(): Progress {
  return useSyncExternalStore(subscribe, read, () => EMPTY);
}
