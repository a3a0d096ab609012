// OpenAPI v3 schemas, browsable like `kubectl explain`. The server publishes an index at
// /openapi/v3 listing one document per group version, each with a `?hash=` URL whose content never
// changes (a new hash means a new document), so a fetched document can be cached for good.
// Within a document, built-in types are `#/components/schemas/<name>` references; a field that
// adds its own description or default to a reference wraps it as `allOf: [{$ref}]`.
import { queryOptions } from '@tanstack/react-query';
import { kubeJson } from '../client';

export interface OpenApiIndex {
  paths: Record<string, { serverRelativeURL: string }>;
}

export interface Schema {
  $ref?: string;
  allOf?: Schema[];
  oneOf?: Schema[];
  anyOf?: Schema[];
  type?: string;
  format?: string;
  description?: string;
  required?: string[];
  properties?: Record<string, Schema>;
  additionalProperties?: Schema | boolean;
  items?: Schema;
  default?: unknown;
  enum?: unknown[];
  nullable?: boolean;
  'x-kubernetes-group-version-kind'?: { group: string; version: string; kind: string }[];
  'x-kubernetes-list-type'?: string;
  'x-kubernetes-list-map-keys'?: string[];
  'x-kubernetes-map-type'?: string;
  'x-kubernetes-patch-strategy'?: string;
  'x-kubernetes-patch-merge-key'?: string;
  'x-kubernetes-preserve-unknown-fields'?: boolean;
  'x-kubernetes-int-or-string'?: boolean;
  'x-kubernetes-embedded-resource'?: boolean;
  'x-kubernetes-validations'?: CelRule[];
  [k: string]: unknown;
}

export interface CelRule {
  rule: string;
  message?: string;
  messageExpression?: string;
  reason?: string;
  fieldPath?: string;
  optionalOldSelf?: boolean;
}

export interface OpenApiDocument {
  openapi: string;
  components?: { schemas?: Record<string, Schema> };
  paths?: Record<string, unknown>;
}

/** The index key of a group version: `api/v1`, `apis/apps/v1`. */
export function groupVersionKey(group: string, version: string): string {
  return group === '' ? `api/${version}` : `apis/${group}/${version}`;
}

export const openApiIndexQuery = (context: string) =>
  queryOptions({
    queryKey: ['k8s', context, 'openapi', 'index'],
    queryFn: ({ signal }) => kubeJson<OpenApiIndex>({ context, path: '/openapi/v3', signal }),
    staleTime: 60_000,
  });

export async function fetchGroupVersionDocument(context: string, index: OpenApiIndex, group: string, version: string, signal?: AbortSignal): Promise<OpenApiDocument> {
  const entry = index.paths[groupVersionKey(group, version)];
  if (!entry) throw new Error(`the OpenAPI v3 index has no document for ${groupVersionKey(group, version)}`);
  return kubeJson<OpenApiDocument>({ context, path: entry.serverRelativeURL, signal });
}

const REF_PREFIX = '#/components/schemas/';

export function refName(ref: string): string {
  return ref.startsWith(REF_PREFIX) ? ref.slice(REF_PREFIX.length) : ref;
}

/** `io.k8s.api.core.v1.PodSpec` → `PodSpec`, as kubectl explain names types. */
export function shortTypeName(name: string): string {
  return name.slice(name.lastIndexOf('.') + 1);
}

export interface Resolved {
  schema: Schema;
  /** The component the schema came from, when it was a reference. */
  refName?: string;
}

/**
 * Follows `$ref` and the single-element `allOf` wrapper; the wrapper's own keys (description,
 * default) win over the target's, since they describe this use of the type.
 */
export function resolve(doc: OpenApiDocument, schema: Schema, depth = 0): Resolved {
  if (depth > 32) throw new Error('OpenAPI reference chain too deep');
  if (schema.$ref) {
    const name = refName(schema.$ref);
    const target = doc.components?.schemas?.[name];
    if (!target) throw new Error(`unresolved OpenAPI reference ${schema.$ref}`);
    const { $ref: _ignored, ...own } = schema;
    const inner = resolve(doc, target, depth + 1);
    return { schema: { ...inner.schema, ...own }, refName: inner.refName ?? name };
  }
  if (schema.allOf && schema.allOf.length === 1) {
    const { allOf, ...own } = schema;
    const inner = resolve(doc, allOf[0]!, depth + 1);
    return { schema: { ...inner.schema, ...own }, refName: inner.refName };
  }
  return { schema };
}

/** The component schema of a kind, found by its x-kubernetes-group-version-kind. */
export function findKindSchema(doc: OpenApiDocument, group: string, version: string, kind: string): Resolved | undefined {
  for (const [name, s] of Object.entries(doc.components?.schemas ?? {})) {
    if (s['x-kubernetes-group-version-kind']?.some((g) => g.group === group && g.version === version && g.kind === kind)) return { schema: s, refName: name };
  }
  return undefined;
}

/** A type as kubectl explain prints it: `string`, `[]Container`, `map[string]string`, `Object`, `IntOrString`. */
export function typeLabel(doc: OpenApiDocument, schema: Schema): string {
  const { schema: s, refName: ref } = resolve(doc, schema);
  if (s['x-kubernetes-int-or-string'] || s.format === 'int-or-string') return 'IntOrString';
  if (s.type === 'array' && s.items) return `[]${typeLabel(doc, s.items)}`;
  if (s.type === 'object' && s.additionalProperties && typeof s.additionalProperties === 'object' && !s.properties) return `map[string]${typeLabel(doc, s.additionalProperties)}`;
  if (ref && (s.properties || !s.type)) return shortTypeName(ref);
  if (ref && s.type === 'string' && ref !== 'string') return shortTypeName(ref);
  if (s.type === 'object') return 'Object';
  return s.type ?? (s['x-kubernetes-preserve-unknown-fields'] ? 'Object' : 'any');
}

