// The variants of the next run, as a list the user edits: each one's name,
// engine and settings of its own; add, remove, rename and reorder. The first
// variant is the baseline the difference table compares against.
import { useState } from 'react';
import type { SettingRow } from '../workbench/settings';
import { listProblems } from './problems';
import type { Profile } from '../workbench/report';
import {
  addVariant,
  MAX_VARIANTS,
  moveVariant,
  overridesText,
  parseOverrides,
  removeVariant,
  updateVariant,
  type Variant,
} from './variant';

function SettingsField({ variant, onChange }: { variant: Variant; onChange(o: Record<string, string>): void }) {
  const [text, setText] = useState(() => overridesText(variant.overrides));
  const [error, setError] = useState<string | null>(null);
  return (
    <span className="variant-settings">
      <input
        type="text"
        value={text}
        placeholder="settings: name=value; …"
        aria-label={`Settings of ${variant.name}`}
        aria-invalid={error !== null}
        spellCheck={false}
        onChange={(e) => {
          setText(e.target.value);
          const parsed = parseOverrides(e.target.value);
          if ('error' in parsed) setError(parsed.error);
          else {
            setError(null);
            onChange(parsed.overrides);
          }
        }}
      />
      {error && (
        <span className="field-error" role="alert">
          {error}
        </span>
      )}
    </span>
  );
}

export function VariantsEditor({
  variants,
  rows,
  onChange,
}: {
  variants: readonly Variant[];
  rows: readonly SettingRow[];
  onChange(next: Variant[]): void;
}) {
  const problems = listProblems(rows, variants);
  return (
    <fieldset className="variants" data-testid="variants">
      <legend>Variants (columns side by side; the first is the baseline)</legend>
      <ol>
        {variants.map((v, i) => (
          <li key={v.id} className="variant" data-testid={`variant-${v.id}`}>
            <input
              type="text"
              className="variant-name"
              value={v.name}
              aria-label={`Name of variant ${i + 1}`}
              onChange={(e) => onChange(updateVariant(variants, v.id, { name: e.target.value.slice(0, 60) }))}
            />
            <select
              value={v.profile}
              aria-label={`Engine of ${v.name}`}
              onChange={(e) => onChange(updateVariant(variants, v.id, { profile: e.target.value as Profile }))}
            >
              <option value="pg">pg (B+tree)</option>
              <option value="yb">yb (LSM)</option>
            </select>
            <SettingsField variant={v} onChange={(o) => onChange(updateVariant(variants, v.id, { overrides: o }))} />
            <span className="variant-buttons">
              <button type="button" aria-label={`Move ${v.name} up`} disabled={i === 0} onClick={() => onChange(moveVariant(variants, v.id, -1))}>
                ↑
              </button>
              <button
                type="button"
                aria-label={`Move ${v.name} down`}
                disabled={i === variants.length - 1}
                onClick={() => onChange(moveVariant(variants, v.id, 1))}
              >
                ↓
              </button>
              <button type="button" aria-label={`Remove ${v.name}`} disabled={variants.length <= 1} onClick={() => onChange(removeVariant(variants, v.id))}>
                ✕
              </button>
            </span>
          </li>
        ))}
      </ol>
      <button type="button" onClick={() => onChange(addVariant(variants))} disabled={variants.length >= MAX_VARIANTS}>
        Add variant
      </button>
      {problems.map((p) => (
        <p key={p} className="field-error" role="alert">
          {p}
        </p>
      ))}
    </fieldset>
  );
}
