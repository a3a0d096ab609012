import { defineConfig } from '@playwright/test';

// Debian's chromium: Playwright's own browser downloads are not possible on these machines.
export default defineConfig({
  testDir: 'e2e',
  testMatch: '**/*.spec.ts',
  // One real control plane and one explorer server for the whole run (e2e/global-setup.ts).
  globalSetup: './e2e/global-setup.ts',
  timeout: 90_000,
  expect: { timeout: 15_000 },
  fullyParallel: false,
  workers: process.env.CI ? 2 : 2,
  retries: 0,
  reporter: process.env.CI ? [['list']] : [['list']],
  use: {
    browserName: 'chromium',
    viewport: { width: 1400, height: 900 },
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-gpu', '--no-first-run'],
    },
  },
});
