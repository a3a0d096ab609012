// /scale: an autoscaling/v1 Scale object whose spec.replicas is the parent's replicas field
// (spec.replicas for Deployments; specReplicasPath for custom resources). Read through a query,
// written through a mutation: a refused read or write (403 for a user who may only read) is on
// screen, never an unhandled rejection.
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { toYaml } from '../../codecs/yaml';
import { isStatus, kubeJsonExact } from '../../k8s/client';
import { parseJsonExact } from '../../codecs/json';
import { type JsonObject, isObject } from '../../k8s/patch';
import { ErrorBox } from '../../ui/ErrorBox';
import { UPDATE_MANAGER } from './body';
import { buildWriteRequest, sendExchange } from './request';
import { ExchangeWire } from './ExchangeWire';
import { answerObject, resourceVersionOf, scalePatchText } from './subresourceBodies';

/** The Scale of the object at `objectPath`, as read while the object was at `objectRv` (a newer object is a new read). */
export const scaleQuery = (context: string, objectPath: string, objectRv: string | undefined) =>
  queryOptions({
    queryKey: ['k8s', context, 'scale', objectPath, objectRv ?? ''],
    queryFn: ({ signal }) => kubeJsonExact<JsonObject>({ context, path: `${objectPath}/scale`, signal }),
    refetchOnWindowFocus: false,
    retry: false,
  });

const replicasOf = (o: unknown) => (isObject(o) && isObject(o.spec) && typeof o.spec.replicas === 'number' ? o.spec.replicas : undefined);

/**
 * /scale, following the server: the Scale is read when the panel opens and again whenever the
 * object changes (the Edit view's watch). A change that leaves the replicas alone (a controller's
 * status write) is followed silently; a change of the replicas is shown, and the patch, guarded by
 * the resourceVersion of the Scale read, gets 409 Conflict instead of undoing it.
 */
export function ScalePanel({ context, objectPath, latest }: { context: string; objectPath: string; latest: JsonObject }) {
  const queryClient = useQueryClient();
  const options = scaleQuery(context, objectPath, resourceVersionOf(latest));
  const read = useQuery(options);
  const [scale, setScale] = useState<JsonObject>();
  const [outside, setOutside] = useState<{ from?: number; to?: number }>();
  const [replicas, setReplicas] = useState('');
  const [dryRun, setDryRun] = useState(false);
  const [guard, setGuard] = useState(true);
  // The Scale this panel read last (its resourceVersion guards the patch).
  const held = useRef<JsonObject | undefined>(undefined);
  const adopt = (next: JsonObject, follow: boolean) => {
    const was = replicasOf(held.current);
    const now = replicasOf(next);
    if (follow && held.current && was !== now) {
      // Someone else scaled: keep the Scale read before and say so.
      setOutside({ from: was, to: now });
      return;
    }
    held.current = next;
    setScale(next);
    setOutside(undefined);
    if (!follow || replicas === '' || Number(replicas) === was) setReplicas(now === undefined ? '' : String(now));
  };
  useEffect(() => {
    if (read.data) adopt(read.data, true);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- follow each new read
  }, [read.data]);
  const reread = useMutation({
    mutationFn: () => queryClient.fetchQuery({ ...options, staleTime: 0 }),
    onSuccess: (next) => adopt(next, false),
  });
  const write = useMutation({
    mutationFn: async (v: { replicas: number; resourceVersion?: string; dryRun: boolean }) => {
      const before = replicasOf(await kubeJsonExact<JsonObject>({ context, path: objectPath }));
      const req = buildWriteRequest('merge-patch', { objectPath: `${objectPath}/scale`, collectionPath: '' }, scalePatchText(v.replicas, v.resourceVersion), { dryRun: v.dryRun, fieldValidation: '', fieldManager: UPDATE_MANAGER, force: false });
      const ex = await sendExchange(context, 'merge-patch', req);
      const after = replicasOf(await kubeJsonExact<JsonObject>({ context, path: objectPath }));
      return { ex, before, after };
    },
    onSuccess: ({ ex }, v) => {
      // The answer is the Scale as stored: scale on from it.
      const answer = answerObject(ex.response?.body);
      if (ex.response?.status === 200 && !v.dryRun && answer) adopt(answer, false);
    },
  });
  const result = write.data;
  const status = result?.ex.response?.status;
  return (
    <div className="stack" aria-label="scale subresource" role="region">
      <h4>/scale</h4>
      <div className="row">
        <button type="button" disabled={reread.isPending} onClick={() => reread.mutate()}>
          Read the Scale
        </button>
        <label>
          spec.replicas <input aria-label="Scale replicas" inputMode="numeric" size={5} value={replicas} onChange={(e) => setReplicas(e.target.value.replace(/[^0-9]/g, ''))} />
        </label>
        <label>
          <input type="checkbox" checked={dryRun} onChange={(e) => setDryRun(e.target.checked)} /> dryRun=All
        </label>
        <label title="metadata.resourceVersion of the Scale read in the patch: 409 Conflict if the object changed since">
          <input type="checkbox" checked={guard} onChange={(e) => setGuard(e.target.checked)} /> only if unchanged (resourceVersion {resourceVersionOf(scale) ?? '…'})
        </label>
        <button type="button" disabled={replicas === '' || !scale || write.isPending} onClick={() => write.mutate({ replicas: Number(replicas), resourceVersion: guard ? resourceVersionOf(scale) : undefined, dryRun })}>
          Scale (PATCH /scale)
        </button>
      </div>
      {(reread.error ?? read.error) && <ErrorBox error={reread.error ?? read.error} title={`Could not read ${objectPath}/scale`} />}
      {write.error && <ErrorBox error={write.error} title={`Could not scale ${objectPath}`} />}
      {outside && (
        <p className="edit-banner small" role="alert" aria-label="Scale changed on the server">
          Someone else scaled this object since the Scale was read: replicas {outside.from ?? '(unset)'} → {outside.to ?? '(unset)'}. A guarded patch now gets 409 Conflict; read the Scale again to scale from their value.
        </p>
      )}
      {scale && <pre className="edit-wire" aria-label="Scale object">{toYaml(scale)}</pre>}
      {result && (
        <>
          {status === 409 && <p className="small edit-parse-error">409 Conflict: the object changed since the Scale was read, and nothing was written. Read the Scale again.</p>}
          {status !== undefined && status >= 400 && status !== 409 && (
            <p className="small edit-parse-error" role="alert" aria-label="Scale refused">
              Not scaled: HTTP {status} {result.ex.response?.statusText}. {statusMessage(result.ex.response?.body)}
            </p>
          )}
          <p className="small" aria-label="Parent replicas">
            The parent's <code>spec.replicas</code>: {result.before ?? '(unset)'} before, {result.after ?? '(unset)'} after{result.ex.request.query.dryRun ? ' (dry run: nothing stored)' : ''}.
          </p>
          <ExchangeWire ex={result.ex} />
        </>
      )}
    </div>
  );
}

/** The message of a Status answer (why the server refused). */
function statusMessage(body: string | undefined): string {
  try {
    const v = parseJsonExact(body ?? '');
    return isStatus(v) ? (v.message ?? '') : '';
  } catch {
    return '';
  }
}
