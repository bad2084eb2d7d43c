// The statement under the cursor across the variants: each counter's value in
// every column and, against the first (the baseline), the difference and the
// ratio. The largest cost is marked in words, not only in color.
import { memo, useMemo } from 'react';
import { count } from '../format/numbers';
import { Term } from '../glossary/Term';
import { againstText, differenceRows, type Column } from './difference';

function format(counter: string, n: number): string {
  return counter === 'virtual_ms' ? `${n.toFixed(3)} ms` : count(Math.round(n * 100) / 100);
}

// Memoized: the player redraws its parent on every frame, the table changes with the statement.
export const DifferenceTable = memo(function DifferenceTable({ columns, index }: { columns: readonly Column[]; index: number }) {
  // Recomputed when the statement changes, not on every frame the player draws.
  const rows = useMemo(() => differenceRows(columns, index), [columns, index]);
  const s = columns.map((c) => c.report.statements[index]).find((x) => x);
  if (rows.length === 0 || !s || columns.length < 2) return null;
  const base = columns[0]?.name ?? '';
  return (
    <details className="difference" data-testid="difference" open>
      <summary>
        Statement {index + 1} (line {s.line}) across the variants, against <strong>{base}</strong>
      </summary>
      <div className="difference-scroll" tabIndex={0} role="region" aria-label="The counters, per variant">
        <table>
          <caption className="sr-only">
            Counters of statement {index + 1} per variant, and each against {base}
          </caption>
          <thead>
            <tr>
              <th scope="col">counter</th>
              {columns.map((c, i) => (
                <th scope="col" key={i}>
                  {c.name}
                  {i === 0 ? ' (baseline)' : ''}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.counter} data-counter={r.counter}>
                <th scope="row">
                  <Term name={r.counter} />
                </th>
                {r.values.map((v, i) => {
                  const a = r.against[i];
                  const larger = r.largest.includes(i);
                  return (
                    <td key={i} className={larger ? 'larger' : undefined}>
                      {v === null ? '—' : format(r.counter, v)}
                      {a && <span className="against"> {againstText(a, (n) => format(r.counter, n))}</span>}
                      {larger && <span className="larger-mark"> ▲ largest</span>}
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </details>
  );
});
