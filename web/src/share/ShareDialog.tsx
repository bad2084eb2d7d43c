// The Share dialog: the link to the scenario on screen, ready to copy. The
// link is the whole scenario; nothing is stored anywhere.
import { useEffect, useRef, useState } from 'react';
import { LONG_LINK, whyLong, type Scenario } from './link';

export function ShareDialog({ url, scenario, onClose }: { url: string; scenario: Scenario; onClose(): void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const field = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState<string | null>(null);
  useEffect(() => {
    const d = dialog.current;
    if (d && !d.open) d.showModal();
    field.current?.select();
  }, []);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(url);
      setCopied('Copied.');
    } catch {
      field.current?.select();
      setCopied('Select the link and copy it (this browser did not let the page copy).');
    }
  };
  return (
    <dialog ref={dialog} className="share-dialog" aria-labelledby="share-title" onClose={onClose}>
      <h2 id="share-title">Share</h2>
      <p>
        This link holds the script, the variants, the settings and where the player is. Whoever opens it runs the same
        scenario and lands on the same step; nothing is stored on any server.
      </p>
      <label>
        Link to this scenario
        <input ref={field} type="text" readOnly value={url} onFocus={(e) => e.currentTarget.select()} />
      </label>
      {url.length > LONG_LINK && (
        <p className="field-error" role="alert" data-testid="long-link">
          This link is {url.length.toLocaleString('en-US')} characters: chat apps and some mail clients cut links past{' '}
          {LONG_LINK.toLocaleString('en-US')}. {whyLong(scenario, url)}.
        </p>
      )}
      <p className="share-buttons">
        <button type="button" onClick={() => void copy()}>
          Copy link
        </button>
        <button type="button" onClick={() => dialog.current?.close()}>
          Close
        </button>
        <span role="status">{copied}</span>
      </p>
    </dialog>
  );
}
