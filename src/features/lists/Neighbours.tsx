// An object's neighbours, one click away and each as the raw request that finds it: its events (a
// field selector on involvedObject.uid, which the events resource supports), its owners (its own
// ownerReferences) and its dependents (the objects of its namespace whose ownerReferences name its
// uid: the API has no selector for that, so each listable resource is read metadata-only, as the
// garbage collector's graph would), and a Pod's log, following (`pods/log?follow=true`).
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { kubeJson } from '../../k8s/client';
import { type ApiResource, discoveryQuery, preferredResources } from '../../k8s/discovery';
import { resourcePath } from '../../k8s/paths';
import { hrefFor } from '../../routing';
import { draftToExtra, requestToDraft } from '../console';

const METADATA_LIST = 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json';

export interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
}

/** A link to the console with this GET filled in: the raw request, sent when the user presses Send. */
const consoleHref = (path: string, accept = 'application/json') => hrefFor({ view: 'console', extra: draftToExtra(requestToDraft({ method: 'GET', path, headers: [['Accept', accept]] })) });

/** The events about an object: its uid in involvedObject (namespaced objects' events live in their namespace). */
export function eventsPath(namespace: string | undefined, uid: string): string {
  return `${resourcePath({ group: '', version: 'v1', resource: 'events', namespace })}?fieldSelector=${encodeURIComponent(`involvedObject.uid=${uid}`)}`;
}

/** The resource an ownerReference names, from discovery (apiVersion and kind to a plural). */
export function ownerResource(resources: ApiResource[], o: Pick<OwnerReference, 'apiVersion' | 'kind'>): ApiResource | undefined {
  const [group, version] = o.apiVersion.includes('/') ? (o.apiVersion.split('/') as [string, string]) : ['', o.apiVersion];
  return resources.find((r) => r.group === group && r.version === version && r.kind === o.kind) ?? resources.find((r) => r.group === group && r.kind === o.kind);
}

interface Dependent {
  resource: ApiResource;
  name: string;
}

export function Neighbours({ context, namespace, resource, name, uid, owners }: { context: string; namespace?: string; resource: string; name: string; uid: string; owners: OwnerReference[] }) {
  const discovery = useQuery(discoveryQuery(context));
  const resources = discovery.data ? preferredResources(discovery.data) : [];
  const [dependents, setDependents] = useState<{ sent: string[]; found: Dependent[]; busy: boolean } | null>(null);

  const findDependents = async () => {
    // Dependents share the owner's namespace (or are cluster-scoped when the owner is): one metadata-only list per listable resource there.
    const candidates = resources.filter((r) => r.verbs.includes('list') && r.namespaced === !!namespace && !r.resource.includes('/'));
    const state = { sent: [] as string[], found: [] as Dependent[], busy: true };
    setDependents({ ...state });
    for (let i = 0; i < candidates.length; i += 4) {
      await Promise.all(
        candidates.slice(i, i + 4).map(async (r) => {
          const path = `${resourcePath({ group: r.group, version: r.version, resource: r.resource, namespace })}?limit=500`;
          state.sent.push(path);
          const list = await kubeJson<{ items?: { metadata?: { name?: string; ownerReferences?: { uid?: string }[] } }[] }>({ context, path, headers: { Accept: METADATA_LIST } }).catch(() => ({ items: [] }));
          for (const it of list.items ?? []) if (it.metadata?.ownerReferences?.some((o) => o.uid === uid)) state.found.push({ resource: r, name: it.metadata.name ?? '' });
        }),
      );
      setDependents({ ...state, sent: [...state.sent], found: [...state.found] });
    }
    setDependents({ sent: state.sent, found: state.found, busy: false });
  };

  return (
    <section className="lists-neighbours small" aria-label="Neighbours">
      <h4>Neighbours</h4>
      <ul>
        <li>
          <a href={consoleHref(eventsPath(namespace, uid))}>Its events</a> <code>GET {eventsPath(namespace, uid)}</code>
        </li>
        {resource === 'pods' && namespace && (
          <li>
            <a href={consoleHref(`/api/v1/namespaces/${encodeURIComponent(namespace)}/pods/${encodeURIComponent(name)}/log?follow=true&tailLines=100`, '*/*')}>Its log, following</a>{' '}
            <code>GET …/pods/{name}/log?follow=true&amp;tailLines=100</code>
          </li>
        )}
        {owners.map((o) => {
          const r = ownerResource(resources, o);
          const to = r ? { view: 'lists' as const, group: r.group, version: r.version, resource: r.resource, name: o.name, namespace: r.namespaced ? namespace : undefined, extra: {} } : undefined;
          return (
            <li key={o.uid}>
              Owner{o.controller ? ' (controller)' : ''}: {to ? <a href={hrefFor(to)}>{o.kind} {o.name}</a> : `${o.kind} ${o.name}`}
              {r && <code> GET {resourcePath({ group: r.group, version: r.version, resource: r.resource, namespace: r.namespaced ? namespace : undefined, name: o.name })}</code>}
            </li>
          );
        })}
        <li>
          <button type="button" className="linklike" disabled={!discovery.data || dependents?.busy} onClick={() => void findDependents()}>
            Find its dependents
          </button>{' '}
          <span className="muted">(the objects whose ownerReferences name uid {uid}; one metadata-only list per resource{namespace ? ` in ${namespace}` : ''})</span>
          {dependents && (
            <div data-testid="dependents">
              <p>
                {dependents.busy ? 'listing… ' : ''}
                {dependents.found.length} found in {dependents.sent.length} lists
              </p>
              <ul>
                {dependents.found.map((d) => (
                  <li key={`${d.resource.resource}/${d.name}`}>
                    <a href={hrefFor({ view: 'lists', group: d.resource.group, version: d.resource.version, resource: d.resource.resource, name: d.name, namespace, extra: {} })}>
                      {d.resource.kind} {d.name}
                    </a>
                  </li>
                ))}
              </ul>
              <details>
                <summary>requests sent</summary>
                <pre tabIndex={0} aria-label="Requests sent to find dependents">
                  {dependents.sent.map((p) => `GET ${p}\nAccept: ${METADATA_LIST}`).join('\n')}
                </pre>
              </details>
            </div>
          )}
        </li>
      </ul>
    </section>
  );
}
