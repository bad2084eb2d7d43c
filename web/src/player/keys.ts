// The player's keyboard, for a class: a presenter remote sends "." for its
// middle button, so "." plays and pauses like Space. Pure: the map the help
// dialog lists is the one the handler reads, and tests check both.
import { SPEEDS } from './usePlayback';

export type KeyAction =
  | { kind: 'play-pause' }
  | { kind: 'step'; by: 'event' | 'statement'; direction: -1 | 1 }
  | { kind: 'edge'; to: 'start' | 'end' }
  | { kind: 'speed'; direction: -1 | 1 }
  | { kind: 'fullscreen' }
  | { kind: 'presenter' }
  | { kind: 'lecture' }
  | { kind: 'help' };

export interface KeyBinding {
  /** The keys, as the help dialog names them. */
  keys: string[];
  does: string;
  action: KeyAction;
  /** `KeyboardEvent.key` values, and whether Shift must be held. */
  match: { key: string; shift?: boolean }[];
}

export const KEYMAP: readonly KeyBinding[] = [
  { keys: ['Space', '.'], does: 'Play or pause', action: { kind: 'play-pause' }, match: [{ key: ' ' }, { key: '.' }] },
  { keys: ['→'], does: 'Next event', action: { kind: 'step', by: 'event', direction: 1 }, match: [{ key: 'ArrowRight', shift: false }] },
  { keys: ['←'], does: 'Previous event', action: { kind: 'step', by: 'event', direction: -1 }, match: [{ key: 'ArrowLeft', shift: false }] },
  { keys: ['Shift+→'], does: 'Next statement', action: { kind: 'step', by: 'statement', direction: 1 }, match: [{ key: 'ArrowRight', shift: true }] },
  { keys: ['Shift+←'], does: 'Previous statement', action: { kind: 'step', by: 'statement', direction: -1 }, match: [{ key: 'ArrowLeft', shift: true }] },
  { keys: ['Home'], does: 'Go to the start of the run', action: { kind: 'edge', to: 'start' }, match: [{ key: 'Home' }] },
  { keys: ['End'], does: 'Go to the end of the run', action: { kind: 'edge', to: 'end' }, match: [{ key: 'End' }] },
  { keys: ['+'], does: 'Play faster', action: { kind: 'speed', direction: 1 }, match: [{ key: '+' }, { key: '=' }] },
  { keys: ['-'], does: 'Play slower', action: { kind: 'speed', direction: -1 }, match: [{ key: '-' }, { key: '_' }] },
  { keys: ['f'], does: 'Full screen on or off', action: { kind: 'fullscreen' }, match: [{ key: 'f' }, { key: 'F' }] },
  { keys: ['p'], does: 'Presenter mode on or off', action: { kind: 'presenter' }, match: [{ key: 'p' }, { key: 'P' }] },
  { keys: ['l'], does: 'Lecture pace on or off (playing pauses on splits, flushes, compactions, read requests, backward seeks)', action: { kind: 'lecture' }, match: [{ key: 'l' }, { key: 'L' }] },
  { keys: ['?'], does: 'This list of keys', action: { kind: 'help' }, match: [{ key: '?' }] },
];

export interface KeyPress {
  key: string;
  shiftKey: boolean;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
}

/** The action a key press asks for, or null (a key of the browser's, or of a control). */
export function actionFor(e: KeyPress): KeyAction | null {
  if (e.ctrlKey || e.metaKey || e.altKey) return null;
  for (const b of KEYMAP) {
    if (b.match.some((m) => m.key === e.key && (m.shift === undefined || m.shift === e.shiftKey))) return b.action;
  }
  return null;
}

/**
 * Whether `key` typed at `target` belongs to it: every key in the editor, a
 * text field, a select or a dialog; Space and Enter on a button (they press
 * it); arrows, Home and End on a slider (they move it).
 */
export function ownsKeys(target: EventTarget | null, key: string): boolean {
  if (!target || typeof (target as Element).closest !== 'function') return false;
  const el = target as Element;
  if (el.closest('[contenteditable="true"], textarea, select, dialog, input:not([type="range"]):not([type="checkbox"]):not([type="radio"])')) {
    return true;
  }
  if (el.closest('button, [role="button"], summary, a[href], input[type="checkbox"], input[type="radio"]')) return key === ' ' || key === 'Enter';
  if (el.closest('input[type="range"]')) return ['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown', 'Home', 'End', 'PageUp', 'PageDown'].includes(key);
  return false;
}

/** The next speed up or down the offered ones, staying at the ends. */
export function nextSpeed(speed: number, direction: -1 | 1): number {
  const i = SPEEDS.findIndex((s) => s === speed);
  const j = Math.max(0, Math.min(SPEEDS.length - 1, (i < 0 ? 2 : i) + direction));
  return SPEEDS[j] ?? speed;
}
