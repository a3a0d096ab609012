// Lessons that only read: they need no namespace and change nothing on the cluster.
import { expectations, field, type KitExchange, type KitLesson } from '../kit';

const sar = (verb: string, resource: string, extra: Record<string, string> = {}) => ({
  apiVersion: 'authorization.k8s.io/v1',
  kind: 'SelfSubjectAccessReview',
  spec: { resourceAttributes: { verb, resource, group: '', namespace: 'default', ...extra } },
});

const resources = (x: KitExchange) => ((field(x.response, 'resources') as { name: string; namespaced: boolean; kind: string; verbs?: string[] }[] | undefined) ?? []);

export const terminology: KitLesson = {
  id: 'api-terminology',
  topic: 'terms',
  title: 'Resource URIs: collections, objects, subresources, cluster and namespace scope',
  scope: 'read',
  paragraphs: [
    'A resource type has a lower-case plural name (`configmaps`) and a kind (`ConfigMap`). Its objects are reached by path: a cluster-scoped type lives at `/api/v1/namespaces`, a namespaced one under a namespace, `/api/v1/namespaces/{ns}/configmaps`. The path without a name is the collection; with a name, one object. A few types have subresources, extra endpoints below an object such as `status` or `scale`.',
    'The core group is served below `/api/v1`; every other group below `/apis/{group}/{version}`. The server itself tells you which types it has, their scope and verbs: that is discovery.',
  ],
  needs: [
    { verb: 'get', resource: 'namespaces' },
    { verb: 'list', resource: 'configmaps' },
  ],
  steps: [
    {
      id: 'discover',
      title: 'Ask the core group what it serves',
      text: '`GET /api/v1` returns an APIResourceList: one entry per resource and per subresource, with its kind, whether it is namespaced, and its verbs.',
      lookFor: '`configmaps` is namespaced, `namespaces` is not, and `namespaces/status` is an entry of its own: a subresource.',
      run: async (c) => [await c.send('GET', '/api/v1')],
      show: (x) => resources(x).filter((r) => ['configmaps', 'namespaces', 'namespaces/status', 'pods/log', 'pods/status'].includes(r.name)),
      check: ([x]) => {
        const { want, result } = expectations();
        const rs = resources(x!);
        const by = (n: string) => rs.find((r) => r.name === n);
        want(x!.status === 200, `HTTP ${x!.status}`);
        want(field(x!.response, 'kind') === 'APIResourceList', 'kind is not APIResourceList');
        want(by('configmaps')?.namespaced === true, 'configmaps is not namespaced');
        want(by('namespaces')?.namespaced === false, 'namespaces is namespaced');
        want(by('namespaces/status') !== undefined, 'no namespaces/status entry');
        return result;
      },
      view: () => ({ label: 'See every group and resource in the Discovery view', to: { view: 'discovery' } }),
    },
    {
      id: 'uris',
      title: 'The same type at three addresses',
      text: 'A cluster-scoped object (`/api/v1/namespaces/default`), a namespaced collection (`/api/v1/namespaces/default/configmaps`), and the collection across all namespaces (`/api/v1/configmaps`).',
      lookFor: 'The object answers with its kind; both collections with `ConfigMapList`, the all-namespaces one holding items from several namespaces.',
      run: async (c) => [await c.send('GET', '/api/v1/namespaces/default'), await c.send('GET', '/api/v1/namespaces/default/configmaps'), await c.send('GET', '/api/v1/configmaps')],
      show: (x) =>
        field(x.response, 'items')
          ? { kind: field(x.response, 'kind'), items: ((field(x.response, 'items') as { metadata: { namespace: string; name: string } }[]) ?? []).map((i) => `${i.metadata.namespace}/${i.metadata.name}`) }
          : { kind: field(x.response, 'kind'), metadata: { name: field(x.response, 'metadata', 'name') } },
      check: ([obj, inNs, all]) => {
        const { want, result } = expectations();
        want(obj!.status === 200 && field(obj!.response, 'kind') === 'Namespace', 'the namespace object did not come back');
        want(field(inNs!.response, 'kind') === 'ConfigMapList', 'the namespaced collection is not a ConfigMapList');
        const nss = new Set(((field(all!.response, 'items') as { metadata: { namespace: string } }[]) ?? []).map((i) => i.metadata.namespace));
        want(field(all!.response, 'kind') === 'ConfigMapList' && nss.size > 1, 'the all-namespaces collection does not span namespaces');
        return result;
      },
      view: () => ({ label: 'Open the ConfigMaps of all namespaces in the Lists view', to: { view: 'lists', group: '', version: 'v1', resource: 'configmaps' } }),
    },
  ],
};

