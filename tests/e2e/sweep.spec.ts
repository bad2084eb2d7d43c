import { expect, test, type Locator, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { lookupScript, typeScript } from './helpers';

// Comparison as the page's native move: variants side by side with their
// difference, and sweeps drawn as charts, as the articles draw them.

/** The chart's points of one series, as [x, y] from its data-table twin. */
async function pointsOf(chart: Locator, series: number): Promise<[string, number][]> {
  const rows = await chart.locator('.chart-table tbody tr').evaluateAll((trs, k) =>
    trs.map((tr) => [tr.querySelector('th')?.textContent ?? '', tr.querySelectorAll('td')[k]?.textContent ?? '']),
  series);
  // The table prints with thousands separators; — is a missing point.
  return rows.filter(([, y]) => y !== '—').map(([x, y]) => [x ?? '', Number((y ?? '').replace(/[,\u202f]/g, ''))]);
}

function minimumAt(points: [string, number][]): string {
  return points.reduce((a, b) => (b[1] < a[1] ? b : a))[0];
}

async function shoot(page: Page, name: string) {
  await page.screenshot({ path: test.info().outputPath(`${name}-1440.png`), fullPage: false });
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.getByTestId('sweep-chart').scrollIntoViewIfNeeded();
  await page.screenshot({ path: test.info().outputPath(`${name}-1280x720.png`) });
  await page.setViewportSize({ width: 1440, height: 900 });
}

test.use({ viewport: { width: 1440, height: 900 } });

test("article 001's sweep: one line per network, minima at 100-200 and near 1000; a point opens its run", async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto('/#/workbench');
  await page.getByLabel('Example').selectOption('001');
  await page.getByRole('button', { name: /^Chart: Latency against batch size/ }).click();
  await expect(page.getByTestId('sweep-running')).toHaveCount(0, { timeout: 60_000 });
  const chart = page.getByRole('figure', { name: /^Chart: virtual time of the measured statement against yb_bnl_batch_size/ });
  await expect(chart).toBeVisible();
  await expect(chart.getByRole('list', { name: /^Legend/ })).toHaveText(/network=multi-az.*network=multi-region/);
  await expect(chart.getByText('x and y on a log scale')).toBeVisible();
  const az = await pointsOf(chart, 0);
  const region = await pointsOf(chart, 1);
  expect(az.map(([x]) => x)).toEqual(['1', '5', '10', '20', '50', '100', '200', '500', '1000', '2000']);
  expect(['100', '200']).toContain(minimumAt(az));
  expect(['500', '1000', '2000']).toContain(minimumAt(region));
  // Every path is drawn, with its points as buttons.
  await expect(chart.locator('path[stroke-dasharray]')).toHaveCount(1);
  await expect(chart.getByRole('button', { name: /^network=multi-az, 200: .*open this run in the player/ })).toHaveCount(1);
  await shoot(page, 'sweep-001');
  // The sweep, its chart and the variants pass axe's checks (names, roles, contrast).
  const axe = await new AxeBuilder({ page }).include('[data-testid="sweep"]').include('[data-testid="variants"]').analyze();
  expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);

  // The CSV twin downloads with the same numbers.
  const download = page.waitForEvent('download');
  await chart.getByRole('button', { name: /as CSV$/ }).click();
  const csv = await (await download).createReadStream();
  let text = '';
  for await (const chunk of csv) text += String(chunk);
  expect(text.split('\n')[0]).toBe('yb_bnl_batch_size (rows),network=multi-az,network=multi-region');
  for (const kind of ['PNG', 'SVG']) {
    const file = page.waitForEvent('download');
    await chart.getByRole('button', { name: new RegExp(`as ${kind}$`) }).click();
    const got = await file;
    expect(got.suggestedFilename()).toBe(`chart-virtual-time-of-the-measured-statement-against-yb-bnl-batch-size.${kind.toLowerCase()}`);
    let bytes = 0;
    for await (const chunk of await got.createReadStream()) bytes += (chunk as Buffer).length;
    expect(bytes).toBeGreaterThan(2000);
  }

  const at200 = az.find(([x]) => x === '200')?.[1] ?? NaN;
  await chart.getByRole('button', { name: /^network=multi-az, 200: / }).click();
  await expect(page.getByTestId('point-note')).toContainText('yb_bnl_batch_size=200, network=multi-az', { timeout: 60_000 });
  const column = page.getByTestId('results-point');
  await expect(column.getByRole('heading', { level: 2 })).toContainText('yb_bnl_batch_size=200');
  await expect(column.getByTestId('explain-point')).toContainText('loops=10');
  // Exactly the run the chart plotted: the same virtual time for the measured statement.
  await expect(column.getByTestId('statement-metrics-point')).toContainText(`${at200.toFixed(3)} ms`);
  // The player opens on the measured statement: the join.
  await expect(page.getByTestId('summary-network-point')).toContainText('Batched Nested Loop: 10 of 10 loop(s) begun, 200 keys in the first');
  await page.getByRole('button', { name: 'Back to the variants' }).click();
  await expect(page.getByTestId('point-note')).toHaveCount(0, { timeout: 60_000 });
  await expect(page.getByTestId('results-yb')).toBeVisible();
  expect(errors).toEqual([]);
});