export interface MergeExtensions {
  listType?: string;
  listMapKeys?: string[];
  mapType?: string;
  patchStrategy?: string;
  patchMergeKey?: string;
  preserveUnknownFields?: boolean;
  embeddedResource?: boolean;
}

export interface SchemaField {
  name: string;
  /** `.spec.template.spec.containers`: the path from the kind's root. */
  path: string;
  type: string;
  description?: string;
  required: boolean;
  default?: unknown;
  enum?: unknown[];
  format?: string;
  /** Value constraints of the field (or of its list items' values), as the schema states them. */
  constraints: FieldConstraint[];
  extensions: MergeExtensions;
  validations: CelRule[];
  /** True when the field (or its list/map element) is an object with fields of its own. */
  hasFields: boolean;
}

export interface FieldConstraint {
  name: 'minimum' | 'maximum' | 'exclusiveMinimum' | 'exclusiveMaximum' | 'multipleOf' | 'pattern' | 'minLength' | 'maxLength' | 'minItems' | 'maxItems' | 'uniqueItems' | 'minProperties' | 'maxProperties';
  value: unknown;
}

const CONSTRAINT_NAMES: FieldConstraint['name'][] = ['minimum', 'exclusiveMinimum', 'maximum', 'exclusiveMaximum', 'multipleOf', 'minLength', 'maxLength', 'pattern', 'minItems', 'maxItems', 'uniqueItems', 'minProperties', 'maxProperties'];

/** The validation keywords a schema node carries (OpenAPI 3.0 spells them as JSON Schema does). */
export function constraintsOf(s: Schema): FieldConstraint[] {
  return CONSTRAINT_NAMES.filter((n) => s[n] !== undefined).map((n) => ({ name: n, value: s[n] }));
}

function extensionsOf(s: Schema): MergeExtensions {
  const e: MergeExtensions = {};
  if (s['x-kubernetes-list-type']) e.listType = s['x-kubernetes-list-type'];
  if (s['x-kubernetes-list-map-keys']) e.listMapKeys = s['x-kubernetes-list-map-keys'];
  if (s['x-kubernetes-map-type']) e.mapType = s['x-kubernetes-map-type'];
  if (s['x-kubernetes-patch-strategy']) e.patchStrategy = s['x-kubernetes-patch-strategy'];
  if (s['x-kubernetes-patch-merge-key']) e.patchMergeKey = s['x-kubernetes-patch-merge-key'];
  if (s['x-kubernetes-preserve-unknown-fields']) e.preserveUnknownFields = true;
  if (s['x-kubernetes-embedded-resource']) e.embeddedResource = true;
  return e;
}

/** The object schema whose fields a field leads to (through arrays and maps), if any. */
export function elementObject(doc: OpenApiDocument, schema: Schema): Resolved | undefined {
  const r = resolve(doc, schema);
  const s = r.schema;
  if (s.properties) return r;
  if (s.type === 'array' && s.items) return elementObject(doc, s.items);
  if (s.type === 'object' && s.additionalProperties && typeof s.additionalProperties === 'object') return elementObject(doc, s.additionalProperties);
  return undefined;
}

/** The fields of an object schema, required ones first, then by name (as kubectl explain orders them). */
export function fieldsOf(doc: OpenApiDocument, schema: Schema, basePath = ''): SchemaField[] {
  const obj = elementObject(doc, schema);
  if (!obj) return [];
  const required = new Set(obj.schema.required ?? []);
  return Object.entries(obj.schema.properties ?? {})
    .map(([name, raw]): SchemaField => {
      const { schema: s } = resolve(doc, raw);
      const field: SchemaField = {
        name,
        path: `${basePath}.${name}`,
        type: typeLabel(doc, raw),
        required: required.has(name),
        constraints: constraintsOf(s),
        extensions: extensionsOf(s),
        validations: s['x-kubernetes-validations'] ?? [],
        hasFields: elementObject(doc, raw) !== undefined,
      };
      if (s.description) field.description = s.description;
      if (s.default !== undefined) field.default = s.default;
      if (s.enum) field.enum = s.enum;
      else if (s.type === 'array' && s.items && resolve(doc, s.items).schema.enum) field.enum = resolve(doc, s.items).schema.enum;
      if (s.format) field.format = s.format;
      return field;
    })
    .sort((a, b) => Number(b.required) - Number(a.required) || a.name.localeCompare(b.name));
}

/** Walks a dotted path (`spec.template.spec.containers`) from a root schema, as `kubectl explain deploy.spec...`. */
export function schemaAt(doc: OpenApiDocument, root: Schema, path: string[]): Schema | undefined {
  let cur: Schema | undefined = root;
  for (const part of path) {
    const obj: Resolved | undefined = cur ? elementObject(doc, cur) : undefined;
    cur = obj?.schema.properties?.[part];
    if (!cur) return undefined;
  }
  return cur;
}

/** The root-level facts of a schema (validations and extensions on the object itself). */
export function describeSchema(doc: OpenApiDocument, schema: Schema): { type: string; description?: string; extensions: MergeExtensions; validations: CelRule[] } {
  const { schema: s } = resolve(doc, schema);
  return { type: typeLabel(doc, schema), description: s.description, extensions: extensionsOf(s), validations: s['x-kubernetes-validations'] ?? [] };
}
