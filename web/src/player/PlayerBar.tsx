// The player's controls: statement and event steps both ways, play/pause, a
// scrubber with a mark at each statement, the speed, and jumps to the next
// event of a kind. One bar drives every profile on the page (a Joint).
import { count } from '../format/numbers';
import { useMemo } from 'react';
import type { Joint } from '../trace/joint';
import type { Jump } from '../trace/traceData';
import { VIEWS } from '../views/registry';
import { GENERAL_JUMPS } from './describe';
import { SPEEDS } from './usePlayback';

/** The events worth jumping to: every run's, and each view's. */
const JUMPS: Record<string, Jump> = Object.assign(
  {},
  GENERAL_JUMPS,
  ...VIEWS.map((v) => v.jumps),
);

interface Props {
  joint: Joint;
  /** The joint position, and each profile's cursor there (shown). */
  position: number;
  cursors: readonly { profile: string; cursor: number; of: number }[];
  onSeek(position: number): void;
  onStep(kind: 'event' | 'statement', direction: 1 | -1): void;
  playing: boolean;
  onPlay(playing: boolean): void;
  speed: number;
  onSpeed(speed: number): void;
}

export function PlayerBar(p: Props) {
  const n = p.joint.length;
  const marks = p.joint.marks();
  // Offer only the jumps this run can make (no flushes on pg, no splits on yb).
  const jumps = useMemo(
    () => Object.keys(JUMPS).filter((k) => { const j = JUMPS[k]; return j !== undefined && p.joint.has(j); }),
    [p.joint],
  );
  return (
    <div className="player-bar" data-testid="player">
      <div className="player-buttons">
        <button type="button" onClick={() => p.onStep('statement', -1)} title="Previous statement">
          ◀◀
        </button>
        <button type="button" onClick={() => p.onStep('event', -1)} title="Previous event">
          ◂
        </button>
        <button
          type="button"
          onClick={() => p.onPlay(!p.playing)}
          title={p.playing ? 'Pause' : 'Play'}
        >
          {p.playing ? '❙❙' : '▶'}
        </button>
        <button type="button" onClick={() => p.onStep('event', 1)} title="Next event">
          ▸
        </button>
        <button type="button" onClick={() => p.onStep('statement', 1)} title="Next statement">
          ▶▶
        </button>
        <label>
          speed{' '}
          <select value={p.speed} onChange={(e) => p.onSpeed(Number(e.target.value))}>
            {SPEEDS.map((s) => (
              <option key={s} value={s}>
                {s}×
              </option>
            ))}
          </select>
        </label>
        <label>
          jump to next{' '}
          <select
            value=""
            aria-label="Jump to the next event of a kind"
            onChange={(e) => {
              const wanted = JUMPS[e.target.value];
              if (wanted) p.onSeek(p.joint.nextWhere(p.position, wanted));
            }}
          >
            <option value="">…</option>
            {jumps.map((k) => (
              <option key={k} value={k}>
                {k}
              </option>
            ))}
          </select>
        </label>
        <span className="player-position" data-testid="player-position">
          {p.cursors.map((c) => `${c.profile} event ${count(c.cursor)} of ${count(c.of)}`).join(' · ')}
        </span>
      </div>
      <div className="scrubber">
        <input
          type="range"
          min={0}
          max={n}
          value={p.position}
          onChange={(e) => p.onSeek(Number(e.target.value))}
          aria-label="Position in the trace"
        />
        <div className="marks" aria-hidden="true">
          {marks.map((m) => (
            <span
              key={m.at}
              className="mark"
              style={{ left: `${(m.at / Math.max(1, n)) * 100}%` }}
              title={m.sql}
            />
          ))}
        </div>
      </div>
    </div>
  );
}
