// Light, dark, or the system's choice: a classroom projector often wants light
// whatever the laptop says. Kept in localStorage, applied as <html data-theme>.
import { useEffect, useState } from 'react';

type Theme = 'system' | 'light' | 'dark';
const KEY = 'indexlab-theme';

function stored(): Theme {
  try {
    const t = localStorage.getItem(KEY);
    return t === 'light' || t === 'dark' ? t : 'system';
  } catch {
    return 'system';
  }
}

export function ThemeSwitch() {
  const [theme, setTheme] = useState<Theme>(stored);
  useEffect(() => {
    const root = document.documentElement;
    if (theme === 'system') root.removeAttribute('data-theme');
    else root.setAttribute('data-theme', theme);
    try {
      localStorage.setItem(KEY, theme);
    } catch {
      // Storage may be off (private windows): the switch still works for the page.
    }
  }, [theme]);
  return (
    <label className="theme-switch">
      Theme{' '}
      <select value={theme} onChange={(e) => setTheme(e.target.value as Theme)} aria-label="Theme">
        <option value="system">system</option>
        <option value="light">light</option>
        <option value="dark">dark</option>
      </select>
    </label>
  );
}
