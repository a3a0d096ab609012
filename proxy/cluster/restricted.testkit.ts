// A user who may read one namespace only, on the real local control plane: a ServiceAccount in a
// namespace of its own, a Role there (get/list/watch on a few resources, nothing else), and a
// token from the TokenRequest API (`serviceaccounts/<name>/token`, as `kubectl create token`
// asks). No ClusterRoleBinding: the user may not list namespaces nor read anything
// cluster-scoped; discovery and the self-reviews stay open to it (`system:discovery`,
// `system:basic-user`, bound to every authenticated user by default). Used by the restricted-user
// specs and tests; the kubeconfig it writes has the base kubeconfig's contexts plus `restricted`.
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { dump as stringify, load as parse } from 'js-yaml';
import type { TestCluster } from './cluster.testkit';

/** What the restricted user may do in its namespace: reads of these resources, nothing more. */
export const RESTRICTED_RULES = [
  { apiGroups: [''], resources: ['configmaps', 'pods', 'services', 'events'], verbs: ['get', 'list', 'watch'] },
  { apiGroups: ['apps'], resources: ['deployments'], verbs: ['get', 'list', 'watch'] },
];

export const RESTRICTED_CONTEXT = 'restricted';

export interface RestrictedUser {
  namespace: string;
  /** The kubeconfig with the `restricted` context (its namespace set) beside the base ones. */
  kubeconfig: string;
  token: string;
  /** Deletes the namespace (with the ServiceAccount, Role and binding in it). */
  remove(): Promise<void>;
}

async function must(cluster: TestCluster, method: string, path: string, body: unknown): Promise<string> {
  const r = await cluster.request('admin', method, path, body);
  if (r.status >= 300 && r.status !== 409) throw new Error(`${method} ${path}: ${r.status} ${r.body}`);
  return r.body;
}

/**
 * Creates the namespace, the ServiceAccount `reader`, its Role and RoleBinding, asks a one-hour
 * token, and writes `file`: the base kubeconfig with a `restricted` user (the token) and context
 * (namespace set, as `kubectl config set-context --namespace` does).
 */
export async function createRestrictedUser(cluster: TestCluster, file: string, namespace = `restricted-${randomBytes(3).toString('hex')}`): Promise<RestrictedUser> {
  await must(cluster, 'POST', '/api/v1/namespaces', { metadata: { name: namespace } });
  await must(cluster, 'POST', `/api/v1/namespaces/${namespace}/serviceaccounts`, { metadata: { name: 'reader' } });
  await must(cluster, 'POST', `/apis/rbac.authorization.k8s.io/v1/namespaces/${namespace}/roles`, { metadata: { name: 'reader' }, rules: RESTRICTED_RULES });
  await must(cluster, 'POST', `/apis/rbac.authorization.k8s.io/v1/namespaces/${namespace}/rolebindings`, {
    metadata: { name: 'reader' },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'reader' },
    subjects: [{ kind: 'ServiceAccount', name: 'reader', namespace }],
  });
  const tokenBody = await must(cluster, 'POST', `/api/v1/namespaces/${namespace}/serviceaccounts/reader/token`, {
    apiVersion: 'authentication.k8s.io/v1',
    kind: 'TokenRequest',
    spec: { expirationSeconds: 3600 },
  });
  const token = (JSON.parse(tokenBody) as { status: { token: string } }).status.token;
  const base = parse(readFileSync(cluster.kubeconfig, 'utf8')) as { clusters: { name: string }[]; users: Record<string, unknown>[]; contexts: Record<string, unknown>[] };
  base.users.push({ name: RESTRICTED_CONTEXT, user: { token } });
  base.contexts.push({ name: RESTRICTED_CONTEXT, context: { cluster: base.clusters[0]!.name, user: RESTRICTED_CONTEXT, namespace } });
  writeFileSync(file, stringify(base), { mode: 0o600 });
  return {
    namespace,
    kubeconfig: file,
    token,
    remove: async () => {
      await cluster.request('admin', 'DELETE', `/api/v1/namespaces/${namespace}`);
    },
  };
}
