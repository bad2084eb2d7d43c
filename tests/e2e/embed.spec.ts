import { readFileSync } from 'node:fs';
import { expect, test, type Frame, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { encodeEmbed } from '../../web/src/embed/options';
import { iframeSnippet, resizeSnippet } from '../../web/src/embed/snippets';
import { DEFAULT_VARIANTS } from '../../web/src/variants/variant';
import { lookupScript } from './helpers';

// Embeds: a blog post with two widgets in a 680 px column. Each widget stays
// asleep (no engine) until it is scrolled into view, then runs, tells the
// post its height, and the post resizes its iframe; the two stay apart.

const ORIGIN = 'http://127.0.0.1:4173';
const scenario = { script: lookupScript(1000, 300), variants: DEFAULT_VARIANTS.map((v) => ({ ...v })), settings: {} };

function blog(): string {
  const widget = (theme: 'light' | 'dark', title: string) =>
    iframeSnippet(`${ORIGIN}/embed.html${encodeEmbed(scenario, { theme, title })}`, title).replace('<iframe ', `<iframe id="${theme}" `);
  return readFileSync(new URL('./fixtures/blog.html', import.meta.url), 'utf8')
    .replace('%WIDGET_A%', widget('light', 'A range lookup, light'))
    .replace('%WIDGET_B%', widget('dark', 'A range lookup, dark'))
    .replace('%RESIZE%', resizeSnippet(ORIGIN));
}

async function openBlog(page: Page) {
  await page.route('**/blog-fixture.html', (route) => route.fulfill({ contentType: 'text/html', body: blog() }));
  // Every height each widget tells the post, in order, by the widget's theme.
  await page.addInitScript(() => {
    const heights: Record<string, number[]> = {};
    (window as unknown as { heights: typeof heights }).heights = heights;
    addEventListener('message', (e: MessageEvent<{ type?: string; height?: number }>) => {
      const frame = [...document.querySelectorAll('iframe')].find((f) => f.contentWindow === e.source);
      if (!frame || e.data?.type !== 'indexlab:height' || typeof e.data.height !== 'number') return;
      (heights[frame.id] ??= []).push(e.data.height);
    });
  });
  await page.setViewportSize({ width: 900, height: 800 });
  await page.goto('/blog-fixture.html');
}

const frameOf = (page: Page, theme: string): Frame | undefined => page.frames().find((f) => f.url().includes(`theme=${theme}`));

/** What a widget's frame shows now, without waiting for it: not loaded, its poster, or its run. */
async function stateOf(page: Page, theme: string): Promise<'absent' | 'poster' | 'running' | 'ran'> {
  const frame = frameOf(page, theme);
  if (!frame) return 'absent';
  return frame.evaluate(() =>
    document.querySelector('[data-testid=fingerprint]')
      ? 'ran'
      : document.querySelector('[data-testid=embed-poster]')
        ? 'poster'
        : document.querySelector('.embed')
          ? 'running'
          : 'absent',
  );
}

test('two widgets in a blog column load on scroll, fit their content and stay apart', async ({ page }) => {
  test.setTimeout(120_000);
  await openBlog(page);
  // The first widget is on screen: it loads its engine and runs.
  await expect.poll(() => stateOf(page, 'light'), { timeout: 60_000 }).toBe('ran');
  // The second is far below: its engine has not loaded (the frame may not even have).
  expect(['absent', 'poster']).toContain(await stateOf(page, 'dark'));

  await page.locator('#dark').scrollIntoViewIfNeeded();
  await expect.poll(() => stateOf(page, 'dark'), { timeout: 60_000 }).toBe('ran');

  // Each iframe took its widget's height (the resize script heard it).
  for (const theme of ['light', 'dark']) {
    const frame = frameOf(page, theme);
    if (!frame) throw new Error(`no ${theme} frame`);
    const inner = await frame.evaluate(() => Math.ceil(document.documentElement.getBoundingClientRect().height));
    expect(inner).toBeGreaterThan(400);
    await expect
      .poll(async () => page.locator(`#${theme}`).evaluate((f) => Math.round(f.getBoundingClientRect().height)))
      .toBeGreaterThanOrEqual(inner - 2);
    const box = await page.locator(`#${theme}`).boundingBox();
    expect(box?.width).toBeLessThanOrEqual(680);
  }
  // The widget kept its height from its poster to its player: the post grew
  // at most once (a scenario larger than the reserve), and never shrank.
  const told = await page.evaluate(() => (window as unknown as { heights: Record<string, number[]> }).heights);
  for (const theme of ['light', 'dark']) {
    const seq = told[theme] ?? [];
    expect(seq.length).toBeGreaterThan(0);
    for (let i = 1; i < seq.length; i++) expect(seq[i] ?? 0).toBeGreaterThanOrEqual((seq[i - 1] ?? 0) - 1);
    expect(new Set(seq).size).toBeLessThanOrEqual(2);
  }
  // In the column, in order, apart: the prose between them is not covered.
  const top = async (sel: string) => (await page.locator(sel).boundingBox())?.y ?? NaN;
  const bottom = async (sel: string) => {
    const b = await page.locator(sel).boundingBox();
    return b ? b.y + b.height : NaN;
  };
  expect(await bottom('#light')).toBeLessThanOrEqual(await top('#between'));
  expect(await bottom('#before-b')).toBeLessThanOrEqual(await top('#dark'));
  expect(await bottom('#dark')).toBeLessThanOrEqual(await top('#after-b'));
  await page.locator('#light').scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'test-results/blog-embeds.png', fullPage: true });
});

