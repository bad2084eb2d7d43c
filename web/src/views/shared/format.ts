// Number formatting for the views. One shared formatter: `toLocaleString`
// builds a new Intl formatter on every call, which cost a third of a frame
// with a few hundred SSTs on screen.
const NUMBER = new Intl.NumberFormat('en-US');

/** 12 kB, 512.0 MB */
export function kb(bytes: number): string {
  return bytes >= 1 << 20 ? `${(bytes / (1 << 20)).toFixed(1)} MB` : `${Math.ceil(bytes / 1024)} kB`;
}

/** 15.9 kB, 512.0 MB: one decimal, for a size read against a limit (a memtable at 16.1 of 16.0 kB has gone over; rounded up it read 17 of 16). */
export function kbPrecise(bytes: number): string {
  return bytes >= 1 << 20 ? kb(bytes) : `${(bytes / 1024).toFixed(1)} kB`;
}

/** 1,234,567 */
export function count(n: number): string {
  return NUMBER.format(n);
}
