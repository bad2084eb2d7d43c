// Columns side by side that show the same view for the same engine draw it on
// one scale: 8.28 ms of 25 RPCs beside 0.96 ms of one RPC must not be drawn
// the same width. Each view names the measures it draws on an axis
// (`ViewDef.scales`); a column's view then gets the largest of each among the
// columns, its own included. Only views read straight from the trace
// (`readAt`) take part: computing them for a column not on screen (a phone's
// other tab) costs no timeline.
import type { TraceData } from '../trace/traceData';
import { VIEWS, type AnyView, type Profile } from '../views/registry';

export type SharedScales = ReadonlyMap<string, Readonly<Record<string, number>>>;

/** The key of a view's shared scales: its engine and its id. */
export function scaleKey(profile: Profile, view: string): string {
  return `${profile}:${view}`;
}

/** Each shared view's largest measures across the columns, for engines shown in two columns or more. */
export function sharedScales(
  columns: readonly { profile: Profile; trace: TraceData; cursor: number }[],
  views: readonly AnyView[] = VIEWS,
): SharedScales {
  const out = new Map<string, Record<string, number>>();
  for (const profile of new Set(columns.map((c) => c.profile))) {
    const mine = columns.filter((c) => c.profile === profile);
    if (mine.length < 2) continue;
    for (const v of views) {
      if (!v.scales || !v.readAt || !v.profiles.includes(profile)) continue;
      const largest: Record<string, number> = {};
      for (const c of mine) {
        for (const [name, n] of Object.entries(v.scales(v.readAt(c.trace, c.cursor)) as Record<string, number>)) {
          largest[name] = Math.max(largest[name] ?? 0, n);
        }
      }
      out.set(scaleKey(profile, v.id), largest);
    }
  }
  return out;
}
