// The settings panel's data: the engine's list, and the overrides a user typed
// turned into the `name=value` lines the engine reads.

export interface SettingRow {
  name: string;
  default: string;
  type: string;
  unit: string;
  min: string;
  max: string;
  values: string[];
  scope: 'pg' | 'yb' | 'both';
  description: string;
}

/** Overrides as `name=value` lines; empty values (back to default) are left out. */
export function settingsLines(overrides: Readonly<Record<string, string>>): string {
  return Object.entries(overrides)
    .map(([k, v]) => [k, v.trim()] as const)
    .filter(([, v]) => v !== '' && !v.includes('\n'))
    .map(([k, v]) => `${k}=${v}`)
    .join('\n');
}

/** Rows whose name or description contains `filter` (case-insensitive). */
export function filterSettings(rows: readonly SettingRow[], filter: string): SettingRow[] {
  const f = filter.trim().toLowerCase();
  if (!f) return [...rows];
  return rows.filter(
    (r) => r.name.includes(f) || r.description.toLowerCase().includes(f),
  );
}

/**
 * Why `name` cannot be given to a `profile` run, or null when it can: an
 * unknown name, or a setting of the other engine (which would be silently
 * ignored, and a comparison would show nothing).
 */
export function settingProblem(
  rows: readonly SettingRow[],
  name: string,
  profile: 'pg' | 'yb',
): string | null {
  if (rows.length === 0) return null; // not loaded yet: the engine checks on run
  const row = rows.find((r) => r.name === name);
  if (!row) return `unrecognized setting "${name}"`;
  if (row.scope !== 'both' && row.scope !== profile) {
    return `${name} is a ${row.scope} setting: a ${profile} run would ignore it`;
  }
  return null;
}
