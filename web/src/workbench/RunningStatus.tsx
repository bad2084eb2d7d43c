// The status line of a run under way: how far each variant is and the time
// since Run. It redraws itself (a timer, the workers' reports); the page
// around it does not.
import { useEffect, useState, useSyncExternalStore } from 'react';
import { fractionDone, progressLine, type RunProgress } from './progress';

export function RunningStatus({
  since,
  keys,
  names,
  progress,
  onCancel,
}: {
  since: number;
  keys: readonly string[];
  names: Readonly<Record<string, string>>;
  progress: RunProgress;
  onCancel: () => void;
}) {
  const now = useNow(200);
  const p = useSyncExternalStore(progress.subscribe, progress.current);
  return (
    <>
      <span className="running" role="status" data-testid="running">
        <progress aria-label="Running" max={1} value={fractionDone(keys, p) ?? undefined} />{' '}
        {progressLine(keys, p, (k) => names[k] ?? k)}, {Math.max(0, (now - since) / 1000).toFixed(1)} s
      </span>
      <button type="button" onClick={onCancel}>
        Cancel
      </button>
    </>
  );
}

/** The time, updated every `ms`. */
function useNow(ms: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), ms);
    return () => clearInterval(t);
  }, [ms]);
  return now;
}
