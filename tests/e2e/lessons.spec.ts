import { expect, test, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';

// Lessons, as a student takes them: the index is the landing page; a lesson's
// steps are predicted, run and watched, and a step is done once its
// predictions are answered and its scenarios run, whichever way the student
// moved; progress survives a reload; the answers come from the engine; a
// lesson reads on a projector.

/** Predicts a number, checks it, and returns the engine's answer line. */
async function predictNumber(page: Page, nth: number, guess: string) {
  const predict = page.getByTestId('predict').nth(nth);
  await predict.getByLabel('Your guess').fill(guess);
  await predict.getByRole('button', { name: 'Check' }).click();
  const answer = predict.getByTestId('predict-answer');
  await expect(answer).toContainText('The engine says', { timeout: 60_000 });
  return answer;
}

/** Runs the step's (first) scenario and waits for its player. */
async function runScenario(page: Page) {
  await page.getByRole('button', { name: /^Run .*\.sql on / }).first().click();
  await expect(page.getByTestId('fingerprint').first()).toBeVisible({ timeout: 60_000 });
}

test('a student takes lesson 1 from the index to its end; progress survives a reload', async ({ page }) => {
  test.setTimeout(180_000);
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Learn how databases store and find your rows' })).toBeVisible();
  const card = page.getByTestId('lesson-01-range-scans');
  await expect(card).toContainText('Not started');
  await card.getByRole('link', { name: 'Range scans: a B+tree and an LSM' }).click();
  await expect(page).toHaveURL(/#\/lesson\/01-range-scans\/1$/);

  // Step 1: predict the heap fetches; the why stays hidden until the engine has answered.
  await expect(page.getByRole('heading', { name: 'The walk along the leaves' })).toBeVisible();
  const why = page.getByText('All of them: with no page marked all-visible');
  await expect(why).toHaveCount(0);
  const answer = await predictNumber(page, 0, '10');
  await expect(answer).toContainText('heap_fetches');
  await expect(answer).toContainText('you said 10');
  await expect(why).toBeVisible();
  // Run it, and jump to the narrated moments: the player pauses where the lesson speaks.
  await runScenario(page);
  await page.getByRole('button', { name: 'Skip to the next moment worth a look' }).click();
  await expect(page.getByTestId('narration')).toContainText('The first heap fetch');
  await expect(page.getByTestId('event-pg')).toContainText('Heap fetch');
  await page.getByRole('link', { name: /^Next: Heap fetches and VACUUM/ }).click();

  // Step 2: the visibility map after VACUUM.
  await expect(page).toHaveURL(/\/2$/);
  const after = await predictNumber(page, 0, '0');
  await expect(after).toContainText('Exactly right');
  await runScenario(page);
  // Not done yet: its second prediction is unanswered.
  const steps = page.getByRole('navigation', { name: 'Lesson' });
  await expect(steps.getByText('✓')).toHaveCount(1);
  await predictNumber(page, 1, '5');
  await expect(steps.getByText('✓')).toHaveCount(2);
  await page.getByRole('link', { name: /^Next: The same scan on an LSM/ }).click();

  // Step 3: read requests, played to the first narration.
  await predictNumber(page, 0, '1');
  await runScenario(page);
  await page.getByTestId('player').first().getByRole('combobox').first().selectOption('16');
  await page.getByTestId('player').first().getByTitle('Play').click();
  await expect(page.getByTestId('narration')).toContainText('The first read request', { timeout: 60_000 });
  await expect(page.getByTestId('player').first().getByTitle('Play')).toBeVisible();
  await page.getByRole('link', { name: /^Next: Read requests and yb_fetch_row_limit/ }).click();

  // Step 4: a choice among variants, answered by the engine.
  const choice = page.getByTestId('predict');
  await choice.getByRole('radio', { name: '100 rows a request' }).check();
  await choice.getByRole('button', { name: 'Check' }).click();
  await expect(choice.getByTestId('predict-answer')).toContainText('The engine says 2 500 rows a request', { timeout: 60_000 });
  await expect(choice.getByTestId('predict-answer')).toContainText('you said 100 rows a request');
  // Done by doing: the scenario runs too, then the step is done, whatever link follows.
  await runScenario(page);
  await expect(steps.getByText('✓')).toHaveCount(4);
  await page.getByRole('link', { name: 'Back to the lessons' }).click();

  // Back on the index: done, and still done after a reload.
  await expect(page).toHaveURL(/#\/$/);
  await expect(card).toContainText('Done');
  await page.reload();
  await expect(page.getByTestId('lesson-01-range-scans')).toContainText('Done');
  await page.goto('/#/lesson/01-range-scans/1');
  await expect(page.getByRole('navigation', { name: 'Lesson' }).getByText('✓')).toHaveCount(4);
  // The guess was kept too.
  await expect(page.getByTestId('predict').getByLabel('Your guess')).toHaveValue('10');
  await page.screenshot({ path: 'test-results/lesson-01-step-1.png', fullPage: true });
  // Reset forgets it.
  await page.getByRole('button', { name: 'Reset this lesson' }).click();
  await expect(page.getByRole('navigation', { name: 'Lesson' }).getByText('✓')).toHaveCount(0);
});

test('the landing page shows both engines taking the same keys, looping; reduced motion opens still, on the finished picture', async ({ page }) => {
  await page.goto('/');
  const miniature = page.getByTestId('miniature');
  const pg = miniature.getByTestId('miniature-tally-pg');
  const yb = miniature.getByTestId('miniature-tally-yb');
  await expect(pg).toBeVisible({ timeout: 30_000 });
  // It is above the lessons, and moving: the keys written grow.
  const keys = async (l: typeof pg) => Number(((await l.textContent()) ?? '').match(/^([\d\u202f]+) of/)?.[1]?.replace(/\u202f/g, ''));
  const first = await keys(pg);
  await expect.poll(() => keys(pg), { timeout: 10_000 }).toBeGreaterThan(first);
  await expect(miniature.locator('.btree-view')).toBeVisible();
  await expect(miniature.locator('.lsm-view').first()).toBeVisible();
  const box = await miniature.boundingBox();
  const lessons = await page.locator('.lesson-list').boundingBox();
  expect((box?.y ?? 0) + (box?.height ?? 0)).toBeLessThanOrEqual(lessons?.y ?? 0);
  // Paused, it stays where it is: both engines at the same key.
  await miniature.getByRole('button', { name: 'Pause' }).click();
  const held = await pg.textContent();
  await page.waitForTimeout(500);
  await expect(pg).toHaveText(held ?? '');
  expect(Math.abs((await keys(pg)) - (await keys(yb)))).toBeLessThanOrEqual(1);
  const axe = await new AxeBuilder({ page }).include('[data-testid=miniature]').analyze();
  expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);

  // Reduced motion: the finished picture, still, and a Play button to set it going.
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.reload();
  await expect(pg).toContainText('400 of 400 keys', { timeout: 30_000 });
  await expect(yb).toContainText(/400 of 400 keys · \d+ flushes · [1-9]\d* compaction/);
  await expect(miniature.locator('.miniature-caption').first()).toContainText('was full and split');
  await page.waitForTimeout(500);
  await expect(pg).toContainText('400 of 400 keys');
  await miniature.getByRole('button', { name: 'Play' }).click();
  await expect(pg).not.toContainText('400 of 400 keys', { timeout: 10_000 });
});

test('back and forward move between the index and the steps; a wrong address says so', async ({ page }) => {
  await page.goto('/');
  await page.getByTestId('lesson-00-two-engines').getByRole('link', { name: /five minutes/ }).click();
  await expect(page.getByRole('heading', { name: 'Two ways to keep keys in order' })).toBeVisible();
  await page.getByRole('link', { name: /^Next: Finding one key again/ }).click();
  await expect(page.getByRole('heading', { name: 'Finding one key again' })).toBeVisible();
  await page.goBack();
  await expect(page.getByRole('heading', { name: 'Two ways to keep keys in order' })).toBeVisible();
  await page.goBack();
  await expect(page.getByRole('heading', { name: 'Learn how databases store and find your rows' })).toBeVisible();
  await page.goForward();
  await expect(page.getByRole('heading', { name: 'Two ways to keep keys in order' })).toBeVisible();
  // The workbench is one click away, and back.
  await page.getByRole('navigation', { name: 'IndexLab' }).getByRole('link', { name: 'Workbench' }).click();
  await expect(page.locator('.cm-content')).toBeVisible();
  await page.goBack();
  await expect(page.getByRole('heading', { name: 'Two ways to keep keys in order' })).toBeVisible();
  for (const [hash, says] of [
    ['#/lesson/nope/1', 'There is no lesson "nope"'],
    ['#/lesson/00-two-engines/9', 'has 2 steps, not 9'],
  ] as const) {
    await page.goto(`/${hash}`);
    await expect(page.getByTestId('route-error')).toContainText(says);
  }
  const axe = await new AxeBuilder({ page }).analyze();
  expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);
});

test('a lesson on a projector: presenter mode at 1280×720, every label at least 18 px', async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto('/#/lesson/00-two-engines/1');
  await runScenario(page);
  await page.getByRole('button', { name: 'Presenter mode (p)' }).click();
  await expect(page.locator('html')).toHaveClass(/presenter/);
  await page.getByRole('button', { name: 'Skip to the next moment worth a look' }).click();
  await expect(page.getByTestId('narration')).toContainText('The first leaf page is full');
  await page.getByTestId('narration').scrollIntoViewIfNeeded();
  const small = await page.evaluate(() => {
    const out: string[] = [];
    for (const el of document.querySelectorAll('.lesson-step *')) {
      const own = [...el.childNodes].some((n) => n.nodeType === 3 && (n.textContent ?? '').trim() !== '');
      const r = el.getBoundingClientRect();
      if (!own || r.width === 0 || r.height === 0 || el.closest('.sr-only, .term-tip')) continue;
      const px = parseFloat(getComputedStyle(el).fontSize) * ((el as HTMLElement & { currentCSSZoom?: number }).currentCSSZoom ?? 1);
      if (px < 18) out.push(`${el.tagName.toLowerCase()}.${el.getAttribute('class') ?? ''} ${px.toFixed(1)}`);
    }
    return out;
  });
  expect(small).toEqual([]);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1280);
  await page.screenshot({ path: 'test-results/lesson-presenter-1280x720.png' });
});

