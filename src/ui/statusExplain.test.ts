import { describe, expect, it } from 'vitest';
import { explainStatus } from './statusExplain';

describe('explainStatus', () => {
  // The replay's Status bodies (k8s/record/replay.ts): before, a read the recording did not hold
  // was explained as "This path does not exist on this server" and a refused write as "This
  // resource does not support this verb", as if a cluster had said so.
  it('explains a replay’s own answers as the replay’s, not as the cluster’s', () => {
    const missing = explainStatus({ kind: 'Status', status: 'Failure', code: 404, reason: 'NotFound', message: 'not in the recording: GET /readyz?verbose=true (a replay sends nothing to any cluster)' });
    expect(missing.rule).toBe('replay');
    expect(missing.sentence).toContain('says nothing about the cluster');
    const write = explainStatus({ kind: 'Status', status: 'Failure', code: 405, reason: 'MethodNotAllowed', message: 'a replay is read-only: POST was not sent (nothing is sent to any cluster)' });
    expect(write.rule).toBe('replay');
    // The cluster's own 404 and 405 keep their explanations.
    expect(explainStatus({ code: 404, reason: 'NotFound', message: 'the server could not find the requested resource' }).rule).toBe('not-found-path');
    expect(explainStatus({ code: 405, reason: 'MethodNotAllowed', message: 'the server does not allow this method on the requested resource' }).rule).toBe('method-not-allowed');
  });
});
