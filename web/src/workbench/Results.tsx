// The results of a run: one player for the whole page (sticky above the
// columns, so it stays at hand while scrolling through the views), and each
// profile's column at that player's position.
import { useMemo } from 'react';
import { Joint } from '../trace/joint';
import { PlayerBar } from '../player/PlayerBar';
import type { TraceData } from '../trace/traceData';
import { usePlayback } from '../player/usePlayback';
import { compareLine } from './compare';
import { ProfileResults } from './ProfileResults';
import type { Profile, Runs } from './report';

/** The profiles whose run left a trace to replay (one with snapshots to start from). */
function replayable(profiles: readonly Profile[], runs: Runs): { profile: Profile; trace: TraceData }[] {
  return profiles.flatMap((profile) => {
    const trace = runs[profile]?.trace;
    return trace && trace.snapshots.length > 0 ? [{ profile, trace }] : [];
  });
}

/** The statement under the cursor on both engines, when both ran it. */
function Compare({ runs, index }: { runs: Runs; index: number }) {
  const pg = runs.pg?.report.statements[index];
  const yb = runs.yb?.report.statements[index];
  if (!pg || !yb) return null;
  return (
    <p className="compare" data-testid="compare">
      <strong>
        Statement {index + 1} (line {pg.line}):
      </strong>{' '}
      {compareLine(pg, yb)}
    </p>
  );
}

/** Where a new player opens. */
export interface OpenAt {
  statement: number;
  at: 'start' | 'end';
}

export function Results({
  profiles,
  runs,
  openAt,
  onFullDetail,
}: {
  profiles: readonly Profile[];
  runs: Runs;
  /** Open on this statement (its start, or where it has run whole) instead of the end. */
  openAt?: OpenAt | undefined;
  onFullDetail?: (index: number) => void;
}) {
  const tracks = useMemo(() => replayable(profiles, runs), [profiles, runs]);
  const joint = useMemo(() => new Joint(tracks.map((t) => t.trace)), [tracks]);
  const playback = usePlayback(
    joint.length,
    openAt === undefined
      ? undefined
      : openAt.at === 'start'
        ? joint.positionOfStatement(openAt.statement)
        : joint.positionAfterStatement(openAt.statement),
  );
  const cursors = joint.cursors(playback.position);
  const cursorOf = (p: Profile) => {
    const k = tracks.findIndex((t) => t.profile === p);
    return k < 0 ? null : (cursors[k] ?? 0);
  };
  return (
    <div className="results">
      {tracks.length > 0 && (
        <div className="player-dock">
          <PlayerBar
            joint={joint}
            position={playback.position}
            cursors={tracks.map((t, k) => ({
              profile: t.profile,
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
          <Compare runs={runs} index={joint.statementAt(playback.position)} />
        </div>
      )}
      <div className={`results-pane results-${profiles.length}`}>
        {profiles.map((p) => {
          const r = runs[p];
          return r ? (
            <ProfileResults key={p} profile={p} run={r} cursor={cursorOf(p)} onFullDetail={onFullDetail} />
          ) : (
            <section key={p} className="profile-results empty">
              <h2>{p}</h2>
              <p className="hint">Run the script to see what the {p} engine did.</p>
            </section>
          );
        })}
      </div>
    </div>
  );
}
