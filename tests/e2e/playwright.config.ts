import { defineConfig } from '@playwright/test';
import { fileURLToPath } from 'node:url';
import { CHROMIUM_ARGS, findChromium } from './chromium.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const executablePath = findChromium() ?? undefined;

export default defineConfig({
  testDir: '.',
  outputDir: '../../test-results',
  timeout: 60_000,
  fullyParallel: false,
  workers: 1,
  reporter: [['list']],
  use: {
    baseURL: 'http://127.0.0.1:4173',
    screenshot: 'on',
    trace: 'retain-on-failure',
    launchOptions: {
      ...(executablePath ? { executablePath } : {}),
      args: CHROMIUM_ARGS,
    },
  },
  // The built site (npm test builds it just before), served as any static host would.
  webServer: {
    command: 'npx vite preview --config web/vite.config.ts --host 127.0.0.1',
    cwd: root,
    url: 'http://127.0.0.1:4173',
    reuseExistingServer: false,
    timeout: 60_000,
  },
});
