// The aggregated API server of the local control plane: k8s.io/sample-apiserver (group
// wardle.example.com: Flunders and Fischers), a separate process on its own port and etcd prefix,
// which kube-apiserver's aggregator reaches as an APIService — as metrics-server and many operators
// are reached on real clusters, with their own discovery, encodings and watch behaviour.
//
// How kube-apiserver finds it without a cluster network: the APIService names a Service of type
// ExternalName (`api.wardle` → localhost) and the server's port; the aggregator resolves such a
// Service to https://EXTERNALNAME:PORT (k8s.io/apiserver/pkg/util/proxy ResolveCluster) and checks
// the serving certificate against the APIService's caBundle for the name api.wardle.svc. It
// authenticates to the sample-apiserver with its front-proxy client certificate and passes the
// user in X-Remote-User/X-Remote-Group; the sample-apiserver trusts those headers from that
// certificate (delegated authentication: the extension-apiserver-authentication ConfigMap) and
// asks kube-apiserver whether the user may act (SubjectAccessReview).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { answers, type Credentials, kubeRequest } from './http';
import { type AggregationPki, pem, type Pki, WARDLE_SERVICE } from './pki';
import type { Supervisor } from './supervisor';

export const WARDLE_GROUP = 'wardle.example.com';
/** The versions it serves, with the APIService's versionPriority of each (the higher is preferred). */
export const WARDLE_VERSIONS = [
  { version: 'v1beta1', priority: 20 },
  { version: 'v1alpha1', priority: 15 },
] as const;

/** kube-apiserver's flags for aggregation: the front-proxy client and the request headers it sets. */
export function aggregatorFlags(pki: Pki, agg: AggregationPki): string[] {
  return [
    `--proxy-client-cert-file=${agg.proxyClientCert}`,
    `--proxy-client-key-file=${agg.proxyClientKey}`,
    `--requestheader-client-ca-file=${pki.caCert}`,
    '--requestheader-allowed-names=front-proxy-client',
    '--requestheader-username-headers=X-Remote-User',
    '--requestheader-group-headers=X-Remote-Group',
    '--requestheader-extra-headers-prefix=X-Remote-Extra-',
  ];
}

export interface AggregatedStart {
  supervisor: Supervisor;
  bin: string;
  dir: string;
  server: string;
  etcdUrl: string;
  port: number;
  pki: Pki;
  agg: AggregationPki;
  admin: Credentials;
  /** A kubeconfig of the admin user (core API, delegated authentication and authorization). */
  kubeconfigYaml: string;
}

/** Starts the sample-apiserver under supervision, registers its APIServices, and waits until they are Available. */
export async function startAggregated(o: AggregatedStart): Promise<void> {
  const kubeconfig = join(o.dir, 'sample-apiserver.kubeconfig');
  writeFileSync(kubeconfig, o.kubeconfigYaml, { mode: 0o600 });
  const local = `https://127.0.0.1:${o.port}`;
  const caOnly: Credentials = { ca: o.admin.ca, cert: o.admin.cert, key: o.admin.key };
  await o.supervisor.start({
    name: 'sample-apiserver',
    bin: o.bin,
    args: [
      '--bind-address=127.0.0.1', `--secure-port=${o.port}`,
      `--tls-cert-file=${o.agg.wardleCert}`, `--tls-private-key-file=${o.agg.wardleKey}`,
      `--cert-dir=${join(o.dir, 'sample-apiserver-certs')}`,
      `--etcd-servers=${o.etcdUrl}`,
      `--kubeconfig=${kubeconfig}`, `--authentication-kubeconfig=${kubeconfig}`, `--authorization-kubeconfig=${kubeconfig}`,
      '--profiling=false',
    ],
    readyWhat: 'ready', readyTimeoutMs: 90_000,
    // /readyz is open to anyone (RecommendedOptions' always-allowed paths).
    ready: async () => (await kubeRequest(local, caOnly, 'GET', '/readyz')).status === 200,
    alive: (signal) => answers(`${local}/livez`, signal, caOnly),
  });

  const apply = async (path: string, body: Record<string, unknown>) => {
    const r = await kubeRequest(o.server, o.admin, 'PATCH', `${path}?fieldManager=kube-api-explorer-control-plane&force=true`, body, { 'Content-Type': 'application/apply-patch+yaml' });
    if (r.status >= 300) throw new Error(`registering the aggregated API server: PATCH ${path}: ${r.status} ${r.body}`);
  };
  const { name, namespace } = WARDLE_SERVICE;
  await apply(`/api/v1/namespaces/${namespace}`, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } });
  await apply(`/api/v1/namespaces/${namespace}/services/${name}`, { apiVersion: 'v1', kind: 'Service', metadata: { name, namespace }, spec: { type: 'ExternalName', externalName: 'localhost' } });
  for (const v of WARDLE_VERSIONS) {
    const apiServiceName = `${v.version}.${WARDLE_GROUP}`;
    await apply(`/apis/apiregistration.k8s.io/v1/apiservices/${apiServiceName}`, {
      apiVersion: 'apiregistration.k8s.io/v1',
      kind: 'APIService',
      metadata: { name: apiServiceName },
      spec: {
        group: WARDLE_GROUP, version: v.version, groupPriorityMinimum: 1000, versionPriority: v.priority,
        service: { name, namespace, port: o.port },
        caBundle: Buffer.from(pem(o.pki.caCert)).toString('base64'),
      },
    });
  }
  await waitAvailable(o.server, o.admin);
}

async function waitAvailable(server: string, admin: Credentials): Promise<void> {
  const deadline = Date.now() + 90_000;
  let last = '';
  while (Date.now() < deadline) {
    const states = await Promise.all(
      WARDLE_VERSIONS.map(async (v) => {
        const r = await kubeRequest(server, admin, 'GET', `/apis/apiregistration.k8s.io/v1/apiservices/${v.version}.${WARDLE_GROUP}`).catch(() => undefined);
        const c = r?.status === 200 ? ((JSON.parse(r.body) as { status?: { conditions?: { type: string; status: string; reason?: string; message?: string }[] } }).status?.conditions ?? []).find((x) => x.type === 'Available') : undefined;
        if (c && c.status !== 'True') last = `${v.version}: ${c.reason ?? ''} ${c.message ?? ''}`;
        return c?.status === 'True';
      }),
    );
    if (states.every(Boolean)) return;
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`the APIServices of ${WARDLE_GROUP} did not become Available within 90 s (${last})`);
}
