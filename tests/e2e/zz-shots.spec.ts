import { expect, test } from '@playwright/test';
import { onlyVariant, typeScript } from './helpers';

const SCRIPT = `create table orders (id int primary key, customer int, total int);
create table customers (id int primary key, name text);
insert into customers select g, 'c' || g from generate_series(1, 500) g;
insert into orders select g, g % 500 + 1, g % 97 from generate_series(1, 3000) g;
create index orders_customer on orders (customer);
explain (analyze, dist) select count(*) from orders join customers on customers.name = 'c' || orders.customer;
explain (analyze, dist) select name, total from orders join customers on customers.id = orders.customer where orders.id < 20;
`;

for (const [w, h] of [
  [1440, 900],
  [1280, 720],
  [380, 800],
] as const) {
  for (const scheme of ['light', 'dark'] as const) {
    test(`yb join ${w} ${scheme}`, async ({ page }) => {
      await page.setViewportSize({ width: w, height: h });
      await page.emulateMedia({ colorScheme: scheme });
      await page.goto('/#/workbench');
      await onlyVariant(page, 'yb');
      await typeScript(page, SCRIPT);
      await page.getByRole('button', { name: 'Run', exact: true }).click();
      await expect(page.getByTestId('running')).toHaveCount(0, { timeout: 60_000 });
      await page.waitForTimeout(500);
      await page.screenshot({ path: `/tmp/shots/yb-join-${w}-${scheme}.png`, fullPage: true });
    });
  }
}
