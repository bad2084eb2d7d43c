// How far a run is, from the engine's reports: statement runs done of the
// script's total, per profile ("both" runs pg, then yb).
import type { Profile } from './report';

export type Progress = Partial<Record<Profile, { done: number; total: number }>>;

/** The share of the work done, each profile counting equally; nothing heard yet: null. */
export function fractionDone(profiles: readonly Profile[], progress: Progress): number | null {
  if (!profiles.some((p) => progress[p])) return null;
  const parts = profiles.map((p) => {
    const x = progress[p];
    return x && x.total > 0 ? x.done / x.total : 0;
  });
  return parts.reduce((a, b) => a + b, 0) / parts.length;
}

/** "statements done: pg 100/100 · yb 37/100" (a profile not started yet: "waiting"). */
export function progressLine(profiles: readonly Profile[], progress: Progress): string {
  const parts = profiles.map((p) => {
    const x = progress[p];
    return x ? `${p} ${x.done}/${x.total}` : `${p} waiting`;
  });
  return `statements done: ${parts.join(' · ')}`;
}
