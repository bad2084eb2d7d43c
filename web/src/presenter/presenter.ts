// Presenter mode: the page for a projector. Full screen, the editor folded
// away, the results scaled up as a whole (CSS zoom: the views are laid out at
// the zoomed width, so nothing is a shrunk or stretched picture) so the
// smallest label is at least 18 px, high contrast, and lecture pace on. One
// switch for the page (a class on <html>), read by React through a store.
import { useSyncExternalStore } from 'react';

/** The width the results are laid out at on a wide screen: the zoom is the screen's width over it. */
const LOGICAL_WIDTH = 760;
/**
 * The least zoom: the views' smallest text is 0.62rem, 11.2 px at presenter
 * mode's 18 px root, and 11.2 × 1.65 ≥ 18 px.
 */
export const MIN_ZOOM = 1.65;

let on = false;
let ownFullscreen = false;
const listeners = new Set<() => void>();

export function presenterZoom(screenWidth: number): number {
  return Math.max(MIN_ZOOM, screenWidth / LOGICAL_WIDTH);
}

/** Room the page keeps around the results (px, on screen). */
const MARGIN = 16;

function applyZoom(): void {
  const zoom = presenterZoom(window.innerWidth);
  const style = document.documentElement.style;
  style.setProperty('--presenter-zoom', zoom.toFixed(3));
  // Lengths inside a zoomed element are zoomed too: its width is given in its own (logical) pixels.
  style.setProperty('--presenter-width', `${Math.floor((window.innerWidth - MARGIN) / zoom)}px`);
}

export function isPresenting(): boolean {
  return on;
}

export function setPresenting(next: boolean): void {
  if (next === on) return;
  on = next;
  const root = document.documentElement;
  root.classList.toggle('presenter', next);
  if (next) {
    applyZoom();
    window.addEventListener('resize', applyZoom);
    document.addEventListener('fullscreenchange', onFullscreenChange);
    // A key press or a click: the browser allows full screen (or says no, and the mode works windowed).
    ownFullscreen = !document.fullscreenElement;
    if (ownFullscreen) root.requestFullscreen?.().catch(() => (ownFullscreen = false));
  } else {
    window.removeEventListener('resize', applyZoom);
    document.removeEventListener('fullscreenchange', onFullscreenChange);
    if (ownFullscreen && document.fullscreenElement) void document.exitFullscreen().catch(() => {});
    ownFullscreen = false;
  }
  listeners.forEach((l) => l());
}

/**
 * The `f` key: full screen on or off, and nothing else. In presenter mode the
 * page stays in presenter mode, windowed (Esc, the browser's own way out,
 * still ends both).
 */
export function toggleFullscreen(): void {
  if (document.fullscreenElement) {
    ownFullscreen = false;
    void document.exitFullscreen().catch(() => {});
  } else {
    void document.documentElement
      .requestFullscreen?.()
      .then(() => (ownFullscreen = on))
      .catch(() => {});
  }
}

/** Esc leaves full screen: it leaves presenter mode too, as a teacher expects. */
function onFullscreenChange(): void {
  if (!document.fullscreenElement && ownFullscreen) setPresenting(false);
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function usePresenting(): boolean {
  return useSyncExternalStore(subscribe, isPresenting, () => false);
}