test("a lesson's article-scale run opens at its last query, drawn in full beside the plans the article's figures come from", async ({ page }) => {
  test.setTimeout(180_000);
  await page.goto('/#/lesson/01-range-scans/1');
  // A long run shows how far it is, and can be cancelled: the step is as it was.
  await page.getByRole('button', { name: "Run at the article's scale" }).click();
  await expect(page.getByTestId('running')).toContainText('statements done');
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByTestId('running')).toHaveCount(0);
  await expect(page.getByText('Press Run: the script runs in your browser')).toBeVisible();
  await page.getByRole('button', { name: "Run at the article's scale" }).click();
  const plans = page.getByTestId('full-scale-plans');
  await expect(plans).toBeVisible({ timeout: 120_000 });
  // Both of the script's EXPLAINs (before and after VACUUM), with their buffers.
  await expect(plans.getByTestId('explain-full-pg')).toHaveCount(2);
  await expect(plans.getByTestId('explain-full-pg').first()).toContainText('Buffers: shared hit=');
  // The player stands at the end, where the views show the whole million rows
  // (no statement's detail missing from the picture).
  const position = await page.locator('.compact-replay').innerText();
  const [, at, of] = position.match(/pg event ([\d\u202f]+) of ([\d\u202f]+)/) ?? [];
  expect(at).toBeDefined();
  expect(at).toBe(of);
  await expect(page.getByTestId('summarized-pg')).toHaveCount(0);
  // The million-row load spent the run's detail budget, but the query is
  // recorded whole: the scan view draws the Index Only Scan after VACUUM,
  // its hundreds of leaves walked, not an empty lane.
  const scan = page.getByTestId('scan-view').first();
  await expect(scan).not.toHaveAttribute('aria-label', /no scan step yet/);
  const label = (await scan.getAttribute('aria-label')) ?? '';
  expect(Number(label.match(/(\d+) leaf page\(s\) walked/)?.[1])).toBeGreaterThan(300);
});

