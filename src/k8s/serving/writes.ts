// The checks that store something, for the command line's `check --writes` only (the page sends
// dry runs and nothing else): in a scratch namespace the command creates and deletes, one object
// per namespaced resource is created, patched the four ways, updated with a stale
// resourceVersion (409), applied by two field managers at odds (409), and its /status and /scale
// are asked where discovery offers them. Cluster-scoped resources get none of these: an object
// created there would land among the cluster's own.
import { apiVersionOf } from '../paths';
import { type Answer, type Cell, collectionOf, PROBE_NAME, type ProbeRequest, skipped, type Target } from './matrix';

export const STORE_CHECKS = ['create', 'jsonPatch', 'mergePatch', 'strategicPatch', 'staleUpdate', 'applyConflict', 'status', 'scale'] as const;
export type StoreCheck = (typeof STORE_CHECKS)[number];

export const STORE_LABELS: Record<StoreCheck, string> = {
  create: 'Create',
  jsonPatch: 'JSON Patch',
  mergePatch: 'Merge patch',
  strategicPatch: 'Strategic merge patch',
  staleUpdate: 'Stale update (409)',
  applyConflict: 'Apply conflict (409)',
  status: '/status',
  scale: '/scale',
};

const MANAGER = 'kube-api-explorer-check';
const ANNOTATION = 'kube-api-explorer.io/check';
const CONFLICT_LABEL = 'kube-api-explorer.io/conflict';

/** The sends the sequence needs: the same `send` as the reads' (probe.ts), handed in. */
export type Send = (r: ProbeRequest) => Promise<{ answer: Answer; body?: unknown }>;

const json = 'application/json';
const said = (a: Answer) => `${a.status}${a.message ? ` (${a.message})` : ''}`;

function notTold(a: Answer): Cell | undefined {
  if (a.status === 401 || a.status === 403 || a.status === 0 || a.status >= 500) return { verdict: 'unknown', detail: `could not tell: ${said(a)}`, httpStatus: a.status };
  return undefined;
}

/** A write that should succeed: 200/201 yes; 415 (media type) and anything else no, with the answer. */
function classifyStored(label: string, a: Answer): Cell {
  const pre = notTold(a);
  if (pre) return pre;
  if (a.status === 200 || a.status === 201) return { verdict: 'yes', detail: `${label}: ${a.status}`, httpStatus: a.status };
  return { verdict: 'no', detail: `${label} refused: ${said(a)}`, httpStatus: a.status };
}

/** A write that must be refused with 409 Conflict. */
function classifyConflict(label: string, a: Answer, consequence: string): Cell {
  const pre = notTold(a);
  if (pre) return pre;
  if (a.status === 409) return { verdict: 'yes', detail: `${label}: 409 Conflict${a.message ? ` (${a.message})` : ''}`, httpStatus: 409 };
  if (a.status === 200 || a.status === 201) return { verdict: 'no', detail: `${label} was stored (${a.status}), not refused with 409: ${consequence}`, httpStatus: a.status };
  return { verdict: 'no', detail: `${label} answered ${said(a)}, not 409 Conflict`, httpStatus: a.status };
}

export function storeSkipped(t: Target, writes: boolean): Record<StoreCheck, Cell> | undefined {
  if (!writes) return undefined;
  const why = !t.namespaced ? 'cluster-scoped: the check stores objects only in its scratch namespace' : !t.verbs.includes('create') ? 'discovery lists no create verb' : undefined;
  return why ? (Object.fromEntries(STORE_CHECKS.map((c) => [c, skipped(why)])) as Record<StoreCheck, Cell>) : undefined;
}

