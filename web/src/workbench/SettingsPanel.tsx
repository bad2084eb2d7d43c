// The engine's settings with their defaults, editable: a value typed here
// applies to the next run (as the CLI's --set), a blank one is the default.
import { useState } from 'react';
import { filterSettings, type SettingRow } from './settings';

interface Props {
  rows: readonly SettingRow[];
  overrides: Readonly<Record<string, string>>;
  onChange(name: string, value: string): void;
}

export function SettingsPanel({ rows, overrides, onChange }: Props) {
  const [filter, setFilter] = useState('');
  const changed = Object.values(overrides).filter((v) => v.trim() !== '').length;
  return (
    <details className="settings-panel" data-testid="settings-panel">
      <summary>
        Settings{changed > 0 ? ` (${changed} changed)` : ''} — sizes, caches, compaction,
        network, batch sizes, cost model
      </summary>
      <input
        type="search"
        placeholder="Filter settings"
        value={filter}
        onChange={(e) => setFilter(e.target.value)}
        aria-label="Filter settings"
      />
      {/* Scrolls sideways on a phone, not the page. */}
      <div className="settings-scroll" tabIndex={0} role="region" aria-label="Settings table">
      <table className="settings">
        <thead>
          <tr>
            <th scope="col">setting</th>
            <th scope="col">value</th>
            <th scope="col">default</th>
            <th scope="col">profile</th>
            <th scope="col">meaning</th>
          </tr>
        </thead>
        <tbody>
          {filterSettings(rows, filter).map((r) => (
            <tr key={r.name}>
              <th scope="row">
                <code>{r.name}</code>
              </th>
              <td>
                <input
                  value={overrides[r.name] ?? ''}
                  placeholder={r.default}
                  onChange={(e) => onChange(r.name, e.target.value)}
                  aria-label={r.name}
                  list={r.values.length ? `values-${r.name}` : undefined}
                />
                {r.values.length > 0 && (
                  <datalist id={`values-${r.name}`}>
                    {r.values.map((v) => (
                      <option key={v} value={v} />
                    ))}
                  </datalist>
                )}
              </td>
              <td>{r.default}</td>
              <td>{r.scope}</td>
              <td>
                {r.description}
                {r.min && ` (${r.min} to ${r.max}${r.unit ? `, ${r.unit}` : ''})`}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      </div>
    </details>
  );
}
