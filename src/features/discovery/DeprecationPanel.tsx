// Is this API version deprecated? The server says so in two places: a custom resource's CRD marks
// its versions (`deprecated`, `deprecationWarning`), and every request to a deprecated version,
// built-in or custom, carries a `Warning: 299 - "... is deprecated ..."` header. So: read the CRD
// when there is one, and make one small request (`list` with limit=1) to show the server's warnings.
import { queryOptions, skipToken, useQuery } from '@tanstack/react-query';
import { parseWarningHeader } from '../../codecs';
import { kubeFetch } from '../../k8s/client';
import type { ApiResource } from '../../k8s/discovery';
import { resourcePath } from '../../k8s/paths';
import { WarningList } from '../../ui/WarningList';

interface Crd {
  spec?: { versions?: { name: string; deprecated?: boolean; deprecationWarning?: string; served?: boolean; storage?: boolean }[] };
}

/** One small list (limit=1, metadata only) of the resource, for the Warning headers the server sends with it. */
const warningsProbeQuery = (context: string, resource: ApiResource, namespace: string | undefined) =>
  queryOptions({
    queryKey: ['k8s', context, 'probe-warnings', resource.group, resource.version, resource.resource, namespace ?? ''],
    queryFn: resource.verbs.includes('list')
      ? async ({ signal }) => {
          const res = await kubeFetch({
            context,
            path: resourcePath({ group: resource.group, version: resource.version, resource: resource.resource, namespace: resource.namespaced ? namespace : undefined }),
            query: { limit: 1 },
            headers: { Accept: 'application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io, application/json' },
            signal,
          });
          await res.body?.cancel();
          return { status: res.status, warnings: parseWarningHeader(res.headers.get('Warning')) };
        }
      : skipToken,
    staleTime: 60_000,
  });

/** The CustomResourceDefinition named `name` (null when there is none, or it cannot be read). */
const crdQuery = (context: string, name: string | undefined) =>
  queryOptions({
    queryKey: ['k8s', context, 'crd', name ?? ''],
    retry: false,
    queryFn: name
      ? async ({ signal }) => {
          const res = await kubeFetch({ context, path: `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${name}`, headers: { Accept: 'application/json' }, signal });
          return res.ok ? ((await res.json()) as Crd) : null;
        }
      : skipToken,
  });

export function DeprecationPanel({ context, resource, namespace }: { context: string; resource: ApiResource; namespace?: string }) {
  const probe = useQuery(warningsProbeQuery(context, resource, namespace));
  // Group names with a dot outside *.k8s.io are custom resources or aggregated APIs.
  const maybeCrd = resource.group.includes('.') && !resource.group.endsWith('.k8s.io');
  const crd = useQuery(crdQuery(context, maybeCrd ? `${resource.resource}.${resource.group}` : undefined));
  const version = crd.data?.spec?.versions?.find((v) => v.name === resource.version);
  return (
    <div>
      {version?.deprecated && (
        <p className="warning-list" role="note">
          <strong className="warn">Deprecated version</strong> (from its CustomResourceDefinition): {version.deprecationWarning ?? `${resource.group}/${resource.version} ${resource.kind} is deprecated`}
        </p>
      )}
      {probe.data && <WarningList warnings={probe.data.warnings} title={`Warnings the server sends for a request to ${resource.group ? `${resource.group}/` : ''}${resource.version} ${resource.resource}`} />}
    </div>
  );
}
