// The keys that need no player: presenter mode (p), full screen (f) and the
// list of keys (?). They work on every page, before anything has run. When a
// player takes a key it handles it itself and marks the event handled, so
// the page acts only on the keys no player took.
import { useEffect, useRef } from 'react';
import { actionFor, ownsKeys } from './keys';
import { isPresenting, setPresenting, toggleFullscreen } from '../presenter/presenter';

export function usePageKeys(help: () => void): void {
  const latest = useRef(help);
  useEffect(() => {
    latest.current = help;
  });
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || ownsKeys(e.target, e.key)) return;
      const action = actionFor(e);
      if (!action || (action.kind !== 'presenter' && action.kind !== 'fullscreen' && action.kind !== 'help')) return;
      // After every listener has heard the key (a player's is added after
      // this one): act only if none took it.
      setTimeout(() => {
        if (e.defaultPrevented) return;
        if (action.kind === 'presenter') setPresenting(!isPresenting());
        else if (action.kind === 'fullscreen') toggleFullscreen();
        else latest.current();
      }, 0);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}
