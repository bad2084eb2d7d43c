// A clock for the landing page's miniature: t runs from 0 to 1 over a pass,
// holds at 1 for a moment, and starts again. It runs only while `on` (the
// reader has not paused it, and the picture is on screen), so a page scrolled
// past it or a tab in the background costs nothing.
import { useEffect, useRef, useState } from 'react';

export function useLoop(on: boolean, passSeconds: number, holdSeconds: number, start = 0): number {
  const [t, setT] = useState(start);
  const at = useRef(start);
  useEffect(() => {
    if (!on) return;
    let last: number | undefined;
    let frame = requestAnimationFrame(function tick(now) {
      const dt = last === undefined ? 0 : (now - last) / 1000;
      last = now;
      // Past 1 the clock is holding the finished picture; past the hold it wraps to the start.
      let next = at.current + dt / passSeconds;
      if (next > 1 + holdSeconds / passSeconds) next = 0;
      at.current = next;
      setT(Math.min(1, next));
      frame = requestAnimationFrame(tick);
    });
    return () => cancelAnimationFrame(frame);
  }, [on, passSeconds, holdSeconds]);
  return t;
}

/** True while the element is at least partly on screen (true where there is no observer). */
export function useOnScreen(el: HTMLElement | null): boolean {
  const [seen, setSeen] = useState(true);
  useEffect(() => {
    if (!el || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver((entries) => setSeen(entries.some((e) => e.isIntersecting)));
    observer.observe(el);
    return () => observer.disconnect();
  }, [el]);
  return seen;
}