test('a widget: its player, captions and Open in IndexLab carry the run; it is usable at 360 px', async ({ page, context }) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 360, height: 800 });
  await page.goto(`/embed.html${encodeEmbed(scenario, { views: ['btree', 'lsm'], title: 'Lookup' })}`);
  await expect(page.getByTestId('fingerprint')).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId('engine-switch')).toBeVisible();
  // Only the chosen views.
  await expect(page.locator('.btree-view')).toHaveCount(1);
  await expect(page.locator('.pool-view, .scan-view')).toHaveCount(0);
  // The keyboard drives it; the caption says what the step did.
  await page.keyboard.press('Home');
  await page.keyboard.press('ArrowRight');
  await expect(page.getByTestId('event-pg')).toContainText('Statement 1 starts');
  // Nothing overflows the phone's width.
  const wide = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(wide).toBeLessThanOrEqual(360);
  const axe = await new AxeBuilder({ page }).analyze();
  expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);
  // Open in IndexLab: the full app, on the same run, at the same step.
  const print = await page.getByTestId('fingerprint').textContent();
  const [app] = await Promise.all([context.waitForEvent('page'), page.getByRole('link', { name: /Open in IndexLab/ }).click()]);
  await expect(app.getByTestId('fingerprint')).toHaveText(print ?? '', { timeout: 60_000 });
  await expect(app.getByTestId('event-pg')).toContainText('Statement 1 starts');
});

test('a forged widget address says what is wrong', async ({ page }) => {
  await page.goto('/embed.html#/embed?v=1&s=abc');
  await expect(page.getByTestId('embed-error')).toContainText('damaged');
  await page.goto(`/embed.html${encodeEmbed(scenario)}&views=btree,nope`);
  await page.reload();
  await expect(page.getByTestId('embed-error')).toContainText('there is no view "nope"');
  // An option the widget does not have is named, not ignored.
  await page.goto(`/embed.html${encodeEmbed(scenario)}&foo=bar`);
  await page.reload();
  await expect(page.getByTestId('embed-error')).toContainText('there is no option "foo"');
});

test('a widget shows its script, names a position past its end, and wraps a long title', async ({ page }) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 380, height: 800 });
  const title = `${'A very long title without spaces '.repeat(2)}${'x'.repeat(200)}`;
  await page.goto(`/embed.html${encodeEmbed(scenario, { at: 99_999_999, title, views: ['btree'] })}`);
  await expect(page.getByTestId('fingerprint')).toBeVisible({ timeout: 60_000 });
  // The position asked for is past the run's end: said, and the player opens at the end.
  await expect(page.getByTestId('at-out-of-range')).toContainText('start at position 99\u202f999\u202f999 (at=…), past the end of this run');
  // The script is there, folded: one click reads it.
  const script = page.getByTestId('embed-script');
  await expect(script.locator('pre')).toBeHidden();
  await script.locator('summary').click();
  await expect(script.locator('pre')).toContainText('create table');
  // Too narrow for two columns: the engines take turns behind a switch.
  const engines = page.getByTestId('engine-switch');
  await expect(engines.getByRole('button', { name: 'pg' })).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByTestId('event-pg')).toBeVisible();
  await expect(page.getByTestId('event-yb')).toHaveCount(0);
  await engines.getByRole('button', { name: 'yb' }).click();
  await expect(page.getByTestId('event-yb')).toBeVisible();
  await expect(page.getByTestId('event-pg')).toHaveCount(0);
  // The title is cut (with an ellipsis) and wraps inside the widget.
  const heading = page.getByRole('heading', { level: 1 });
  await expect(heading).toContainText('…');
  const box = await heading.boundingBox();
  expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(380);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(380);
});
