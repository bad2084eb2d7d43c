// Play/pause, speed and the position of one player over `length` steps. While
// playing, each animation frame advances by the speed (fractions carry over).
import { useEffect, useState } from 'react';


export interface Playback {
  position: number;
  playing: boolean;
  speed: number;
  /** Lecture pace: playing pauses at each of `stops`. */
  lecture: boolean;
  seek(position: number): void;
  play(on: boolean): void;
  setSpeed(speed: number): void;
  setLecture(on: boolean): void;
}

/** The playback speeds offered: events per tick scale with them. */
const NO_STOPS: readonly number[] = [];

export const SPEEDS = [0.25, 0.5, 1, 2, 4, 8, 16] as const;

/** Events to advance per animation tick at `speed` (1× = one event a tick). */
export function eventsPerTick(speed: number, carry: number): { steps: number; carry: number } {
  const total = carry + speed;
  const steps = Math.floor(total);
  return { steps, carry: total - steps };
}

/**
 * One player over `length` steps. Playing pauses at each of `stops`
 * (ascending positions), where the teacher talks: the caller gives the stops
 * of lecture pace only while it is on.
 */
export function usePlayback(
  length: number,
  start?: number,
  stops: readonly number[] = NO_STOPS,
  /** Lecture pace until the reader turns it on or off (presenter mode's default is on). */
  lectureByDefault = false,
  /** Lecture pace kept by the caller instead (it computes the stops only while it is on). */
  lectureControl?: { on: boolean; set(on: boolean): void },
): Playback {
  // A new run opens at its end (the state the EXPLAINs describe), or where asked.
  const [position, setPosition] = useState(start ?? length);
  const [playing, setPlaying] = useState(false);
  const [speed, setSpeed] = useState(1);
  const [lectureChoice, setLectureChoice] = useState<boolean | null>(null);
  const lecture = lectureControl ? lectureControl.on : (lectureChoice ?? lectureByDefault);
  const setLecture = lectureControl ? lectureControl.set : setLectureChoice;

  useEffect(() => {
    if (!playing) return;
    let carry = 0;
    // Set by the update that reaches the end or a stop: React runs updates
    // later than they are asked for, so a frame already asked for must not
    // carry the player past the stop.
    // (React may run an update twice: the same answer both times.)
    let halted: number | undefined;
    let frame = requestAnimationFrame(function tick() {
      const r = eventsPerTick(speed, carry);
      carry = r.carry;
      setPosition((p) => {
        if (halted !== undefined) return halted;
        let next = Math.min(length, p + r.steps);
        // The caller passes the stops that apply now (none with lecture pace
        // off, or a lesson's narrations, which always pause).
        const stop = stops.find((s) => s > p && s <= next);
        if (stop !== undefined) next = stop;
        if (next >= length || stop !== undefined) {
          halted = next;
          setPlaying(false);
        }
        return next;
      });
      if (halted === undefined) frame = requestAnimationFrame(tick);
    });
    return () => cancelAnimationFrame(frame);
  }, [playing, speed, length, lecture, stops]);

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
    lecture,
    setLecture,
  };
}
