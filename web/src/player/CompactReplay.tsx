// The compact replay an embed and a lesson show: the one player over the
// shown variants, then each variant's caption and views, side by side when
// the column is wide enough. A lesson may add narrations keyed to events
// (<Watch>): playing pauses at each, and its words appear under the player.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { KeysHelp } from './KeysHelp';
import { LectureCaption, LectureSwitch } from './LectureCaption';
import { useLecture } from './useLecture';
import { PlayerBar } from './PlayerBar';
import { narrationStops, viewOfMoment, type Narration } from './narration';
import { Replay } from './Replay';
import { sharedScales } from './sharedScales';
import { replayable, startOf, type OpenAt } from './tracks';
import { usePlayback } from './usePlayback';
import { usePlayerKeys } from './usePlayerKeys';
import { fingerprint } from '../share/link';
import { viewsFor } from '../views/registry';
import { usePresenting } from '../presenter/presenter';
import { Joint } from '../trace/joint';
import type { ResultColumn } from '../variants/runVariants';
import { firstError } from '../workbench/report';
import { count } from '../format/numbers';
import { useWidth } from '../charts/useWidth';

/**
 * At a narrated moment, the words and the picture they speak of on screen
 * together: when the narration or the view it names (the network view for a
 * round of RPCs, the scan view for a step, …; else the first) is out of
 * sight, the page scrolls so the view sits just below the player (docked at
 * the top where the dock is sticky) or, where the words are a subtitle at the
 * bottom of the screen (a phone, a projector), at the top of the screen. The
 * page scrolls to an absolute place, measured now: a second moment (or a tab
 * switch) during a smooth scroll then lands where it should, not part-way.
 */
function bringIntoView(box: HTMLElement, named: string | undefined, variant: string | undefined): void {
  const narration = box.querySelector('[data-testid=narration]');
  // The named view in the narrated column, or in any, or the first view.
  const column = variant ? [...box.querySelectorAll('.embed-column')].find((c) => c.getAttribute('aria-label') === variant) : undefined;
  const frame = named ? `.view-frame[data-view="${named}"]` : '.view-frame';
  const view = column?.querySelector(frame) ?? box.querySelector(frame) ?? box.querySelector('.view-frame');
  const dock = box.querySelector('.player-dock');
  if (!narration || !view || !dock) return;
  const n = narration.getBoundingClientRect();
  const v = view.getBoundingClientRect();
  const calm = matchMedia('(prefers-reduced-motion: reduce)').matches;
  const sticky = getComputedStyle(dock).position === 'sticky';
  // A subtitle stays at the bottom of the screen: the view goes to the top (below a docked player), above it.
  if (narration.closest('.watch-subtitle')) {
    const top = (sticky ? dock.getBoundingClientRect().height : 0) + 8;
    if (Math.abs(v.top - top) > 24) window.scrollTo({ top: window.scrollY + v.top - top, behavior: calm ? 'auto' : 'smooth' });
    return;
  }
  const seen = n.top >= 0 && n.bottom <= innerHeight && v.top < innerHeight - 120 && v.bottom > 0;
  if (seen) return;
  const by = sticky ? v.top - dock.getBoundingClientRect().height - 16 : n.top - 8;
  window.scrollTo({ top: window.scrollY + by, behavior: calm ? 'auto' : 'smooth' });
}

/**
 * Where a lesson's docked player sticks to the top of the screen (styles.css:
 * a screen at least 700 px wide and tall, not in presenter mode). Elsewhere a
 * narration is a subtitle instead.
 */
const DOCK_STICKS = '(min-width: 700px) and (min-height: 700px)';

function useMedia(query: string): boolean {
  const [on, setOn] = useState(() => typeof matchMedia === 'undefined' || matchMedia(query).matches);
  useEffect(() => {
    if (typeof matchMedia === 'undefined') return;
    const list = matchMedia(query);
    const hear = () => setOn(list.matches);
    list.addEventListener('change', hear);
    return () => list.removeEventListener('change', hear);
  }, [query]);
  return on;
}

/** Below this width the two columns would stack: they become a switch instead. */
const TWO_COLUMNS = 600;
/** The width assumed before the first measurement (wide: no switch flashes on a desktop). */
const WIDE = 1000;

/**
 * With several players on a page (a lesson step), the keys go to the one
 * holding the focus (or whose scenario does: its Run button, just pressed),
 * or else to the first one on screen.
 */
