// The landing page shows before it tells: 400 keys go into a B+tree (pg) and
// an LSM (yb) side by side, looping. Both are real runs of the engines, made
// in the page's workers once the page is idle (which also warms the engine
// for the first lesson's Run). With reduced motion asked for, it opens on
// the finished picture and plays only when asked; anyone can pause it.
import { useEffect, useMemo, useRef, useState, type RefObject } from 'react';
import { useEngine } from '../engine/EngineContext';
import { decodeRun } from '../engine/packed';
import { count } from '../format/numbers';
import { btreeView } from '../views/btree';
import { lsmView } from '../views/lsm';
import { viewStateAt, type AnyView, type Profile } from '../views/registry';
import { settingsLines } from '../workbench/settings';
import { useWidth } from '../charts/useWidth';
import { cursorAt, HOLD_SECONDS, KEYS, PASS_SECONDS, SCRIPT, SETTINGS, tally, trackOf, type MiniatureTrack } from './miniature';
import { useLoop, useOnScreen } from './useLoop';

const PANES: readonly { profile: Profile; view: AnyView; title: string; before: string }[] = [
  {
    profile: 'pg',
    view: btreeView,
    title: 'PostgreSQL: a B+tree',
    before: 'Each key goes into the one leaf page that holds its range; while that page has room, nothing else changes.',
  },
  {
    profile: 'yb',
    view: lsmView,
    title: 'YugabyteDB: an LSM tree',
    before: 'Each key goes into the memtable, a sorted buffer in memory; no file on disk is touched yet.',
  },
];

function plural(n: number, one: string, many = `${one}s`): string {
  return `${count(n)} ${n === 1 ? one : many}`;
}

/** The line under a picture: keys so far and what they caused. */
function tallyLine(track: MiniatureTrack, cursor: number): string {
  const { keys, events } = tally(track, cursor);
  const parts = [`${count(keys)} of ${count(KEYS)} keys`];
  if (track.profile === 'pg') parts.push(plural(events.page_split ?? 0, 'page split'));
  else parts.push(plural(events.flush ?? 0, 'flush', 'flushes'), plural(events.compaction_finish ?? 0, 'compaction'));
  return parts.join(' · ');
}

/**
 * The views zoom on the wheel and pan on a drag (d3-zoom on their SVG): in a
 * miniature at the top of a page that would catch the reader's scrolling.
 * Caught on the way down, the events never reach them; the page scrolls.
 */
const NOT_FOR_ZOOM = ['wheel', 'mousedown', 'dblclick', 'touchstart'] as const;

function useNoZoom(box: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const stop = (e: Event) => e.stopPropagation();
    for (const kind of NOT_FOR_ZOOM) el.addEventListener(kind, stop, { capture: true });
    return () => {
      for (const kind of NOT_FOR_ZOOM) el.removeEventListener(kind, stop, { capture: true });
    };
  }, [box]);
}

function Pane({ track, view, title, before, t }: { track: MiniatureTrack; view: AnyView; title: string; before: string; t: number }) {
  // The picture's own box: the pane's padding is not room to draw in.
  const box = useRef<HTMLDivElement>(null);
  const width = useWidth(box, 320);
  useNoZoom(box);
  const { trace } = track;
  const stateAt = useMemo(() => viewStateAt(view, trace), [trace, view]);
  const cursor = cursorAt(track, t);
  const notable = track.notable[cursor] ?? -1;
  const caption = notable >= 0 ? view.describe(trace.event(notable), trace) : before;
  const { Component } = view;
  return (
    <figure className="miniature-pane" aria-label={title}>
      <h3>{title}</h3>
      <p className="miniature-tally" data-testid={`miniature-tally-${track.profile}`}>
        {tallyLine(track, cursor)}
      </p>
      <div className="miniature-view" ref={box}>
        <Component
          state={stateAt(cursor)}
          trace={trace}
          cursor={cursor}
          stateAt={stateAt}
          last={cursor > 0 ? trace.event(cursor - 1) : undefined}
          width={width}
        />
      </div>
      <figcaption className="miniature-caption">{caption}</figcaption>
    </figure>
  );
}

const calm = (): boolean => typeof matchMedia !== 'undefined' && matchMedia('(prefers-reduced-motion: reduce)').matches;

export function EngineMiniature() {
  const engine = useEngine();
  const [tracks, setTracks] = useState<MiniatureTrack[] | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  // Reduced motion: the finished picture, still, until the reader presses Play.
  const [playing, setPlaying] = useState(() => !calm());
  const [box, setBox] = useState<HTMLElement | null>(null);
  const onScreen = useOnScreen(box);
  const t = useLoop(tracks !== null && playing && onScreen, PASS_SECONDS, HOLD_SECONDS, calm() ? 1 : 0);

  useEffect(() => {
    let live = true;
    const run = async () => {
      const runs = await Promise.all(
        PANES.map(async ({ profile }, lane) =>
          decodeRun(await engine.runTracedPacked(SCRIPT, profile, settingsLines(SETTINGS[profile]), () => {}, lane)),
        ),
      );
      const made = runs.map((r, k) => {
        const profile = PANES[k]?.profile ?? 'pg';
        if (r.report.error || !r.trace) throw new Error(r.report.error?.message ?? 'the run left no trace');
        return trackOf(profile, r.trace);
      });
      if (live) setTracks(made);
    };
    // After the page's own work: the lessons' text comes first.
    const later = window.setTimeout(() => run().catch((e: unknown) => live && setFailed(e instanceof Error ? e.message : String(e))), 300);
    return () => {
      live = false;
      window.clearTimeout(later);
    };
  }, [engine]);

  return (
    <section className="miniature" ref={setBox} aria-labelledby="miniature-title" data-testid="miniature">
      <div className="miniature-head">
        <h2 id="miniature-title">{count(KEYS)} keys, two engines</h2>
        {tracks && (
          <button type="button" className="secondary" onClick={() => setPlaying(!playing)}>
            {playing ? 'Pause' : 'Play'}
          </button>
        )}
      </div>
      <p className="hint">
        The same {count(KEYS)} keys, inserted in a scattered order, run live on both engines in your browser (pages and
        memtable shrunk so that a few hundred keys do what millions would).
      </p>
      {failed ? (
        <p className="hint" role="status">
          The engines could not run the miniature here ({failed}); the lessons below still work.
        </p>
      ) : (
        <div className="miniature-panes">
          {tracks
            ? PANES.map((p, k) => {
                const track = tracks[k];
                return track ? <Pane key={p.profile} track={track} view={p.view} title={p.title} before={p.before} t={t} /> : null;
              })
            : PANES.map((p) => (
                <figure key={p.profile} className="miniature-pane" aria-label={p.title}>
                  <h3>{p.title}</h3>
                  <p className="hint">Starting the engine…</p>
                </figure>
              ))}
        </div>
      )}
    </section>
  );
}
