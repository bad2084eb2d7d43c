import { expect, test, type Page } from '@playwright/test';
import { onlyVariant, typeScript } from './helpers';

// The workbench as a newcomer uses it: type a script, run it on both engines,
// read both plans; break the script and see where; run the big load.

const ARTICLE_000 = `create table demo (id bigserial primary key, value timestamptz);
create index demo_value on demo ( value desc, id );
insert into demo(value) select clock_timestamp() from generate_series(1,10000);
explain (analyze, buffers, dist, costs off, summary off)
  select * from demo where value < now() order by value desc limit 5000;
`;

test('article 000 on both engines: both plans, side by side', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto('/#/workbench');
  await typeScript(page, ARTICLE_000);
  await page.keyboard.press('ControlOrMeta+Enter');
  const pg = page.getByTestId('explain-pg');
  const yb = page.getByTestId('explain-yb');
  await expect(pg).toContainText('Index Only Scan using demo_value on demo');
  await expect(pg).toContainText('Buffers: shared hit=');
  await expect(yb).toContainText('Index Only Scan using demo_value on demo');
  await expect(yb).toContainText('Storage Index Read Requests: 5');
  // The statement under the player, on both engines in one line.
  await expect(page.getByTestId('compare')).toContainText(/Statement 4 \(line 4\): pg [\d.]+ ms .* · yb [\d.]+ ms/);
  await page.screenshot({ path: test.info().outputPath('both-plans.png'), fullPage: true });
  // A projector may want the other theme than the laptop's.
  await page.getByLabel('Theme').selectOption('dark');
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await page.screenshot({ path: test.info().outputPath('both-plans-dark.png'), fullPage: true });
  await page.getByLabel('Theme').selectOption('system');
  await expect(page.locator('html')).not.toHaveAttribute('data-theme', /.*/);
  expect(errors).toEqual([]);
});

test('a broken script shows its error at its line, and the page keeps working', async ({
  page,
}) => {
  await page.goto('/#/workbench');
  await typeScript(page, 'create table t (a int);\nselect a frm t;\n');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page.getByTestId('error-pg')).toContainText('Line 2');
  await expect(page.getByTestId('error-yb')).toContainText('Line 2');
  await expect(page.locator('.cm-lintRange-error')).toHaveCount(1);
  await page.screenshot({ path: test.info().outputPath('error.png'), fullPage: true });
  await typeScript(page, 'create table t (a int);\nexplain (analyze, costs off) select a from t;\n');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page.getByTestId('explain-pg')).toContainText('Seq Scan on t');
  await expect(page.getByTestId('error-pg')).toHaveCount(0);
  await expect(page.locator('.cm-lintRange-error')).toHaveCount(0);
});

test('an error about a word is marked on its line at that word', async ({ page }) => {
  await page.goto('/#/workbench');
  await typeScript(
    page,
    'create table t (a int, b int);\ninsert into t values (1, 2);\n\nselect count(*) from t;\n\nselect a,\n       missing_col\nfrom t;\n',
  );
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page.getByTestId('error-pg')).toContainText('Line 7');
  await expect(page.getByTestId('error-pg')).toContainText('column "missing_col" does not exist');
  // One underline, over the unknown column itself.
  const marked = page.locator('.cm-lintRange-error');
  await expect(marked).toHaveCount(1);
  await expect(marked).toHaveText(/missing_col/);
});

test('the 1 000 000-row load shows progress, can be cancelled, then runs to the end', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await page.goto('/#/workbench');
  const big = ARTICLE_000.replace(
    'generate_series(1,10000);',
    'generate_series(1,10000)\n\\watch c=100',
  );
  await typeScript(page, big);
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page.getByTestId('running')).toBeVisible();
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByTestId('engine-run-error')).toHaveText('Cancelled');
  // Again, to the end this time. The engine reports each statement run: the
  // bar fills (create, index, 100 inserts, explain: 103 per profile).
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page.getByTestId('running')).toBeVisible();
  await expect(page.getByTestId('running')).toContainText(/pg [1-9]\d*\/103/);
  const bar = page.getByLabel('Running');
  expect(Number(await bar.getAttribute('value'))).toBeGreaterThan(0);
  await page.screenshot({ path: test.info().outputPath('progress.png') });
  await expect(page.getByTestId('running')).toHaveCount(0, { timeout: 150_000 });
  await expect(page.getByTestId('explain-pg')).toContainText('rows=5000');
  await expect(page.getByTestId('explain-yb')).toContainText('rows=5000');
  await expect(page.getByTestId('engine-run-error')).toHaveCount(0);
});

