// Okabe–Ito: eight colors told apart with every common color-vision deficiency.
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

/** A stable color per name (relation), in order of first appearance. */
export function colorFor(names: readonly string[], name: string): string {
  const i = names.indexOf(name);
  return PALETTE[(i < 0 ? names.length : i) % PALETTE.length] ?? '#7F7F7F';
}
