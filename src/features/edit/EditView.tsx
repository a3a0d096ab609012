// The editors (create, PUT with its 409 on a stale resourceVersion, the four patch types, dry-run
// diffs, deletion options) are not built yet. Until they are, this view hands the object to the
// request console with a write already composed and set to dryRun=All, so nothing changes on the
// server until the user removes it.
import { useQuery } from '@tanstack/react-query';
import type { Route } from '../../app/route';
import { hrefFor } from '../../app/route';
import { discoveryQuery, findResource } from '../../k8s/discovery';
import { apiVersionOf, resourcePath } from '../../k8s/paths';

interface Recipe {
  label: string;
  explain: string;
  extra: Record<string, string>;
}

function recipes(path: string, name: string, apiVersion: string, kind: string): Recipe[] {
  const dry = { 'q.dryRun': 'All' };
  return [
    {
      label: 'JSON Merge Patch (RFC 7386)',
      explain: 'Fields in the body replace those on the server; null deletes; lists are replaced whole.',
      extra: { m: 'PATCH', p: path, ...dry, 'h.Content-Type': 'application/merge-patch+json', 'h.Accept': 'application/json', body: '{\n  "metadata": {\n    "labels": {\n      "explorer.example/touched": "yes"\n    }\n  }\n}\n' },
    },
    {
      label: 'JSON Patch (RFC 6902)',
      explain: 'A list of operations (add, remove, replace, move, copy, test) on JSON pointers.',
      extra: { m: 'PATCH', p: path, ...dry, 'h.Content-Type': 'application/json-patch+json', 'h.Accept': 'application/json', body: '[\n  { "op": "add", "path": "/metadata/labels", "value": { "explorer.example/touched": "yes" } }\n]\n' },
    },
    {
      label: 'Strategic Merge Patch',
      explain: 'Like a merge patch, but lists merge by the key the schema names (built-in types only; custom resources answer 415).',
      extra: { m: 'PATCH', p: path, ...dry, 'h.Content-Type': 'application/strategic-merge-patch+json', 'h.Accept': 'application/json', body: '{\n  "metadata": {\n    "labels": {\n      "explorer.example/touched": "yes"\n    }\n  }\n}\n' },
    },
    {
      label: 'Server-Side Apply',
      explain: 'Send the fields you manage, as fieldManager "explorer"; a field another manager owns with another value gives a 409 Conflict unless force=true.',
      extra: { m: 'PATCH', p: path, ...dry, 'q.fieldManager': 'explorer', 'h.Content-Type': 'application/apply-patch+yaml', 'h.Accept': 'application/json', body: `apiVersion: ${apiVersion}\nkind: ${kind}\nmetadata:\n  name: ${name}\n  labels:\n    explorer.example/touched: "yes"\n` },
    },
    {
      label: 'DELETE',
      explain: 'With propagationPolicy (Foreground, Background, Orphan); finalizers keep the object until they are removed.',
      extra: { m: 'DELETE', p: path, ...dry, 'q.propagationPolicy': 'Background', 'h.Accept': 'application/json' },
    },
  ];
}

export function EditView({ route, context }: { route: Route; context: string }) {
  // Apply bodies must name their apiVersion and kind (the server answers 400 "invalid object
  // type" without them); the kind comes from discovery.
  const discovery = useQuery(discoveryQuery(context));
  const kind = findResource(discovery.data, route.group, route.version, route.resource)?.kind ?? '';
  const hasObject = route.group !== undefined && route.version && route.resource && route.name;
  const path = hasObject ? resourcePath({ group: route.group!, version: route.version!, resource: route.resource!, namespace: route.namespace, name: route.name }) : undefined;
  return (
    <section>
      <h2>Edit</h2>
      <p className="muted">
        The dedicated editors are not built yet. Meanwhile, the request console sends any write; each link below opens it with the request composed and
        <code> dryRun=All</code>, so the server validates and answers without persisting anything until you remove that parameter.
      </p>
      {path && discovery.isLoading ? (
        <p className="muted">Reading discovery…</p>
      ) : path ? (
        <>
          <p>
            Object: <code>{path}</code>{' '}
            <a href={hrefFor({ view: 'console', context: route.context, namespace: route.namespace, extra: { m: 'GET', p: path, 'h.Accept': 'application/yaml' } })}>read it as YAML</a>
          </p>
          <ul>
            {recipes(path, route.name!, apiVersionOf(route.group!, route.version!), kind).map((r) => (
              <li key={r.label}>
                <a href={hrefFor({ view: 'console', context: route.context, namespace: route.namespace, extra: r.extra })}>{r.label}</a> <span className="muted small">{r.explain}</span>
              </li>
            ))}
          </ul>
        </>
      ) : (
        <p>Open an object from the Lists view and choose "edit" to get here with its write requests ready.</p>
      )}
    </section>
  );
}
