// Subresources, as discovery lists them for the resource: /status and /scale get their own
// reads and writes here; the others are listed with their verbs.
// - /status: the status half of the object. Writes through it change only .status (a PUT or patch
//   of the main resource ignores .status for resources that have the subresource), and Server-Side
//   Apply records them in a managedFields entry with `subresource: status`.
// - /scale: an autoscaling/v1 Scale object whose spec.replicas is the parent's replicas field
//   (spec.replicas for Deployments; specReplicasPath for custom resources).
import { useState } from 'react';
import { toYaml } from '../../codecs/yaml';
import { kubeJson } from '../../k8s/client';
import type { ApiResource } from '../../k8s/discovery';
import type { ManagedFieldsEntry } from '../../k8s/fields';
import { type JsonObject, isObject } from '../../k8s/patch';
import { CodeEditor } from '../../ui/CodeEditor';
import { buildWriteRequest, type Exchange, requestLine, sendExchange, type WriteMode } from './request';

function Wire({ ex }: { ex: Exchange }) {
  const r = ex.response;
  return (
    <details className="edit-exchange" open>
      <summary>
        {requestLine(ex.request)} → {r ? `HTTP ${r.status} ${r.statusText}` : `failed: ${ex.error}`}
      </summary>
      <pre className="edit-wire">{`${requestLine(ex.request)}\n${Object.entries(ex.request.headers)
        .map(([k, v]) => `${k}: ${v}`)
        .join('\n')}${ex.request.body ? `\n\n${ex.request.body}` : ''}`}</pre>
      {r && <pre className="edit-wire">{`HTTP ${r.status} ${r.statusText}\n\n${r.body.length > 3000 ? `${r.body.slice(0, 3000)}…` : r.body}`}</pre>}
    </details>
  );
}

const replicasOf = (o: unknown) => (isObject(o) && isObject(o.spec) && typeof o.spec.replicas === 'number' ? o.spec.replicas : undefined);

function ScalePanel({ context, objectPath }: { context: string; objectPath: string }) {
  const [scale, setScale] = useState<JsonObject>();
  const [replicas, setReplicas] = useState('');
  const [dryRun, setDryRun] = useState(false);
  const [result, setResult] = useState<{ ex: Exchange; before?: number; after?: number }>();
  const read = async () => {
    const s = await kubeJson<JsonObject>({ context, path: `${objectPath}/scale` });
    setScale(s);
    const r = replicasOf(s);
    if (r !== undefined && replicas === '') setReplicas(String(r));
  };
  const write = async () => {
    const before = replicasOf(await kubeJson<JsonObject>({ context, path: objectPath }));
    const req = buildWriteRequest('merge-patch', { objectPath: `${objectPath}/scale`, collectionPath: '' }, `${JSON.stringify({ spec: { replicas: Number(replicas) } })}\n`, { dryRun, fieldValidation: '', fieldManager: 'kube-api-explorer', force: false });
    const ex = await sendExchange(context, 'merge-patch', req);
    const after = replicasOf(await kubeJson<JsonObject>({ context, path: objectPath }));
    setResult({ ex, before, after });
    await read();
  };
  return (
    <div className="stack" aria-label="scale subresource" role="region">
      <h4>/scale</h4>
      <div className="row">
        <button type="button" onClick={() => void read()}>
          Read the Scale
        </button>
        <label>
          spec.replicas <input aria-label="Scale replicas" inputMode="numeric" size={5} value={replicas} onChange={(e) => setReplicas(e.target.value.replace(/[^0-9]/g, ''))} />
        </label>
        <label>
          <input type="checkbox" checked={dryRun} onChange={(e) => setDryRun(e.target.checked)} /> dryRun=All
        </label>
        <button type="button" disabled={replicas === ''} onClick={() => void write()}>
          Scale (PATCH /scale)
        </button>
      </div>
      {scale && <pre className="edit-wire" aria-label="Scale object">{toYaml(scale)}</pre>}
      {result && (
        <>
          <p className="small" aria-label="Parent replicas">
            The parent's <code>spec.replicas</code>: {result.before ?? '(unset)'} before, {result.after ?? '(unset)'} after{result.ex.request.query.dryRun ? ' (dry run: nothing stored)' : ''}.
          </p>
          <Wire ex={result.ex} />
        </>
      )}
    </div>
  );
}

