import { describe, expect, it } from 'vitest';
import { parseReadyz, readyzText } from './readyz';

// kube-apiserver's /readyz?verbose with etcd stopped (shape as the server writes it).
const failing = '[+]ping ok\n[+]log ok\n[-]etcd failed: reason withheld\n[+]etcd-readiness ok\n[+]informer-sync ok\n[+]poststarthook/start-apiextensions-informers ok\n[-]poststarthook/crd-informer-synced failed: reason withheld\nreadyz check failed\n';

describe('parseReadyz', () => {
  it('names the failed checks of a 500', () => {
    const r = parseReadyz(500, failing, 1);
    expect(r).toMatchObject({ at: 1, status: 500, ready: false, failed: ['etcd', 'poststarthook/crd-informer-synced'] });
    expect(readyzText(r)).toBe('etcd and poststarthook/crd-informer-synced failed');
  });

  it('is ready on 200, and unknown on a refusal without a check list', () => {
    expect(parseReadyz(200, '[+]ping ok\nreadyz check passed\n', 1).ready).toBe(true);
    const refused = parseReadyz(403, '{"kind":"Status","message":"forbidden"}', 1);
    expect(refused.ready).toBeNull();
    expect(parseReadyz(503, 'upstream connect error', 1)).toMatchObject({ ready: false, failed: [], message: 'upstream connect error' });
  });
});
