// The engine's settings list (names, defaults, bounds, scopes), loaded once:
// the settings panel shows it, the variant editor and the sweep check against it.
import { useEffect, useState } from 'react';
import type { EngineClient } from '../engine/client';
import type { SettingRow } from './settings';

export function useSettingsRows(engine: EngineClient): SettingRow[] {
  const [rows, setRows] = useState<SettingRow[]>([]);
  useEffect(() => {
    let live = true;
    engine
      .call((api) => api.settingsList())
      .then((json) => {
        if (live) setRows(JSON.parse(json) as SettingRow[]);
      })
      .catch(() => {
        // The engine card shows engine failures; the list stays empty.
      });
    return () => {
      live = false;
    };
  }, [engine]);
  return rows;
}
