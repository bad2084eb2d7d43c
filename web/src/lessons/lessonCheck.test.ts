// @vitest-environment node
// The build's lesson check: a good step compiles; each way a step can be
// wrong stops the build with the file, the line and what is wrong. The engine
// runs for real (the wasm, in Node), as in `vite build`.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compile } from '@mdx-js/mdx';
import { describe, expect, it } from 'vitest';
import { remarkLessonCheck } from '../../build/lessonCheck';
import { lessonProblems } from '../../build/lessonsPlugin';

const dir = mkdtempSync(join(tmpdir(), 'lesson-'));
writeFileSync(
  join(dir, 'ok.sql'),
  `set write_buffer_size = '16kB';
create table t (id int primary key, v int);
insert into t select generate_series(1, 2000), 0;
explain (analyze, buffers, dist, costs off) select * from t where id = 1500;
`,
);
writeFileSync(join(dir, 'pg-only.sql'), 'create table t (id int primary key);\nvacuum t;\nselect * from missing_table;\n');

async function check(mdx: string): Promise<string | null> {
  try {
    await compile({ value: mdx, path: join(dir, '1-step.mdx') }, { remarkPlugins: [remarkLessonCheck] });
    return null;
  } catch (e) {
    // vfile's message: "file:line:column: reason" when printed, as the build prints it.
    const m = e as { file?: string; line?: number; column?: number; reason?: string; message?: string };
    return m.line ? `${m.file}:${m.line}:${m.column}: ${m.reason}` : String(m.message ?? e);
  }
}

describe('the lesson check', () => {
  it('passes a good step', async () => {
    expect(
      await check(`Some text.

<Scenario src="ok.sql" views="btree,lsm">
  <Watch at="page_split" variant="pg">A split.</Watch>
  <Watch at="flush" variant="yb">A flush.</Watch>
</Scenario>

<Predict src="ok.sql" variant="pg" line={4} counter="shared_hit" question="How many?">Three.</Predict>
<Predict src="ok.sql" line={4} counter="virtual_ms" among={[{ name: "pg", profile: "pg" }, { name: "yb", profile: "yb" }]} question="Which?" />
A <Term t="heap fetch">word</Term> and a <Hue of="memtable">hue</Hue>.
`),
    ).toBeNull();
  }, 60_000);

  it.each([
    ['an unknown component', '\n\n<Chart data="x" />\n', /1-step\.mdx:3:1.*<Chart> is not a lesson component/],
    ['an import', "import x from 'y'\n\nText.\n", /no import or export/],
    ['a missing script', '<Scenario src="nope.sql" />\n', /there is no nope\.sql/],
    ['a script that fails', '<Scenario src="pg-only.sql" />\n', /pg-only\.sql:3:\d+ does not run on (pg|yb)/],
    ['an event the run lacks', '<Scenario src="ok.sql" variants="pg">\n  <Watch at="flush">x</Watch>\n</Scenario>\n', /1-step\.mdx:2:3.*records no flush event/],
    ['a counter the statement lacks', '<Predict src="ok.sql" variant="pg" line={4} counter="made_up" question="?" />\n', /no counter made_up/],
    ['a line with no statement', '<Predict src="ok.sql" variant="pg" line={2} counter="shared_hit" question="?" />\n', /no EXPLAIN starting on line 2/],
    ['an unknown view', '<Scenario src="ok.sql" views="btree,graph" />\n', /there is no view "graph"/],
    ['an unknown word', '<Term t="flux capacitor" />\n', /not in the glossary/],
    ['a Watch outside a Scenario', '<Watch at="flush">x</Watch>\n', /belongs inside a <Scenario>/],
  ])('stops on %s', async (_, mdx, message) => {
    expect(await check(mdx)).toMatch(message);
  }, 60_000);

  it('finds every shipped lesson.json consistent with its folder', () => {
    expect(lessonProblems(fileURLToPath(new URL('../../../lessons', import.meta.url)))).toEqual([]);
  });
});
