// For Vitest tests of the SPA's client code: points kubeFetch at the real explorer server that
// the global setup started in front of the real local control plane.
import { inject } from 'vitest';
import { configureProxy } from './client';

export const TEST_CONTEXT = 'local-admin';
export const TEST_VIEWER_CONTEXT = 'local-viewer';

export function useRealProxy(): { url: string; token: string } {
  const explorer = inject('explorer');
  configureProxy({ origin: explorer.url, token: explorer.token });
  return explorer;
}