test('a column that has run is shown while the other still runs; the player waits for both', async ({ page }) => {
  test.setTimeout(120_000);
  await page.goto('/#/workbench');
  // Tiny memtables and eager compaction: yb flushes and compacts all along and
  // takes seconds; pg is done in a moment. (Columns that have run are shown
  // once a run has lasted a second; 300 000 rows keep yb running well past it
  // on a loaded machine, where 150 000 sometimes did not.)
  await typeScript(
    page,
    `set write_buffer_size = '4kB';
set level0_file_num_compaction_trigger = 2;
create table t (id int primary key, v int);
insert into t select generate_series(1,300000), 0;
explain (analyze, buffers, costs off) select * from t where id < 100;
`,
  );
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  const waiting = page.getByTestId('waiting-note');
  await expect(waiting).toContainText('pg: shown at the end of its run while yb is still running; the player starts when every column has run');
  await expect(page.getByTestId('explain-pg')).toContainText('Bitmap Heap Scan on t');
  await expect(page.getByTestId('replay-pg')).toBeVisible();
  await expect(page.getByText('Still running on the yb engine…')).toBeVisible();
  // No player yet: one cursor for the page, and yb has no trace to put under it.
  await expect(page.getByTestId('player')).toHaveCount(0);
  await page.screenshot({ path: test.info().outputPath('one-column-first.png'), fullPage: true });
  await expect(page.getByTestId('running')).toHaveCount(0, { timeout: 100_000 });
  await expect(waiting).toHaveCount(0);
  // A hash-sharded key: yb reads every row to find id < 100.
  await expect(page.getByTestId('explain-yb')).toContainText('Seq Scan on t');
  await expect(page.getByTestId('player')).toBeVisible();
});

test('the replay: scrub to a page split and to a flush, and the views change', async ({ page }) => {
  await page.goto('/#/workbench');
  await typeScript(
    page,
    `set write_buffer_size = '8kB';
create table t (id int primary key, v text);
insert into t select generate_series(1,1000), 'some text';
`,
  );
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  const pg = page.getByTestId('replay-pg');
  const yb = page.getByTestId('replay-yb');
  // At the end: a tree of several leaves, and SSTs on yb.
  await expect(pg.getByTestId('btree-t_pkey')).toContainText('leaf page(s)');
  await expect(yb.locator('[data-sst]').first()).toBeVisible();

  // Zoom into the tree: pages widen and show their number and fill.
  await pg.getByRole('img', { name: 'B+tree t_pkey' }).hover();
  await page.mouse.wheel(0, -600);
  await expect(pg.getByTestId('btree-t_pkey')).toContainText('zoomed');
  await expect(pg.locator('.btree-view .page-label').first()).toContainText('%');
  // Pages show their high key (the rightmost of a level: no bound).
  const high = pg.locator('.btree-view .page-high');
  await expect(high.filter({ hasText: /≤ \(\d+\)/ }).first()).toBeAttached();
  await expect(high.last()).toContainText('≤ +∞');
  await page.screenshot({ path: test.info().outputPath('pg-zoomed.png'), fullPage: true });

  // One player drives both engines. Back to the start, then to the first
  // split of the primary key.
  const player = page.getByTestId('player');
  await player.getByLabel('Position in the trace').fill('0');
  await expect(pg.getByTestId('btree-t_pkey')).toHaveCount(0);
  await expect(yb.locator('[data-sst]')).toHaveCount(0);
  await player.getByLabel('Jump to the next event of a kind').selectOption('page split');
  await expect(pg.getByTestId('event-pg')).toContainText('t_pkey: page 1 (level 0) was full and split');
  await expect(pg.getByTestId('btree-t_pkey')).toContainText('2 level(s), 2 leaf page(s)');
  await expect(pg.locator('.btree-view .page.focus')).toHaveCount(1);
  // Every event of this small run was recorded: the pool shows the pages read.
  await expect(pg.getByTestId('summarized-pg')).toHaveCount(0);
  await expect(pg.getByTestId('pool-view')).not.toContainText('0 of');
  // The counters of the statement under the cursor, per relation; yb is in
  // the same statement (the player keeps the engines in step by statement).
  const metrics = pg.getByTestId('statement-metrics-pg');
  await expect(metrics).toContainText('Statement 3 (line 3)');
  await expect(metrics).toContainText('t_pkey');
  await expect(yb.getByTestId('statement-metrics-yb')).toContainText('Statement 3 (line 3)');
  await page.screenshot({ path: test.info().outputPath('pg-split.png'), fullPage: true });

  // Back to the start, then to the first flush (yb's).
  await player.getByLabel('Position in the trace').fill('0');
  await expect(yb.locator('[data-sst]')).toHaveCount(0);
  await player.getByLabel('Jump to the next event of a kind').selectOption('flush');
  await expect(yb.getByTestId('event-yb')).toContainText('written out as SST');
  await expect(yb.locator('.lsm-view .sst.focus')).toHaveCount(1);
  await page.screenshot({ path: test.info().outputPath('yb-flush.png'), fullPage: true });

  // Stepping on and back returns to the same picture.
  const before = await player.getByTestId('player-position').textContent();
  await player.getByTitle('Next event').click();
  await expect(player.getByTestId('player-position')).not.toHaveText(before ?? '');
  await player.getByTitle('Previous event').click();
  await expect(player.getByTestId('player-position')).toHaveText(before ?? '');
  // Statement steps keep both engines on statement boundaries.
  await player.getByLabel('Position in the trace').fill('0');
  await player.getByTitle('Next statement').click();
  await player.getByTitle('Next statement').click();
  await expect(pg.getByTestId('event-pg')).toContainText('Statement 2 done');
  await expect(yb.getByTestId('event-yb')).toContainText('Statement 2 done');
});

