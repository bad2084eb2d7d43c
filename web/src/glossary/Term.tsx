// A counter's name (or a word of the glossary, words.ts) with its meaning in
// plain words, shown on hover and on keyboard focus. The tip is tied by aria-describedby (a screen reader reads
// it too) and placed fixed beside the name, so a scrolling table cannot clip it.
import { useId, useState, type CSSProperties } from 'react';
import type { ReactNode } from 'react';
import { explainCounter, GLOSSARY } from './glossary';
import { WORDS } from './words';

/** `name`: a counter or a glossary word; `children`: the text shown (default: the name, as code). */
export function Term({ name, children }: { name: string; children?: ReactNode }) {
  const id = useId();
  const term = GLOSSARY[name];
  const [at, setAt] = useState<CSSProperties | null>(null);
  const show = (e: { currentTarget: HTMLElement }) => {
    const r = e.currentTarget.getBoundingClientRect();
    setAt({ left: Math.max(4, Math.min(r.left, window.innerWidth - 360)), top: r.bottom + 4 });
  };
  const hide = () => setAt(null);
  return (
    <span className="term" tabIndex={0} aria-describedby={id} onMouseEnter={show} onMouseLeave={hide} onFocus={show} onBlur={hide}>
      {children ?? <code>{name}</code>}
      <span role="tooltip" id={id} className={at ? 'term-tip shown' : 'term-tip'} style={at ?? undefined}>
        {WORDS[name] ?? explainCounter(name)}
        {term && <em> ({term.source})</em>}
      </span>
    </span>
  );
}
