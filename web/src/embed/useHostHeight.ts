// Tells the host page the widget's height (postMessage), so an iframe with the
// resize snippet fits its content: no inner scroll bar, no gap.
import { useEffect } from 'react';
import { HEIGHT_MESSAGE } from './snippets';

export function useHostHeight(): void {
  useEffect(() => {
    if (window.parent === window || typeof ResizeObserver === 'undefined') return;
    let last = -1;
    const send = () => {
      const height = Math.ceil(document.documentElement.getBoundingClientRect().height);
      if (height === last) return;
      last = height;
      // Any host may embed a widget: the height is all it says, and no secret.
      window.parent.postMessage({ type: HEIGHT_MESSAGE, height }, '*');
    };
    const observer = new ResizeObserver(send);
    observer.observe(document.body);
    send();
    return () => observer.disconnect();
  }, []);
}