test('the LSM view: a compaction, its inputs and outputs, tombstones on a key axis', async ({
  page,
}) => {
  await page.goto('/#/workbench');
  // One range-sharded tablet, a 16kB memtable: flushes, then compactions.
  await typeScript(
    page,
    `set write_buffer_size = '16kB';
create table t (id int, v int, primary key (id asc));
insert into t select generate_series(1,3000), 0;
delete from t where id < 1000;
\\flush t
select id from t where id > 2500;
`,
  );
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  const player = page.getByTestId('player');
  const yb = page.getByTestId('replay-yb');
  await expect(yb.locator('[data-sst]').first()).toBeVisible();
  // At the end: the DELETE's tombstones are in the SSTs, the reads filled a cache.
  await expect(yb.getByTestId('lsm-0')).toContainText(/[1-9][\d\u202f]* tombstone\(s\)/);
  const cache = yb.getByLabel('Block cache of tserver-1');
  expect(Number(await cache.getAttribute('value'))).toBeGreaterThan(0);
  await player.getByLabel('Position in the trace').fill('0');
  await player.getByLabel('Jump to the next event of a kind').selectOption('compaction');
  await expect(yb.getByTestId('event-yb')).toContainText('compaction of SSTs');
  const inputs = await yb.locator('.lsm-view .sst.focus').count();
  expect(inputs).toBeGreaterThanOrEqual(2);
  await player.getByLabel('Jump to the next event of a kind').selectOption('compaction');
  await expect(yb.getByTestId('event-yb')).toContainText('compaction done');
  // The inputs fade out (outlined) over the output that replaced them.
  await expect(yb.locator('[data-leaving]')).toHaveCount(inputs);
  await page.screenshot({ path: test.info().outputPath('yb-compaction.png'), fullPage: true });
  // Once yb moves on (one joint step moves the longer trace first), the
  // outlines are gone.
  const caption = await yb.getByTestId('event-yb').textContent();
  for (let i = 0; i < 50 && (await yb.getByTestId('event-yb').textContent()) === caption; i++) {
    await player.getByTitle('Next event').click();
  }
  await expect(yb.locator('[data-leaving]')).toHaveCount(0);
  // The bytes axis lines the levels up by size instead.
  await yb.getByLabel('Axis of tablet 0').selectOption('bytes');
  await expect(yb.locator('[data-sst]').first()).toBeVisible();
});