test("article 002's cache sweep: B-tree reads per insert rise as the cache shrinks, the LSM's stay flat", async ({ page }) => {
  test.setTimeout(180_000);
  await page.goto('/#/workbench');
  await page.getByLabel('Example').selectOption('002');
  await page.getByRole('button', { name: /^Chart: Reads and writes per insert against cache size/ }).click();
  await expect(page.getByRole('progressbar', { name: 'Sweep progress' })).toBeVisible();
  await expect(page.getByTestId('sweep-running')).toHaveCount(0, { timeout: 150_000 });
  const chart = page.getByRole('figure', { name: /^Chart: bytes read from storage per row written against shared_buffers \/ block_cache_size/ });
  await expect(chart.getByRole('list', { name: /^Legend/ })).toHaveText(/B-tree \(pg\).*LSM \(yb\)/);
  const btree = await pointsOf(chart, 0);
  const lsm = await pointsOf(chart, 1);
  expect(btree.map(([x]) => x)).toEqual(['1MB', '4MB', '16MB', '64MB', '128MB']);
  // Smaller cache, more reads: never fewer as the cache shrinks, and far more at 1MB.
  for (let i = 1; i < btree.length; i++) expect(btree[i - 1]?.[1]).toBeGreaterThanOrEqual(btree[i]?.[1] ?? 0);
  expect(btree[0]?.[1]).toBeGreaterThan(10 * Math.max(1, btree[4]?.[1] ?? 0));
  const ys = lsm.map(([, y]) => y);
  expect(Math.max(...ys) / Math.min(...ys)).toBeLessThan(1.5);
  // The writes, from the same runs, on a second chart.
  const writes = page.getByRole('figure', { name: /^Chart: bytes written to storage per row written against/ });
  expect((await pointsOf(writes, 0)).length).toBe(5);
  expect((await pointsOf(writes, 1)).every(([, y]) => y > 0)).toBe(true);
  await shoot(page, 'sweep-002');
});