function StatusPanel({ context, objectPath, object }: { context: string; objectPath: string; object: JsonObject }) {
  const meta = isObject(object.metadata) ? object.metadata : {};
  const skeleton = { apiVersion: object.apiVersion, kind: object.kind, metadata: { name: meta.name, ...(meta.namespace ? { namespace: meta.namespace } : {}) }, status: isObject(object.status) ? object.status : {} };
  const [text, setText] = useState(`${JSON.stringify(skeleton, null, 2)}\n`);
  const [mode, setMode] = useState<WriteMode>('apply');
  const [manager, setManager] = useState('status-writer');
  const [dryRun, setDryRun] = useState(false);
  const [sent, setSent] = useState<{ ex: Exchange; entries: ManagedFieldsEntry[] }>();
  const [main, setMain] = useState<{ ex: Exchange; ignored: boolean }>();
  const opts = { dryRun, fieldValidation: '' as const, fieldManager: manager, force: false };
  const send = async () => {
    const ex = await sendExchange(context, mode, buildWriteRequest(mode, { objectPath: `${objectPath}/status`, collectionPath: '' }, text, { ...opts, force: mode === 'apply' }));
    let entries: ManagedFieldsEntry[];
    try {
      const o = JSON.parse(ex.response?.body ?? '') as { metadata?: { managedFields?: ManagedFieldsEntry[] } };
      entries = (o.metadata?.managedFields ?? []).filter((e) => e.subresource === 'status');
    } catch {
      entries = [];
    }
    setSent({ ex, entries });
  };
  // The same body to the main resource, as a dry run: the server ignores the status part there.
  const tryMain = async () => {
    const ex = await sendExchange(context, mode, buildWriteRequest(mode, { objectPath, collectionPath: '' }, text, { ...opts, dryRun: true, force: mode === 'apply' }));
    let ignored: boolean;
    try {
      const answer = JSON.parse(ex.response?.body ?? '') as JsonObject;
      const current = await kubeJson<JsonObject>({ context, path: objectPath });
      ignored = JSON.stringify(answer.status ?? null) === JSON.stringify(current.status ?? null);
    } catch {
      ignored = false;
    }
    setMain({ ex, ignored });
  };
  return (
    <div className="stack" aria-label="status subresource" role="region">
      <h4>/status</h4>
      <CodeEditor value={text} onChange={setText} language="json" ariaLabel="Status body" height="200px" />
      <div className="row">
        <label>
          write as
          <select aria-label="Status write mode" value={mode} onChange={(e) => setMode(e.target.value as WriteMode)}>
            <option value="apply">Server-Side Apply (force)</option>
            <option value="merge-patch">JSON Merge Patch</option>
            <option value="replace">PUT (body needs metadata.resourceVersion or none)</option>
          </select>
        </label>
        <label>
          fieldManager <input aria-label="Status field manager" value={manager} onChange={(e) => setManager(e.target.value)} size={14} />
        </label>
        <label>
          <input type="checkbox" checked={dryRun} onChange={(e) => setDryRun(e.target.checked)} /> dryRun=All
        </label>
        <button type="button" onClick={() => void send()}>
          Send to /status
        </button>
        <button type="button" onClick={() => void tryMain()} title="Sends the same body to the main resource with dryRun=All">
          Same body to the main resource (dry run)
        </button>
      </div>
      {sent && (
        <>
          <p className="small" aria-label="Status ownership">
            managedFields entries under subresource <code>status</code>: {sent.entries.length === 0 ? 'none' : sent.entries.map((e) => `${e.manager} (${e.operation})`).join(', ')}. The Ownership view shows them with a “status” badge.
          </p>
          <Wire ex={sent.ex} />
        </>
      )}
      {main && (
        <>
          <p className="small" aria-label="Main resource and status">
            {main.ignored ? 'The main resource left .status as it was: status changes go through /status only.' : 'The answer’s .status differs from the stored one (this resource has no separate status handling, or the write failed).'}
          </p>
          <Wire ex={main.ex} />
        </>
      )}
    </div>
  );
}

export function Subresources({ context, resource, objectPath, object }: { context: string; resource: ApiResource; objectPath: string; object: JsonObject }) {
  if (resource.subresources.length === 0) return null;
  const has = (n: string) => resource.subresources.some((s) => s.name === n);
  return (
    <section className="edit-wide stack" aria-label="Subresources">
      <h3>Subresources</h3>
      <p className="muted small">
        Discovery lists for {resource.resource}:{' '}
        {resource.subresources.map((s) => (
          <span key={s.name} className="badge">
            {s.name} ({s.verbs.join(', ') || 'no verbs'})
          </span>
        ))}
      </p>
      {has('status') && <StatusPanel context={context} objectPath={objectPath} object={object} />}
      {has('scale') && <ScalePanel context={context} objectPath={objectPath} />}
    </section>
  );
}
