import { expect, test } from '@playwright/test';
import { onlyVariant, typeScript } from './helpers';

const SCRIPT = `create table demo (a int, b int, v text, primary key (a asc, b asc));
insert into demo select a, b, 'x' from generate_series(1, 20) a, generate_series(1, 1000) b;
explain (analyze, dist, debug) select * from demo where b = 500;
`;

for (const [w, h] of [
  [1440, 900],
  [380, 800],
] as const) {
  for (const scheme of ['light', 'dark'] as const) {
    test(`yb skip ${w} ${scheme}`, async ({ page }) => {
      await page.setViewportSize({ width: w, height: h });
      await page.emulateMedia({ colorScheme: scheme });
      await page.goto('/#/workbench');
      await onlyVariant(page, 'yb');
      await typeScript(page, SCRIPT);
      await page.getByRole('button', { name: 'Run', exact: true }).click();
      await expect(page.getByTestId('running')).toHaveCount(0, { timeout: 60_000 });
      await page.waitForTimeout(500);
      await page.screenshot({ path: `/tmp/shots/yb-skip-${w}-${scheme}.png`, fullPage: true });
    });
  }
}
