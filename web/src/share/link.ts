// Scenario links: the address holds the scenario (script, variants, page
// settings, the player's position), so a link re-runs the same thing for
// anyone (the engine is deterministic: same link, same bytes). No server.
//
// Format, versioned from the first day: `#/play?v=1&s=<payload>&k=<check>`,
// the payload JSON compressed by lz-string (URI-safe), the check a hash of the
// payload's characters: lz-string decompresses almost any change to some other
// text, so without it a link altered by hand or in copying would open a
// different experiment without a word. Links made before the check (no `k`)
// still open. Only what differs from the default page is stored. A link never stops working: when the payload changes shape,
// bump LINK_VERSION and add a MIGRATIONS entry taking the old shape to the
// next; the frozen links in link.test.ts must still decode.
// The default import: lz-string is CommonJS, and Node (the e2e tests build links) has no named exports for it.
import LZString from 'lz-string';
import { DEFAULT_VARIANTS, MAX_VARIANTS, type Variant } from '../variants/variant';

const { compressToEncodedURIComponent, decompressFromEncodedURIComponent } = LZString;

export interface Scenario {
  script: string;
  variants: Variant[];
  /** The page's settings panel (non-default values only). */
  settings: Record<string, string>;
  /** The player's position (joint), when there was a run to place it in. */
  at?: number | undefined;
}

export const LINK_VERSION = 1;

/** What a link may hold: far above any real scenario, far below what would hang the page. */
export const MAX_HASH = 256 * 1024;
const MAX_SCRIPT = 200_000;

/** Chat apps and some mail clients cut links past this. */
export const LONG_LINK = 2000;

/** The payload, version 1: short keys, defaults left out. */
interface PayloadV1 {
  s: string;
  /** Variants as [name, profile, overrides]; absent: pg and yb. */
  v?: [string, 'pg' | 'yb', Record<string, string>][];
  o?: Record<string, string>;
  c?: number;
}

/** Version n's payload → version n+1's. Empty while there is one version. */
const MIGRATIONS: Record<number, (payload: unknown) => unknown> = {};

function isDefault(variants: readonly Variant[]): boolean {
  return (
    variants.length === DEFAULT_VARIANTS.length &&
    variants.every((v, i) => {
      const d = DEFAULT_VARIANTS[i];
      return d && v.name === d.name && v.profile === d.profile && Object.keys(v.overrides).length === 0;
    })
  );
}

/** The scenario as a link's hash: `#/play?v=1&s=…`. */
export function encodeLink(s: Scenario): string {
  return `#/play?${scenarioQuery(s)}`;
}

/** The scenario's part of a link's query, `v=1&s=…` (a play link's and an embed's). */
export function scenarioQuery(s: Scenario): string {
  const payload: PayloadV1 = { s: s.script };
  if (!isDefault(s.variants)) payload.v = s.variants.map((v) => [v.name, v.profile, v.overrides]);
  const settings = Object.fromEntries(Object.entries(s.settings).filter(([, v]) => v.trim() !== ''));
  if (Object.keys(settings).length > 0) payload.o = settings;
  if (s.at !== undefined) payload.c = s.at;
  const compressed = compressToEncodedURIComponent(JSON.stringify(payload));
  return `v=${LINK_VERSION}&s=${compressed}&k=${fingerprint([compressed])}`;
}

export type Decoded = { kind: 'none' } | { kind: 'scenario'; scenario: Scenario } | { kind: 'error'; message: string };

const isRecordOfStrings = (x: unknown): x is Record<string, string> =>
  typeof x === 'object' && x !== null && !Array.isArray(x) && Object.values(x).every((v) => typeof v === 'string');

/** A version-1 payload checked field by field: the first thing wrong, in words. */
function fromPayload(p: unknown): Scenario | string {
  if (typeof p !== 'object' || p === null || Array.isArray(p)) return 'its scenario is not an object';
  const o = p as Record<string, unknown>;
  if (typeof o.s !== 'string') return 'it has no script';
  if (o.s.length > MAX_SCRIPT) return `its script is ${o.s.length} characters long; a link holds at most ${MAX_SCRIPT}`;
  let variants: Variant[] = DEFAULT_VARIANTS.map((v) => ({ ...v }));
  if (o.v !== undefined) {
    if (!Array.isArray(o.v) || o.v.length === 0 || o.v.length > MAX_VARIANTS) return `its variants are not a list of 1 to ${MAX_VARIANTS}`;
    const parsed: Variant[] = [];
    for (const [i, v] of (o.v as unknown[]).entries()) {
      if (!Array.isArray(v) || typeof v[0] !== 'string' || (v[1] !== 'pg' && v[1] !== 'yb') || !isRecordOfStrings(v[2])) {
        return `variant ${i + 1} is not [name, "pg" or "yb", settings]`;
      }
      // Columns called pg or yb keep those ids (and so their test ids); others are numbered.
      const id = (v[0] === 'pg' || v[0] === 'yb') && !parsed.some((x) => x.id === v[0]) ? v[0] : `v${i + 1}`;
      parsed.push({ id, name: v[0].slice(0, 60), profile: v[1], overrides: v[2] });
    }
    variants = parsed;
  }
  if (o.o !== undefined && !isRecordOfStrings(o.o)) return 'its settings are not name/value text';
  if (o.c !== undefined && !(Number.isInteger(o.c) && (o.c as number) >= 0)) return 'its player position is not a whole number';
  return { script: o.s, variants, settings: (o.o as Record<string, string> | undefined) ?? {}, at: o.c as number | undefined };
}