test('the buffer pool: an eviction, and the leaves linked both ways', async ({ page }) => {
  await page.goto('/#/workbench');
  await typeScript(
    page,
    `create table t (id int primary key, v int);
insert into t select generate_series(1,3000), 0;
`,
  );
  // 16 frames: the load must evict.
  await page.getByText('Settings', { exact: false }).first().click();
  await page.getByLabel('Filter settings').fill('shared_buffers');
  await page.getByLabel('shared_buffers').fill('128kB');
  await onlyVariant(page, 'pg');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  const pg = page.getByTestId('replay-pg');
  await expect(pg.getByTestId('btree-t_pkey')).toContainText('leaf page(s)');
  await expect(pg.locator('.btree-view .chain').first()).toBeAttached();
  const player = page.getByTestId('player');
  await player.getByLabel('Position in the trace').fill('0');
  await player.getByLabel('Jump to the next event of a kind').selectOption('eviction');
  await expect(pg.getByTestId('pool-flash')).toContainText('evicted');
  await page.screenshot({ path: test.info().outputPath('pg-eviction.png'), fullPage: true });
});

test('a setting changed in the panel applies to the next run', async ({ page }) => {
  await page.goto('/#/workbench');
  await typeScript(
    page,
    `create table t (id int primary key);
insert into t select generate_series(1,2000);
explain (analyze, dist, costs off) select * from t where id < 1500;
`,
  );
  await page.getByText('Settings', { exact: false }).first().click();
  await page.getByLabel('Filter settings').fill('fetch_row');
  await page.getByLabel('yb_fetch_row_limit').fill('100');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  // 1499 rows at 100 a request on each of the table's tablets.
  await expect(page.getByTestId('explain-yb')).toContainText('Storage Table Read Requests');
  const text = (await page.getByTestId('explain-yb').textContent()) ?? '';
  const requests = Number(/Read Requests: (\d+)/.exec(text)?.[1]);
  expect(requests).toBeGreaterThanOrEqual(15);
  await expect(page.getByTestId('settings-panel')).toContainText('1 changed');
});

/** Every view's state in words (what screen readers get), for both columns. */
async function pictures(page: Page): Promise<string[]> {
  return page.locator('.view-summary').evaluateAll((lists) =>
    lists.map((l) => `${l.getAttribute('data-testid')}: ${l.textContent ?? ''}`),
  );
}

test('the same cursor always shows the same picture, however the player got there', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await page.goto('/#/workbench');
  // The default demo, both engines: run it and read the picture at the end.
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  const player = page.getByTestId('player');
  await expect(page.getByTestId('replay-yb')).toBeVisible({ timeout: 60_000 });
  const range = player.getByLabel('Position in the trace');
  const end = Number(await range.getAttribute('max'));
  const atEnd = await pictures(page);
  expect(atEnd.join('\n')).toContain('tablet');
  expect(atEnd.join('\n')).toContain('frames in use');
  // Its 10 000-row insert is recorded in full: nothing is summarized.
  await expect(page.locator('.summarized')).toHaveCount(0);

  // Scrub to 0, then back to the end: the same tablets, frames and fills.
  await range.fill('0');
  await expect(page.getByTestId('event-pg')).toContainText('Start of the run');
  await range.fill(String(end));
  expect(await pictures(page)).toEqual(atEnd);

  // Mid-insert, reached by playing, then by a jump: the same picture.
  await range.fill(String(Math.floor(end / 2)));
  await player.getByRole('combobox').first().selectOption('16');
  await player.getByTitle('Play').click();
  await page.waitForTimeout(400);
  await player.getByTitle('Pause').click();
  const played = Number(await range.inputValue());
  expect(played).toBeGreaterThan(Math.floor(end / 2));
  const afterPlay = await pictures(page);
  await range.fill('0');
  await range.fill(String(played));
  expect(await pictures(page)).toEqual(afterPlay);
  // Both columns name the same statement, and the heap is in the pool.
  const stmt = async (p: string) =>
    /Statement \d+/.exec((await page.getByTestId(`statement-metrics-${p}`).textContent()) ?? '')?.[0];
  expect(await stmt('pg')).toBeDefined();
  expect(await stmt('pg')).toEqual(await stmt('yb'));
  expect(afterPlay.join('\n')).toMatch(/demo: \d+ page/);
  // Step back and forward: the same picture again.
  await player.getByTitle('Previous event').click();
  await player.getByTitle('Next event').click();
  expect(await pictures(page)).toEqual(afterPlay);
});

