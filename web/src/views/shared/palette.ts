// Two palettes that never share a colour, so a colour means one thing on a
// screen: saturated Okabe–Ito for what an engine *did* (a seek, a heap fetch,
// a hit, a read: styles.css's `.step-*`), muted Paul Tol for *which relation*
// a page belongs to. Both are told apart with every common colour-vision
// deficiency.

/** Okabe–Ito: series in charts, and the event kinds of styles.css. */
export const PALETTE = [
  '#0072B2',
  '#E69F00',
  '#009E73',
  '#CC79A7',
  '#56B4E9',
  '#D55E00',
  '#F0E442',
  '#7F7F7F',
] as const;

/** Hits and reads flash in two colors that differ in lightness as well as hue. */
export const HIT = '#56B4E9';
export const READ = '#D55E00';

/** Paul Tol's "muted" scheme: one colour per relation, none an event's. */
export const RELATIONS = ['#CC6677', '#332288', '#DDCC77', '#117733', '#88CCEE', '#882255', '#44AA99', '#999933', '#AA4499'] as const;

/** `hex` mixed toward white by `t` (0–1). */
function tint(hex: string, t: number): string {
  const n = parseInt(hex.slice(1), 16);
  const mix = (c: number) => Math.round(c + (255 - c) * t);
  const [r, g, b] = [(n >> 16) & 255, (n >> 8) & 255, n & 255].map(mix);
  return `#${(((r ?? 0) << 16) | ((g ?? 0) << 8) | (b ?? 0)).toString(16).padStart(6, '0').toUpperCase()}`;
}

/**
 * The colour of the i-th relation: the nine muted colours, then lighter
 * rounds of them (a tenth and eleventh index are pale rose and lavender, not
 * a second "rose"), so every relation of a run keeps a colour of its own. On
 * a dark background every round is lighter (the muted indigo and wine would
 * sink into it).
 */
export function relationColor(i: number, dark = false): string {
  const base = RELATIONS[i % RELATIONS.length] ?? '#DDDDDD';
  const round = Math.floor(i / RELATIONS.length);
  const t = Math.min(0.85, (dark ? 0.35 : 0) + 0.4 * round);
  return t === 0 ? base : tint(base, t);
}

/** A stable color per name (relation), in order of first appearance. */
export function colorFor(names: readonly string[], name: string, dark = false): string {
  const i = names.indexOf(name);
  return relationColor(i < 0 ? names.length : i, dark);
}
