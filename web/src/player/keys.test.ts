// The player's keyboard: every key the help lists does what it says, no key
// fires with a modifier, and keys that belong to a control stay with it.
import { describe, expect, it } from 'vitest';
import { actionFor, KEYMAP, nextSpeed, ownsKeys } from './keys';

const press = (key: string, mods: Partial<{ shiftKey: boolean; ctrlKey: boolean; metaKey: boolean; altKey: boolean }> = {}) => ({
  key,
  shiftKey: false,
  ctrlKey: false,
  metaKey: false,
  altKey: false,
  ...mods,
});

describe('the player keyboard', () => {
  it('maps every listed key to its action', () => {
    for (const b of KEYMAP) for (const m of b.match) expect(actionFor(press(m.key, { shiftKey: m.shift ?? false }))).toEqual(b.action);
    expect(actionFor(press('.'))).toEqual({ kind: 'play-pause' });
    expect(actionFor(press('ArrowRight', { shiftKey: true }))).toEqual({ kind: 'step', by: 'statement', direction: 1 });
    expect(actionFor(press('ArrowLeft'))).toEqual({ kind: 'step', by: 'event', direction: -1 });
  });

  it('leaves keys with Ctrl, Cmd or Alt to the browser, and unknown keys alone', () => {
    expect(actionFor(press('f', { ctrlKey: true }))).toBeNull();
    expect(actionFor(press('ArrowRight', { metaKey: true }))).toBeNull();
    expect(actionFor(press('x'))).toBeNull();
  });

  it('steps the speed through the offered ones and stops at the ends', () => {
    expect(nextSpeed(1, 1)).toBe(2);
    expect(nextSpeed(16, 1)).toBe(16);
    expect(nextSpeed(0.25, -1)).toBe(0.25);
  });

  it('never takes keys from the editor or a field; only Space and Enter from a button; arrows from a slider', () => {
    document.body.innerHTML = `<div contenteditable="true"><span id="in-editor">x</span></div>
      <input id="text"><button id="b">Run</button><input id="range" type="range"><div id="plain"></div>`;
    const el = (id: string) => document.getElementById(id);
    expect(ownsKeys(el('in-editor'), 'ArrowRight')).toBe(true);
    expect(ownsKeys(el('text'), '.')).toBe(true);
    expect(ownsKeys(el('b'), ' ')).toBe(true);
    expect(ownsKeys(el('b'), 'ArrowRight')).toBe(false);
    expect(ownsKeys(el('range'), 'ArrowLeft')).toBe(true);
    expect(ownsKeys(el('range'), '.')).toBe(false);
    expect(ownsKeys(el('plain'), ' ')).toBe(false);
    expect(ownsKeys(null, ' ')).toBe(false);
  });
});
