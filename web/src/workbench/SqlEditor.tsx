// The SQL editor: CodeMirror 6 in SQL (PostgreSQL) mode with line numbers.
// Ctrl/Cmd-Enter runs; an engine error is underlined at its line and column,
// its message shown beside it. React owns the box, CodeMirror its content.
import { useEffect, useRef } from 'react';
import { basicSetup } from 'codemirror';
import { EditorView, keymap } from '@codemirror/view';
import { Prec } from '@codemirror/state';
import { PostgreSQL, sql } from '@codemirror/lang-sql';
import { lintGutter, setDiagnostics } from '@codemirror/lint';
import { offsetOf, type ReportError } from './report';

interface Props {
  initial: string;
  onChange(text: string): void;
  onRun(): void;
  error: ReportError | null;
}

export function SqlEditor({ initial, onChange, onRun, error }: Props) {
  const box = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  // Latest callbacks, read by CodeMirror's handlers without recreating it.
  const handlers = useRef({ onChange, onRun });
  useEffect(() => {
    handlers.current = { onChange, onRun };
  });

  useEffect(() => {
    if (!box.current) return;
    const v = new EditorView({
      parent: box.current,
      doc: initial,
      extensions: [
        basicSetup,
        sql({ dialect: PostgreSQL }),
        lintGutter(),
        Prec.highest(
          keymap.of([
            {
              key: 'Mod-Enter',
              run: () => {
                handlers.current.onRun();
                return true;
              },
            },
          ]),
        ),
        EditorView.updateListener.of((u) => {
          if (u.docChanged) handlers.current.onChange(u.state.doc.toString());
        }),
        EditorView.contentAttributes.of({ 'aria-label': 'SQL script' }),
      ],
    });
    view.current = v;
    return () => {
      v.destroy();
      view.current = null;
    };
    // The editor is created once; `initial` only seeds it.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  useEffect(() => {
    const v = view.current;
    if (!v) return;
    const doc = v.state.doc.toString();
    const from = error ? offsetOf(doc, error.line, error.column) : 0;
    const diagnostics = error
      ? [
          {
            from,
            to: Math.min(doc.length, wordEnd(doc, from)),
            severity: 'error' as const,
            message: error.message,
          },
        ]
      : [];
    v.dispatch(setDiagnostics(v.state, diagnostics));
  }, [error]);

  return <div className="sql-editor" ref={box} data-testid="sql-editor" />;
}

/**
 * The end of the word an error points at (a column, a table, a function: the
 * engine places errors at the word they are about), or the next character
 * when it points at punctuation.
 */
export function wordEnd(doc: string, from: number): number {
  let end = from;
  while (end < doc.length && /[\p{L}\p{N}_$]/u.test(doc[end] ?? '')) end += 1;
  return Math.max(end, from + 1);
}
