// Number formatting for the views. One shared formatter: `toLocaleString`
// builds a new Intl formatter on every call, which cost a third of a frame
// with a few hundred SSTs on screen.
const NUMBER = new Intl.NumberFormat('en-US');

/** 12 kB, 512.0 MB */
export function kb(bytes: number): string {
  return bytes >= 1 << 20 ? `${(bytes / (1 << 20)).toFixed(1)} MB` : `${Math.ceil(bytes / 1024)} kB`;
}

/** 1,234,567 */
export function count(n: number): string {
  return NUMBER.format(n);
}
