// Path data for many small marks (ticks, columns), split by x into chunks.
// A playing view changes only its right end: React compares each chunk's
// string and rewrites only the chunks that changed, so the browser re-parses
// and repaints a sliver of the strip a frame, not all of it.

/** Chunk width in pixels. */
const CHUNK = 64;

/** Appends `d` (one mark's path data at x = `px`) to its chunk. */
export function addMark(chunks: Map<number, string[]>, px: number, d: string): void {
  const k = Math.floor(px / CHUNK);
  let list = chunks.get(k);
  if (!list) {
    list = [];
    chunks.set(k, list);
  }
  list.push(d);
}

/** The chunks as [key, path data] pairs, left to right. */
export function chunkPaths(chunks: Map<number, string[]>): [number, string][] {
  return [...chunks].sort((a, b) => a[0] - b[0]).map(([k, list]) => [k, list.join('')]);
}
