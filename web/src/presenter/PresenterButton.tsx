// The switch for presenter mode (also the `p` key).
import { setPresenting, usePresenting } from './presenter';

export function PresenterButton() {
  const presenting = usePresenting();
  return (
    <button type="button" className="presenter-button" aria-pressed={presenting} onClick={() => setPresenting(!presenting)}>
      {presenting ? 'Leave presenter mode (p)' : 'Presenter mode (p)'}
    </button>
  );
}