test('after Run in a lesson, the arrow keys step its player, which is brought on screen', async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('/#/lesson/00-two-engines/2');
  await runScenario(page);
  const player = page.locator('.compact-replay').first();
  await expect(player).toBeInViewport();
  const position = async () => (await player.innerText()).match(/(?:pg|yb) event ([\d\u202f]+) of/)?.[1];
  const before = await position();
  expect(before).toBeDefined();
  // The focus is still on the Run button the student pressed.
  await page.keyboard.press('ArrowRight');
  await expect.poll(position).not.toBe(before);
});

test('a step counts as done when its prediction is answered and its scenario run, reached from the step list', async ({ page }) => {
  test.setTimeout(120_000);
  await page.goto('/#/lesson/01-range-scans/1');
  // Straight to step 3 from the list of steps, not by Next.
  const steps = page.getByRole('navigation', { name: 'Lesson' });
  await steps.getByRole('link', { name: /one seek, then next/ }).click();
  await expect(page).toHaveURL(/\/3$/);
  await runScenario(page);
  // Run but not predicted: not done.
  await expect(steps.getByText('✓')).toHaveCount(0);
  await predictNumber(page, 0, '3');
  await expect(steps.getByText('✓')).toHaveCount(1);
  await page.goto('/#/');
  await expect(page.getByTestId('lesson-01-range-scans')).toContainText('1 of 4 steps done');
});

test("a step's players keep their words readable in light and dark: axe's colour contrast at a narrated moment and on a hit", async ({ page }) => {
  await page.goto('/#/lesson/03-write-heavy/2');
  await page.getByRole('button', { name: /^Run .*\.sql on / }).first().click();
  await expect(page.getByTestId('fingerprint').first()).toBeVisible({ timeout: 60_000 });
  const contrast = async (scheme: string) =>
    (await new AxeBuilder({ page }).include('.lesson-scenario').withRules(['color-contrast']).analyze()).violations.flatMap((v) =>
      v.nodes.map((n) => `${scheme}: ${n.target.join(' ')}`),
    );
  // An eviction's words (the first narrated moment), then a buffer hit's, in the pool; each in both schemes.
  await page.getByRole('button', { name: 'Skip to the next moment worth a look' }).first().click();
  await expect(page.getByTestId('narration').first()).toBeVisible();
  for (const at of ['moment', 'hit'] as const) {
    if (at === 'hit') {
      await page.getByTestId('player').first().getByLabel('Position in the trace').fill('40');
      await expect(page.getByTestId('pool-flash').first()).toBeVisible();
    }
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      expect(await contrast(scheme), at).toEqual([]);
    }
  }
});