test('a summarized statement says so, and can be re-run with every step', async ({ page }) => {
  await page.goto('/#/workbench');
  await typeScript(
    page,
    `create table t (id int primary key, v int);
insert into t select generate_series(1,3000), 0;
select count(*) from t;
`,
  );
  // A detail budget of 100 events a statement, from the settings panel.
  await page.getByText('Settings', { exact: false }).first().click();
  await page.getByLabel('Filter settings').fill('trace_');
  await page.getByLabel('trace_statement_events').fill('100');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  const player = page.getByTestId('player');
  await expect(page.getByTestId('replay-pg')).toBeVisible();
  // Into the insert (statement 2).
  await player.getByLabel('Position in the trace').fill('0');
  await player.getByTitle('Next statement').click();
  await player.getByTitle('Next event').click();
  const note = page.getByTestId('summarized-pg');
  await expect(note).toContainText('Statement 2 made');
  await expect(note).toContainText('trace_statement_events');
  const report = await page.getByTestId('results-pg').locator('.run-summary').textContent();
  await note.getByRole('button', { name: 'Show every step of statement 2' }).click();
  // The re-run opens on that statement, in full, with the same report.
  await expect(page.getByTestId('summarized-pg')).toHaveCount(0);
  await expect(page.getByTestId('event-pg')).toContainText('Statement 2 starts');
  await expect(page.getByTestId('results-pg').locator('.run-summary')).toHaveText(report ?? '');
  await player.getByTitle('Next event').click();
  await expect(page.getByTestId('event-pg')).not.toContainText('Statement 2 done');
});

test('a two-table join: pg plans a Hash Join by cost, yb by YugabyteDB’s heuristic costs', async ({ page }) => {
  await page.goto('/#/workbench');
  await typeScript(
    page,
    `create table customers (id int primary key, name text);
create table orders (id int primary key, customer_id int, total int);
insert into customers select g, 'customer ' || g from generate_series(1, 500) g;
insert into orders select g, g % 50 + 1, g % 97 from generate_series(1, 5000) g;
analyze customers;
analyze orders;
explain (analyze, buffers, costs off, summary off)
  select c.name, o.total from orders o join customers c on c.id = o.customer_id where o.total < 10;
`,
  );
  await page.keyboard.press('ControlOrMeta+Enter');
  const pg = page.getByTestId('explain-pg');
  // PostgreSQL 15's plan and hash table for this script.
  await expect(pg).toContainText('Hash Join');
  await expect(pg).toContainText('Hash Cond: (o.customer_id = c.id)');
  await expect(pg).toContainText('Buckets: 1024  Batches: 1  Memory Usage: 34kB');
  // Under the plan, why: the join's sentence, then each side's scan.
  const why = page.getByTestId('why-pg').locator('li');
  await expect(why.first()).toContainText(/^Hash Join: the about \d+ rows of c are hashed once/);
  await expect(why.first()).toContainText(/; a Nested Loop of index lookups[^:]*: \d+\.\d\d\)\.$/);
  // yb weighs the same methods over its heuristic scan costs (ANALYZE's
  // row counts, no column statistics): 5 000 primary-key lookups cost more
  // than hashing the 500 customers.
  const yb = page.getByTestId('explain-yb');
  await expect(yb).toContainText('Hash Join');
  await expect(yb).toContainText('Buckets: 1024  Batches: 1');
  const ybWhy = page.getByTestId('why-yb').locator('li').first();
  await expect(ybWhy).toContainText(/^Hash Join: the about 500 rows of c are hashed once/);
  await expect(ybWhy).toContainText(/a Nested Loop of index lookups: \d+\.\d\d\)\.$/);
});