function takesKeys(me: HTMLElement | null): boolean {
  if (!me) return false;
  const all = [...document.querySelectorAll('.compact-replay')];
  const focused = all.find((el) => (el.closest('.lesson-scenario') ?? el).contains(document.activeElement));
  if (focused) return focused === me;
  const onScreen = all.find((el) => {
    const r = el.getBoundingClientRect();
    return r.bottom > 0 && r.top < window.innerHeight;
  });
  return onScreen === me;
}

export function CompactReplay({
  columns,
  views,
  at,
  autoplay = false,
  onPosition,
  narrations = [],
  openAt,
}: {
  columns: readonly ResultColumn[];
  views: readonly string[] | undefined;
  /** Where the player opens (undefined: the end, or the start when there are narrations). */
  at: number | undefined;
  autoplay?: boolean;
  onPosition?: ((position: number) => void) | undefined;
  narrations?: readonly Narration[];
  /** Where the player opens when `at` is not given: a statement's end, for one. */
  openAt?: OpenAt | undefined;
}) {
  const tracks = useMemo(() => replayable(columns), [columns]);
  const joint = useMemo(() => new Joint(tracks.map((t) => t.trace)), [tracks]);
  // Narrations count their events from where the player opens (a statement's start), or the run's start.
  const origin = at === undefined && openAt !== undefined ? (startOf(joint, openAt) ?? 0) : 0;
  const stops = useMemo(() => narrationStops(joint, tracks, narrations, origin), [joint, tracks, narrations, origin]);
  // Lecture pace, as in the workbench; a lesson's narrations pause it always.
  const { lecture, setLecture, stops: lectureAt } = useLecture(joint, tracks);
  const stopPositions = useMemo(
    () => [...new Set([...stops.map((s) => s.position), ...lectureAt.map((s) => s.position)])].sort((a, b) => a - b),
    [stops, lectureAt],
  );
  const start =
    autoplay || (at === undefined && openAt === undefined && stops.length > 0)
      ? 0
      : at !== undefined
        ? Math.min(at, joint.length)
        : startOf(joint, openAt);
  const playback = usePlayback(joint.length, start, stopPositions, false, { on: lecture, set: setLecture });
  const [help, setHelp] = useState(false);
  const box = useRef<HTMLDivElement>(null);
  // Too narrow for two columns side by side (a phone, a blog's column): one
  // engine at a time, chosen by a switch above the views, instead of a stack
  // that puts the second engine a screen below the player.
  const width = useWidth(box, WIDE);
  const tabbed = tracks.length > 1 && width < TWO_COLUMNS;
  const [chosen, setChosen] = useState(0);
  // Where the reader last picked a tab themselves: there their choice wins over the narration's.
  const [pickedAt, setPickedAt] = useState<number | null>(null);
  usePlayerKeys(joint, playback, () => setHelp(true), useCallback(() => takesKeys(box.current), []));
  const { play } = playback;
  useEffect(() => {
    if (autoplay) play(true);
    // Once, when the run is ready.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  useEffect(() => onPosition?.(playback.position), [onPosition, playback.position]);
  const print = useMemo(() => fingerprint(columns.flatMap((c) => (c.run ? [JSON.stringify(c.run.report)] : []))), [columns]);
  const error = firstError(columns);
  const cursors = joint.cursors(playback.position);
  const shared = sharedScales(tracks.map((t, k) => ({ profile: t.column.profile, trace: t.trace, cursor: cursors[k] ?? 0 })));
  const here = stops.filter((s) => s.position === playback.position);
  const narrated = here.length > 0;
  const shownViews = useMemo(
    () => [...new Set(tracks.flatMap((t) => viewsFor(t.column.profile).map((v) => v.id)))].filter((id) => !views || views.includes(id)),
    [tracks, views],
  );
  const named = here.map((s) => viewOfMoment(s.narration.at, shownViews)).find((v) => v !== undefined);
  const narratedVariant = here.find((s) => s.narration.variant !== undefined)?.narration.variant;
  // On a phone, the engine of the last narration reached comes forward (and
  // stays while the player moves on), unless the reader picked a tab since.
  const lastNarrated = [...stops].reverse().find((s) => s.position <= playback.position && s.narration.variant !== undefined);
  const narratedTrack = lastNarrated ? tracks.findIndex((t) => t.column.name === lastNarrated.narration.variant) : -1;
  const followNarration = tabbed && narratedTrack >= 0 && (pickedAt === null || pickedAt < (lastNarrated?.position ?? 0));
  const shown = followNarration ? narratedTrack : Math.min(chosen, tracks.length - 1);
  useEffect(() => {
    const el = box.current;
    if (!narrated || !el) return;
    const bring = () => bringIntoView(el, named, narratedVariant);
    bring();
    // Again whenever the picture changes size in the next second (a tab just
    // switched measures its width and redraws), so the view ends where it should.
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(bring);
    observer?.observe(el);
    const stop = window.setTimeout(() => observer?.disconnect(), 1000);
    return () => {
      observer?.disconnect();
      window.clearTimeout(stop);
    };
  }, [narrated, named, narratedVariant, playback.position, shown]);
  const next = stops.find((s) => s.position > playback.position);
  // Where the docked player does not stick to the top (a phone, a short
  // screen, a projector) the words are a subtitle pinned under the views (see
  // styles.css), so the view they name can fill the screen above them; on a
  // desktop they stay in the sticky dock.
  const presenting = usePresenting();
  const dockSticks = useMedia(DOCK_STICKS);
  const subtitle = presenting || !dockSticks;
  const status = here.length > 0 && (
    <div className="watch-narration" role="status" data-testid="narration" data-view={named}>
      {here.map((s, i) => (
        <div key={i}>{s.narration.words}</div>
      ))}
    </div>
  );
  const words =
    status &&
    (subtitle ? (
      <div className="watch-subtitle">
        {status}
        {next && (
          <button type="button" className="secondary watch-next-moment" onClick={() => playback.seek(next.position)}>
            Next moment ›
          </button>
        )}
      </div>
    ) : (
      status
    ));
  return (
    <div className="compact-replay" ref={box}>
      {error && (
        <p className="run-error" role="alert">
          Line {error.line}, column {error.column}: {error.message}
        </p>
      )}
      {at !== undefined && at > joint.length && (
        <p className="run-error" role="alert" data-testid="at-out-of-range">
          The address asks the player to start at position {count(at)} (at=…), past the end of this run (its last position is{' '}
          {count(joint.length)}): it starts at the end.
        </p>
      )}
      {tracks.length > 0 && (
        <div className="player-dock">
          <PlayerBar
            joint={joint}
            position={playback.position}
            cursors={tracks.map((t, k) => ({ profile: t.column.name, cursor: cursors[k] ?? 0, of: t.trace.length }))}
            onSeek={playback.seek}
            onStep={(kind, direction) =>
              playback.seek(
                kind === 'event' ? joint.stepEvent(playback.position, direction) : joint.stepStatement(playback.position, direction),
              )
            }
            playing={playback.playing}
            onPlay={playback.play}
            speed={playback.speed}
            onSpeed={playback.setSpeed}
          />
          <LectureSwitch on={lecture} onChange={setLecture} />
          {lecture && <LectureCaption stops={lectureAt} position={playback.position} tracks={tracks} />}
          {here.length > 0 ? (
            !subtitle && words
          ) : (
            stops.length > 0 &&
            next && (
              <p className="hint watch-next">
                Press play (or Space): it pauses {playback.position === 0 ? 'where there is something to see' : 'at the next moment worth a look'}.
              </p>
            )
          )}
          {next && (
            <button type="button" className="secondary" onClick={() => playback.seek(next.position)}>
              Skip to the next moment worth a look
            </button>
          )}
          {help && <KeysHelp onClose={() => setHelp(false)} />}
        </div>
      )}
      {tabbed && (
        <div className="engine-switch" role="group" aria-label="Which engine to show" data-testid="engine-switch">
          {tracks.map((t, k) => (
            <button
              key={t.column.id}
              type="button"
              aria-pressed={k === shown}
              onClick={() => {
                setChosen(k);
                setPickedAt(playback.position);
              }}
            >
              {t.column.name}
            </button>
          ))}
        </div>
      )}
      <div className={`embed-columns embed-columns-${tabbed ? 1 : Math.min(tracks.length, 2)}`}>
        {tracks.map((t, k) => (tabbed && k !== shown ? null : (
          <section key={t.column.id} className="embed-column" aria-label={t.column.name}>
            {!tabbed && <h3>{t.column.name}</h3>}
            {t.column.run && (
              <Replay
                id={t.column.id}
                profile={t.column.profile}
                trace={t.trace}
                report={t.column.run.report}
                cursor={cursors[k] ?? 0}
                views={views}
                compact
                shared={shared}
                foldCaption={tabbed && narrated}
                atStop={here.some((s) => s.narration.variant === undefined || s.narration.variant === t.column.name)}
              />
            )}
          </section>
        )))}
      </div>
      {subtitle && words}
      <p className="hint embed-foot">
        Run fingerprint <code data-testid="fingerprint">{print}</code> · keys: ? lists them
      </p>
    </div>
  );
}
