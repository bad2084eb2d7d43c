import { expect, test } from '@playwright/test';
import { lookupScript, typeScript } from './helpers';

// Scenario links: the address holds the scenario and the player's position;
// a link opened anywhere re-runs it to the same fingerprint and the same step,
// and a broken link says what is wrong while the page stays usable.

test('a shared link opens the same run at the same step, in a fresh browser', async ({ page, browser }) => {
  await page.goto('/#/workbench');
  await typeScript(page, lookupScript(2000, 500));
  await page.getByRole('button', { name: 'Add variant' }).click();
  await page.getByLabel('Settings of yb 2').fill('yb_enable_packed_row=off');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page.getByTestId('running')).toHaveCount(0, { timeout: 60_000 });
  const player = page.getByTestId('player');
  const range = player.getByLabel('Position in the trace');
  await range.fill(String(Math.floor(Number(await range.getAttribute('max')) / 3)));
  const where = await player.getByTestId('player-position').textContent();
  const print = await page.getByTestId('fingerprint').textContent();
  // The address follows the player.
  await expect.poll(() => page.evaluate(() => location.hash)).toMatch(/^#\/play\?v=1&s=/);

  await page.getByRole('button', { name: 'Share' }).click();
  const dialog = page.getByRole('dialog', { name: 'Share' });
  const link = await dialog.getByLabel('Link to this scenario').inputValue();
  expect(link).toContain('#/play?v=1&s=');
  await expect(dialog.getByTestId('long-link')).toHaveCount(0);
  // The same scenario as a widget: its iframe snippet, dark, with a caption.
  await dialog.getByLabel('Theme').selectOption('dark');
  await dialog.getByLabel('Caption').fill('Packed rows "on" & off');
  const snippet = await dialog.getByRole('textbox', { name: 'Iframe' }).inputValue();
  expect(snippet).toContain('loading="lazy"');
  expect(snippet).toContain('title="Packed rows &quot;on&quot; &amp; off"');
  const src = /src="([^"]+)"/.exec(snippet)?.[1]?.replace(/&amp;/g, '&') ?? '';
  expect(src).toMatch(/\/embed\.html#\/embed\?v=1&s=.*&theme=dark/);
  expect(await dialog.getByRole('textbox', { name: 'Resize script' }).inputValue()).toContain('indexlab:height');
  await dialog.getByRole('button', { name: 'Close' }).click();

  const fresh = await browser.newContext();
  const other = await fresh.newPage();
  await other.goto(link);
  await expect(other.getByTestId('fingerprint')).toHaveText(print ?? '', { timeout: 60_000 });
  await expect(other.getByTestId('player').getByTestId('player-position')).toHaveText(where ?? '');
  await expect(other.locator('.profile-results h2')).toHaveCount(3);
  await expect(other.getByLabel('Settings of yb 2')).toHaveValue('yb_enable_packed_row=off');
  // The widget runs the same scenario: the same fingerprint, its caption as given.
  await other.goto(src);
  await expect(other.getByRole('heading', { name: 'Packed rows "on" & off' })).toBeVisible();
  await expect(other.getByTestId('fingerprint')).toHaveText(print ?? '', { timeout: 60_000 });
  await fresh.close();
});

test('a broken link says what is wrong, and the page still runs', async ({ page }) => {
  const cases: [string, RegExp][] = [
    ['#/play?s=garbage', /no format version/],
    ['#/lesson/x', /There is no lesson "x"/],
    ['#/nowhere', /There is no page "#\/nowhere"/],
    ['#/play?v=7&s=abc', /newer IndexLab \(format 7\)/],
    ['#/play?v=1&s=N4IgziBcIMYE4FMCGAXBACFSBGAbDK6AFAJYAm6JAdoQA5wkC2ScAnugNYKsCUA3AB0q1MAjiFqKAPaZ0o', /damaged|not valid/],
    [`#/play?v=1&s=${'x'.repeat(300_000)}`, /too long/],
  ];
  for (const [hash, message] of cases) {
    await page.goto(`/${hash}`);
    await expect(page.getByRole('alert').filter({ hasText: message })).toBeVisible();
  }
  // Markup in a link's script stays text: in the editor, and in the results.
  await page.goto('/#/play?v=1&s=N4IgziBc4KYDYwMYBcAEByAPASwLYHNUwAnRAXgA9UB7AOxmOOuLIHdtaATa1gOgAdW9TmQCMAPnSoAhmFQUA3AB1aIAL5A');
  await expect(page.getByTestId('running')).toHaveCount(0, { timeout: 60_000 });
  await expect(page.locator('.cm-content')).toContainText('<img src=x onerror=window.pwned=1>');
  await expect(page.locator('img[src="x"]')).toHaveCount(0);
  expect(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned)).toBeUndefined();
  await page.goto('/#/workbench');
  // Still usable: the default script runs.
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page.getByTestId('running')).toHaveCount(0, { timeout: 60_000 });
  await expect(page.getByTestId('fingerprint')).toHaveText(/^[0-9a-f]{8}$/);
});

test('a link too long for chat apps is flagged, with what makes it long', async ({ page }) => {
  await page.goto('/#/workbench');
  // Rows typed in by hand do not compress well.
  const values = Array.from({ length: 400 }, (_, i) => `(${(i * 7919) % 100003}, ${(i * 104729) % 99991})`).join(', ');
  await typeScript(page, `create table t (a int, b int);\ninsert into t values ${values};\n`);
  await page.getByRole('button', { name: 'Share' }).click();
  const dialog = page.getByRole('dialog', { name: 'Share' });
  await expect(dialog.getByTestId('long-link')).toContainText(/chat apps .* the script makes most of it/);
});
