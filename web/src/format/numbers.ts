// Number formatting for the page: one format everywhere. Thousands are
// grouped with a narrow no-break space (U+202F, the SI's thin space that never
// breaks a line), so "2 500" is never "2,500" in one place and "2500" in
// another, and never wraps as "2 / 500". One shared formatter:
// `toLocaleString` builds a new Intl formatter on every call, which cost a
// third of a frame with a few hundred SSTs on screen.
const NUMBER = new Intl.NumberFormat('en-US');

/** The thousands separator of every number the page shows. */
export const THIN = '\u202f';

/** 1 234 567 (narrow no-break spaces), 0.5 */
export function count(n: number): string {
  return NUMBER.format(n).replace(/,/g, THIN);
}

/** 12 kB, 512.0 MB */
export function kb(bytes: number): string {
  return bytes >= 1 << 20 ? `${(bytes / (1 << 20)).toFixed(1)} MB` : `${Math.ceil(bytes / 1024)} kB`;
}

/** 15.9 kB, 512.0 MB: one decimal, for a size read against a limit (a memtable at 16.1 of 16.0 kB has gone over; rounded up it read 17 of 16). */
export function kbPrecise(bytes: number): string {
  return bytes >= 1 << 20 ? kb(bytes) : `${(bytes / 1024).toFixed(1)} kB`;
}

/** 200 bytes, 12 kB, 1.5 MB: a size as a reader says it, bytes only when small. */
export function size(bytes: number): string {
  return bytes < 1024 ? `${bytes} bytes` : kb(bytes);
}

/**
 * Prose with its numbers grouped the page's way: "2 000 rows" (typed with a
 * plain space or a comma) becomes "2 000" with a narrow no-break space. Only
 * a group of exactly three digits after a digit is joined, so "in (100,200)"
 * stays a list… when written without a space; lessons write lists with one.
 */
export function groupDigits(text: string): string {
  return text.replace(/(\d)[ ,\u00a0\u2009](?=\d{3}(?!\d))/g, `$1${THIN}`);
}