test('two indexes ANDed: pg plans a BitmapAnd and says why', async ({ page }) => {
  await page.goto('/#/workbench');
  await typeScript(
    page,
    `create table foo (id int primary key, bar int, baz int, pad text);
insert into foo select g, (g * 7907) % 30000, (g * 7919) % 30000, repeat('x', 50) from generate_series(1, 30000) g;
create index foobar on foo (bar);
create index foobaz on foo (baz);
vacuum analyze foo;
explain (analyze, buffers, summary off) select * from foo where bar < 1500 and baz < 1500;
`,
  );
  await page.keyboard.press('ControlOrMeta+Enter');
  const pg = page.getByTestId('explain-pg');
  // PostgreSQL 15's plan, costs and pages for this script.
  await expect(pg).toContainText('BitmapAnd  (cost=63.36..63.36 rows=75 width=0)');
  await expect(pg).toContainText('Recheck Cond: ((baz < 1500) AND (bar < 1500))');
  await expect(pg).toContainText('Heap Blocks: exact=30');
  const why = page.getByTestId('why-pg').locator('li');
  await expect(why.first()).toContainText(
    /^Bitmap Heap Scan: about 75 of 30000 rows match every condition, .* the bitmaps from foobaz and foobar are ANDed/,
  );
});

test('a big table read in parallel: pg plans a Gather and says why', async ({ page }) => {
  await page.goto('/#/workbench');
  await typeScript(
    page,
    `create table big (id int, a int, b text);
insert into big select g, g % 1000, md5(g::text) from generate_series(1, 350000) g;
vacuum analyze big;
explain (analyze, buffers, summary off) select count(*) from big where a = 5;
`,
  );
  await page.keyboard.press('ControlOrMeta+Enter');
  const pg = page.getByTestId('explain-pg');
  // PostgreSQL 15's plan and figures for this script.
  await expect(pg).toContainText('Finalize Aggregate', { timeout: 30_000 });
  await expect(pg).toContainText('Workers Planned: 2');
  await expect(pg).toContainText(/Parallel Seq Scan on big .*rows=117 loops=3\)/);
  await expect(pg).toContainText('Rows Removed by Filter: 116550');
  const why = page.getByTestId('why-pg').locator('li');
  await expect(why.first()).toContainText(
    /^Finalize Aggregate over a Gather: the leader and 2 workers each read a share of big's pages/,
  );
});

test('a join whose sides come in key order: pg plans a Merge Join and says why', async ({ page }) => {
  await page.goto('/#/workbench');
  await typeScript(
    page,
    `create table t (id int primary key, a int);
insert into t select g, g % 100 from generate_series(1, 10000) g;
vacuum analyze t;
create table u (id int primary key, t_id int);
insert into u select g, g * 3 from generate_series(1, 50) g;
analyze u;
explain (analyze, buffers, summary off) select * from t join u on u.t_id = t.id;
`,
  );
  await page.keyboard.press('ControlOrMeta+Enter');
  const pg = page.getByTestId('explain-pg');
  // PostgreSQL 15's plan and costs for this script.
  await expect(pg).toContainText('Merge Join  (cost=3.20..9.09 rows=50 width=16)');
  await expect(pg).toContainText('Merge Cond: (t.id = u.t_id)');
  // The pass ends past u's largest key: 151 of t's 10 000 index entries.
  await expect(pg).toContainText(/Index Scan using t_pkey on t .*actual .*rows=151 loops=1\)/);
  const why = page.getByTestId('why-pg').locator('li');
  await expect(why.first()).toContainText(
    /^Merge Join: t comes in key order from t_pkey and the about 50 rows of u are sorted; one pass pairs equal keys and stops/,
  );
});

test('an OR of two indexed columns: pg plans a BitmapOr and says why', async ({ page }) => {
  await page.goto('/#/workbench');
  await typeScript(
    page,
    `create table o (id int primary key, a int, b int, c int, pad text);
insert into o select g, g % 1000, (g * 7) % 1000, g % 10, repeat('x', 40) from generate_series(1, 20000) g;
create index o_a on o (a);
create index o_b on o (b);
vacuum analyze o;
explain (analyze, buffers, summary off) select * from o where a = 5 or b = 7;
`,
  );
  await page.keyboard.press('ControlOrMeta+Enter');
  const pg = page.getByTestId('explain-pg');
  // PostgreSQL 15's plan, costs and pages for this script.
  await expect(pg).toContainText('BitmapOr  (cost=8.89..8.89 rows=40 width=0)');
  await expect(pg).toContainText('Recheck Cond: ((a = 5) OR (b = 7))');
  await expect(pg).toContainText('Heap Blocks: exact=20');
  const why = page.getByTestId('why-pg').locator('li');
  await expect(why.first()).toContainText(
    /^Bitmap Heap Scan: about 40 of 20000 rows match one arm of the OR or another, .* the bitmaps are ORed/,
  );
  // The scan view tells the two phases apart: both indexes read into one
  // bitmap, then each marked page of the table once.
  const phases = page.getByTestId('scan-view').first().getByTestId('scan-phases').locator('li');
  await expect(phases.nth(0)).toContainText(/^Bitmap Heap Scan, the bitmap: o_a OR o_b read first, whole: /);
  await expect(phases.nth(1)).toContainText(/^Bitmap Heap Scan, the table: .*\(Heap Blocks: exact=20\), each page once and in page order/);
});

