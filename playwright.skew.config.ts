import { defineConfig } from '@playwright/test';
import base from './playwright.config';
import { OLDER_KUBERNETES_VERSION } from './proxy/cluster/versions';

// The skew suite: one smoke spec per view against the older release (versions.ts), started as it
// ships (no CBOR, no streaming lists). Its own global setup starts that control plane; the specs
// are e2e/skew/*.skew.ts, which the default config's testMatch (*.spec.ts) leaves out.
process.env.KUBE_EXPLORER_KUBERNETES ??= OLDER_KUBERNETES_VERSION;

export default defineConfig({
  ...base,
  testDir: 'e2e/skew',
  testMatch: '**/*.skew.ts',
  outputDir: process.env.PW_OUTPUT_DIR ? `${process.env.PW_OUTPUT_DIR}-skew` : 'test-results/skew',
});
