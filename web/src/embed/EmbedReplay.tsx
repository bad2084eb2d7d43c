// The widget's replay: the one player over the shown variants, then each
// variant's caption and views, side by side when the column is wide enough.
import { useEffect, useMemo, useState } from 'react';
import { KeysHelp } from '../player/KeysHelp';
import { PlayerBar } from '../player/PlayerBar';
import { Replay } from '../player/Replay';
import { replayable } from '../player/tracks';
import { usePlayback } from '../player/usePlayback';
import { usePlayerKeys } from '../player/usePlayerKeys';
import { fingerprint } from '../share/link';
import { Joint } from '../trace/joint';
import type { ResultColumn } from '../variants/runVariants';
import { firstError } from '../workbench/report';

export function EmbedReplay({
  columns,
  views,
  at,
  autoplay,
  onPosition,
}: {
  columns: readonly ResultColumn[];
  views: readonly string[] | undefined;
  at: number | undefined;
  autoplay: boolean;
  onPosition(position: number): void;
}) {
  const tracks = useMemo(() => replayable(columns), [columns]);
  const joint = useMemo(() => new Joint(tracks.map((t) => t.trace)), [tracks]);
  const playback = usePlayback(joint.length, autoplay ? 0 : at === undefined ? undefined : Math.min(at, joint.length));
  const [help, setHelp] = useState(false);
  usePlayerKeys(joint, playback, () => setHelp(true));
  const { play } = playback;
  useEffect(() => {
    if (autoplay) play(true);
    // Once, when the run is ready.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  useEffect(() => onPosition(playback.position), [onPosition, playback.position]);
  const print = useMemo(() => fingerprint(columns.flatMap((c) => (c.run ? [JSON.stringify(c.run.report)] : []))), [columns]);
  const error = firstError(columns);
  const cursors = joint.cursors(playback.position);
  return (
    <div className="embed-replay">
      {error && (
        <p className="run-error" role="alert">
          Line {error.line}, column {error.column}: {error.message}
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
          {help && <KeysHelp onClose={() => setHelp(false)} />}
        </div>
      )}
      <div className={`embed-columns embed-columns-${Math.min(tracks.length, 2)}`}>
        {tracks.map((t, k) => (
          <section key={t.column.id} className="embed-column" aria-label={t.column.name}>
            <h2>{t.column.name}</h2>
            {t.column.run && (
              <Replay
                id={t.column.id}
                profile={t.column.profile}
                trace={t.trace}
                report={t.column.run.report}
                cursor={cursors[k] ?? 0}
                views={views}
                compact
              />
            )}
          </section>
        ))}
      </div>
      <p className="hint embed-foot">
        Run fingerprint <code data-testid="fingerprint">{print}</code> · keys: ? lists them
      </p>
    </div>
  );
}