export const verbs: KitLesson = {
  id: 'verbs',
  topic: 'verbs',
  title: 'Verbs: what the authorizer calls each request',
  scope: 'read',
  paragraphs: [
    'HTTP has GET, POST, PUT, PATCH and DELETE; the authorizer sees more verbs. A GET of one object is `get`, a GET of a collection is `list`, and the same GET with `watch=1` is `watch`. POST is `create`, PUT `update`, PATCH `patch`, DELETE of one object `delete` and of a collection `deletecollection`. RBAC rules are written in these verbs, and a 403 names the verb that was refused.',
    'A SelfSubjectAccessReview asks the server "may I?" for one verb on one resource, without doing it. This lesson asks it for several verbs; it writes nothing but the reviews, which are not stored.',
  ],
  needs: [{ verb: 'create', group: 'authorization.k8s.io', resource: 'selfsubjectaccessreviews' }],
  steps: [
    {
      id: 'discovery-verbs',
      title: 'The verbs a resource supports',
      text: 'Discovery lists, for each resource, the verbs it supports. ConfigMaps support all of them; a subresource such as `pods/log` only `get`.',
      lookFor: 'The `verbs` of `configmaps` include `list`, `watch` and `deletecollection`, words that are not HTTP methods.',
      run: async (c) => [await c.send('GET', '/api/v1')],
      show: (x) => resources(x).filter((r) => ['configmaps', 'pods/log'].includes(r.name)).map((r) => ({ name: r.name, verbs: r.verbs })),
      check: ([x]) => {
        const cm = resources(x!).find((r) => r.name === 'configmaps');
        const log = resources(x!).find((r) => r.name === 'pods/log');
        const { want, result } = expectations();
        for (const v of ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete', 'deletecollection']) want(cm?.verbs?.includes(v) ?? false, `configmaps lacks ${v}`);
        want(JSON.stringify(log?.verbs) === '["get"]', 'pods/log has more verbs than get');
        return result;
      },
    },
    {
      id: 'ask',
      title: 'Ask before acting',
      text: 'One SelfSubjectAccessReview per verb, for ConfigMaps in `default`, and one for a verb no resource has, `frobnicate`.',
      lookFor: 'Each answer is in `status.allowed`, often with `status.reason` naming the rule that decided. An unknown verb is not an error: RBAC matches it like any other word, so a rule with `verbs: ["*"]` (cluster-admin, or the `system:masters` group, which skips authorization) allows even `frobnicate`, and anyone else is denied.',
      run: async (c) => {
        const out: KitExchange[] = [];
        for (const v of ['list', 'watch', 'deletecollection', 'frobnicate']) out.push(await c.send('POST', '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews', { body: sar(v, 'configmaps') }));
        return out;
      },
      show: (x) => ({ verb: field(x.response, 'spec', 'resourceAttributes', 'verb'), status: field(x.response, 'status') }),
      check: (xs) => {
        const { want, result } = expectations();
        for (const x of xs) want(x.status === 201 && typeof field(x.response, 'status', 'allowed') === 'boolean', `${x.path}: HTTP ${x.status} without status.allowed`);
        return result;
      },
    },
  ],
};

export const health: KitLesson = {
  id: 'health',
  topic: 'health',
  title: 'Health endpoints: /livez, /readyz and their checks',
  scope: 'read',
  paragraphs: [
    'kube-apiserver answers two questions over plain HTTP: is the process alive (`/livez`, restart it if not) and is it ready to serve (`/readyz`, send it traffic if so). Both answer `ok` with 200 or fail with a non-2xx code; `?verbose` lists every check with `[+]` or `[-]`. Each check also has a path of its own (`/livez/etcd`), and `?exclude=` leaves a check out of the verdict.',
    '`/healthz` is the older single endpoint and is deprecated in favour of the two above; it still answers.',
  ],
  needs: [],
  steps: [
    {
      id: 'plain',
      title: 'The short answers',
      text: '`GET /livez` and `GET /readyz`: a body of two letters.',
      lookFor: 'HTTP 200 and the body `ok`, as `text/plain`.',
      run: async (c) => [await c.send('GET', '/livez', { accept: '*/*' }), await c.send('GET', '/readyz', { accept: '*/*' })],
      check: (xs) => {
        const { want, result } = expectations();
        for (const x of xs) want(x.status === 200 && x.response === 'ok', `${x.path}: HTTP ${x.status} ${String(x.response).slice(0, 40)}`);
        return result;
      },
    },
    {
      id: 'verbose',
      title: 'Every check, and one left out',
      text: '`/readyz?verbose` lists the checks; `/readyz?verbose&exclude=etcd` is the same with the etcd check excluded; `/livez/etcd` runs that one check alone.',
      lookFor: 'Lines such as `[+]etcd ok`, then `readyz check passed`; with `exclude` the line reads `[+]etcd excluded: ok`.',
      run: async (c) => [
        await c.send('GET', '/readyz?verbose', { accept: '*/*' }),
        await c.send('GET', '/readyz?verbose&exclude=etcd', { accept: '*/*' }),
        await c.send('GET', '/livez/etcd', { accept: '*/*' }),
      ],
      check: ([v, ex, one]) => {
        const { want, result } = expectations();
        want(String(v!.response).includes('[+]etcd ok') && String(v!.response).includes('readyz check passed'), '/readyz?verbose lacks [+]etcd ok or the verdict');
        want(String(ex!.response).includes('[+]etcd excluded: ok'), 'the excluded check is not marked excluded');
        want(one!.status === 200 && one!.response === 'ok', `/livez/etcd: HTTP ${one!.status}`);
        return result;
      },
    },
    {
      id: 'who-may',
      title: 'Who may ask',
      text: 'Health paths are not resources: RBAC grants them as `nonResourceURLs`. Read the ClusterRole `system:public-info-viewer` that ships with every cluster.',
      lookFor: '`/livez`, `/readyz` and `/healthz` among its `nonResourceURLs`, with the verb `get`: the default bindings give it to everyone, signed in or not.',
      run: async (c) => [await c.send('GET', '/apis/rbac.authorization.k8s.io/v1/clusterroles/system:public-info-viewer')],
      show: (x) => ({ rules: field(x.response, 'rules') }),
      check: ([x]) => {
        const urls = ((field(x!.response, 'rules') as { nonResourceURLs?: string[] }[] | undefined) ?? []).flatMap((r) => r.nonResourceURLs ?? []);
        return ['/livez', '/readyz', '/healthz'].filter((u) => !urls.includes(u)).map((u) => `${u} is not granted`);
      },
    },
    {
      id: 'unknown-and-old',
      title: 'A check that does not exist, and the deprecated endpoint',
      text: '`/livez/no-such-check` is not a check, so it is not found; `/healthz` is the deprecated endpoint that still answers.',
      lookFor: '404 for the unknown check; 200 `ok` from `/healthz`.',
      run: async (c) => [await c.send('GET', '/livez/no-such-check', { accept: '*/*' }), await c.send('GET', '/healthz', { accept: '*/*' })],
      check: ([unknown, old]) => {
        const { want, result } = expectations();
        want(unknown!.status === 404, `/livez/no-such-check: HTTP ${unknown!.status}`);
        want(old!.status === 200 && old!.response === 'ok', `/healthz: HTTP ${old!.status}`);
        return result;
      },
    },
  ],
};

/** Removed API versions and their replacements, from the Deprecated API Migration Guide. */
export const REMOVED_VERSIONS: { removedIn: string; old: string; now: string }[] = [
  { removedIn: 'v1.16', old: 'extensions/v1beta1, apps/v1beta1, apps/v1beta2 Deployment and ReplicaSet; extensions/v1beta1, apps/v1beta2 DaemonSet', now: 'apps/v1' },
  { removedIn: 'v1.16', old: 'apps/v1beta1, apps/v1beta2 StatefulSet', now: 'apps/v1' },
  { removedIn: 'v1.16', old: 'extensions/v1beta1 NetworkPolicy', now: 'networking.k8s.io/v1' },
  { removedIn: 'v1.22', old: 'extensions/v1beta1, networking.k8s.io/v1beta1 Ingress', now: 'networking.k8s.io/v1' },
  { removedIn: 'v1.22', old: 'apiextensions.k8s.io/v1beta1 CustomResourceDefinition', now: 'apiextensions.k8s.io/v1' },
  { removedIn: 'v1.22', old: 'admissionregistration.k8s.io/v1beta1 Mutating/ValidatingWebhookConfiguration', now: 'admissionregistration.k8s.io/v1' },
  { removedIn: 'v1.22', old: 'rbac.authorization.k8s.io/v1beta1 Role, ClusterRole and their bindings', now: 'rbac.authorization.k8s.io/v1' },
  { removedIn: 'v1.22', old: 'certificates.k8s.io/v1beta1 CertificateSigningRequest', now: 'certificates.k8s.io/v1' },
  { removedIn: 'v1.22', old: 'coordination.k8s.io/v1beta1 Lease', now: 'coordination.k8s.io/v1' },
  { removedIn: 'v1.25', old: 'batch/v1beta1 CronJob', now: 'batch/v1' },
  { removedIn: 'v1.25', old: 'policy/v1beta1 PodDisruptionBudget', now: 'policy/v1' },
  { removedIn: 'v1.25', old: 'policy/v1beta1 PodSecurityPolicy', now: 'none: Pod Security Admission' },
  { removedIn: 'v1.25', old: 'discovery.k8s.io/v1beta1 EndpointSlice', now: 'discovery.k8s.io/v1' },
  { removedIn: 'v1.25', old: 'events.k8s.io/v1beta1 Event', now: 'events.k8s.io/v1' },
  { removedIn: 'v1.25', old: 'autoscaling/v2beta1 HorizontalPodAutoscaler', now: 'autoscaling/v2' },
  { removedIn: 'v1.26', old: 'autoscaling/v2beta2 HorizontalPodAutoscaler', now: 'autoscaling/v2' },
  { removedIn: 'v1.26', old: 'flowcontrol.apiserver.k8s.io/v1beta1 FlowSchema, PriorityLevelConfiguration', now: 'flowcontrol.apiserver.k8s.io/v1' },
  { removedIn: 'v1.27', old: 'storage.k8s.io/v1beta1 CSIStorageCapacity', now: 'storage.k8s.io/v1' },
  { removedIn: 'v1.29', old: 'flowcontrol.apiserver.k8s.io/v1beta2 FlowSchema, PriorityLevelConfiguration', now: 'flowcontrol.apiserver.k8s.io/v1' },
  { removedIn: 'v1.32', old: 'flowcontrol.apiserver.k8s.io/v1beta3 FlowSchema, PriorityLevelConfiguration', now: 'flowcontrol.apiserver.k8s.io/v1' },
];

export const apiGroups: KitLesson = {
  id: 'api-groups',
  topic: 'groups',
  table: { caption: 'Removed API versions and their replacements (Deprecated API Migration Guide)', columns: ['no longer served from', 'version and kinds', 'use instead'], rows: REMOVED_VERSIONS.map((r) => [r.removedIn, r.old, r.now]) },
  title: 'API groups, versions, stability and removed versions',
  scope: 'read',
  paragraphs: [
    'Resources are grouped (`apps`, `batch`, ...), and each group is served in one or more versions. A version name says its stability: `v1` is stable, `v1beta1` beta, `v1alpha1` alpha (off unless enabled). The server stores each object in one version and converts on the way in and out, so the same Deployment can be read in any served version of its group.',
    'Versions are deprecated first (the server then adds a `Warning` header to every response; the CEL lesson shows one), and removed later. After a removal the path no longer exists: requests get 404, while the objects themselves survive in storage, readable through the replacement version. Manifests and clients must be moved before the upgrade that removes the version. The table below lists removed versions and their replacements, from the Deprecated API Migration Guide.',
  ],
  needs: [],
  steps: [
    {
      id: 'groups',
      title: 'Groups and their preferred versions',
      text: '`GET /apis` lists every group with the versions it serves and the one clients should prefer.',
      lookFor: '`apps` is served as `v1` only; some groups serve more than one version.',
      run: async (c) => [await c.send('GET', '/apis')],
      show: (x) => ((field(x.response, 'groups') as { name: string; versions: { version: string }[]; preferredVersion: { version: string } }[]) ?? []).map((g) => ({ name: g.name, versions: g.versions.map((v) => v.version).join(', '), preferred: g.preferredVersion.version })),
      check: ([x]) => {
        const groups = (field(x!.response, 'groups') as { name: string; versions: { version: string }[] }[]) ?? [];
        const apps = groups.find((g) => g.name === 'apps');
        return apps && apps.versions.map((v) => v.version).join() === 'v1' ? [] : ['apps is not served as v1 alone'];
      },
      view: () => ({ label: 'Browse the groups in the Discovery view', to: { view: 'discovery' } }),
    },
    {
      id: 'removed',
      title: 'A removed version answers 404',
      text: 'v1.16 stopped serving Deployments as `extensions/v1beta1` (v1.15 was the last release to serve them), and v1.32 stopped serving FlowSchemas as `flowcontrol.apiserver.k8s.io/v1beta3` (v1.31 was the last). Ask for both.',
      lookFor:
        'Two 404s, and neither says "removed". `extensions/v1beta1`, whose group is gone entirely, answers the plain-text body `404 page not found`: not even a `Status`, since no API handler knows the path any more. `flowcontrol.apiserver.k8s.io/v1beta3`, whose group is still served (as `v1`), answers a JSON `Status`, reason `NotFound`, "the server could not find the requested resource": the group\'s handler answers for its versions it no longer has. The replacement version answers 200.',
      run: async (c) => [
        await c.send('GET', '/apis/extensions/v1beta1/deployments'),
        await c.send('GET', '/apis/flowcontrol.apiserver.k8s.io/v1beta3/flowschemas'),
        await c.send('GET', '/apis/flowcontrol.apiserver.k8s.io/v1/flowschemas?limit=1'),
      ],
      show: (x) => (x.status === 200 ? { kind: field(x.response, 'kind') } : x.response),
      check: ([ext, fs3, fs1]) => {
        const { want, result } = expectations();
        want(ext!.status === 404 && typeof ext!.response === 'string' && ext!.response.includes('404 page not found'), `extensions/v1beta1: HTTP ${ext!.status}`);
        want(fs3!.status === 404 && field(fs3!.response, 'kind') === 'Status' && field(fs3!.response, 'reason') === 'NotFound', `flowcontrol v1beta3: HTTP ${fs3!.status}, ${typeof fs3!.response === 'string' ? 'plain text' : `a ${String(field(fs3!.response, 'kind'))}`}`);
        want(fs1!.status === 200, `flowcontrol v1: HTTP ${fs1!.status}`);
        return result;
      },
    },
  ],
};