test("the scan view marks a Hash Join's build and probe, and draws a LIMIT's top-N heap", async ({ page }) => {
  await page.goto('/#/workbench');
  await onlyVariant(page, 'pg');
  const tables = `create table t (id int primary key, a int, b int);
insert into t select g, g % 100, (g * 7919) % 10007 from generate_series(1, 10000) g;
vacuum analyze t;
create table u (id int primary key, t_id int);
insert into u select g, g * 3 from generate_series(1, 50) g;
analyze u;
set enable_mergejoin = off;
`;
  await typeScript(page, `${tables}explain (analyze, buffers) select * from t join u on u.t_id = t.id;\n`);
  await page.keyboard.press('ControlOrMeta+Enter');
  const scan = page.getByTestId('scan-view').first();
  const phases = scan.getByTestId('scan-phases').locator('li');
  await expect(phases).toHaveCount(2, { timeout: 30_000 });
  await expect(phases.nth(0)).toContainText(/^Hash Join, build: u was read and its 50 rows went into a hash table on the join key — Buckets: 1024/);
  await expect(phases.nth(1)).toContainText(/^Hash Join, probe: each of t's 10\u202f000 rows was hashed and looked up in that table, giving 50 rows joined/);
  // A band (or marker) and a label for each phase over the steps.
  await expect(scan.locator('.phase-bands .phase')).toHaveCount(2);
  // (Its text follows its tooltip's.)
  await expect(scan.locator('.phase-label').last()).toHaveText(/2 probe: t$/);
  await expect(page.getByTestId('top-n-heap')).toHaveCount(0);

  await typeScript(page, `${tables}explain (analyze, buffers) select * from t order by b limit 10;\n`);
  await page.keyboard.press('ControlOrMeta+Enter');
  const heap = page.getByTestId('top-n-heap').first();
  await expect(heap).toBeVisible({ timeout: 30_000 });
  await expect(heap.locator('.heap-slot')).toHaveCount(10);
  await expect(heap.locator('.heap-entered')).toHaveCount(32);
  await expect(scan.getByTestId('scan-phases')).toContainText(/^Sort, a top-N heapsort for LIMIT 10: the first 21 rows were held as they came/);
  await expect(page.getByTestId('explain-pg')).toContainText('Sort Method: top-N heapsort  Memory: 25kB');
});

test('yb reads a covering index alone, chosen by YugabyteDB’s heuristic costs, and says why', async ({ page }) => {
  await page.goto('/#/workbench');
  await onlyVariant(page, 'yb');
  await typeScript(
    page,
    `create table t (id int primary key, k int, v int, pad text);
insert into t select g, g % 100, g, repeat('x', 50) from generate_series(1, 2000) g;
create index t_k on t (k);
create index t_incl on t (k) include (v);
explain (analyze, dist, costs off) select k, v from t where k = 3;
`,
  );
  await page.keyboard.press('ControlOrMeta+Enter');
  const yb = page.getByTestId('explain-yb');
  await expect(yb).toContainText('Index Only Scan using t_incl on t', { timeout: 30_000 });
  await expect(yb).toContainText('Storage Index Read Requests: 1');
  await expect(yb).not.toContainText('Storage Table Read Requests');
  const why = page.getByTestId('why-yb').locator('li');
  await expect(why.first()).toContainText(
    /^Index Only Scan using t_incl: YugabyteDB's default planner reads no column statistics; .*an Index Scan using t_k: 5\.22/,
  );
});
