import { expect, test } from '@playwright/test';
import { lookupScript, typeScript } from './helpers';

// A class driven from the keyboard (or a presenter remote): the player's keys
// work wherever the focus is, except while typing in the editor.

test('the player from the keyboard; the keys listed in a dialog; typing in the editor is left alone', async ({ page }) => {
  await page.goto('/#/workbench');
  await typeScript(page, lookupScript(2000, 500));
  await page.keyboard.press('ControlOrMeta+Enter');
  await expect(page.getByTestId('running')).toHaveCount(0, { timeout: 60_000 });
  const player = page.getByTestId('player');
  const range = player.getByLabel('Position in the trace');
  const at = async () => Number(await range.inputValue());
  const end = Number(await range.getAttribute('max'));
  // Focus away from the editor, as a teacher clicking the page would.
  await page.locator('.tagline').click();
  await page.keyboard.press('Home');
  expect(await at()).toBe(0);
  await page.keyboard.press('ArrowRight');
  expect(await at()).toBe(1);
  await page.keyboard.press('Shift+ArrowRight');
  await expect(page.getByTestId('compare')).toContainText('Statement 1');
  const afterFirst = await at();
  expect(afterFirst).toBeGreaterThan(1);
  await page.keyboard.press('Shift+ArrowRight');
  expect(await at()).toBeGreaterThan(afterFirst);
  await page.keyboard.press('Shift+ArrowLeft');
  expect(await at()).toBe(afterFirst);
  await page.keyboard.press('End');
  expect(await at()).toBe(end);
  // "." (a presenter remote's button) plays from the start, and pauses.
  await page.keyboard.press('Home');
  await page.keyboard.press('+');
  await expect(player.getByRole('combobox').first()).toHaveValue('2');
  await page.keyboard.press('.');
  await expect(player.getByTitle('Pause')).toBeVisible();
  await page.keyboard.press('.');
  await expect(player.getByTitle('Play')).toBeVisible();
  expect(await at()).toBeGreaterThan(0);
  // "?" lists every key.
  await page.keyboard.press('?');
  const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(help).toBeVisible();
  await expect(help.getByRole('row')).toHaveCount(13);
  await expect(help).toContainText('Play or pause');
  await page.keyboard.press('Escape');
  await expect(help).toHaveCount(0);
  // In the editor, keys type: no step, no play.
  const before = await at();
  await page.locator('.cm-content').click();
  await page.keyboard.press('End');
  await page.keyboard.type(' . ');
  await page.keyboard.press('ArrowLeft');
  expect(await at()).toBe(before);
  await expect(player.getByTitle('Play')).toBeVisible();
  await expect(page.locator('.cm-content')).toContainText(' . ');
});

test('p, f and ? work before anything has run; f leaves presenter mode on; a lesson offers lecture pace on l', async ({ page }) => {
  test.setTimeout(90_000);
  await page.goto('/');
  await page.locator('.tagline').click();
  // The list of keys, with no player on the page.
  await page.keyboard.press('?');
  await expect(page.getByRole('dialog', { name: 'Keyboard shortcuts' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog', { name: 'Keyboard shortcuts' })).toHaveCount(0);
  // Presenter mode on, full screen toggled, still presenting; p again leaves it.
  const presenting = () => page.evaluate(() => document.documentElement.classList.contains('presenter'));
  await page.keyboard.press('p');
  await expect.poll(presenting).toBe(true);
  await page.keyboard.press('f');
  await page.keyboard.press('f');
  await page.waitForTimeout(200);
  expect(await presenting()).toBe(true);
  await page.keyboard.press('p');
  await expect.poll(presenting).toBe(false);
  // In a lesson, after Run: a lecture pace switch, which l turns on and off.
  await page.goto('/#/lesson/01-range-scans/1');
  await page.getByRole('button', { name: /^Run .*\.sql on / }).first().click();
  await expect(page.getByTestId('fingerprint').first()).toBeVisible({ timeout: 60_000 });
  const lecture = page.getByRole('checkbox', { name: /Lecture pace/ }).first();
  await expect(lecture).not.toBeChecked();
  await page.locator('.tagline').click();
  await page.getByTestId('player').first().scrollIntoViewIfNeeded();
  await page.keyboard.press('l');
  await expect(lecture).toBeChecked();
  await page.keyboard.press('l');
  await expect(lecture).not.toBeChecked();
});
