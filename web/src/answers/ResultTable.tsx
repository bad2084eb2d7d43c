// One statement's result rows as psql prints them: its title centred above
// (\d's `Table "public.t"`), the column names, a row a line, then its footers
// (\d's `Indexes:`) or "(N rows)". Text only: every value, the title and the
// footers are React text nodes, never HTML. NULL is shown as a muted, italic
// NULL (psql prints an empty cell for both, but a student must tell them
// apart); the empty string stays empty.
import { useState } from 'react';
import { count } from '../format/numbers';

/** Rows shown before "Show all" (psql's pager would stop about there too). */
export const FOLD = 50;
/** Values longer than this (or on several lines) are clamped; focus shows them whole. */
const LONG = 40;

// The report carries no types, so a column is read as numeric by its looks:
// psql right-aligns numbers, and a column of them reads better so.
const NUMBER = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;

/** Whether every value shown in column `c` looks like a number (NULLs aside), and one does. */
export function numericColumn(rows: readonly (readonly (string | null)[])[], c: number): boolean {
  let seen = false;
  for (const row of rows) {
    const v = row[c];
    if (v === null || v === undefined) continue;
    if (!NUMBER.test(v)) return false;
    seen = true;
  }
  return seen;
}

/** psql's footer: "(1 row)", "(3 rows)". */
export function rowsLine(n: number): string {
  return `(${n} ${n === 1 ? 'row' : 'rows'})`;
}

function Cell({ value, numeric }: { value: string | null; numeric: boolean }) {
  if (value === null) {
    return (
      <td className="cell-null" data-null="">
        NULL
      </td>
    );
  }
  const long = value.length > LONG || value.includes('\n');
  return (
    <td className={numeric ? 'num' : undefined}>
      {long ? (
        // Clamped to a few lines; the whole value on hover (title) and on focus (CSS).
        <span className="cell-long" tabIndex={0} title={value}>
          {value}
        </span>
      ) : (
        value
      )}
    </td>
  );
}

export function ResultTable({
  columns,
  rows,
  rowCount,
  label,
  fold = FOLD,
  title = null,
  footers = [],
  rowsLine: showRowsLine = true,
}: {
  columns: readonly string[];
  /** The rows the report holds (the engine keeps the first 1000). */
  rows: readonly (readonly (string | null)[])[];
  /** The exact number of rows the statement returned. */
  rowCount: number;
  /** What the table is, for a screen reader ("Rows of line 3 (pg)"). */
  label: string;
  fold?: number;
  /** psql's title, centred above the table (`Table "public.t"`, `List of relations`). */
  title?: string | null;
  /** psql's lines under the table (`Indexes:`, one per index), as they are: leading spaces kept. */
  footers?: readonly string[];
  /** Whether psql prints "(N rows)" under it (not under \d's descriptions). */
  rowsLine?: boolean;
}) {
  // "Show all" holds for the rows it was pressed on: another statement's rows open folded.
  const [unfolded, setUnfolded] = useState<readonly unknown[] | null>(null);
  const all = unfolded === rows;
  const shown = all ? rows : rows.slice(0, fold);
  // Over every row held, so unfolding does not realign a column.
  const numeric = columns.map((_, c) => numericColumn(rows, c));
  const kept = rows.length < rowCount;
  return (
    <div className="result-table">
      {/* Its own box scrolls sideways: a wide result never widens the page. Focusable, so a keyboard can scroll it. */}
      <div className="result-scroll" tabIndex={0} role="region" aria-label={label}>
        <table>
          {title !== null && <caption className="result-title">{title}</caption>}
          <thead>
            <tr>
              {columns.map((name, c) => (
                <th scope="col" key={c}>
                  {name}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {shown.map((row, r) => (
              <tr key={r}>
                {columns.map((_, c) => (
                  <Cell key={c} value={row[c] ?? null} numeric={numeric[c] ?? false} />
                ))}
              </tr>
            ))}
          </tbody>
        </table>
        {footers.length > 0 && (
          <pre className="result-footers" data-testid="result-footers">
            {footers.join('\n')}
          </pre>
        )}
      </div>
      <p className="result-foot">
        {showRowsLine && <span className="rows-line">{rowsLine(rowCount)}</span>}
        {rows.length > fold &&
          (all ? (
            <button type="button" className="secondary" onClick={() => setUnfolded(null)}>
              Show the first {fold} only
            </button>
          ) : (
            <button type="button" className="secondary" onClick={() => setUnfolded(rows)}>
              {kept ? `Show all ${count(rows.length)} rows kept` : `Show all ${count(rowCount)} rows`}
            </button>
          ))}
      </p>
      {kept && (
        <p className="hint rows-kept" data-testid="rows-kept">
          The engine keeps only the first {count(rows.length)} of the {count(rowCount)} rows; the count is exact.
        </p>
      )}
    </div>
  );
}
