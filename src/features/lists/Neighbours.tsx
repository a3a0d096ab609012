// An object's neighbours, one click away and each as the raw request that finds it: its events (a
// field selector on involvedObject.uid, which the events resource supports), its owners (its own
// ownerReferences) and its dependents (the objects whose ownerReferences name its uid: the API has
// no selector for that, so every listable type the garbage collector would look at is read
// metadata-only, every page of it, by the Deletion view's scan in k8s/objects/dependents.ts), and a
// Pod's log, following (`pods/log?follow=true`).
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { type ApiResource, discoveryQuery, preferredResources } from '../../k8s/discovery';
import { dependentScanQuery, SCAN_ACCEPT } from '../../k8s/objects';
import { resourcePath } from '../../k8s/paths';
import { ErrorBox } from '../../ui/ErrorBox';
import { hrefFor } from '../../routing';
import { draftToExtra, requestToDraft } from '../console';

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

export function Neighbours({ context, namespace, resource, name, uid, owners }: { context: string; namespace?: string; resource: string; name: string; uid: string; owners: OwnerReference[] }) {
  const discovery = useQuery(discoveryQuery(context));
  const resources = discovery.data ? preferredResources(discovery.data) : [];
  // Asked when the button is pressed: a scan lists every type the garbage collector would look at.
  const [asked, setAsked] = useState(false);
  const scan = useQuery(dependentScanQuery(context, discovery.data, asked ? { namespace, namespaced: !!namespace, uid } : undefined));
  const dependents = scan.data;

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
          <button type="button" className="linklike" disabled={!discovery.data || scan.isFetching} onClick={() => (asked ? void scan.refetch() : setAsked(true))}>
            Find its dependents
          </button>{' '}
          <span className="muted">(the objects whose ownerReferences name uid {uid}; one metadata-only list per resource{namespace ? ` in ${namespace}` : ''})</span>
          {scan.isFetching && <p>listing…</p>}
          {scan.error ? <ErrorBox error={scan.error} title="Could not look for dependents" /> : null}
          {dependents && (
            <div data-testid="dependents">
              <p>
                {dependents.direct.length} found in {dependents.listed} lists
                {dependents.failed.length > 0 && `; ${dependents.failed.length} could not be listed (${dependents.failed.join(', ')}): a dependent there is not shown`}
              </p>
              <ul>
                {dependents.direct.map((d) => (
                  <li key={`${d.resource.resource}/${d.namespace ?? ''}/${d.name}`}>
                    <a href={hrefFor({ view: 'lists', group: d.resource.group, version: d.resource.version, resource: d.resource.resource, name: d.name, namespace: d.namespace, extra: {} })}>
                      {d.resource.kind} {d.name}
                    </a>
                  </li>
                ))}
              </ul>
              <details>
                <summary>requests sent</summary>
                <pre tabIndex={0} aria-label="Requests sent to find dependents">
                  {dependents.sent.map((p) => `GET ${p}\nAccept: ${SCAN_ACCEPT}`).join('\n')}
                </pre>
              </details>
            </div>
          )}
        </li>
      </ul>
    </section>
  );
}
