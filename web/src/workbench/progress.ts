// How far a run is, from the engine's reports: statement runs done of the
// script's total, per column (a variant, keyed by its id).

export type Progress = Partial<Record<string, { done: number; total: number }>>;

/** The share of the work done, each profile counting equally; nothing heard yet: null. */
export function fractionDone(profiles: readonly string[], progress: Progress): number | null {
  if (!profiles.some((p) => progress[p])) return null;
  const parts = profiles.map((p) => {
    const x = progress[p];
    return x && x.total > 0 ? x.done / x.total : 0;
  });
  return parts.reduce((a, b) => a + b, 0) / parts.length;
}

/** "statements done: pg 100/100 · yb 37/100" (a profile not started yet: "waiting"). */
export function progressLine(
  profiles: readonly string[],
  progress: Progress,
  nameOf: (key: string) => string = (k) => k,
): string {
  const parts = profiles.map((p) => {
    const x = progress[p];
    return x ? `${nameOf(p)} ${x.done}/${x.total}` : `${nameOf(p)} waiting`;
  });
  return `statements done: ${parts.join(' · ')}`;
}

/**
 * The progress of the run under way, kept outside React state. Each worker
 * reports every 50 ms; were that the page's state, every report would redraw
 * the page, the last run's views and canvases with it, on the core the two
 * workers need. Only the status line subscribes.
 */
export class RunProgress {
  private progress: Progress = {};
  private readonly listeners = new Set<() => void>();

  report(key: string, done: number, total: number): void {
    this.progress = { ...this.progress, [key]: { done, total } };
    for (const listener of this.listeners) listener();
  }

  /** For `useSyncExternalStore`. */
  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  readonly current = (): Progress => this.progress;
}
