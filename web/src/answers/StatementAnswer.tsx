// What one statement answered, as psql shows it: its notices, its rows (when
// it returned some and is not an EXPLAIN, whose plan the column lists with the
// others; with psql's title and footers, as \d prints them) and its command
// tag. A column's replay shows it for the statement under the player, so each
// variant shows its own.
import type { StatementReport } from '../engine/schema.gen';
import { firstLine } from '../workbench/report';
import { FOLD, ResultTable } from './ResultTable';

/** Rows a lesson or an embed shows before "Show all": they are a paragraph's companion. */
const COMPACT_FOLD = 10;

export function StatementAnswer({
  id,
  statement,
  index,
  compact = false,
}: {
  /** The column's id (test ids use it). */
  id: string;
  statement: StatementReport;
  /** Its place in the report (0-based). */
  index: number;
  /** A lesson's or an embed's: fewer rows before the fold. */
  compact?: boolean;
}) {
  const s = statement;
  const rows = s.columns.length > 0 && s.explain === null;
  return (
    <section className="statement-answer" data-testid={`answer-${id}`} aria-label={`What statement ${index + 1} answered (${id})`}>
      <p className="answer-head">
        <span className="answer-sql" title={s.sql}>
          line {s.line}: <code>{firstLine(s.sql)}</code>
        </span>
        {s.tag && (
          <code className="command-tag" data-testid={`tag-${id}`}>
            {s.tag}
          </code>
        )}
      </p>
      {s.notices.length > 0 && (
        <pre className="notices" data-testid={`notices-${id}`}>
          {s.notices.map((n) => `NOTICE:  ${n}`).join('\n')}
        </pre>
      )}
      {rows && (
        <ResultTable
          columns={s.columns}
          rows={s.rows}
          rowCount={s.row_count}
          label={`Rows of line ${s.line} (${id})`}
          fold={compact ? COMPACT_FOLD : FOLD}
          title={s.title}
          footers={s.footers}
          rowsLine={s.rows_line}
        />
      )}
    </section>
  );
}
