// A sweep: the script run once per value of a setting (an axis), optionally
// crossed with a second setting (a grid), for every variant. Each run is the
// variant's settings plus the point's values. Pure: planning and checking.
import type { SettingRow } from '../workbench/settings';
import { settingProblem } from '../workbench/settings';
import { variantSettings, type Variant } from '../variants/variant';

export interface Axis {
  /**
   * The setting swept. Several names set the same value for the engines they
   * belong to: "shared_buffers, block_cache_size" sweeps each engine's cache.
   */
  settings: string[];
  values: string[];
}

export interface SweepSpec {
  axis: Axis;
  /** A second setting: one line per value (a grid). */
  by?: Axis | undefined;
}

export interface SweepRun {
  /** Unique within the sweep: "variantId|x|by". */
  key: string;
  variant: Variant;
  x: string;
  by: string | undefined;
  /** The point's own values, on top of the variant's settings. */
  point: Record<string, string>;
  settings: Record<string, string>;
}

/** Most runs one sweep makes: each is a whole run of the script. */
export const MAX_RUNS = 300;

/** "a, b, c" → ["a", "b", "c"]: values or setting names, blanks dropped. */
export function splitList(text: string): string[] {
  return text
    .split(',')
    .map((v) => v.trim())
    .filter((v) => v !== '');
}

/** The names of an axis that apply to `variant`'s engine. */
function applying(rows: readonly SettingRow[], axis: Axis, variant: Variant): string[] {
  return axis.settings.filter((n) => settingProblem(rows, n, variant.profile) === null);
}

/** Every run of a sweep, variant by variant, then by the second axis, then the values. */
export function planSweep(
  spec: SweepSpec,
  variants: readonly Variant[],
  page: Readonly<Record<string, string>>,
  rows: readonly SettingRow[],
): SweepRun[] {
  const bys: (string | undefined)[] = spec.by ? spec.by.values : [undefined];
  return variants.flatMap((variant) =>
    bys.flatMap((by) =>
      spec.axis.values.map((x) => {
        const point: Record<string, string> = {};
        for (const n of applying(rows, spec.axis, variant)) point[n] = x;
        if (spec.by && by !== undefined) for (const n of applying(rows, spec.by, variant)) point[n] = by;
        return {
          key: `${variant.id}|${x}|${by ?? ''}`,
          variant,
          x,
          by,
          point,
          settings: variantSettings(page, variant, point),
        };
      }),
    ),
  );
}

/**
 * What makes a sweep meaningless or too big, before anything runs: an empty
 * list, a repeated value, too many runs, a setting no variant's engine has, a
 * setting the script or a variant already sets (every run would use that
 * value). Value ranges are the engine's to check (see checkValues).
 */
export function sweepProblems(
  spec: SweepSpec,
  variants: readonly Variant[],
  rows: readonly SettingRow[],
  scriptSets: (name: string) => boolean,
): string[] {
  const problems: string[] = [];
  const axes = spec.by ? [spec.axis, spec.by] : [spec.axis];
  axes.forEach((axis, i) => {
    const which = i === 0 ? 'Sweep' : 'Second setting';
    if (axis.settings.length === 0) problems.push(`${which}: name a setting to sweep`);
    if (axis.values.length === 0) problems.push(`${which}: give at least one value, separated by commas`);
    const seen = new Set<string>();
    for (const v of axis.values) {
      if (seen.has(v)) problems.push(`${which}: ${v} is listed twice`);
      seen.add(v);
    }
    for (const name of axis.settings) {
      if (rows.length > 0 && !rows.some((r) => r.name === name)) problems.push(`${which}: unrecognized setting "${name}"`);
      if (scriptSets(name)) {
        problems.push(`${which}: the script sets ${name} itself (SET or a Set() hint), so every run would use the script's value`);
      }
      for (const v of variants) {
        if (name in v.overrides) problems.push(`${which}: variant ${v.name} sets ${name} itself; remove it from the variant to sweep it`);
      }
    }
    for (const v of variants) {
      if (axis.settings.length > 0 && rows.length > 0 && applying(rows, axis, v).length === 0) {
        problems.push(`${which}: none of ${axis.settings.join(', ')} is a ${v.profile} setting, so variant ${v.name} would run the same every time`);
      }
    }
  });
  if (spec.by && spec.by.settings.some((n) => spec.axis.settings.includes(n))) {
    problems.push('The two axes sweep the same setting');
  }
  const runs = variants.length * spec.axis.values.length * (spec.by ? spec.by.values.length : 1);
  if (runs > MAX_RUNS) {
    problems.push(`That is ${runs} runs (variants × values${spec.by ? ' × second values' : ''}); a sweep makes at most ${MAX_RUNS}`);
  }
  return problems;
}

/** Each distinct (engine, setting, value) of a plan, to check with the engine before running. */
export function valuesToCheck(runs: readonly SweepRun[]): { profile: 'pg' | 'yb'; name: string; value: string }[] {
  const seen = new Map<string, { profile: 'pg' | 'yb'; name: string; value: string }>();
  for (const r of runs) {
    for (const [name, value] of Object.entries(r.point)) {
      seen.set(`${r.variant.profile}|${name}|${value}`, { profile: r.variant.profile, name, value });
    }
  }
  return [...seen.values()];
}
