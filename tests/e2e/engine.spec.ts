import { expect, test } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

// What the native CLI prints for the same computation: the page must agree.
function cliSelftest(): string {
  return execFileSync(
    'cargo',
    ['run', '-q', '--manifest-path', 'engine-wasm/Cargo.toml', '-p', 'indexlab-cli', '--', '--selftest'],
    { cwd: root, encoding: 'utf8' },
  ).trim();
}

test('the wasm engine answers from its worker, as the CLI does', async ({ page }) => {
  // The first call may compile the CLI: allow for it.
  test.setTimeout(600_000);
  const expected = cliSelftest();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto('/#/workbench');
  await expect(page.getByRole('heading', { name: 'IndexLab' })).toBeVisible();
  await page.getByText('About the engine').click();
  await expect(page.getByTestId('engine-version')).toHaveText(/^indexlab-engine \d+\.\d+\.\d+$/);
  const selftest = page.getByTestId('engine-selftest');
  await expect(selftest).toHaveText(/^keys=1000 distinct=\d+ fnv1a=[0-9a-f]{16}$/);
  expect(await selftest.textContent()).toBe(expected);
  expect(errors).toEqual([]);
});

test('the app has no panic button; on the diagnostics page a panic shows a readable error and the page keeps working', async ({ page }) => {
  await page.goto('/#/workbench');
  await page.getByText('About the engine').click();
  await expect(page.getByTestId('engine-selftest')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Make the engine panic (test)' })).toHaveCount(0);
  await page.goto('/diagnostics.html');
  await expect(page.getByTestId('engine-selftest')).toBeVisible();
  await page.getByRole('button', { name: 'Make the engine panic (test)' }).click();
  await expect(page.getByTestId('engine-error')).toHaveText(
    /The engine crashed: panicked at .*deliberate test panic: requested from the page/s,
  );
  // The worker was replaced: the engine still computes.
  await page.getByRole('button', { name: 'Run the self-test again' }).click();
  await expect(page.getByTestId('engine-selftest')).toHaveText(/^keys=1000 distinct=\d+ fnv1a=/);
  await expect(page.getByTestId('engine-error')).toHaveCount(0);
});
