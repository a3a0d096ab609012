// The wire formats the Kubernetes API speaks, one entry each: the registry the views read (the
// console's body tabs and binary request bodies, the Encodings view's rows, the Watch view's
// encodings, the recording's base64 bodies, bodyKind). A new format is one entry here, its codec
// functions in formatCodecs.ts (a Record over the same ids: the compiler asks for the entry), and
// its tests. This file imports no codec, so reading a Content-Type costs no decoder in the bundle.
//
// Which formats kube-apiserver serves (API concepts, "Alternate representations of resources"):
// JSON always; YAML for reads and writes of one object; Protobuf for built-in types only (a custom
// resource answers 406 unless JSON is also accepted); CBOR behind the CBORServingAndStorage gate.

export interface WireFormatEntry<Id extends string = string> {
  /** What the code calls it (mediaTypes' bodyKind, a watch's encoding). */
  id: Id;
  /** What the views call it. */
  label: string;
  /** The media type of one object, as Accept and as Content-Type. */
  mediaType: string;
  /** The console's preset notes: what asking for it (Accept) and sending it (Content-Type) mean. */
  notes: { accept: string; contentType: string };
  /** Base media types (lowercased, no parameters) whose body is in this format. */
  matches(base: string): boolean;
  /** Bytes, not text: a recording keeps the body as base64, the console decodes it and shows it in hex. */
  binary: boolean;
  /** Request Content-Types whose body the console encodes from the edited object (JSON or YAML text) before sending. */
  encodedRequestTypes: readonly string[];
  /** The capability probe (k8s/capabilities) that says whether this server serves it; none: always served. */
  capability?: 'protobuf' | 'cbor';
  /** The Encodings view asks for the object in this format (one row). */
  encodings: boolean;
  /** The Watch view offers it as a pane's encoding: what the watch sends as Accept. */
  watch?: { accept: string };
}

export const WIRE_FORMATS = [
  {
    id: 'json',
    notes: { accept: 'the default representation', contentType: 'create (POST) and replace (PUT)' },
    label: 'JSON',
    mediaType: 'application/json',
    matches: (t) => t === 'application/json' || t.endsWith('+json'),
    binary: false,
    encodedRequestTypes: [],
    encodings: true,
    watch: { accept: 'application/json' },
  },
  {
    id: 'yaml',
    notes: { accept: 'same object, YAML-encoded by the server', contentType: 'create and replace, YAML body' },
    label: 'YAML',
    mediaType: 'application/yaml',
    matches: (t) => t === 'application/yaml' || t.endsWith('+yaml'),
    binary: false,
    encodedRequestTypes: [],
    encodings: true,
  },
  {
    id: 'protobuf',
    notes: { accept: 'built-in types only; custom resources answer 406 unless JSON is also accepted', contentType: 'binary body' },
    label: 'Protobuf',
    mediaType: 'application/vnd.kubernetes.protobuf',
    matches: (t) => t === 'application/vnd.kubernetes.protobuf',
    binary: true,
    encodedRequestTypes: ['application/vnd.kubernetes.protobuf'],
    capability: 'protobuf',
    encodings: true,
    // Protobuf first, JSON for the types that have no Protobuf form (custom resources): the server
    // then answers JSON, and the stream reads whichever Content-Type comes back.
    watch: { accept: 'application/vnd.kubernetes.protobuf;type=watch, application/json' },
  },
  {
    id: 'cbor',
    notes: { accept: 'needs the CBORServingAndStorage feature gate', contentType: 'binary body' },
    label: 'CBOR',
    mediaType: 'application/cbor',
    // A CBOR watch is `application/cbor-seq`; server-side apply takes `application/apply-patch+cbor`.
    matches: (t) => t === 'application/cbor' || t === 'application/cbor-seq' || t.endsWith('+cbor'),
    binary: true,
    encodedRequestTypes: ['application/cbor', 'application/apply-patch+cbor'],
    capability: 'cbor',
    encodings: true,
  },
] as const satisfies readonly WireFormatEntry[];

/** The formats' ids, read from the registry: adding an entry adds its id. */
export type WireFormatId = (typeof WIRE_FORMATS)[number]['id'];
/** The formats a watch may ask for (those with `watch`). */
export type WatchFormatId = Extract<(typeof WIRE_FORMATS)[number], { watch: object }>['id'];

/** The base media type, lowercased, without parameters: `application/json;as=Table` → `application/json`. */
export function baseType(contentType: string | null | undefined): string {
  return (contentType ?? '').split(';')[0]!.trim().toLowerCase();
}

/** The registry, each entry's id typed as the union of them. */
type Entry = WireFormatEntry<WireFormatId>;
const ENTRIES: readonly Entry[] = WIRE_FORMATS;

export function wireFormat(id: WireFormatId): Entry {
  return ENTRIES.find((f) => f.id === id)!;
}

/** The format of a body by its Content-Type; undefined for text/* and other bytes. */
export function formatOfContentType(contentType: string | null | undefined): Entry | undefined {
  const t = baseType(contentType);
  return ENTRIES.find((f) => f.matches(t));
}

/** The format whose object the console encodes for a request of this Content-Type, if any. */
export function encodedRequestFormat(contentType: string): Entry | undefined {
  const t = baseType(contentType);
  return ENTRIES.find((f) => f.encodedRequestTypes.includes(t));
}

/** The formats a watch pane may ask for. */
export function watchFormats(): (WireFormatEntry<WatchFormatId> & { watch: { accept: string } })[] {
  return ENTRIES.filter((f): f is WireFormatEntry<WatchFormatId> & { watch: { accept: string } } => f.watch !== undefined);
}

/** True for a body kind (mediaTypes' bodyKind) that is one of the binary wire formats. */
export function isBinaryFormat(kind: string): boolean {
  return ENTRIES.some((f) => f.id === kind && f.binary);
}
