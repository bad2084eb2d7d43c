// <Hue of="heap fetch">heap fetches</Hue>: a word marked with the color the
// views draw that thing in: a swatch and a thick underline, so the text keeps
// its full contrast.
import type { CSSProperties, ReactNode } from 'react';
import { HUES } from '../../glossary/words';

export function Hue({ of, children }: { of: string; children?: ReactNode }) {
  const color = HUES[of] ?? 'currentColor';
  return (
    <span className="hue" style={{ '--hue': color } as CSSProperties}>
      <span className="hue-swatch" aria-hidden="true" />
      {children ?? of}
    </span>
  );
}
