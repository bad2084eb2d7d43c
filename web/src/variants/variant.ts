// A variant: one engine profile plus settings of its own. A run is one or more
// variants side by side, each a column with its views, EXPLAIN and counters;
// pg against yb is simply the default pair. Pure functions: the editor and the
// tests share them.
import type { Profile } from '../workbench/report';

export interface Variant {
  /** Stable across renames: test ids, React keys and progress use it. */
  id: string;
  name: string;
  profile: Profile;
  /** Settings of this variant only, on top of the page's settings panel. */
  overrides: Record<string, string>;
}

/** Most variants side by side: beyond this the columns are too narrow to read. */
export const MAX_VARIANTS = 6;

/** The default pair: the two engines on the same settings. */
export const DEFAULT_VARIANTS: readonly Variant[] = [
  { id: 'pg', name: 'pg', profile: 'pg', overrides: {} },
  { id: 'yb', name: 'yb', profile: 'yb', overrides: {} },
];

/** A fresh id, not used by any of `variants`. */
function freshId(variants: readonly Variant[]): string {
  const used = new Set(variants.map((v) => v.id));
  for (let n = variants.length + 1; ; n++) if (!used.has(`v${n}`)) return `v${n}`;
}

/** `base`, or `base 2`, `base 3`… whichever no variant is called yet. */
export function freshName(variants: readonly Variant[], base: string): string {
  const used = new Set(variants.map((v) => v.name));
  if (!used.has(base)) return base;
  for (let n = 2; ; n++) if (!used.has(`${base} ${n}`)) return `${base} ${n}`;
}

/** Adds a variant: a copy of the last one (the usual next step is changing one setting). */
export function addVariant(variants: readonly Variant[], like?: Partial<Variant>): Variant[] {
  if (variants.length >= MAX_VARIANTS) return [...variants];
  const last = variants[variants.length - 1];
  const profile = like?.profile ?? last?.profile ?? 'pg';
  const overrides = { ...(like?.overrides ?? last?.overrides ?? {}) };
  const name = freshName(variants, like?.name ?? describeVariant(profile, overrides));
  return [...variants, { id: freshId(variants), name, profile, overrides }];
}

export function removeVariant(variants: readonly Variant[], id: string): Variant[] {
  // The last one stays: a run needs a column.
  return variants.length <= 1 ? [...variants] : variants.filter((v) => v.id !== id);
}

export function updateVariant(variants: readonly Variant[], id: string, change: Partial<Omit<Variant, 'id'>>): Variant[] {
  return variants.map((v) => (v.id === id ? { ...v, ...change } : v));
}

/** Moves a variant one place earlier (-1) or later (+1); the first is the baseline. */
export function moveVariant(variants: readonly Variant[], id: string, by: -1 | 1): Variant[] {
  const i = variants.findIndex((v) => v.id === id);
  const j = i + by;
  if (i < 0 || j < 0 || j >= variants.length) return [...variants];
  const next = [...variants];
  [next[i], next[j]] = [next[j] as Variant, next[i] as Variant];
  return next;
}

/** A name that says what the variant is: "yb, yb_bnl_batch_size=1024". */
export function describeVariant(profile: Profile, overrides: Readonly<Record<string, string>>): string {
  const set = Object.entries(overrides).filter(([, v]) => v.trim() !== '');
  return set.length === 0 ? profile : `${profile}, ${set.map(([k, v]) => `${k}=${v.trim()}`).join(', ')}`;
}

/** The settings a variant runs with: the page's, then its own (its own win). */
export function variantSettings(
  page: Readonly<Record<string, string>>,
  variant: Pick<Variant, 'overrides'>,
  extra: Readonly<Record<string, string>> = {},
): Record<string, string> {
  return { ...page, ...variant.overrides, ...extra };
}

/** `name=value` lines → overrides; a line that is not one is an error naming it. */
export function parseOverrides(text: string): { overrides: Record<string, string> } | { error: string } {
  const overrides: Record<string, string> = {};
  const lines = text.split(/[\n;]/);
  for (let i = 0; i < lines.length; i++) {
    const line = (lines[i] ?? '').trim();
    if (line === '') continue;
    const eq = line.indexOf('=');
    const name = eq < 0 ? '' : line.slice(0, eq).trim();
    if (!name || !/^[a-z_][a-z0-9_]*$/i.test(name)) {
      return { error: `"${line}" is not name=value (for example yb_bnl_batch_size=1024)` };
    }
    overrides[name.toLowerCase()] = line.slice(eq + 1).trim();
  }
  return { overrides };
}

/** Overrides as the editor shows them, one per line. */
export function overridesText(overrides: Readonly<Record<string, string>>): string {
  return Object.entries(overrides)
    .map(([k, v]) => `${k}=${v}`)
    .join('\n');
}
