// The results of a run: one player for the whole page (sticky above the
// columns, so it stays at hand while scrolling through the views), the
// statement under it across the variants, and each variant's column at that
// player's position.
import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { KeysHelp } from '../player/KeysHelp';
import { LectureCaption, LectureSwitch } from '../player/LectureCaption';
import { useLecture } from '../player/useLecture';
import { usePlayerKeys } from '../player/usePlayerKeys';
import { fingerprint } from '../share/link';
import { Joint } from '../trace/joint';
import { PlayerBar } from '../player/PlayerBar';
import { replayable, startOf, type OpenAt } from '../player/tracks';
import { usePlayback } from '../player/usePlayback';
import { compareSides } from './compare';
import { ColumnTitle } from './ColumnTitle';
import { ProfileResults } from './ProfileResults';
import { sharedScales } from '../player/sharedScales';
import type { ResultColumn } from '../variants/runVariants';

export type { ResultColumn, OpenAt };

// Shown after a run only: loads then, with the glossary.
const DifferenceTable = lazy(() => import('../variants/DifferenceTable').then((m) => ({ default: m.DifferenceTable })));

/** The statement under the cursor on the first two variants, in one line. */
function Compare({ columns, index }: { columns: readonly ResultColumn[]; index: number }) {
  const [a, b] = columns;
  const sa = a?.run?.report.statements[index];
  const sb = b?.run?.report.statements[index];
  if (!a || !b || !sa || !sb) return null;
  return (
    <p className="compare" data-testid="compare">
      <strong>
        Statement {index + 1} (line {sa.line}):
      </strong>{' '}
      {compareSides({ name: a.name, profile: a.profile, statement: sa }, { name: b.name, profile: b.profile, statement: sb })}
    </p>
  );
}

export function Results({
  columns,
  openAt,
  onFullDetail,
  note,
  onPosition,
  waiting = [],
}: {
  columns: readonly ResultColumn[];
  /** Open on this statement (its start, or where it has run whole) instead of the end. */
  openAt?: OpenAt | undefined;
  onFullDetail?: (index: number) => void;
  /** A line above the columns (what this run is, when it is not the variants'). */
  note?: React.ReactNode;
  /** Hears the player's position. */
  onPosition?: ((position: number) => void) | undefined;
  /**
   * Columns still running (their names): the others are shown at the end of
   * their runs, and the player waits for every column (one cursor for the page).
   */
  waiting?: readonly string[];
}) {
  const tracks = useMemo(() => replayable(columns), [columns]);
  const joint = useMemo(() => new Joint(tracks.map((t) => t.trace)), [tracks]);
  const { lecture, setLecture, stops } = useLecture(joint, tracks);
  const stopPositions = useMemo(() => stops.map((s) => s.position), [stops]);
  const playback = usePlayback(joint.length, startOf(joint, openAt), stopPositions, false, { on: lecture, set: setLecture });
  const [keysHelp, setKeysHelp] = useState(false);
  const playable = waiting.length === 0;
  usePlayerKeys(joint, playback, () => setKeysHelp(true), () => playable);
  // The page keeps the position in its address (a link lands on it).
  useEffect(() => onPosition?.(playback.position), [onPosition, playback.position]);
  const print = useMemo(
    () => fingerprint(columns.flatMap((c) => (c.run ? [JSON.stringify(c.run.report)] : []))),
    [columns],
  );
  const cursors = joint.cursors(playback.position);
  const shared = sharedScales(tracks.map((t, k) => ({ profile: t.column.profile, trace: t.trace, cursor: cursors[k] ?? 0 })));
  const cursorOf = (id: string) => {
    const k = tracks.findIndex((t) => t.column.id === id);
    return k < 0 ? null : (cursors[k] ?? 0);
  };
  const statement = joint.statementAt(playback.position);
  const compared = useMemo(
    () => columns.flatMap((c) => (c.run ? [{ name: c.name, profile: c.profile, report: c.run.report }] : [])),
    [columns],
  );
  return (
    <div className="results">
      {note}
      {!playable && (
        <p className="hint waiting-note" data-testid="waiting-note">
          {columns.flatMap((c) => (c.run ? [c.name] : [])).join(' and ')}: shown at the end of{' '}
          {tracks.length === 1 ? 'its run' : 'their runs'} while {waiting.join(' and ')} {waiting.length === 1 ? 'is' : 'are'} still
          running; the player starts when every column has run.
        </p>
      )}
      {playable && tracks.length > 0 && (
        <div className="player-dock">
          <PlayerBar
            joint={joint}
            position={playback.position}
            cursors={tracks.map((t, k) => ({
              profile: t.column.name,
              cursor: cursors[k] ?? 0,
              of: t.trace.length,
            }))}
            onSeek={playback.seek}
            onStep={(kind, direction) =>
              playback.seek(
                kind === 'event'
                  ? joint.stepEvent(playback.position, direction)
                  : joint.stepStatement(playback.position, direction),
              )
            }
            playing={playback.playing}
            onPlay={playback.play}
            speed={playback.speed}
            onSpeed={playback.setSpeed}
          />
          <LectureSwitch on={playback.lecture} onChange={playback.setLecture} />
          {playback.lecture && <LectureCaption stops={stops} position={playback.position} tracks={tracks} />}
          <Compare columns={columns} index={statement} />
          <button type="button" className="keys-button" onClick={() => setKeysHelp(true)}>
            Keyboard shortcuts (?)
          </button>
          {keysHelp && <KeysHelp onClose={() => setKeysHelp(false)} />}
          <p className="fingerprint hint">
            Run fingerprint <code data-testid="fingerprint">{print}</code>: the same link gives the same run, and the same
            fingerprint, on any machine.
          </p>
        </div>
      )}
      {compared.length > 1 && (
        <Suspense fallback={null}>
          <DifferenceTable columns={compared} index={statement} />
        </Suspense>
      )}
      <div className={`results-pane results-${Math.min(columns.length, 3)}`}>
        {columns.map((c) =>
          c.run ? (
            <ProfileResults
              key={c.id}
              id={c.id}
              name={c.name}
              profile={c.profile}
              run={c.run}
              cursor={cursorOf(c.id)}
              shared={shared}
              onFullDetail={onFullDetail}
              onSeekStatement={(i) => playback.seek(joint.positionAfterStatement(i) ?? playback.position)}
              atStop={playback.lecture && stops.some((s) => s.position === playback.position && tracks[s.track]?.column.id === c.id)}
            />
          ) : (
            <section key={c.id} className="profile-results empty">
              <ColumnTitle name={c.name} profile={c.profile} />
              <p className="hint">
                {waiting.includes(c.name)
                  ? `Still running on the ${c.profile} engine…`
                  : `Run the script to see what the ${c.profile} engine did.`}
              </p>
            </section>
          ),
        )}
      </div>
    </div>
  );
}
