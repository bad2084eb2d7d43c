// Play/pause, speed and the position of one player over `length` steps. While
// playing, each animation frame advances by the speed (fractions carry over).
import { useEffect, useState } from 'react';


export interface Playback {
  position: number;
  playing: boolean;
  speed: number;
  seek(position: number): void;
  play(on: boolean): void;
  setSpeed(speed: number): void;
}

/** The playback speeds offered: events per tick scale with them. */
export const SPEEDS = [0.25, 0.5, 1, 2, 4, 8, 16] as const;

/** Events to advance per animation tick at `speed` (1× = one event a tick). */
export function eventsPerTick(speed: number, carry: number): { steps: number; carry: number } {
  const total = carry + speed;
  const steps = Math.floor(total);
  return { steps, carry: total - steps };
}

export function usePlayback(length: number, start?: number): Playback {
  // A new run opens at its end (the state the EXPLAINs describe), or where asked.
  const [position, setPosition] = useState(start ?? length);
  const [playing, setPlaying] = useState(false);
  const [speed, setSpeed] = useState(1);

  useEffect(() => {
    if (!playing) return;
    let carry = 0;
    let frame = requestAnimationFrame(function tick() {
      const r = eventsPerTick(speed, carry);
      carry = r.carry;
      setPosition((p) => {
        const next = Math.min(length, p + r.steps);
        if (next >= length) setPlaying(false);
        return next;
      });
      frame = requestAnimationFrame(tick);
    });
    return () => cancelAnimationFrame(frame);
  }, [playing, speed, length]);

  return {
    position,
    playing,
    speed,
    seek(p) {
      setPlaying(false);
      setPosition(Math.max(0, Math.min(length, p)));
    },
    play(on) {
      if (on && position >= length) setPosition(0);
      setPlaying(on);
    },
    setSpeed,
  };
}
