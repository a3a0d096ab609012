import { defineConfig } from 'vitest/config';
import { OLDER_KUBERNETES_VERSION } from './proxy/cluster/versions';

// The lessons against the older release (versions.ts): every step of every lesson that applies to
// it (lessons without `since`, or with one at most that release), with the kit's own functions;
// and `check --compare` of that release with the current one.
// The rest of the skew suite is Playwright (playwright.skew.config.ts).
process.env.KUBE_EXPLORER_KUBERNETES ??= OLDER_KUBERNETES_VERSION;

export default defineConfig({
  test: {
    name: 'skew',
    // And `check --compare` of the older release with the current one (cli/check/compare.skew.ts).
    // And the audit credential test (issue 46): the older release's audit policy keeps credentials out too.
    include: ['src/features/lessons/lessons.server.test.ts', 'cli/check/compare.skew.ts', 'src/k8s/audit/credentials.server.test.ts'],
    globalSetup: ['proxy/cluster/globalSetup.testkit.ts'],
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
