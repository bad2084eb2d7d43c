// What keeps a list of variants from running: a setting of the other engine
// (it would be silently ignored), an unknown one, or names that do not tell
// the columns (and a sweep's lines) apart. Pure: the editor, Run and Sweep use it.
import type { SettingRow } from '../workbench/settings';
import { settingProblem } from '../workbench/settings';
import type { Variant } from './variant';

/** What is wrong with a variant's settings, one message per problem. */
export function variantProblems(rows: readonly SettingRow[], v: Variant): string[] {
  return Object.keys(v.overrides).flatMap((name) => {
    const p = settingProblem(rows, name, v.profile);
    return p ? [`${v.name}: ${p}`] : [];
  });
}

/** What is wrong with the list: each variant's problems, and names that do not tell columns apart. */
export function listProblems(rows: readonly SettingRow[], variants: readonly Variant[]): string[] {
  const problems = variants.flatMap((v) => variantProblems(rows, v));
  const names = variants.map((v) => v.name.trim());
  if (names.some((n) => n === '')) problems.push('Every variant needs a name');
  const twice = names.filter((n, i) => n !== '' && names.indexOf(n) !== i);
  for (const n of new Set(twice)) problems.push(`Two variants are called "${n}": rename one so the columns and lines can be told apart`);
  return problems;
}

