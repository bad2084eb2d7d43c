// @vitest-environment node
// The pictures, reviewed like code (Observable Plot's practice): every view
// of every lesson script, on pg and yb, drawn at the end of the script's last
// EXPLAIN (the moment its figure comes from), as SVG markup committed under
// tests/snapshots/views/. A change to a picture shows in the diff; a change
// meant to happen is accepted with `npx vitest run -u`.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { nodeRun } from '../engine/nodeRun';
import { Timeline } from '../trace/timeline';
import { statementSpans } from '../trace/statements';
import { viewsFor, type AnyView } from './registry';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const WIDTH = 600;

const scripts = readdirSync(`${root}lessons`, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .flatMap((d) =>
    readdirSync(`${root}lessons/${d.name}`)
      // The article-scale scripts take seconds each: their small twins stand for them.
      .filter((f) => f.endsWith('.sql') && !f.endsWith('-full.sql'))
      .map((f) => ({ lesson: d.name, file: f })),
  );

/** A view's markup at `cursor`, laid out `WIDTH` wide. */
function picture(view: AnyView, trace: ReturnType<typeof nodeRun>['trace'] & object, cursor: number): string {
  const stateAt = view.readAt ? (k: number): unknown => view.readAt(trace, k) : ((t) => (k: number) => t.stateAt(k))(new Timeline(trace, view.reducer));
  const { Component } = view;
  const markup = renderToStaticMarkup(
    <Component state={stateAt(cursor)} trace={trace} cursor={cursor} stateAt={stateAt} last={cursor > 0 ? trace.event(cursor - 1) : undefined} width={WIDTH} />,
  );
  // One element a line: a diff shows which mark moved.
  return `${markup.replace(/></g, '>\n<')}\n`;
}

describe('view pictures', () => {
  for (const { lesson, file } of scripts) {
    for (const profile of ['pg', 'yb'] as const) {
      it(`${lesson}/${file} on ${profile}`, async () => {
        const script = readFileSync(`${root}lessons/${lesson}/${file}`, 'utf8');
        const run = nodeRun(script, profile);
        const trace = run.trace;
        // A script written for the other engine alone (its syntax) has no picture here.
        if (!trace || run.report.error) return;
        const last = run.report.statements.map((s) => s.explain !== null).lastIndexOf(true);
        const span = statementSpans(trace).find((s) => s.index === last);
        const cursor = span ? Math.min(span.end + 1, trace.length) : trace.length;
        for (const view of viewsFor(profile)) {
          await expect(picture(view, trace, cursor)).toMatchFileSnapshot(
            `${root}tests/snapshots/views/${lesson}-${file.replace(/\.sql$/, '')}-${profile}-${view.id}.svg.txt`,
          );
        }
      });
    }
  }
});
