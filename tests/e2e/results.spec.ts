import { expect, test, type Locator, type Page } from '@playwright/test';
import { typeScript } from './helpers';

// The answers a student's SQL gets, as psql shows them: under the statement
// the player is on, each engine's column shows its command tag and its rows,
// NULL told from the empty string.

const SCRIPT = `create table t (id int primary key, v text);
insert into t values (1, 'a'), (2, null), (3, '');
select * from t order by id;
`;

async function run(page: Page, script: string) {
  await page.goto('/#/workbench');
  await typeScript(page, script);
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page.getByTestId('running')).toHaveCount(0, { timeout: 60_000 });
}

/** The text of each body cell of a result table, row by row, NULL marked as ⟨NULL⟩. */
function cells(table: Locator): Promise<string[][]> {
  return table.locator('tbody tr').evaluateAll((trs) =>
    trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => (td.hasAttribute('data-null') ? `⟨${td.textContent}⟩` : (td.textContent ?? '')))),
  );
}

test('a SELECT shows its rows under the statement, NULL as NULL and the empty string empty, on pg and yb', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await run(page, SCRIPT);
  for (const id of ['pg', 'yb']) {
    const answer = page.getByTestId(`answer-${id}`);
    await expect(answer).toContainText('line 3: select * from t order by id');
    await expect(answer.getByTestId(`tag-${id}`)).toHaveText('SELECT 3');
    await expect(answer.locator('thead th')).toHaveText(['id', 'v']);
    expect(await cells(answer.locator('table'))).toEqual([
      ['1', 'a'],
      ['2', '⟨NULL⟩'],
      ['3', ''],
    ]);
    // NULL reads differently from a value: muted and slanted.
    await expect(answer.locator('td[data-null]')).toHaveCSS('font-style', 'italic');
    await expect(answer.locator('.rows-line')).toHaveText('(3 rows)');
  }
  // The statement before: the tag alone, no table.
  await page.getByTestId('player').getByTitle('Previous statement').click();
  for (const id of ['pg', 'yb']) {
    await expect(page.getByTestId(`tag-${id}`)).toHaveText('INSERT 0 3');
    await expect(page.getByTestId(`answer-${id}`).locator('table')).toHaveCount(0);
  }
  expect(errors).toEqual([]);
});

test('a long result shows 50 rows, then all on "Show all"; values stay text', async ({ page }) => {
  await run(
    page,
    `create table t (id int primary key, v text);
insert into t select generate_series(1,120), '<b>x</b>';
select * from t order by id;
`,
  );
  const answer = page.getByTestId('answer-pg');
  await expect(answer.locator('tbody tr')).toHaveCount(50);
  await expect(answer.locator('.rows-line')).toHaveText('(120 rows)');
  await expect(answer.locator('tbody td b')).toHaveCount(0);
  await expect(answer.locator('tbody tr').first().locator('td').nth(1)).toHaveText('<b>x</b>');
  await answer.getByRole('button', { name: 'Show all 120 rows' }).click();
  await expect(answer.locator('tbody tr')).toHaveCount(120);
  // The other column keeps its own fold.
  await expect(page.getByTestId('answer-yb').locator('tbody tr')).toHaveCount(50);
});

test('presenter mode at 1280×720: a wide result scrolls inside its box, not the page', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  const names = Array.from({ length: 12 }, (_, i) => `column_${i}`);
  const value = `'${'w'.repeat(30)}'`;
  await run(
    page,
    `create table t (id int primary key, ${names.map((n) => `${n} text`).join(', ')});
insert into t values (1, ${names.map(() => value).join(', ')});
select * from t;
`,
  );
  await page.locator('.tagline').click();
  await page.keyboard.press('p');
  await expect(page.locator('html')).toHaveClass(/presenter/);
  const box = page.getByTestId('answer-pg').locator('.result-scroll');
  await expect(box).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1280);
  expect(await box.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
  // Every piece of its text is at least 18 px on the projector (font size × the results' zoom).
  const small = await page.getByTestId('answer-pg').evaluate((answer) =>
    [...answer.querySelectorAll('*')].flatMap((el) => {
      const own = [...el.childNodes].some((n) => n.nodeType === 3 && (n.textContent ?? '').trim() !== '');
      const px = parseFloat(getComputedStyle(el).fontSize) * ((el as HTMLElement & { currentCSSZoom?: number }).currentCSSZoom ?? 1);
      return own && px < 18 ? [`${el.tagName} ${px.toFixed(1)} px "${(el.textContent ?? '').slice(0, 20)}"`] : [];
    }),
  );
  expect(small).toEqual([]);
  await expect(page.getByTestId('answer-pg').locator('td').first()).toHaveText('1');
});

test('pageinspect in the workbench: the heap page PostgreSQL would show, and a clear refusal on yb', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await run(
    page,
    `create extension pageinspect;
create table demo (id int primary key, v text);
insert into demo values (1, 'a'), (2, 'b');
update demo set v = 'c' where id = 2;
select lp, lp_off, lp_flags, t_xmin, t_xmax, t_ctid, t_infomask2, t_data from heap_page_items(get_raw_page('demo', 0));
`,
  );
  const pg = page.getByTestId('answer-pg');
  await expect(pg.getByTestId('tag-pg')).toHaveText('SELECT 3');
  // PostgreSQL 15's answer to the same script on a new cluster.
  expect(await cells(pg.locator('table'))).toEqual([
    ['1', '8160', '1', '726', '0', '(0,1)', '2', '\\x010000000561'],
    ['2', '8128', '1', '726', '727', '(0,3)', '16386', '\\x020000000562'],
    ['3', '8096', '1', '727', '0', '(0,3)', '32770', '\\x020000000563'],
  ]);
  await expect(page.getByTestId('error-yb')).toContainText('on YugabyteDB');
  for (const size of [
    { width: 1440, height: 900 },
    { width: 1280, height: 720 },
    { width: 380, height: 800 },
  ]) {
    await page.setViewportSize(size);
    for (const theme of ['light', 'dark']) {
      await page.getByLabel('Theme').selectOption(theme);
      await page.screenshot({ path: test.info().outputPath(`pageinspect-${size.width}-${theme}.png`), fullPage: true });
    }
  }
  expect(errors).toEqual([]);
});
