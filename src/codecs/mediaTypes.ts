// Media types the Kubernetes API speaks, and how to tell which one a response body is in.
// Accept presets follow what the server negotiates (API concepts: "Alternate representations of
// resources", "Receiving resources as Tables", "Efficient detection of changes"); Content-Type
// presets include the four PATCH types the server accepts.
import { baseType, formatOfContentType, WIRE_FORMATS, type WireFormatId } from './formats';

export interface MediaPreset {
  label: string;
  value: string;
  note: string;
}

export const ACCEPT_PRESETS: MediaPreset[] = [
  // One object in each wire format (formats.ts), then the server's other representations.
  ...WIRE_FORMATS.map((f) => ({ label: f.label, value: f.mediaType, note: f.notes.accept })),
  { label: 'Protobuf, JSON fallback', value: 'application/vnd.kubernetes.protobuf, application/json', note: 'what kubectl sends for built-ins' },
  { label: 'Table', value: 'application/json;as=Table;v=v1;g=meta.k8s.io, application/json', note: 'server-side columns, as kubectl get prints them' },
  { label: 'PartialObjectMetadata', value: 'application/json;as=PartialObjectMetadata;v=v1;g=meta.k8s.io, application/json', note: 'metadata only (single object)' },
  { label: 'PartialObjectMetadataList', value: 'application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io, application/json', note: 'metadata only (list)' },
  { label: 'Aggregated discovery', value: 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList, application/json', note: 'on /api and /apis' },
  { label: 'Any', value: '*/*', note: 'let the server choose' },
];

export const CONTENT_TYPE_PRESETS: MediaPreset[] = [
  ...WIRE_FORMATS.filter((f) => !f.binary).map((f) => ({ label: f.label, value: f.mediaType, note: f.notes.contentType })),
  { label: 'JSON Patch', value: 'application/json-patch+json', note: 'RFC 6902 operations list' },
  { label: 'Merge Patch', value: 'application/merge-patch+json', note: 'RFC 7386: lists are replaced whole' },
  { label: 'Strategic Merge Patch', value: 'application/strategic-merge-patch+json', note: 'built-in types only; merges lists by patch merge key' },
  { label: 'Apply Patch (YAML)', value: 'application/apply-patch+yaml', note: 'server-side apply; needs fieldManager' },
  { label: 'Apply Patch (CBOR)', value: 'application/apply-patch+cbor', note: 'server-side apply, CBOR body' },
  // The binary formats last: the console encodes the edited object into them.
  ...WIRE_FORMATS.filter((f) => f.binary).map((f) => ({ label: f.label, value: f.mediaType, note: f.notes.contentType })),
];

/** A body's kind: one of the wire formats (formats.ts), other text, other bytes, or nothing. */
export type BodyKind = WireFormatId | 'text' | 'binary' | 'empty';

export { baseType };

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
  const format = formatOfContentType(contentType);
  if (format) return format.id;
  return baseType(contentType).startsWith('text/') ? 'text' : 'binary';
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
