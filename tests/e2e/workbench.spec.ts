import { expect, test, type Page } from '@playwright/test';

// The workbench as a newcomer uses it: type a script, run it on both engines,
// read both plans; break the script and see where; run the big load.

const ARTICLE_000 = `create table demo (id bigserial primary key, value timestamptz);
create index demo_value on demo ( value desc, id );
insert into demo(value) select clock_timestamp() from generate_series(1,10000);
explain (analyze, buffers, dist, costs off, summary off)
  select * from demo where value < now() order by value desc limit 5000;
`;

async function typeScript(page: Page, text: string) {
  const editor = page.locator('.cm-content');
  await editor.click();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.press('Delete');
  // insertText: CodeMirror would auto-indent and close brackets on typed keys.
  await page.keyboard.insertText(text);
}

test('article 000 on both engines: both plans, side by side', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto('/');
  await typeScript(page, ARTICLE_000);
  await page.keyboard.press('ControlOrMeta+Enter');
  const pg = page.getByTestId('explain-pg');
  const yb = page.getByTestId('explain-yb');
  await expect(pg).toContainText('Index Only Scan using demo_value on demo');
  await expect(pg).toContainText('Buffers: shared hit=');
  await expect(yb).toContainText('Index Only Scan using demo_value on demo');
  await expect(yb).toContainText('Storage Index Read Requests: 5');
  await page.screenshot({ path: test.info().outputPath('both-plans.png'), fullPage: true });
  expect(errors).toEqual([]);
});

test('a broken script shows its error at its line, and the page keeps working', async ({
  page,
}) => {
  await page.goto('/');
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

test('the 1 000 000-row load shows progress, can be cancelled, then runs to the end', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await page.goto('/');
  const big = ARTICLE_000.replace(
    'generate_series(1,10000);',
    'generate_series(1,10000)\n\\watch c=100',
  );
  await typeScript(page, big);
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page.getByTestId('running')).toBeVisible();
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByTestId('engine-run-error')).toHaveText('Cancelled');
  // Again, to the end this time.
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page.getByTestId('running')).toBeVisible();
  await expect(page.getByTestId('running')).toHaveCount(0, { timeout: 150_000 });
  await expect(page.getByTestId('explain-pg')).toContainText('rows=5000');
  await expect(page.getByTestId('explain-yb')).toContainText('rows=5000');
  await expect(page.getByTestId('engine-run-error')).toHaveCount(0);
});
