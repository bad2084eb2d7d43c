import { test, expect, type Page } from '@playwright/test';

async function run(page: Page, src = '.*') {
  await page.getByRole('button', { name: new RegExp(`^Run ${src}\\.sql on `) }).first().click();
  await expect(page.getByTestId('fingerprint').first()).toBeVisible({ timeout: 60_000 });
}
async function toStop(page: Page, n: number) {
  for (let i = 0; i < n; i++) {
    await page.getByRole('button', { name: 'Skip to the next moment worth a look' }).first().click();
  }
}
const cases: [string, number, string, string?][] = [
  ['/#/lesson/01-range-scans/4', 2, 'l1-4'],
  ['/#/lesson/02-batched-nested-loop/2', 2, 'l2-2', 'batched'],
  ['/#/lesson/02-batched-nested-loop/4', 2, 'l2-4'],
  ['/#/lesson/03-write-heavy/2', 1, 'l3-2'],
];
for (const [theme, w, h] of [['light', 1440, 900], ['dark', 1440, 900], ['light', 380, 800]] as const) {
  for (const [url, stops, name, src] of cases) {
    test(`${name} ${theme} ${w}`, async ({ page }) => {
      test.setTimeout(120_000);
      await page.setViewportSize({ width: w, height: h });
      await page.addInitScript((t) => localStorage.setItem('indexlab-theme', t), theme);
      await page.goto(url);
      await run(page, src);
      await toStop(page, stops);
      await page.waitForTimeout(400);
      const player = page.locator('.compact-replay').first();
      await player.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `/tmp/shot-${name}-${theme}-${w}.png`, fullPage: false });
      await player.screenshot({ path: `/tmp/shot-${name}-${theme}-${w}-player.png` });
    });
  }
}
