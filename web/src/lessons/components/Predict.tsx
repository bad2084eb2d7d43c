// <Predict src="x.sql" variant="pg" line={5} counter="heap_fetches" question="…">why</Predict>
// The student guesses first (a number, or one of `among`'s variants); Check
// runs the step's script in the engine and shows its answer beside the guess;
// the lesson's explanation appears only then. The answer is never in the
// lesson: the engine computes it (spec.ts answerOf), as the build did.
import { useId, useMemo, useState, type ReactNode } from 'react';
import { toEngineError } from '../../engine/api';
import { useEngine } from '../../engine/EngineContext';
import type { Report } from '../../engine/schema.gen';
import { settingsLines } from '../../workbench/settings';
import { count, groupDigits } from '../../format/numbers';
import { loadScript } from '../catalogue';
import { useLesson, useStepTask } from '../LessonContext';
import { saveGuess, useProgress } from '../progress';
import { answerOf, parsePredict, toVariant, type Answer } from '../spec';

/** How far a guess is from the answer, in words. */
export function closeness(guess: number, answer: number): string {
  if (guess === answer) return 'Exactly right.';
  const big = Math.max(Math.abs(guess), Math.abs(answer));
  const off = Math.abs(guess - answer) / (big || 1);
  if (off <= 0.1) return 'Within 10 %: close.';
  if (guess > 0 && answer > 0) {
    const factor = Math.max(guess, answer) / Math.min(guess, answer);
    return `Off by ${factor < 10 ? `${factor.toFixed(1)}×` : `a factor of ${Math.round(factor)}`}: ${guess > answer ? 'too high' : 'too low'}.`;
  }
  return guess > answer ? 'Too high.' : 'Too low.';
}

export function Predict(props: Record<string, unknown> & { children?: ReactNode }) {
  const { slug, step } = useLesson();
  const engine = useEngine();
  const id = useId();
  const spec = useMemo(() => parsePredict(props), [props]);
  const progress = useProgress();
  const key = `${slug}/${step}/${typeof spec === 'string' ? '' : spec.question}`;
  const saved = progress.guesses[key];
  useStepTask(typeof spec === 'string' ? null : { kind: 'guess', key });
  const [guess, setGuess] = useState(saved ?? '');
  const [answer, setAnswer] = useState<Answer | null>(null);
  const [busy, setBusy] = useState(false);
  if (typeof spec === 'string') {
    return (
      <p className="run-error" role="alert">
        This prediction is written wrong: {spec}
      </p>
    );
  }
  const check = async () => {
    setBusy(true);
    saveGuess(key, guess);
    try {
      const script = await loadScript(slug, spec.src);
      const variants = spec.among ?? [spec.variant];
      const reports: Record<string, Report> = {};
      await Promise.all(
        variants.map(async (v, i) => {
          const variant = toVariant(v, i);
          reports[v.name] = await engine.runReport(script, variant.profile, settingsLines(variant.overrides), i);
        }),
      );
      setAnswer(answerOf(spec, reports));
    } catch (e) {
      setAnswer({ kind: 'error', message: toEngineError(e).message });
    } finally {
      setBusy(false);
    }
  };
  const number = !spec.among;
  const valid = number ? guess.trim() !== '' && Number.isFinite(Number(guess.replace(/[\s,_]/g, ''))) : guess !== '';
  return (
    <section className="predict" aria-labelledby={`${id}-q`} data-testid="predict">
      <h3 id={`${id}-q`}>Predict: {groupDigits(spec.question)}</h3>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (valid) void check();
        }}
      >
        {number ? (
          <label>
            Your guess{' '}
            <input type="text" inputMode="decimal" value={guess} onChange={(e) => setGuess(e.target.value)} disabled={answer !== null} />
          </label>
        ) : (
          <fieldset disabled={answer !== null}>
            <legend>Your guess</legend>
            {spec.among?.map((v) => (
              <label key={v.name} className="predict-choice">
                <input type="radio" name={id} value={v.name} checked={guess === v.name} onChange={() => setGuess(v.name)} /> {v.name}
              </label>
            ))}
          </fieldset>
        )}{' '}
        {answer === null && (
          <button type="submit" disabled={!valid || busy}>
            {busy ? 'The engine is running…' : 'Check'}
          </button>
        )}
      </form>
      {answer && <Verdict answer={answer} guess={guess} counter={spec.counter} />}
      {answer && answer.kind !== 'error' && <div className="predict-why">{props.children}</div>}
    </section>
  );
}

/** A counter's value as the page writes it (virtual time in ms, with its decimals). */
const shown = (counter: string, v: number) => (counter === 'virtual_ms' ? `${v.toFixed(3)} ms` : count(v));

function Verdict({ answer, guess, counter }: { answer: Answer; guess: string; counter: string }) {
  if (answer.kind === 'error') {
    return (
      <p className="run-error" role="alert">
        {answer.message}
      </p>
    );
  }
  if (answer.kind === 'number') {
    const g = Number(guess.replace(/[\s,_]/g, ''));
    return (
      <p className="predict-answer" role="status" data-testid="predict-answer">
        The engine says <strong>{shown(counter, answer.value)}</strong> ({counter}); you said {shown(counter, g)}. {closeness(g, answer.value)}
      </p>
    );
  }
  return (
    <p className="predict-answer" role="status" data-testid="predict-answer">
      The engine says <strong>{answer.name}</strong>
      {guess === answer.name ? ', as you said.' : `; you said ${guess}.`} ({counter}:{' '}
      {Object.entries(answer.values)
        .map(([n, v]) => `${n} ${shown(counter, v)}`)
        .join(', ')}
      )
    </p>
  );
}
