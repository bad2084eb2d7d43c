// Every lesson step, as a student meets it: run its scenario, go to each
// narrated moment, and check the narration and the view it names (the
// network view for a round of RPCs, …) are both on screen together, and that
// no text in a view runs out of its box. At a desktop's 1440×900 (light), a
// phone's 380×800 (dark), and a projector's 1280×720 in presenter mode (dark);
// the phone's pictures are also checked for text out of its box at the
// narrowest width, 280 px.
import { expect, test, type Page } from '@playwright/test';
import { readdirSync, readFileSync } from 'node:fs';

const root = new URL('../../lessons/', import.meta.url);
const steps = readdirSync(root, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .flatMap((d) => {
    const meta = JSON.parse(readFileSync(new URL(`${d.name}/lesson.json`, root), 'utf8')) as { steps: { file: string }[] };
    return meta.steps.map((_, i) => `${d.name}/${i + 1}`);
  });

/** Text in a view that runs out of the view's box (SVG labels, captions), by a pixel or more. */
async function overflowing(page: Page): Promise<string[]> {
  // A split glides (a CSS transition): its label is measured where it lands.
  await page.evaluate(() => Promise.all(document.getAnimations().map((a) => a.finished.catch(() => undefined))));
  return page.evaluate(() => {
    const out: string[] = [];
    for (const view of document.querySelectorAll('.lesson-scenario .view')) {
      const box = view.getBoundingClientRect();
      for (const el of view.querySelectorAll('text, figcaption, p, li')) {
        const r = el.getBoundingClientRect();
        if (r.width === 0 || el.closest('clipPath, .sr-only')) continue;
        // A label clipped by its plot's clip path is drawn only where it is inside.
        const clipped = el.closest('[clip-path]');
        if (clipped) continue;
        if (r.left < box.left - 1 || r.right > box.right + 1) {
          out.push(`${view.getAttribute('data-testid') ?? view.className}: "${(el.textContent ?? '').slice(0, 40)}" ${Math.round(r.left)}–${Math.round(r.right)} outside ${Math.round(box.left)}–${Math.round(box.right)}`);
        }
      }
    }
    return out;
  });
}

/** Text out of a view's box with the page `width` px wide (then back to `w`×`h`). */
async function overflowingAt(page: Page, width: number, w: number, h: number): Promise<string[]> {
  await page.setViewportSize({ width, height: h });
  // The views measure their column and redraw.
  await page.evaluate(() => new Promise((r) => setTimeout(r, 250)));
  const out = await overflowing(page);
  await page.setViewportSize({ width: w, height: h });
  return out.map((o) => `at ${width} px: ${o}`);
}

/**
 * Whether the narration and the view it names (or, naming none, any view of
 * its scenario) are on screen together, the view not hidden behind the
 * docked player or the narration.
 */
async function narrationBesideView(page: Page): Promise<boolean> {
  return page.evaluate(() => {
    const onScreen = (el: Element) => {
      const r = el.getBoundingClientRect();
      return r.bottom > 0 && r.top < innerHeight && r.height > 0;
    };
    const narration = document.querySelector('[data-testid=narration]');
    if (!narration || !onScreen(narration)) return false;
    const scenario = narration.closest('.lesson-scenario') ?? document;
    const named = narration.getAttribute('data-view');
    const namedFrames = named ? [...scenario.querySelectorAll(`.view-frame[data-view="${named}"]`)] : [];
    const frames = namedFrames.length > 0 ? namedFrames : [...scenario.querySelectorAll('.view-frame')];
    // A subtitle covers the bottom of the screen from its top.
    const n = (narration.closest('.watch-subtitle') ?? narration).getBoundingClientRect();
    const dock = scenario.querySelector('.player-dock')?.getBoundingClientRect();
    return frames.some((v) => {
      const r = v.getBoundingClientRect();
      // What covers the view: a dock stuck above it, a subtitle below its top.
      const top = Math.max(r.top, 0, dock && dock.top <= 1 && getComputedStyle(scenario.querySelector('.player-dock') as Element).position === 'sticky' ? dock.bottom : 0);
      const bottom = Math.min(r.bottom, innerHeight, n.top > r.top ? n.top : innerHeight);
      // Enough of the view to read: 120 px of it, or all of it.
      return bottom - top >= Math.min(120, r.height);
    });
  });
}

/** Waits until the page has stopped scrolling (a smooth scroll takes a few hundred ms), as a reader would. */
async function settled(page: Page): Promise<void> {
  let last = -1;
  await expect
    .poll(async () => {
      const y = await page.evaluate(() => new Promise<number>((r) => setTimeout(() => r(scrollY), 120)));
      const still = y === last;
      last = y;
      return still;
    })
    .toBe(true);
}

for (const [w, h, presenter, scheme] of [
  [1440, 900, false, 'light'],
  [380, 800, false, 'dark'],
  [1280, 720, true, 'dark'],
] as const) {
  for (const step of steps) {
    test(`lesson ${step} at ${w}×${h}${presenter ? ' in presenter mode' : ''} (${scheme}): narration beside its view, no text out of its box`, async ({ page }) => {
      test.setTimeout(120_000);
      await page.emulateMedia({ colorScheme: scheme });
      await page.setViewportSize({ width: w, height: h });
      await page.goto(`/#/lesson/${step}`);
      if (presenter) {
        await page.keyboard.press('p');
        await expect(page.getByRole('button', { name: 'Leave presenter mode (p)' })).toBeVisible();
      }
      const run = page.getByRole('button', { name: /^Run .*\.sql on / }).first();
      await run.click();
      await expect(page.getByTestId('fingerprint').first()).toBeVisible({ timeout: 90_000 });
      expect(await overflowing(page)).toEqual([]);
      const narrowest = w < 600 ? 280 : null;
      if (narrowest) expect(await overflowingAt(page, narrowest, w, h)).toEqual([]);
      const skip = page.getByRole('button', { name: 'Skip to the next moment worth a look' }).first();
      for (let moment = 0; moment < 6 && (await skip.isVisible()); moment++) {
        await skip.click();
        await expect(page.getByTestId('narration').first()).toBeVisible();
        // The page scrolls (smoothly) to show both.
        await settled(page);
        expect(await narrationBesideView(page), `moment ${moment + 1}`).toBe(true);
        expect(await overflowing(page), `moment ${moment + 1}`).toEqual([]);
        if (narrowest) expect(await overflowingAt(page, narrowest, w, h), `moment ${moment + 1}`).toEqual([]);
      }
    });
  }
}
