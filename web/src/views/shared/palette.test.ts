// @vitest-environment node
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { HIT, READ, relationColor } from './palette';

/** Every colour styles.css gives an event kind (`.step-seek`, `.vm-visible`…). */
function eventColours(): string[] {
  const css = readFileSync(fileURLToPath(new URL('../../styles.css', import.meta.url)), 'utf8');
  const out: string[] = [HIT, READ];
  for (const rule of css.matchAll(/([^{}]*\.(?:step-[a-z]+|vm-[a-z]+)[^{}]*)\{([^}]*)\}/g)) {
    for (const c of (rule[2] ?? '').matchAll(/#[0-9a-fA-F]{6}\b/g)) out.push(c[0].toUpperCase());
  }
  return out;
}

describe('colours', () => {
  const relations = Array.from({ length: 27 }, (_, i) => relationColor(i));
  const dark = Array.from({ length: 27 }, (_, i) => relationColor(i, true));

  it('gives each of 27 relations a colour of its own (eleven indexes do not share eight), light or dark', () => {
    expect(new Set(relations).size).toBe(27);
    expect(new Set(dark).size).toBe(27);
  });

  it('lightens every relation on a dark background, so none sinks into it', () => {
    const luminance = (hex: string) => {
      const n = parseInt(hex.slice(1), 16);
      return (0.2126 * ((n >> 16) & 255) + 0.7152 * ((n >> 8) & 255) + 0.0722 * (n & 255)) / 255;
    };
    for (const c of dark.slice(0, 9)) expect(luminance(c)).toBeGreaterThan(0.3);
  });

  it("never gives a relation an event kind's colour (amber is a heap fetch, not demo_pkey)", () => {
    const events = eventColours();
    expect(events.length).toBeGreaterThan(5);
    for (const r of [...relations, ...dark]) expect(events).not.toContain(r);
  });
});
