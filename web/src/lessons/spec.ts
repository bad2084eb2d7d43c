// What a lesson's components ask for, read from their props: the same
// functions check a lesson at build time (web/build/lessons) and drive the
// page, so a lesson that builds is a lesson that runs. Pure: no DOM.
import type { Report } from '../engine/schema.gen';
import { parseOverrides, type Variant } from '../variants/variant';
import { VIEW_IDS, type ViewId } from '../views/ids';
import { GLOSSARY } from '../glossary/glossary';
import { groupDigits } from '../format/numbers';

/** The components a lesson may use; anything else fails the build. */
export const COMPONENTS = ['Scenario', 'Watch', 'Predict', 'Term', 'Hue'] as const;

export interface LessonVariant {
  name: string;
  profile: 'pg' | 'yb';
  /** `name=value; name=value` */
  settings: string;
}

const isProfile = (p: unknown): p is 'pg' | 'yb' => p === 'pg' || p === 'yb';

/** `"pg,yb"` or a list of `{ name, profile, settings }`; undefined: pg and yb. */
export function parseVariants(v: unknown): LessonVariant[] | string {
  if (v === undefined) return [
    { name: 'pg', profile: 'pg', settings: '' },
    { name: 'yb', profile: 'yb', settings: '' },
  ];
  if (typeof v === 'string') {
    const names = v.split(',').map((s) => s.trim()).filter((s) => s !== '');
    const bad = names.find((n) => !isProfile(n));
    if (bad !== undefined || names.length === 0) return `variants="${v}" is not pg, yb or pg,yb`;
    return names.map((n) => ({ name: n, profile: n as 'pg' | 'yb', settings: '' }));
  }
  if (!Array.isArray(v) || v.length === 0) return 'variants is not "pg,yb" or a list of { name, profile, settings }';
  const out: LessonVariant[] = [];
  for (const [i, x] of v.entries()) {
    const o = x as Record<string, unknown>;
    if (typeof o !== 'object' || o === null || typeof o.name !== 'string' || !isProfile(o.profile)) {
      return `variant ${i + 1} is not { name, profile: "pg" or "yb", settings }`;
    }
    const settings = typeof o.settings === 'string' ? o.settings : '';
    const parsed = parseOverrides(settings);
    if ('error' in parsed) return `variant "${o.name}": ${parsed.error}`;
    // A name is shown (a column's title, a tab): its numbers in the page's format, never split.
    const name = groupDigits(o.name);
    if (out.some((p) => p.name === name)) return `two variants are named "${o.name}"`;
    out.push({ name, profile: o.profile, settings });
  }
  return out;
}

/** A lesson's variant as the runner's (its id stable: pg and yb keep theirs). */
export function toVariant(v: LessonVariant, i: number): Variant {
  const parsed = parseOverrides(v.settings);
  const overrides = 'overrides' in parsed ? parsed.overrides : {};
  return { id: v.name === 'pg' || v.name === 'yb' ? v.name : `v${i + 1}`, name: v.name, profile: v.profile, overrides };
}

/** `"btree,scan"`; undefined: every view. */
export function parseViews(v: unknown): ViewId[] | null | string {
  if (v === undefined) return null;
  if (typeof v !== 'string') return 'views is not a list of view ids';
  const ids = v.split(',').map((s) => s.trim()).filter((s) => s !== '');
  const bad = ids.find((id) => !(VIEW_IDS as readonly string[]).includes(id));
  if (bad !== undefined) return `there is no view "${bad}"; the views are ${VIEW_IDS.join(', ')}`;
  return ids as ViewId[];
}

export type OpenSpec = { kind: 'end' } | { kind: 'start' } | { kind: 'line'; line: number };

/** `"end"` (default), `"start"`, or a statement's line. */
export function parseAt(v: unknown): OpenSpec | string {
  if (v === undefined || v === 'end') return { kind: 'end' };
  if (v === 'start') return { kind: 'start' };
  const line = typeof v === 'number' ? v : Number(v);
  if (Number.isInteger(line) && line > 0) return { kind: 'line', line };
  return `at="${String(v)}" is not start, end or a statement's line`;
}

export interface WatchSpec {
  /** A trace event kind (page_split, flush, read_request, …). */
  at: string;
  /** Which one of them (1: the first). */
  nth: number;
  /** Only this variant's events; undefined: any. */
  variant: string | undefined;
}

