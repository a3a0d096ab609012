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
  // One worker: specs share one control plane, and some compact etcd or restart kube-apiserver on
  // purpose (410 Gone, dropped watches), which must not hit another spec mid-flight.
  workers: 1,
  retries: 0,
  reporter: [['list']],
  // Per-run output folder, so that concurrent local runs do not delete each other's traces.
  outputDir: process.env.PW_OUTPUT_DIR ?? 'test-results',
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
