// The height a widget keeps from its first paint: its poster, its "Loading…"
// and its player all stand in the same box, so the blog post around it does
// not jump (560 → 271 → 102 → 1 560 px) while it loads. The box is sized for
// what the player will show: the views of the engines it shows (side by side
// from 600 px, one at a time below), from their heights as drawn for a small
// scenario. A bigger scenario (more indexes, more tablets) grows it once, at
// the end; it never shrinks.
import type { ViewId } from '../views/ids';
import type { Profile } from '../workbench/report';

/** Each view's height as drawn for a small scenario, with its caption and buttons (px). */
const VIEW_PX: Record<ViewId, number> = { btree: 150, pool: 240, scan: 480, lsm: 540, network: 380 };
/** The views each engine shows by default (the registry's order; embed.test.ts holds them equal). */
export const VIEWS_OF: Record<Profile, readonly ViewId[]> = { pg: ['btree', 'pool', 'scan'], yb: ['scan', 'lsm', 'network'] };
/**
 * The rest, in px: the title, the player and its narration, a column's
 * caption and answer, the foot; and what a phone adds (its player wraps to
 * more lines, its engines are tabs) below `narrow` px.
 */
const PARTS = { head: 60, player: 170, column: 130, foot: 40, narrow: 600, narrowExtra: 100 } as const;

/** The height (px) to reserve for a widget showing `profiles`' columns with `views` (null: each engine's own) at `width`. */
export function reservedHeight(profiles: readonly Profile[], views: readonly ViewId[] | null, width: number): number {
  const column = (p: Profile) =>
    PARTS.column + VIEWS_OF[p].filter((v) => views === null || views.includes(v)).reduce((a, v) => a + VIEW_PX[v], 0);
  const tallest = Math.max(0, ...profiles.map(column));
  return PARTS.head + PARTS.player + tallest + PARTS.foot + (width < PARTS.narrow ? PARTS.narrowExtra : 0);
}
