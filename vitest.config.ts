import { defineConfig } from 'vitest/config';

export default defineConfig({
  oxc: { jsx: { runtime: 'automatic' } },
  test: {
    include: ['src/**/*.test.{ts,tsx}', 'proxy/**/*.test.ts'],
    // Integration tests share one real control plane, started once (see proxy/cluster/vitest-setup.ts).
    globalSetup: ['proxy/cluster/vitest-setup.ts'],
    // Files run one after another: some compact etcd on the shared control plane (to meet 410
    // Gone on purpose), which would expire another file's continue tokens mid-test.
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
