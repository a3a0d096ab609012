import { defineConfig } from 'vitest/config';

// Two kinds of tests (see docs/testing.md):
// - unit: pure tests (`*.test.ts`): codecs on captured fixtures, reducers, builders, parsers. No
//   control plane, no network; files run in parallel.
// - integration: tests against the real local control plane and the explorer server in front of it
//   (`*.server.test.ts`), started once by proxy/cluster/globalSetup.testkit.ts.
const jsx = { jsx: { runtime: 'automatic' as const } };

export default defineConfig({
  test: {
    projects: [
      {
        oxc: jsx,
        test: {
          name: 'unit',
          include: ['src/**/*.test.{ts,tsx}', 'proxy/**/*.test.ts', 'protocol/**/*.test.ts', 'bench/**/*.test.ts', 'tools/**/*.test.ts', 'cli/**/*.test.ts'],
          exclude: ['**/*.server.test.{ts,tsx}', '**/node_modules/**'],
          testTimeout: 20_000,
        },
      },
      {
        oxc: jsx,
        test: {
          name: 'integration',
          include: ['src/**/*.server.test.{ts,tsx}', 'proxy/**/*.server.test.ts', 'cli/**/*.server.test.ts'],
          // One real control plane for the whole run.
          globalSetup: ['proxy/cluster/globalSetup.testkit.ts'],
          // Files run one after another: some compact etcd on the shared control plane (to meet 410
          // Gone on purpose), which would expire another file's continue tokens mid-test.
          fileParallelism: false,
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
