// @vitest-environment node
// The pictures, reviewed like code (Observable Plot's practice), as SVG
// markup committed under tests/snapshots/: every view of every lesson script,
// on pg and yb, drawn at the end of the script's last EXPLAIN (the moment its
// figure comes from; views/), and every view of every lesson scenario's
// columns at each of its narrated moments, where the page's player stops for
// a <Watch> (moments/). A change to a picture shows in the diff; a change
// meant to happen is accepted with `npx vitest run -u`.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { lessonSteps, scenariosOf } from '../../build/lessonScenarios';
import { scaleKey, sharedScales } from '../player/sharedScales';
import { nodeRun } from '../engine/nodeRun';
import { statementSpans } from '../trace/statements';
import { viewStateAt, viewsFor, type AnyView } from './registry';

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

/** A view's markup at `cursor`, laid out `WIDTH` wide (on the `shared` scales of the columns beside it). */
function picture(
  view: AnyView,
  trace: ReturnType<typeof nodeRun>['trace'] & object,
  cursor: number,
  shared?: Readonly<Record<string, number>>,
): string {
  const stateAt = viewStateAt(view, trace);
  const { Component } = view;
  const markup = renderToStaticMarkup(
    <Component state={stateAt(cursor)} trace={trace} cursor={cursor} stateAt={stateAt} last={cursor > 0 ? trace.event(cursor - 1) : undefined} width={WIDTH} shared={shared} />,
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

/** A name safe in a file name: "batch 1 000" → "batch-1000". */
const slug = (s: string) => s.replace(/[\u202f ]+(?=\d)/g, '').replace(/[^a-zA-Z0-9]+/g, '-');

describe('view pictures at every narrated moment', () => {
  for (const { lesson, file, path } of lessonSteps(`${root}lessons`)) {
    it(`${lesson}/${file}`, { timeout: 60_000 }, async () => {
      const moments = (await scenariosOf(path)).flatMap((s) => s.moments);
      for (const m of moments) {
        const shared = sharedScales(m.columns.map((c) => ({ profile: c.variant.profile, trace: c.trace, cursor: c.cursor })));
        const name = `${lesson}-${file.replace(/\.mdx$/, '')}-${m.scenario + 1}-${m.index + 1}`;
        for (const c of m.columns) {
          for (const view of viewsFor(c.variant.profile).filter((v) => m.views === null || m.views.includes(v.id as never))) {
            await expect(picture(view, c.trace, c.cursor, shared.get(scaleKey(c.variant.profile, view.id)))).toMatchFileSnapshot(
              `${root}tests/snapshots/moments/${name}-${slug(c.variant.name)}-${view.id}.svg.txt`,
            );
          }
        }
      }
    });
  }
});
