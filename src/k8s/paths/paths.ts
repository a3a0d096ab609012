// GVR + namespace + name (+ subresource) -> API path. The core group lives under /api, every
// other group under /apis/<group> (API concepts: "API groups").

export interface ResourceRef {
  /** '' for the core group. */
  group: string;
  version: string;
  /** Plural resource name, as in the URL: `pods`, `deployments`. */
  resource: string;
  /** Omit for cluster-scoped resources, or to address all namespaces. */
  namespace?: string;
  name?: string;
  subresource?: string;
}

export function groupVersionPath(group: string, version: string): string {
  return group === '' ? `/api/${version}` : `/apis/${group}/${version}`;
}

export function resourcePath(ref: ResourceRef): string {
  let p = groupVersionPath(ref.group, ref.version);
  if (ref.namespace) p += `/namespaces/${encodeURIComponent(ref.namespace)}`;
  p += `/${ref.resource}`;
  if (ref.name) p += `/${encodeURIComponent(ref.name)}`;
  if (ref.name && ref.subresource) p += `/${ref.subresource}`;
  return p;
}

/** `apps/v1` or `v1`, as apiVersion fields spell it. */
export function apiVersionOf(group: string, version: string): string {
  return group === '' ? version : `${group}/${version}`;
}

/** Adds query parameters to a path; undefined and '' values are left out. */
export function withQuery(path: string, query: Record<string, string | number | boolean | undefined>): string {
  const [base, existing] = path.split('?', 2) as [string, string | undefined];
  const p = new URLSearchParams(existing ?? '');
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== '') p.set(k, String(v));
  const s = p.toString();
  return s ? `${base}?${s}` : base;
}

/** The inverse of resourcePath, for the console's path completion and for links. */
export function parseResourcePath(path: string): ResourceRef | null {
  const clean = path.split('?')[0]!.replace(/\/+$/, '');
  const parts = clean.split('/').filter(Boolean);
  let i: number;
  let group: string;
  let version: string;
  if (parts[0] === 'api' && parts[1]) {
    group = '';
    version = parts[1];
    i = 2;
  } else if (parts[0] === 'apis' && parts[1] && parts[2]) {
    group = parts[1];
    version = parts[2];
    i = 3;
  } else return null;
  let namespace: string | undefined;
  if (parts[i] === 'namespaces' && parts[i + 2]) {
    namespace = decodeURIComponent(parts[i + 1]!);
    i += 2;
  }
  const resource = parts[i];
  if (!resource) return null;
  const name = parts[i + 1] ? decodeURIComponent(parts[i + 1]!) : undefined;
  const subresource = parts[i + 2];
  return { group, version, resource, namespace, name, subresource };
}
