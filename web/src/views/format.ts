// Number formatting for the views. One shared formatter: `toLocaleString`
// builds a new Intl formatter on every call, which cost a third of a frame
// with a few hundred SSTs on screen.
const NUMBER = new Intl.NumberFormat('en-US');

/** 1,234,567 */
export function count(n: number): string {
  return NUMBER.format(n);
}
