import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { onlyVariant, typeScript } from './helpers';

// The network view as a student meets it: article 001's join at batch size 1
// and 1024, then the same join at another round trip.

const ARTICLE_001 = readFileSync(new URL('../fidelity/001-batched-nested-loop.sql', import.meta.url), 'utf8');

async function runJoin(page: Page, batch: number) {
  // A fresh page each time (from a scenario's own address, #/workbench is the same page, variants and all).
  await page.goto('about:blank');
  await page.goto('/#/workbench');
  await onlyVariant(page, 'yb');
  await typeScript(page, `set yb_bnl_batch_size = ${batch};\n${ARTICLE_001}`);
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page.getByTestId('running')).toHaveCount(0, { timeout: 60_000 });
  return page.getByRole('figure', { name: /^Network/ });
}

test('article 001: 2 000 loops of one key against 2 loops of 1 024, as rounds on the wire', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  const one = await runJoin(page, 1);
  const summary = page.getByTestId('summary-network-yb');
  await expect(summary).toContainText('Nested loop: 2\u202f000 of 2\u202f000 loop(s) begun, one key each');
  // The join's 2 000 lookups plus the outer scan's 10 tablets: 2 010 rounds,
  // too many to draw one by one at this width.
  await expect(one).toHaveAccessibleName(/^Network: Statement 5, 2\s010 round\(s\)/);
  await expect(one.locator('.round-tick').first()).toBeVisible();
  await one.screenshot({ path: test.info().outputPath('network-batch-1.png') });

  const batched = await runJoin(page, 1024);
  await expect(summary).toContainText('Batched Nested Loop: 2 of 2 loop(s) begun, 1\u202f024 keys in the first');
  await expect(batched).toHaveAccessibleName(/^Network: Statement 5, 12 round\(s\)/);
  // Few rounds: every message is an arrow, every loop a bracket.
  await expect(batched.locator('line.msg')).toHaveCount(42);
  await expect(batched.locator('.loop-bracket')).toHaveCount(2);
  for (const [w, h] of [
    [1440, 900],
    [1280, 720],
  ] as const) {
    await page.setViewportSize({ width: w, height: h });
    await batched.screenshot({ path: test.info().outputPath(`network-batch-1024-${w}.png`) });
  }
  expect(errors).toEqual([]);
});

test('switching the network re-runs the script and redraws the same statement', async ({ page }) => {
  const view = await runJoin(page, 1024);
  const summary = page.getByTestId('summary-network-yb');
  const local = await summary.textContent();
  await expect(summary).toContainText('Statement 5:');
  await view.getByLabel('Network round trip').selectOption('multi-region');
  await expect(page.getByTestId('running')).toHaveCount(0, { timeout: 60_000 });
  // The settings panel says what changed; the same statement, now at 90 ms.
  await expect(view.getByLabel('Network round trip')).toHaveValue('multi-region');
  await expect(summary).toContainText('Statement 5:');
  await expect(summary).not.toHaveText(local ?? '');
  const time = (await summary.textContent()) ?? '';
  const wire = Number(/Time: ([\d.]+) ms on round trips/.exec(time)?.[1]);
  // 12 rounds, each a 90 ms round trip on its slowest path.
  expect(wire).toBeGreaterThanOrEqual(12 * 90);
});

test('a round trip typed in milliseconds re-runs at that latency; nonsense is refused', async ({ page }) => {
  const view = await runJoin(page, 1024);
  const summary = page.getByTestId('summary-network-yb');
  const field = view.getByLabel('Round trip in milliseconds');
  await field.fill('fast');
  await view.getByRole('button', { name: 'Set' }).click();
  await expect(view.getByRole('alert')).toContainText('"fast" is not a round trip');
  await field.fill('20');
  await view.getByRole('button', { name: 'Set' }).click();
  await expect(page.getByTestId('running')).toHaveCount(0, { timeout: 60_000 });
  await expect(view.getByLabel('Network round trip')).toHaveValue('20');
  const time = (await summary.textContent()) ?? '';
  const wire = Number(/Time: ([\d.]+) ms on round trips/.exec(time)?.[1]);
  expect(wire).toBeGreaterThanOrEqual(12 * 20);
  expect(wire).toBeLessThan(12 * 90);
});
