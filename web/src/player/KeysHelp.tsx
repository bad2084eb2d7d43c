// The "Keyboard shortcuts" dialog: every key of the player, from the same map
// the handler reads (keys.ts), so the list cannot drift from what keys do.
import { useEffect, useRef } from 'react';
import { KEYMAP } from './keys';

export function KeysHelp({ onClose }: { onClose(): void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = dialog.current;
    if (d && !d.open) d.showModal();
  }, []);
  return (
    <dialog ref={dialog} className="keys-help" aria-labelledby="keys-title" onClose={onClose}>
      <h2 id="keys-title">Keyboard shortcuts</h2>
      <p className="hint">They work anywhere on the page except while typing in the editor or a field.</p>
      <table>
        <tbody>
          {KEYMAP.map((b) => (
            <tr key={b.does}>
              <th scope="row">
                {b.keys.map((k, i) => (
                  <span key={k}>
                    {i > 0 && ' or '}
                    <kbd>{k}</kbd>
                  </span>
                ))}
              </th>
              <td>{b.does}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <button type="button" onClick={() => dialog.current?.close()}>
        Close
      </button>
    </dialog>
  );
}