test('variants: add, rename, reorder; the difference line compares them; a bad sweep is refused before running', async ({ page }) => {
  test.setTimeout(120_000);
  await page.goto('/#/workbench');
  // A long sweep can be cancelled, and the page goes on.
  await page.getByLabel('Example').selectOption('002');
  await page.getByRole('button', { name: /^Chart: Reads and writes per insert/ }).click();
  await page.getByTestId('sweep-running').getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByTestId('sweep').getByRole('alert')).toHaveText('Cancelled');
  await page.getByLabel('Example').selectOption('000');
  await typeScript(page, lookupScript(3000, 2000));
  await page.getByRole('button', { name: 'Add variant' }).click();
  await page.getByLabel('Name of variant 3').fill('pg, tiny cache');
  await page.getByLabel('Engine of pg, tiny cache').selectOption('pg');
  await page.getByLabel('Settings of pg, tiny cache').fill('shared_buffers=128kB');
  await page.getByRole('button', { name: 'Move pg, tiny cache up' }).click();
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page.getByTestId('running')).toHaveCount(0, { timeout: 60_000 });
  const headings = page.locator('.profile-results h2');
  await expect(headings).toHaveCount(3);
  await expect(headings.nth(1)).toContainText('pg, tiny cache');
  const diff = page.getByTestId('difference');
  await expect(diff).toContainText('against pg');
  await expect(diff.getByRole('columnheader')).toHaveText(['counter', 'pg (baseline)', 'pg, tiny cache', 'yb']);
  // The tiny cache had to read: its shared_read is the largest, marked in words.
  const reads = diff.locator('tr[data-counter="shared_read"] td').nth(1);
  await expect(reads).toContainText('▲ largest');
  const axe = await new AxeBuilder({ page }).include('[data-testid="difference"]').analyze();
  expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  // A counter explains itself on focus, and the tip goes with the focus.
  const term = diff.locator('tr[data-counter="shared_read"] .term');
  await term.focus();
  await expect(page.getByRole('tooltip', { name: /had to read from storage/ })).toBeVisible();
  await term.blur();
  await expect(page.getByRole('tooltip', { name: /had to read from storage/ })).toBeHidden();

  // The run's charts follow the player, and a click moves it.
  const pg = page.getByTestId('results-pg');
  await pg.getByText('Charts of this run').click();
  const buffers = pg.getByRole('figure', { name: 'Chart: Buffer hits and reads per statement (pg)' });
  await expect(buffers.getByRole('list', { name: /^Legend/ })).toHaveText(/shared_hit.*shared_read/);
  await expect(buffers.locator('.chart-cursor')).toHaveCount(1);
  await buffers.getByRole('button', { name: /^shared_hit, 2: / }).click();
  await expect(page.getByTestId('compare')).toContainText('Statement 2 (line 2)');
  const x2 = await buffers.locator('.chart-cursor').getAttribute('x1');
  expect(Number(x2)).toBeCloseTo(Number(await buffers.locator('circle[data-x="2"]').first().getAttribute('cx')), 3);

  // A sweep with nothing to sweep, or of a setting yb does not have, never runs.
  const sweep = page.getByTestId('sweep');
  await sweep.getByLabel('Setting', { exact: true }).fill('shared_buffers');
  await sweep.getByLabel('Values', { exact: true }).fill('');
  await sweep.getByRole('button', { name: 'Sweep' }).click();
  await expect(sweep.getByTestId('sweep-problems')).toContainText('give at least one value');
  await expect(sweep.getByTestId('sweep-problems')).toContainText('variant pg, tiny cache sets shared_buffers itself');
  await expect(sweep.getByTestId('sweep-problems')).toContainText('none of shared_buffers is a yb setting');
  await sweep.getByLabel('Setting', { exact: true }).fill('leaf_fillfactor');
  await sweep.getByLabel('Values', { exact: true }).fill('5, 90');
  await page.getByRole('button', { name: 'Remove yb' }).click();
  await sweep.getByRole('button', { name: 'Sweep' }).click();
  await expect(sweep.getByTestId('sweep-problems')).toContainText('leaf_fillfactor=5: 5 is outside the valid range');
  await expect(sweep.getByTestId('sweep-chart')).toHaveCount(0);
  // The page stays usable: a good sweep then runs.
  await sweep.getByLabel('Values', { exact: true }).fill('50, 90, 100');
  await sweep.getByRole('button', { name: 'Sweep' }).click();
  await expect(sweep.getByTestId('sweep-chart')).toBeVisible({ timeout: 60_000 });
  await expect(sweep.getByRole('list', { name: /^Legend/ })).toHaveText(/pg.*pg, tiny cache/);
});