/**
 * Reads an address hash. An empty one is the default page; anything else is
 * a scenario or an error saying what was wrong with the link (never thrown:
 * the page shows it and stays usable).
 */
export function decodeLink(hash: string): Decoded {
  if (hash === '' || hash === '#' || hash === '#/' || hash === '#/workbench') return { kind: 'none' };
  if (hash.length > MAX_HASH) {
    return { kind: 'error', message: `This link is too long (${Math.round(hash.length / 1024)} kB); a scenario link holds at most ${MAX_HASH / 1024} kB.` };
  }
  const m = /^#\/play\?(.*)$/s.exec(hash);
  if (!m) {
    const route = hash.length > 40 ? `${hash.slice(0, 40)}…` : hash;
    return { kind: 'error', message: `There is no page "${route}" in IndexLab; showing the workbench instead.` };
  }
  return decodeQuery(new URLSearchParams(m[1]));
}

/** A link's scenario from its query (`v` and `s`): the scenario, or what was wrong. */
export function decodeQuery(params: URLSearchParams): Decoded {
  const v = params.get('v');
  if (v === null) return { kind: 'error', message: 'This link has no format version (v=…): it was cut short or edited by hand.' };
  let version = Number(v);
  if (!Number.isInteger(version) || version < 1) return { kind: 'error', message: `This link's format version "${v.slice(0, 20)}" is not one IndexLab ever made.` };
  if (version > LINK_VERSION) {
    return { kind: 'error', message: `This link was made by a newer IndexLab (format ${version}); this page reads formats 1 to ${LINK_VERSION}. Reload to get the newest page.` };
  }
  const s = params.get('s');
  if (!s) return { kind: 'error', message: 'This link carries no scenario (s=…): it was cut short when copied.' };
  const k = params.get('k');
  // A query reads lz-string's '+' as a space (its decompressor undoes the same).
  if (k !== null && k !== fingerprint([s.replace(/ /g, '+')])) {
    return {
      kind: 'error',
      message: "This link was changed after it was made (its check, k=…, does not match its scenario): it was edited or damaged when copied. Ask for the link again.",
    };
  }
  const text = decompressFromEncodedURIComponent(s);
  let payload: unknown;
  try {
    if (!text) throw new Error('empty');
    payload = JSON.parse(text);
  } catch {
    return { kind: 'error', message: "This link's scenario is damaged (it does not decompress): it was probably cut short when copied." };
  }
  while (version < LINK_VERSION) {
    const step = MIGRATIONS[version];
    if (!step) return { kind: 'error', message: `No way to read format ${version} links; this is a bug, please report it.` };
    payload = step(payload);
    version += 1;
  }
  const scenario = fromPayload(payload);
  if (typeof scenario === 'string') return { kind: 'error', message: `This link's scenario is not valid: ${scenario}.` };
  return { kind: 'scenario', scenario };
}

/** What makes a long link long, in words (the script, or the rest). */
export function whyLong(s: Scenario, link: string): string {
  const script = compressToEncodedURIComponent(s.script).length;
  return script > link.length / 2
    ? `the script makes most of it (${script} characters compressed); a shorter script, or fewer rows typed in by hand, makes a shorter link`
    : 'the variants and settings make most of it';
}

/**
 * A short fingerprint of the runs' reports (FNV-1a, 32 bits): two people see
 * the same run when they see the same fingerprint.
 */
export function fingerprint(texts: readonly string[]): string {
  let h = 0x811c9dc5;
  for (const t of texts) {
    for (let i = 0; i < t.length; i++) {
      h ^= t.charCodeAt(i);
      h = Math.imul(h, 0x01000193) >>> 0;
    }
    h ^= 0x1f;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, '0');
}
