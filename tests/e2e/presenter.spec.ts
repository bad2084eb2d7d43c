import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { typeScript } from './helpers';

// The classroom: presenter mode on a 1280×720 projector (every label at least
// 18 px, the views scaled to the screen, lecture pace pausing with a caption),
// a run driven by the keyboard alone, each view reachable, described and
// exported, and axe on the whole page.

const SCRIPT = `create table t (id int primary key, v int);
insert into t select generate_series(1,3000), 0;
explain (analyze, buffers, dist, costs off) select * from t where id < 500 order by id desc;
`;

/** Visible text in the results drawn under 18 px (font size × the CSS zoom it is under). */
function smallText(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    for (const el of document.querySelectorAll('.results *')) {
      const own = [...el.childNodes].some((n) => n.nodeType === 3 && (n.textContent ?? '').trim() !== '');
      const r = el.getBoundingClientRect();
      if (!own || r.width === 0 || r.height === 0 || el.closest('.sr-only')) continue;
      const px = parseFloat(getComputedStyle(el).fontSize) * ((el as HTMLElement & { currentCSSZoom?: number }).currentCSSZoom ?? 1);
      if (px < 18) out.push(`${el.tagName.toLowerCase()}.${el.getAttribute('class') ?? ''} ${px.toFixed(1)} px "${(el.textContent ?? '').slice(0, 30)}"`);
    }
    return out;
  });
}

for (const scheme of ['light', 'dark'] as const) {
  test(`presenter mode at 1280×720 (${scheme}): labels ≥ 18 px, the views fit, lecture pace pauses with a caption`, async ({ page }) => {
    test.setTimeout(120_000);
    await page.emulateMedia({ colorScheme: scheme });
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.goto('/#/workbench');
    await typeScript(page, SCRIPT);
    await page.keyboard.press('ControlOrMeta+Enter');
    await expect(page.getByTestId('running')).toHaveCount(0, { timeout: 60_000 });
    await page.locator('.tagline').click();
    await page.keyboard.press('p');
    await expect(page.locator('html')).toHaveClass(/presenter/);
    await expect(page.locator('.editor-pane')).toBeHidden();
    await expect(page.getByRole('button', { name: 'Leave presenter mode (p)' })).toBeVisible();
    // Lecture pace is on: play from the start, fast, and it stops at the first split.
    await expect(page.getByLabel(/Lecture pace/)).toBeChecked();
    await page.keyboard.press('Home');
    for (let i = 0; i < 4; i++) await page.keyboard.press('+');
    await page.keyboard.press('.');
    const caption = page.getByTestId('lecture-caption');
    await expect(caption).toContainText('page split', { timeout: 30_000 });
    // The column's caption, marked, says what happened and why.
    const why = page.getByTestId('event-pg');
    await expect(why).toHaveClass(/at-stop/);
    await expect(why).toContainText('was full and split');
    await expect(why).toContainText('sequential inserts leave full pages behind');
    await expect(page.getByTestId('player').getByTitle('Play')).toBeVisible();
    // Every label at least 18 px; nothing wider than the screen.
    expect(await smallText(page)).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1280);
    // The counters of every variant and the plans read without scrolling sideways.
    const sideways = await page.evaluate(() =>
      [...document.querySelectorAll<HTMLElement>('.difference-scroll, .explain pre')]
        .filter((el) => el.scrollWidth > el.clientWidth + 1)
        .map((el) => `${el.className || el.tagName}: ${el.scrollWidth} > ${el.clientWidth}`),
    );
    expect(sideways).toEqual([]);
    await expect(page.getByTestId('difference')).toContainText('yb');
    await expect(page.locator('.btree-view svg').first()).toBeInViewport();
    await page.screenshot({ path: `test-results/presenter-1280x720-${scheme}.png` });
    // It plays on to the next stop; p leaves.
    await page.keyboard.press('.');
    await expect(caption).toHaveCount(0);
    await page.keyboard.press('p');
    await expect(page.locator('html')).not.toHaveClass(/presenter/);
    await expect(page.locator('.editor-pane')).toBeVisible();
  });
}

test('a scenario run from the keyboard alone: focus is always visible, views are reachable, described and exported', async ({ page }) => {
  test.setTimeout(120_000);
  await page.goto('/#/workbench');
  await expect(page.locator('.cm-content')).toBeVisible();
  // Tab to the editor; every stop on the way shows a 3 px ring.
  const rings: string[] = [];
  for (let i = 0; i < 40; i++) {
    await page.keyboard.press('Tab');
    const focus = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement;
      const ringed = el.closest('.cm-editor') ?? el;
      return { editor: el.classList.contains('cm-content'), ring: getComputedStyle(ringed).outlineWidth, what: el.outerHTML.slice(0, 60) };
    });
    if (focus.ring !== '3px') rings.push(focus.what);
    if (focus.editor) break;
  }
  expect(rings).toEqual([]);
  await expect(page.locator('.cm-content')).toBeFocused();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText(SCRIPT);
  await page.keyboard.press('ControlOrMeta+Enter');
  await expect(page.getByTestId('running')).toHaveCount(0, { timeout: 60_000 });
  // Out of the editor (backwards, to the toolbar's buttons): the player's keys work.
  await page.keyboard.press('Shift+Tab');
  const range = page.getByTestId('player').getByLabel('Position in the trace');
  await page.keyboard.press('Home');
  expect(Number(await range.inputValue())).toBe(0);
  await page.keyboard.press('Shift+ArrowRight');
  await page.keyboard.press('Shift+ArrowRight');
  await page.keyboard.press('End');
  expect(Number(await range.inputValue())).toBe(Number(await range.getAttribute('max')));
  // Tab on to the pg B+tree view: a named group, described in words.
  let reached = false;
  for (let i = 0; i < 120 && !reached; i++) {
    await page.keyboard.press('Tab');
    reached = await page.evaluate(() => document.activeElement?.getAttribute('aria-label') === 'B+tree indexes (pg)');
  }
  expect(reached).toBe(true);
  const described = await page.evaluate(() => {
    const id = document.activeElement?.getAttribute('aria-describedby') ?? '';
    return document.getElementById(id)?.textContent ?? '';
  });
  expect(described).toContain('level 0');
  expect(await page.evaluate(() => getComputedStyle(document.activeElement as Element).outlineWidth)).toBe('3px');
  // Its export buttons come next: PNG and SVG files for a slide.
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: 'Download B+tree indexes (pg) as PNG' })).toBeFocused();
  const [png] = await Promise.all([page.waitForEvent('download'), page.keyboard.press('Enter')]);
  expect(png.suggestedFilename()).toMatch(/^indexlab-pg-btree-event-\d+\.png$/);
  const pngBytes = readFileSync((await png.path()) ?? '');
  expect(pngBytes.subarray(1, 4).toString()).toBe('PNG');
  await page.keyboard.press('Tab');
  const [svg] = await Promise.all([page.waitForEvent('download'), page.keyboard.press('Enter')]);
  const text = readFileSync((await svg.path()) ?? '', 'utf8');
  expect(text).toMatch(/^<svg[^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);
  expect(text).toContain('t_pkey');
  expect(text).toContain('<rect');
  // The whole page, after a run: no serious accessibility violations.
  const axe = await new AxeBuilder({ page }).analyze();
  expect(
    axe.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`),
  ).toEqual([]);
});
