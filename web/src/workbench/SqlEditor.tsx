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
    const diagnostics = error
      ? [
          {
            from: offsetOf(doc, error.line, error.column),
            to: Math.min(doc.length, offsetOf(doc, error.line, error.column) + 1),
            severity: 'error' as const,
            message: error.message,
          },
        ]
      : [];
    v.dispatch(setDiagnostics(v.state, diagnostics));
  }, [error]);

  return <div className="sql-editor" ref={box} data-testid="sql-editor" />;
}