/** The sequence on one namespaced resource with the create verb, in `namespace` (the scratch one). */
export async function storeChecks(send: Send, t: Target, namespace: string): Promise<Record<StoreCheck, Cell>> {
  const cells = Object.fromEntries(STORE_CHECKS.map((c) => [c, skipped('not asked')])) as Record<StoreCheck, Cell>;
  const collection = collectionOf(t, namespace);
  const object = `${collection}/${PROBE_NAME}`;
  const apiVersion = apiVersionOf(t.group, t.version);
  const go = async (r: ProbeRequest, classify: (a: Answer) => Cell) => {
    const sent = await send(r);
    return { cell: { ...classify(sent.answer), request: r }, ...sent };
  };

  const createReq: ProbeRequest = { method: 'POST', path: collection, accept: json, contentType: json, body: JSON.stringify({ apiVersion, kind: t.kind, metadata: { name: PROBE_NAME, namespace } }) };
  const created = await go(createReq, (a) => classifyStored('created', a));
  cells.create = created.cell;
  if (created.answer.status === 422) cells.create = { verdict: 'yes', detail: `served: the server validated the minimal object and refused it (${said(created.answer)})`, httpStatus: 422, request: createReq };
  if (created.answer.status !== 201 && created.answer.status !== 200) {
    const why = `no object to write to: the create answered ${created.answer.status}`;
    for (const c of STORE_CHECKS) if (c !== 'create') cells[c] = skipped(why);
    return cells;
  }
  const first = created.body as { metadata?: { resourceVersion?: string } } | undefined;
  const patch = (contentType: string, body: unknown, path = object): ProbeRequest => ({ method: 'PATCH', path, accept: json, contentType, body: JSON.stringify(body) });

  cells.mergePatch = (await go(patch('application/merge-patch+json', { metadata: { annotations: { [ANNOTATION]: 'merge' } } }), (a) => classifyStored('merge patch applied', a))).cell;
  cells.jsonPatch = (await go(patch('application/json-patch+json', [{ op: 'test', path: '/metadata/name', value: PROBE_NAME }, { op: 'add', path: `/metadata/annotations/${ANNOTATION.replace('/', '~1')}`, value: 'json' }]), (a) => classifyStored('JSON Patch applied', a))).cell;
  cells.strategicPatch = (await go(patch('application/strategic-merge-patch+json', { metadata: { annotations: { [ANNOTATION]: 'strategic' } } }), (a) => classifyStored('strategic merge patch applied', a))).cell;

  // The object as created carries the resourceVersion before the patches: sent back whole, it is stale.
  if (first?.metadata?.resourceVersion) {
    const staleReq: ProbeRequest = { method: 'PUT' as ProbeRequest['method'], path: object, accept: json, contentType: json, body: JSON.stringify(first) };
    cells.staleUpdate = (await go(staleReq, (a) => classifyConflict('an update with the resourceVersion from before the patches', a, 'optimistic concurrency is not enforced, so two controllers overwrite each other'))).cell;
  } else {
    cells.staleUpdate = { verdict: 'no', detail: 'the created object came back without metadata.resourceVersion' };
  }

  const apply = (manager: string, value: string): ProbeRequest => ({
    ...patch('application/apply-patch+yaml', { apiVersion, kind: t.kind, metadata: { name: PROBE_NAME, labels: { [CONFLICT_LABEL]: value } } }),
    path: `${object}?fieldManager=${manager}`,
  });
  const owned = await send(apply(`${MANAGER}-a`, 'a'));
  if (owned.answer.status !== 200 && owned.answer.status !== 201) cells.applyConflict = { ...classifyStored('server-side apply', owned.answer), request: apply(`${MANAGER}-a`, 'a') };
  else cells.applyConflict = (await go(apply(`${MANAGER}-b`, 'b'), (a) => classifyConflict('an apply of a field another manager owns, without force', a, 'appliers silently take fields from each other'))).cell;

  const subs = t.subresources ?? [];
  cells.status = subs.includes('status') ? (await go(patch('application/merge-patch+json', {}, `${object}/status`), (a) => classifyStored('an empty merge patch of /status', a))).cell : skipped('discovery offers no /status');
  cells.scale = subs.includes('scale')
    ? (
        await go({ method: 'GET', path: `${object}/scale`, accept: json }, (a) => {
          const c = classifyStored('GET /scale', a);
          return c.verdict === 'yes' && a.kind !== 'Scale' ? { verdict: 'no', detail: `GET /scale answered a ${a.kind ?? 'body without a kind'}, not a Scale`, httpStatus: a.status } : c;
        })
      ).cell
    : skipped('discovery offers no /scale');
  return cells;
}
