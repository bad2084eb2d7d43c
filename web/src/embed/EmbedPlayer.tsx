// The widget's engine and player: runs the scenario (only the variants shown)
// and replays it with the chosen views and the event caption. Loaded lazily by
// EmbedShell, so a post with widgets costs nothing until one is looked at.
import { useEffect, useMemo, useState } from 'react';
import { pageEngine } from './pageEngine';
import { toEngineError } from '../engine/api';
import type { Scenario } from '../share/link';
import { runVariants, type ResultColumn } from '../variants/runVariants';
import type { EmbedOptions } from './options';
import { CompactReplay } from '../player/CompactReplay';

type State = { kind: 'running' } | { kind: 'done'; columns: ResultColumn[] } | { kind: 'failed'; message: string };

export function EmbedPlayer({
  scenario,
  options,
  onPosition,
}: {
  scenario: Scenario;
  options: EmbedOptions;
  onPosition(position: number): void;
}) {
  const engine = pageEngine();
  const [script, setScript] = useState(scenario.script);
  const [runs, setRuns] = useState(0);
  const [state, setState] = useState<State>({ kind: 'running' });
  const variants = useMemo(
    () => scenario.variants.filter((v) => !options.variants || options.variants.includes(v.name)),
    [scenario, options.variants],
  );

  useEffect(() => {
    let live = true;
    runVariants(script, variants, scenario.settings, (text, profile, settings, lane, onProgress) =>
      engine.runTracedPacked(text, profile, settings, (_, done, total) => onProgress(done, total), lane),
    ).then(
      (columns) => live && setState({ kind: 'done', columns }),
      (err: unknown) => live && setState({ kind: 'failed', message: toEngineError(err).message }),
    );
    return () => {
      live = false;
    };
    // The script runs when the reader asks (runs), not on every keystroke.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [engine, variants, scenario.settings, runs]);

  return (
    <>
      {options.readonly && (
        <details className="embed-script-view" data-testid="embed-script">
          <summary>The script this widget replays</summary>
          <pre>{scenario.script}</pre>
        </details>
      )}
      {!options.readonly && (
        <form
          className="embed-script"
          onSubmit={(e) => {
            e.preventDefault();
            setState({ kind: 'running' });
            setRuns((n) => n + 1);
          }}
        >
          <label>
            Script
            <textarea value={script} onChange={(e) => setScript(e.target.value)} rows={6} spellCheck={false} />
          </label>
          <button type="submit">Run</button>
        </form>
      )}
      {state.kind === 'running' && (
        <p className="hint" role="status">
          Running the scenario in your browser…
        </p>
      )}
      {state.kind === 'failed' && (
        <p className="run-error" role="alert">
          {state.message}
        </p>
      )}
      {state.kind === 'done' && (
        <CompactReplay
          key={runs}
          columns={state.columns}
          views={options.views ?? undefined}
          at={runs === 0 ? options.at : undefined}
          autoplay={options.autoplay}
          onPosition={onPosition}
        />
      )}
    </>
  );
}