export function parseWatch(p: Record<string, unknown>, variants: readonly LessonVariant[]): WatchSpec | string {
  if (typeof p.at !== 'string' || !/^[a-z_]+$/.test(p.at)) return '<Watch> needs at="event_kind" (page_split, flush, read_request, …)';
  const nth = p.nth === undefined ? 1 : Number(p.nth);
  if (!Number.isInteger(nth) || nth < 1) return `<Watch nth={${String(p.nth)}}> is not a whole number from 1`;
  const variant = p.variant === undefined ? undefined : groupDigits(String(p.variant));
  if (variant !== undefined && !variants.some((v) => v.name === variant)) {
    return `<Watch variant="${variant}">: the scenario has ${variants.map((v) => v.name).join(', ')}`;
  }
  return { at: p.at, nth, variant };
}

export interface PredictSpec {
  src: string;
  line: number;
  counter: string;
  question: string;
  /** A number: this variant's counter. */
  variant: LessonVariant;
  /** A choice: the variant among these whose counter is lowest (or highest). */
  among: LessonVariant[] | null;
  pick: 'lowest' | 'highest';
}

export function parsePredict(p: Record<string, unknown>): PredictSpec | string {
  if (typeof p.src !== 'string' || !p.src.endsWith('.sql')) return '<Predict> needs src="a-script.sql"';
  const line = Number(p.line);
  if (!Number.isInteger(line) || line < 1) return '<Predict> needs line={N}, the line of an EXPLAIN in its script';
  if (typeof p.counter !== 'string' || p.counter === '') return '<Predict> needs counter="…" (heap_fetches, shared_hit, virtual_ms, …)';
  if (typeof p.question !== 'string' || p.question.trim() === '') return '<Predict> needs question="…"';
  const pick = p.pick === undefined ? 'lowest' : p.pick;
  if (pick !== 'lowest' && pick !== 'highest') return `<Predict pick="${String(pick)}"> is not lowest or highest`;
  let among: LessonVariant[] | null = null;
  if (p.among !== undefined) {
    const parsed = parseVariants(p.among);
    if (typeof parsed === 'string') return `<Predict among>: ${parsed}`;
    if (parsed.length < 2) return '<Predict among> needs at least two variants to choose from';
    among = parsed;
  }
  let variant: LessonVariant | undefined;
  if (among) variant = among[0];
  else {
    const parsed = parseVariants(typeof p.variant === 'string' ? p.variant : undefined);
    if (typeof parsed === 'string') return `<Predict variant>: ${parsed}`;
    if (parsed.length !== 1) return '<Predict> needs variant="pg" or variant="yb" (or among={[…]})';
    variant = parsed[0];
  }
  if (!variant) return '<Predict> has no variant';
  return { src: p.src, line, counter: p.counter, question: p.question, variant, among, pick };
}

/** A statement's counter (or its virtual_ms), at its line: the last run of that line. */
export function counterAt(report: Report, line: number, counter: string): number | undefined {
  // A prediction is about an EXPLAIN: its counters are the ones a student can read.
  const s = [...report.statements].reverse().find((x) => x.line === line && x.explain);
  if (!s) return undefined;
  if (counter === 'virtual_ms') return s.virtual_ms;
  // A report leaves out the counters that stayed at zero; a name the glossary
  // does not know is a typo, not a zero.
  return s.metrics[counter] ?? (counter in GLOSSARY ? 0 : undefined);
}

export type Answer = { kind: 'number'; value: number } | { kind: 'choice'; name: string; values: Record<string, number> } | { kind: 'error'; message: string };

/** The engine's answer to a prediction, from its runs' reports (by variant name). */
export function answerOf(spec: PredictSpec, reports: Readonly<Record<string, Report>>): Answer {
  const read = (v: LessonVariant): number | string => {
    const r = reports[v.name];
    if (!r) return `no run of ${v.name}`;
    if (r.error) return `${spec.src} fails on ${v.name} at line ${r.error.line}: ${r.error.message}`;
    const value = counterAt(r, spec.line, spec.counter);
    if (value === undefined) {
      const at = r.statements.filter((s) => s.line === spec.line && s.explain);
      return at.length === 0
        ? `${spec.src} has no EXPLAIN starting on line ${spec.line}`
        : `line ${spec.line} of ${spec.src} has no counter ${spec.counter} on ${v.name}; it has ${Object.keys(at.at(-1)?.metrics ?? {}).join(', ')}, virtual_ms`;
    }
    return value;
  };
  if (!spec.among) {
    const v = read(spec.variant);
    return typeof v === 'string' ? { kind: 'error', message: v } : { kind: 'number', value: v };
  }
  const values: Record<string, number> = {};
  for (const v of spec.among) {
    const x = read(v);
    if (typeof x === 'string') return { kind: 'error', message: x };
    values[v.name] = x;
  }
  const sorted = Object.entries(values).sort((a, b) => (spec.pick === 'lowest' ? a[1] - b[1] : b[1] - a[1]));
  return { kind: 'choice', name: sorted[0]?.[0] ?? '', values };
}
