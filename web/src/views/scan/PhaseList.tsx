// The plan's phases in words, in order: what each did and why, once the
// cursor has reached its end; the one in progress and those to come by name
// only, so stepping through a join tells its story as it happens.
import { phaseText, phaseTitle, type PhaseMark } from './phases';

export function PhaseList({ phases, phasesShown }: { phases: readonly PhaseMark[]; phasesShown: number }) {
  return (
    <ol className="scan-phases" data-testid="scan-phases">
      {phases.map((p, k) => {
        const state = k < phasesShown ? 'done' : k === phasesShown ? 'now' : 'later';
        return (
          <li key={k} className={`phase-${state}`}>
            {state === 'done' ? phaseText(p) : `${phaseTitle(p)}: ${state === 'now' ? 'in progress' : 'to come'}`}
          </li>
        );
      })}
    </ol>
  );
}
