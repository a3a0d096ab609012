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

  // The explorer server's own 502s (proxy/src/errors.ts, as kubeconfig.server.test.ts and
  // credentials.server.test.ts receive them): reason ServiceUnavailable, so they were explained as
  // "The server … is not ready", which sent a user with a broken plugin or CA to look at the cluster.
  it("explains the explorer server's own answers by what failed, not as a server that is not ready", () => {
    const proxy = (cause: string, message: string) => explainStatus({ kind: 'Status', apiVersion: 'v1', status: 'Failure', code: 502, reason: 'ServiceUnavailable', message, details: { name: 'ctx', kind: 'proxy', causes: [{ reason: cause, message }] } });
    const tls = proxy('TLSFailure', 'TLS with the API server of context "no-ca" (https://127.0.0.1:6443) failed: self-signed certificate in certificate chain');
    expect(tls.rule).toBe('explorer-proxy');
    expect(tls.sentence).toMatch(/^TLS between the explorer server and the API server failed/);
    expect(proxy('CredentialsFailed', 'could not get credentials for context "x" (user "u"): the exec plugin `p` failed (exit code 1)').sentence).toMatch(/could not get this context's credentials/);
    expect(proxy('ClusterUnreachable', 'cannot reach the API server of context "down": connect ECONNREFUSED').sentence).toMatch(/could not reach the API server/);
    expect(proxy('InvalidKubeconfig', 'requesting uid, groups or user-extra for u without impersonating a user').sentence).toMatch(/kubectl refuses it too/);
    for (const r of [tls, proxy('CredentialsFailed', 'x'), proxy('ClusterUnreachable', 'x')]) expect(r.sentence).not.toMatch(/not ready/);
    // A 503 from the cluster itself keeps its explanation.
    expect(explainStatus({ code: 503, reason: 'ServiceUnavailable', message: 'the server is currently unable to handle the request' }).rule).toBe('unavailable');
  });
});
