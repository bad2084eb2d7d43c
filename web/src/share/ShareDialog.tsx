// The Share dialog: the link to the scenario on screen, ready to copy, and the
// same scenario as a widget for a blog post (an iframe, and the host script
// that lets it fit its content). Nothing is stored anywhere: the link is the
// whole scenario.
import { useEffect, useRef, useState } from 'react';
import { encodeEmbed, type EmbedTheme } from '../embed/options';
import { iframeSnippet, resizeSnippet } from '../embed/snippets';
import { reservedHeight } from '../embed/reserve';
import { count } from '../format/numbers';
import { encodeLink, LONG_LINK, whyLong, type Scenario } from './link';

/** A read-only text to copy: a field (one line) or a box (a snippet). */
function Copyable({ label, text, lines }: { label: string; text: string; lines?: number }) {
  const [said, setSaid] = useState<string | null>(null);
  const field = useRef<HTMLInputElement & HTMLTextAreaElement>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setSaid('Copied.');
    } catch {
      field.current?.select();
      setSaid('Select it and copy it (this browser did not let the page copy).');
    }
  };
  const select = (e: React.FocusEvent<HTMLInputElement | HTMLTextAreaElement>) => e.currentTarget.select();
  return (
    <div className="copyable">
      <label>
        {label}
        {lines ? (
          <textarea ref={field} readOnly value={text} rows={lines} onFocus={select} spellCheck={false} />
        ) : (
          <input ref={field} type="text" readOnly value={text} onFocus={select} />
        )}
      </label>
      <button type="button" onClick={() => void copy()}>
        Copy {label.toLowerCase().startsWith('link') ? 'link' : label.toLowerCase()}
      </button>{' '}
      <span role="status">{said}</span>
    </div>
  );
}

export function ShareDialog({ base, scenario, onClose }: { base: string; scenario: Scenario; onClose(): void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [theme, setTheme] = useState<EmbedTheme>('auto');
  const [title, setTitle] = useState('');
  useEffect(() => {
    const d = dialog.current;
    if (d && !d.open) d.showModal();
    d?.querySelector('input')?.select();
  }, []);
  // base: the folder IndexLab is served from (the app is its index page).
  const url = `${base}${encodeLink(scenario)}`;
  const embedUrl = `${base}embed.html${encodeEmbed(scenario, { theme, title: title.trim() || null })}`;
  return (
    <dialog ref={dialog} className="share-dialog" aria-labelledby="share-title" onClose={onClose}>
      <h2 id="share-title">Share</h2>
      <p>
        This link holds the script, the variants, the settings and where the player is. Whoever opens it runs the same
        scenario and lands on the same step; nothing is stored on any server.
      </p>
      <Copyable label="Link to this scenario" text={url} />
      {url.length > LONG_LINK && (
        <p className="field-error" role="alert" data-testid="long-link">
          This link is {count(url.length)} characters: chat apps and some mail clients cut links past{' '}
          {count(LONG_LINK)}. {whyLong(scenario, url)}.
        </p>
      )}
      <h3>Embed it in a page</h3>
      <p className="hint">
        The widget shows the player, the views and their captions. It stays a few kilobytes until a reader scrolls to it
        or clicks it; only then does the engine load.
      </p>
      <div className="share-options">
        <label>
          Theme{' '}
          <select value={theme} onChange={(e) => setTheme(e.target.value as EmbedTheme)}>
            <option value="auto">the reader's</option>
            <option value="light">light</option>
            <option value="dark">dark</option>
          </select>
        </label>
        <label>
          Caption <input type="text" value={title} maxLength={120} onChange={(e) => setTitle(e.target.value)} />
        </label>
      </div>
      <Copyable
        label="Iframe"
        text={iframeSnippet(
          embedUrl,
          title.trim() || 'IndexLab experiment',
          // A blog column is about 680 px: the widget's own reserve there, so the post does not jump when it loads.
          reservedHeight(scenario.variants.map((v) => v.profile), null, 680),
        )}
        lines={3}
      />
      <p className="hint">
        <a href={embedUrl} target="_blank" rel="noopener noreferrer">
          Preview the widget
        </a>{' '}
        (opens in a new tab).
      </p>
      <Copyable label="Resize script" text={resizeSnippet(new URL(base).origin)} lines={4} />
      <p className="hint">
        Paste the resize script once per page: each widget then takes exactly the height it needs.
      </p>
      <p className="share-buttons">
        <button type="button" onClick={() => dialog.current?.close()}>
          Close
        </button>
      </p>
    </dialog>
  );
}
