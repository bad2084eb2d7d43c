// The player's keys on the whole page (keys.ts): a teacher drives the replay
// from the keyboard or a presenter remote, wherever the focus is, except where
// the keys belong to a control (the editor, a field, a button).
import { useEffect, useRef } from 'react';
import type { Joint } from '../trace/joint';
import { actionFor, nextSpeed, ownsKeys, type KeyAction } from './keys';
import type { Playback } from './usePlayback';
import { isPresenting, setPresenting, toggleFullscreen } from '../presenter/presenter';

function perform(a: KeyAction, joint: Joint, p: Playback, help: () => void): void {
  switch (a.kind) {
    case 'play-pause':
      return p.play(!p.playing);
    case 'step':
      return p.seek(a.by === 'event' ? joint.stepEvent(p.position, a.direction) : joint.stepStatement(p.position, a.direction));
    case 'edge':
      return p.seek(a.to === 'start' ? 0 : joint.length);
    case 'speed':
      return p.setSpeed(nextSpeed(p.speed, a.direction));
    case 'fullscreen':
      return toggleFullscreen();
    case 'presenter':
      return setPresenting(!isPresenting());
    case 'lecture':
      return p.setLecture(!p.lecture);
    case 'help':
      return help();
  }
}

/**
 * `owns`: whether this player takes the keys now (a page with several players,
 * a lesson's, gives them to one); undefined: always.
 */
export function usePlayerKeys(joint: Joint, playback: Playback, help: () => void, owns?: () => boolean): void {
  // The latest player, read by one listener for the page's life (not one per frame).
  const latest = useRef({ joint, playback, help, owns });
  useEffect(() => {
    latest.current = { joint, playback, help, owns };
  });
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || ownsKeys(e.target, e.key)) return;
      if (latest.current.owns && !latest.current.owns()) return;
      const action = actionFor(e);
      if (!action) return;
      e.preventDefault();
      const { joint: j, playback: p, help: h } = latest.current;
      perform(action, j, p, h);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}
