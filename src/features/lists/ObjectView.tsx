// One object, as the server returns it on GET, with the metadata that matters when reading a list:
// resourceVersion, uid, generation, owner references, finalizers. managedFields are hidden unless
// asked for: they are often larger than the rest of the object.
import { useQuery } from '@tanstack/react-query';
import { toYaml } from '../../codecs/yaml';
import { hrefFor, navigate } from '../../routing';
import { objectQuery as sharedObjectQuery } from '../../k8s/objects';
import type { ResourceRef } from '../../k8s/paths';
import { toKyaml } from '../../codecs/kyaml';
import { ErrorBox } from '../../ui/ErrorBox';
import { toJson } from '../../codecs/json';
import { Neighbours, type OwnerReference } from './Neighbours';

interface KubeObject {
  apiVersion?: string;
  kind?: string;
  metadata?: {
    name?: string;
    namespace?: string;
    uid?: string;
    resourceVersion?: string;
    generation?: number;
    creationTimestamp?: string;
    deletionTimestamp?: string;
    ownerReferences?: OwnerReference[];
    finalizers?: string[];
    managedFields?: unknown[];
  };
  [k: string]: unknown;
}

// The one object query, shared with the Edit and Ownership views.
export const objectQuery = (context: string, ref: ResourceRef) => sharedObjectQuery<KubeObject>(context, ref);

export function ObjectView({
  context,
  objRef,
  format,
  showManagedFields,
  closeHref,
  onClose,
}: {
  context: string;
  objRef: ResourceRef;
  format: 'yaml' | 'json' | 'kyaml';
  showManagedFields: boolean;
  closeHref: string;
  onClose: () => void;
}) {
  const q = useQuery(objectQuery(context, objRef));
  const obj = q.data;
  const m = obj?.metadata;
  const shown = obj && !showManagedFields && m?.managedFields ? { ...obj, metadata: { ...m, managedFields: undefined } } : obj;
  const text = shown ? (format === 'json' ? toJson(shown, 2) : format === 'kyaml' ? toKyaml(shown) : toYaml(shown)) : '';
  const target = { group: objRef.group, version: objRef.version, resource: objRef.resource, namespace: objRef.namespace, name: objRef.name };

  return (
    <aside className="lists-object" aria-label={`Object ${objRef.name}`}>
      <header className="lists-object-head">
        <h3>
          {obj?.kind ?? objRef.resource} {objRef.namespace ? `${objRef.namespace}/` : ''}
          {objRef.name}
        </h3>
        <a
          href={closeHref}
          onClick={(e) => {
            if (e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return;
            e.preventDefault();
            onClose();
          }}
        >
          Close
        </a>
      </header>
      <nav className="lists-object-links" aria-label="Object actions">
        <a href={hrefFor({ view: 'watch', ...target })}>Watch it</a>
        <a href={hrefFor({ view: 'edit', ...target })}>Edit it</a>
        <a href={hrefFor({ view: 'ownership', ...target })}>Who owns its fields</a>
      </nav>
      {q.error ? <ErrorBox error={q.error} title="GET failed" /> : null}
      {q.isLoading && <p className="muted">Loading…</p>}
      {m && (
        <dl className="kv small">
          <dt>resourceVersion</dt>
          <dd>{m.resourceVersion}</dd>
          <dt>uid</dt>
          <dd>{m.uid}</dd>
          <dt>generation</dt>
          <dd>{m.generation ?? <span className="muted">not set (this resource does not track generation)</span>}</dd>
          <dt>created</dt>
          <dd>{m.creationTimestamp}</dd>
          {m.deletionTimestamp && (
            <>
              <dt>deleting since</dt>
              <dd>{m.deletionTimestamp}</dd>
            </>
          )}
          <dt>owner references</dt>
          <dd>
            {m.ownerReferences?.length ? (
              <ul>
                {m.ownerReferences.map((o) => (
                  <li key={o.uid}>
                    {o.kind} {o.name} <span className="muted">({o.apiVersion}{o.controller ? ', controller' : ''})</span>
                  </li>
                ))}
              </ul>
            ) : (
              <span className="muted">none</span>
            )}
          </dd>
          <dt>finalizers</dt>
          <dd>{m.finalizers?.length ? m.finalizers.join(', ') : <span className="muted">none</span>}</dd>
        </dl>
      )}
      {m?.uid && <Neighbours context={context} namespace={objRef.namespace} resource={objRef.resource} name={objRef.name ?? ''} uid={m.uid} owners={m.ownerReferences ?? []} />}
      <div className="lists-pagebar">
        <label>
          <input type="radio" name="lists-format" checked={format === 'yaml'} onChange={() => navigate({ extra: { format: 'yaml' } }, { replace: true })} /> YAML
        </label>
        <label>
          <input type="radio" name="lists-format" checked={format === 'json'} onChange={() => navigate({ extra: { format: 'json' } }, { replace: true })} /> JSON
        </label>
        <label title="What kubectl get -o kyaml prints: every string quoted, {} and [] everywhere">
          <input type="radio" name="lists-format" checked={format === 'kyaml'} onChange={() => navigate({ extra: { format: 'kyaml' } }, { replace: true })} /> KYAML
        </label>
        <label>
          <input type="checkbox" checked={showManagedFields} onChange={(e) => navigate({ extra: { managedFields: e.target.checked ? 'show' : '' } }, { replace: true })} /> Show managedFields
          {m?.managedFields && !showManagedFields ? <span className="muted small"> ({m.managedFields.length} {m.managedFields.length === 1 ? 'entry' : 'entries'} hidden)</span> : null}
        </label>
      </div>
      {obj && (
        <pre className="lists-object-text" aria-label="Object text">
          {text}
        </pre>
      )}
    </aside>
  );
}
