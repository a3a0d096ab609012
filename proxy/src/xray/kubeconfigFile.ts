// The kubeconfig a client of X-ray uses: the user's context names (and namespaces, and
// current-context), each pointing at the endpoint under `/<context>/` with a bearer token that is
// only good for the endpoint (a run's, or the explorer's long-lived one). No credential of the
// user's is in it. The endpoint is HTTPS with a certificate of its own (tls.ts), which the file
// trusts. Written as JSON, which is YAML: client-go reads either.
import type { Kubeconfig } from '../kubeconfig';

export function xrayKubeconfig(kubeconfig: Pick<Kubeconfig, 'contexts' | 'current'>, endpoint: { url: string; caPem: string }, token: string, current?: string): string {
  const ca = Buffer.from(endpoint.caPem).toString('base64');
  const contexts = kubeconfig.contexts.map((c) => ({
    name: c.name,
    context: { cluster: `xray/${c.name}`, user: 'xray', ...(c.namespace ? { namespace: c.namespace } : {}) },
  }));
  const clusters = kubeconfig.contexts.map((c) => ({ name: `xray/${c.name}`, cluster: { server: `${endpoint.url}/${encodeURIComponent(c.name)}`, 'certificate-authority-data': ca } }));
  const file = {
    apiVersion: 'v1',
    kind: 'Config',
    'current-context': current ?? kubeconfig.current,
    clusters,
    contexts,
    users: [{ name: 'xray', user: { token } }],
  };
  return `${JSON.stringify(file, null, 2)}\n`;
}
