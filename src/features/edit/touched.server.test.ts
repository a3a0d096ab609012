// Issue 28, case 5, against the real server and the kubectl of the same release: "apply only the
// fields I touched" must own only those fields. A Deployment whose real owner applied containers
// app (env A, B, C) and side (no env); in the Edit view the user adds env S to side with "only
// the fields I touched"; then the owner applies again without A. kubectl, doing the same with a
// fragment of the touched fields on a twin object, gives app[B,C]; so must the explorer's body.
// (The old body carried the containers list whole, so the -touched manager co-owned A, B and C,
// and A survived its owner's removal.)
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromYaml, toYaml } from '../../codecs/yaml';
import type { FieldHints, JsonObject } from '../../k8s/patch';
import { hasKubectl, hintsFor, kube, kubectl, patchAs, settled } from '../../k8s/patch/server.testkit';
import { TEST_CONTEXT, useRealProxy } from '../../k8s/proxy.testkit';
import { APPLY_MANAGER, generateBody, TOUCHED_SUFFIX, viewOf } from './body';
import { buildWriteRequest, sendExchange } from './request';

const ns = `touched-${randomBytes(3).toString('hex')}`;
const collectionPath = `/apis/apps/v1/namespaces/${ns}/deployments`;
const OWNER = 'owner';
const TOUCHED = `${APPLY_MANAGER}${TOUCHED_SUFFIX}`;

type Container = { name: string; image: string; env?: { name: string; value: string }[] };
type Dep = JsonObject & { spec: { template: { spec: { containers: Container[] } } } };

const ownerConfig = (name: string, env: string[]) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name, namespace: ns },
  spec: {
    replicas: 0,
    selector: { matchLabels: { app: name } },
    template: {
      metadata: { labels: { app: name } },
      spec: { containers: [{ name: 'app', image: 'app:1', env: env.map((n) => ({ name: n, value: n.toLowerCase() })) }, { name: 'side', image: 'side:1' }] },
    },
  },
});

let hints: FieldHints;

beforeAll(async () => {
  useRealProxy();
  await kube('POST', '/api/v1/namespaces', { metadata: { name: ns } });
  hints = await hintsFor('apps', 'v1', 'Deployment');
});

afterAll(async () => {
  await kube('DELETE', `/api/v1/namespaces/${ns}`).catch(() => undefined);
});

const applyAs = (name: string, body: unknown, manager: string) => patchAs(`${collectionPath}/${name}`, 'apply', toYaml(body), { fieldManager: manager });
const envOf = (d: Dep, c: string) => (d.spec.template.spec.containers.find((x) => x.name === c)?.env ?? []).map((e) => e.name);

describe('apply only the fields I touched (issue 28, case 5)', () => {
  it.skipIf(!hasKubectl())('owns only the changed element and field: the owner’s removal of env A goes through, as with kubectl', async () => {
    // The explorer's object.
    await applyAs('web', ownerConfig('web', ['A', 'B', 'C']), OWNER);
    const live = await settled<Dep>(`${collectionPath}/web`);
    const edited = structuredClone(viewOf(live, false)) as Dep;
    edited.spec.template.spec.containers.find((c) => c.name === 'side')!.env = [{ name: 'S', value: 's' }];
    const body = generateBody({ mode: 'apply', format: 'yaml', base: viewOf(live, false), live, edited, guard: true, fieldManager: TOUCHED, touchedOnly: true, hints });
    const sent = await sendExchange(TEST_CONTEXT, 'apply', buildWriteRequest('apply', { objectPath: `${collectionPath}/web`, collectionPath }, body, { dryRun: false, fieldValidation: '', fieldManager: TOUCHED, force: false }));
    expect(sent.response?.status, sent.response?.body).toBe(200);
    // The body: the one container changed, with its key and the changed field only.
    expect((fromYaml(body) as Dep).spec).toEqual({ template: { spec: { containers: [{ name: 'side', env: [{ name: 'S', value: 's' }] }] } } });

    // The twin, with kubectl: the same owner, then the touched fields as a fragment under the same manager.
    kubectl(['apply', '--server-side', `--field-manager=${OWNER}`, '-f', '-'], toYaml(ownerConfig('twin', ['A', 'B', 'C'])));
    kubectl(['apply', '--server-side', `--field-manager=${TOUCHED}`, '-f', '-'], toYaml({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'twin', namespace: ns }, spec: { template: { spec: { containers: [{ name: 'side', env: [{ name: 'S', value: 's' }] }] } } } }));

    // The owner removes A from both.
    await applyAs('web', ownerConfig('web', ['B', 'C']), OWNER);
    kubectl(['apply', '--server-side', `--field-manager=${OWNER}`, '-f', '-'], toYaml(ownerConfig('twin', ['B', 'C'])));
    const web = await kube<Dep>('GET', `${collectionPath}/web`);
    const twin = await kube<Dep>('GET', `${collectionPath}/twin`);
    expect(envOf(twin, 'app')).toEqual(['B', 'C']);
    expect(envOf(web, 'app')).toEqual(envOf(twin, 'app'));
    expect(envOf(twin, 'side')).toEqual(['S']);
    expect(envOf(web, 'side')).toEqual(['S']);
  });
});
