// Media types the Kubernetes API speaks, and how to tell which one a response body is in.
// Accept presets follow what the server negotiates (API concepts: "Alternate representations of
// resources", "Receiving resources as Tables", "Efficient detection of changes"); Content-Type
// presets include the four PATCH types the server accepts.

export interface MediaPreset {
  label: string;
  value: string;
  note: string;
}

export const ACCEPT_PRESETS: MediaPreset[] = [
  { label: 'JSON', value: 'application/json', note: 'the default representation' },
  { label: 'YAML', value: 'application/yaml', note: 'same object, YAML-encoded by the server' },
  { label: 'Protobuf', value: 'application/vnd.kubernetes.protobuf', note: 'built-in types only; custom resources answer 406 unless JSON is also accepted' },
  { label: 'Protobuf, JSON fallback', value: 'application/vnd.kubernetes.protobuf, application/json', note: 'what kubectl sends for built-ins' },
  { label: 'CBOR', value: 'application/cbor', note: 'needs the CBORServingAndStorage feature gate' },
  { label: 'Table', value: 'application/json;as=Table;v=v1;g=meta.k8s.io, application/json', note: 'server-side columns, as kubectl get prints them' },
  { label: 'PartialObjectMetadata', value: 'application/json;as=PartialObjectMetadata;v=v1;g=meta.k8s.io, application/json', note: 'metadata only (single object)' },
  { label: 'PartialObjectMetadataList', value: 'application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io, application/json', note: 'metadata only (list)' },
  { label: 'Aggregated discovery', value: 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList, application/json', note: 'on /api and /apis' },
  { label: 'Any', value: '*/*', note: 'let the server choose' },
];

export const CONTENT_TYPE_PRESETS: MediaPreset[] = [
  { label: 'JSON', value: 'application/json', note: 'create (POST) and replace (PUT)' },
  { label: 'YAML', value: 'application/yaml', note: 'create and replace, YAML body' },
  { label: 'JSON Patch', value: 'application/json-patch+json', note: 'RFC 6902 operations list' },
  { label: 'Merge Patch', value: 'application/merge-patch+json', note: 'RFC 7386: lists are replaced whole' },
  { label: 'Strategic Merge Patch', value: 'application/strategic-merge-patch+json', note: 'built-in types only; merges lists by patch merge key' },
  { label: 'Apply Patch (YAML)', value: 'application/apply-patch+yaml', note: 'server-side apply; needs fieldManager' },
  { label: 'Apply Patch (CBOR)', value: 'application/apply-patch+cbor', note: 'server-side apply, CBOR body' },
  { label: 'Protobuf', value: 'application/vnd.kubernetes.protobuf', note: 'binary body' },
  { label: 'CBOR', value: 'application/cbor', note: 'binary body' },
];

export type BodyKind = 'json' | 'yaml' | 'protobuf' | 'cbor' | 'text' | 'binary' | 'empty';

/** The base media type, lowercased, without parameters: `application/json;as=Table` → `application/json`. */
export function baseType(contentType: string | null | undefined): string {
  return (contentType ?? '').split(';')[0]!.trim().toLowerCase();
}

/** The parameters of a media type, e.g. `{ as: 'Table', v: 'v1', g: 'meta.k8s.io', stream: 'watch' }`. */
export function mediaParams(contentType: string | null | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of (contentType ?? '').split(';').slice(1)) {
    const eq = part.indexOf('=');
    if (eq > 0) out[part.slice(0, eq).trim().toLowerCase()] = part.slice(eq + 1).trim().replace(/^"|"$/g, '');
  }
  return out;
}

export function bodyKind(contentType: string | null | undefined, size = 1): BodyKind {
  if (size === 0) return 'empty';
  const t = baseType(contentType);
  if (t === 'application/json' || t.endsWith('+json')) return 'json';
  if (t === 'application/yaml' || t === 'application/apply-patch+yaml' || t.endsWith('+yaml')) return 'yaml';
  if (t === 'application/vnd.kubernetes.protobuf') return 'protobuf';
  if (t === 'application/cbor' || t === 'application/cbor-seq' || t.endsWith('+cbor')) return 'cbor';
  if (t.startsWith('text/')) return 'text';
  return 'binary';
}

/**
 * The one Table check: a meta.k8s.io Table (kind `Table`, apiVersion `meta.k8s.io/*` when given,
 * rows a list when present). A Table comes back with a plain `application/json` Content-Type, so
 * only the body tells it apart from the list it replaces.
 */
export function isTableBody(v: unknown): boolean {
  if (typeof v !== 'object' || v === null) return false;
  const o = v as { kind?: unknown; apiVersion?: unknown; rows?: unknown };
  return o.kind === 'Table' && (o.apiVersion === undefined || (typeof o.apiVersion === 'string' && o.apiVersion.startsWith('meta.k8s.io/'))) && (o.rows === undefined || Array.isArray(o.rows));
}
