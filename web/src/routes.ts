// The page's routes, in the address's hash (a static host serves one page):
//   #/ (or nothing)               the lesson index, the landing page
//   #/lesson/<slug>/<step>        a lesson's step (1 is the first)
//   #/workbench, #/play?v=1&s=…   the workbench (a scenario link opens there)
// Back and forward move between them: every change of route is a new entry.
import { useSyncExternalStore } from 'react';

export type Route =
  | { kind: 'index' }
  | { kind: 'lesson'; slug: string; step: number }
  | { kind: 'workbench' }
  | { kind: 'unknown'; hash: string };

export function routeOf(hash: string): Route {
  if (hash === '' || hash === '#' || hash === '#/' || hash === '#/lessons') return { kind: 'index' };
  if (hash === '#/workbench' || hash.startsWith('#/play?') || hash === '#/play') return { kind: 'workbench' };
  const m = /^#\/lesson\/([^/?#]+)(?:\/(\d+))?\/?$/.exec(hash);
  if (m?.[1]) return { kind: 'lesson', slug: decodeURIComponent(m[1]), step: Math.max(1, Number(m[2] ?? 1)) };
  return { kind: 'unknown', hash };
}

export const lessonHref = (slug: string, step: number) => `#/lesson/${encodeURIComponent(slug)}/${step}`;

function subscribe(listener: () => void): () => void {
  window.addEventListener('hashchange', listener);
  return () => window.removeEventListener('hashchange', listener);
}

const currentHash = () => (typeof location === 'undefined' ? '' : location.hash);

/** The route of the address, following it. */
export function useRoute(): Route {
  return routeOf(useSyncExternalStore(subscribe, currentHash, () => ''));
}
