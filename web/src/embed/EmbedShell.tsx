// The widget before and around its engine: a caption, "Open in IndexLab", and
// until the reader clicks or scrolls here, a poster of the script. Only then
// does the player (and with it the engine, ~1 MB of wasm) load.
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { encodeLink } from '../share/link';
import type { EmbedDecoded } from './options';
import { useHostHeight } from './useHostHeight';
import { useInView } from './useInView';
import { reservedHeight } from './reserve';

const EmbedPlayer = lazy(() => import('./EmbedPlayer').then((m) => ({ default: m.EmbedPlayer })));

const POSTER_LINES = 8;

/** The full app's address for this scenario, at this position. */
function appUrl(decoded: EmbedDecoded, at: number | undefined): string {
  const hash = decoded.kind === 'embed' ? encodeLink({ ...decoded.scenario, at }) : '';
  return new URL(`./${hash}`, location.href).href;
}

/** The engines of the variants a widget shows. */
function shownProfiles(decoded: Extract<EmbedDecoded, { kind: 'embed' }>) {
  const names = decoded.options.variants;
  return decoded.scenario.variants.filter((v) => !names || names.includes(v.name)).map((v) => v.profile);
}

export function EmbedShell({ decoded }: { decoded: EmbedDecoded }) {
  useHostHeight();
  const box = useRef<HTMLDivElement>(null);
  const seen = useInView(box);
  const [clicked, setClicked] = useState(false);
  const [position, setPosition] = useState<number | undefined>(decoded.kind === 'embed' ? decoded.options.at : undefined);
  const wanted = decoded.kind === 'embed' && (seen || clicked);
  // The engine starts with the player's code, not after it.
  useEffect(() => {
    if (wanted) void import('./pageEngine').then((m) => m.pageEngine());
  }, [wanted]);
  const theme = decoded.kind === 'embed' ? decoded.options.theme : 'auto';
  useEffect(() => {
    if (theme === 'auto') document.documentElement.removeAttribute('data-theme');
    else document.documentElement.setAttribute('data-theme', theme);
  }, [theme]);

  const title = (decoded.kind === 'embed' && decoded.options.title) || 'An IndexLab experiment';
  const lines = decoded.kind === 'embed' ? decoded.scenario.script.split('\n') : [];
  // The player's height from the first paint: the post around it does not jump while it loads.
  const reserve = decoded.kind === 'embed' ? reservedHeight(shownProfiles(decoded), decoded.options.views, innerWidth) : undefined;
  return (
    <main className="embed" ref={box} style={{ minHeight: reserve }} data-reserved={reserve}>
      <header className="embed-head">
        <h1>{title}</h1>
        <a href={appUrl(decoded, position)} target="_blank" rel="noopener noreferrer">
          Open in IndexLab<span aria-hidden="true"> ↗</span>
        </a>
      </header>
      {decoded.kind === 'error' ? (
        <p className="run-error" role="alert" data-testid="embed-error">
          {decoded.message}
        </p>
      ) : seen || clicked ? (
        <Suspense fallback={<p className="hint" role="status">Loading the engine…</p>}>
          <EmbedPlayer scenario={decoded.scenario} options={decoded.options} onPosition={setPosition} />
        </Suspense>
      ) : (
        <div className="embed-poster" data-testid="embed-poster">
          <pre aria-label="The scenario's script">
            {lines.slice(0, POSTER_LINES).join('\n')}
            {lines.length > POSTER_LINES ? '\n…' : ''}
          </pre>
          <button type="button" onClick={() => setClicked(true)}>
            Run this scenario
          </button>{' '}
          <span className="hint">It runs in your browser: the engine loads when you click or scroll here.</span>
        </div>
      )}
    </main>
  );
}
