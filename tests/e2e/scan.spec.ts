import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { typeScript } from './helpers';

// The scan view as a student meets it: article 003's forward scan, then its
// backward one, stepped through event by event on both engines.

const ARTICLE_003 = readFileSync(new URL('../fidelity/003-backward-scan.sql', import.meta.url), 'utf8');

test('article 003: a forward scan is a seek and nexts, a backward one seeks row by row', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto('/#/workbench');
  await typeScript(page, ARTICLE_003);
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page.getByTestId('running')).toHaveCount(0, { timeout: 60_000 });
  const yb = page.getByTestId('summary-scan-yb');
  const pg = page.getByTestId('summary-scan-pg');
  // From the end, back to the start of statement 4 (the backward scan).
  await page.getByTitle('Previous statement').click();
  await page.getByTitle('Previous statement').click();
  await page.getByTitle('Next event').click();
  await expect(yb).toContainText('Statement 4: no scan step yet');
  // The scan before it, the forward one: one seek, then a next a row.
  await expect(yb).toContainText('The scan before (statement 3): 1 seek(s), 999 next(s), 0 prev(s)');
  // Row by row: the last key (seek to last, seek to its first version), then
  // for each row before it a seek, a prev and a seek again.
  const next = page.getByTitle('Next event');
  const counts = [];
  for (let i = 0; i < 8; i++) {
    await next.click();
    counts.push(/(\d+) seek\(s\), \d+ next\(s\), (\d+) prev/.exec((await yb.textContent()) ?? '')?.slice(1, 3).join('/'));
  }
  expect(counts).toEqual(['1/0', '2/0', '3/0', '3/1', '4/1', '5/1', '5/2', '6/2']);
  await expect(page.getByTestId('event-yb')).toContainText('Seek');
  // The step under the cursor says where its comparisons went.
  await expect(page.getByTestId('replay-yb').getByTestId('scan-current')).toContainText(
    /Step 8: seek, \d+ key comparison\(s\) — the memtable's skip list \d+/,
  );
  const figure = page.getByTestId('replay-yb').getByRole('figure', { name: /^Scan: Statement 4/ });
  await expect(figure).toBeVisible();
  await figure.screenshot({ path: test.info().outputPath('scan-backward-start.png') });
  // At its end: 2 001 seeks, 1 000 prevs, against the forward scan's 1 seek.
  await page.getByTitle('Next statement').click();
  await page.getByTitle('Previous event').click();
  await expect(yb).toContainText('Statement 4: 2\u202f001 seek(s), 0 next(s), 1\u202f000 prev(s)');
  // pg walks the same leaves backward, and fetches every row from the heap
  // (no VACUUM yet: no page is all-visible).
  await expect(pg).toContainText(/Statement 4: \d+ buffer access\(es\) \(0 read from storage\), 3 leaf page\(s\) walked, 1\u202f000 heap fetch\(es\)/);
  for (const [w, h] of [
    [1440, 900],
    [1280, 720],
  ] as const) {
    await page.setViewportSize({ width: w, height: h });
    await figure.screenshot({ path: test.info().outputPath(`scan-backward-${w}.png`) });
    await page.getByTestId('replay-pg').getByRole('figure', { name: /^Scan/ }).screenshot({ path: test.info().outputPath(`scan-pg-${w}.png`) });
  }
  expect(errors).toEqual([]);
});

test('a Bitmap Heap Scan: the index read whole first, then each heap page once, in order, and the caption says why', async ({ page }) => {
  await page.goto('/#/workbench');
  await typeScript(
    page,
    `create table t (id int primary key, k int, v text);
insert into t select g, g % 100, 'v' || g from generate_series(1, 10000) g;
create index t_k on t (k);
explain (analyze, buffers) select * from t where k = 3;
`,
  );
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page.getByTestId('running')).toHaveCount(0, { timeout: 60_000 });
  // PostgreSQL 15's plan and estimates for 100 rows of 10 000 spread over every page.
  await expect(page.getByTestId('explain-pg')).toContainText('Bitmap Heap Scan on t  (cost=4.67..61.54 rows=50 width=40)');
  await expect(page.getByTestId('explain-pg')).toContainText('Bitmap Index Scan on t_k');
  const pg = page.getByTestId('summary-scan-pg');
  await expect(pg).toContainText(/Statement 4: \d+ buffer access\(es\) \(0 read from storage\), \d+ leaf page\(s\) walked, 100 row\(s\) read from the heap on \d+ page\(s\), each read once, in page order/);
  // Near the end of the scan: a row on the last page the bitmap marked
  // (after it, a few events: that page's buffer access, the end of the
  // scan's table phase, the statement's end).
  const event = page.getByTestId('event-pg');
  for (let i = 0; i < 8 && !((await event.textContent()) ?? '').includes('Bitmap Heap Scan: a row'); i++) {
    await page.getByTitle('Previous event').click();
  }
  await expect(event).toContainText('Bitmap Heap Scan: a row on t page');
  await expect(page.getByTestId('event-pg')).toContainText('no page is read twice');
});
