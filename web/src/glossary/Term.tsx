// A counter's name with its plain-words meaning, shown on hover and on
// keyboard focus. The tip is tied by aria-describedby (a screen reader reads
// it too) and placed fixed beside the name, so a scrolling table cannot clip it.
import { useId, useState, type CSSProperties } from 'react';
import { explainCounter, GLOSSARY } from './glossary';

export function Term({ name }: { name: string }) {
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
      <code>{name}</code>
      <span role="tooltip" id={id} className={at ? 'term-tip shown' : 'term-tip'} style={at ?? undefined}>
        {explainCounter(name)}
        {term && <em> ({term.source})</em>}
      </span>
    </span>
  );
}
