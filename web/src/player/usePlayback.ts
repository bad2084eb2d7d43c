// Play/pause, speed and the position of one player over `length` steps. While
// playing, each animation frame advances by the speed (fractions carry over).
import { useEffect, useState } from 'react';
import { eventsPerTick } from './player';

export interface Playback {
  position: number;
  playing: boolean;
  speed: number;
  seek(position: number): void;
  play(on: boolean): void;
  setSpeed(speed: number): void;
}

export function usePlayback(length: number): Playback {
  // A new run opens at its end: the state the EXPLAINs describe.
  const [position, setPosition] = useState(length);
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
