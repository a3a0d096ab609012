// A kind's OpenAPI v3 schema turned into a JSON Schema (draft 7) for editors: monaco-yaml and
// Monaco's JSON language take JSON schemas, and kube-apiserver publishes OpenAPI 3.0 schema
// objects, which are close but not the same:
// - references point at `#/components/schemas/<name>`; here they point at `#/definitions/<name>`,
//   and only the components the kind reaches are carried over;
// - `nullable: true` becomes a `null` alternative of the type;
// - int-or-string (`x-kubernetes-int-or-string`, or IntOrString's `format: int-or-string`) and
//   Quantity accept a number or a string, as the server decodes them;
// - the server rejects (fieldValidation=Strict) or drops (Warn, Ignore) fields its schema does not
//   know, so objects with declared properties get `additionalProperties: false` unless the schema
//   says `x-kubernetes-preserve-unknown-fields`;
// - `format` is left out of validation (int32, int64, byte, date-time as Go formats them are not
//   all JSON Schema formats) and shown in the hover text instead.
// Hover text is Markdown built from the field's description, its type as kubectl explain names it,
// default, required, and the extensions that decide how patches and apply merge it.
import { type OpenApiDocument, refName, type Schema, shortTypeName, typeLabel } from './openapi';

export interface JsonSchema {
  $ref?: string;
  type?: string | string[];
  description?: string;
  markdownDescription?: string;
  properties?: Record<string, JsonSchema>;
  additionalProperties?: JsonSchema | boolean;
  items?: JsonSchema;
  required?: string[];
  enum?: unknown[];
  default?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  definitions?: Record<string, JsonSchema>;
  [k: string]: unknown;
}

/** Constraints carried over as they are: OpenAPI 3.0 and JSON Schema spell them the same. */
const CONSTRAINTS = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf', 'minLength', 'maxLength', 'pattern', 'minItems', 'maxItems', 'uniqueItems', 'minProperties', 'maxProperties', 'enum'] as const;

const QUANTITY = 'io.k8s.apimachinery.pkg.api.resource.Quantity';

/** The Markdown shown on hover: what kubectl explain would say, plus the merge extensions. */
export function hoverText(doc: OpenApiDocument, raw: Schema, own: Schema, name: string | undefined, required: boolean): string {
  const lines: string[] = [];
  const type = safeTypeLabel(doc, raw);
  lines.push(`${name ? `**${name}** ` : ''}\`<${type}>\`${required ? ' · **required**' : ''}`);
  if (own.description) lines.push(own.description);
  const facts: string[] = [];
  if (own.default !== undefined) facts.push(`default \`${JSON.stringify(own.default)}\``);
  if (own.format) facts.push(`format \`${own.format}\``);
  for (const k of CONSTRAINTS) {
    if (k === 'enum') continue;
    const v = own[k];
    if (v !== undefined) facts.push(`${k} \`${JSON.stringify(v)}\``);
  }
  if (own.enum) facts.push(`one of ${own.enum.map((v) => `\`${JSON.stringify(v)}\``).join(', ')}`);
  if (facts.length) lines.push(facts.join(' · '));
  const merge: string[] = [];
  if (own['x-kubernetes-patch-strategy']) merge.push(`patch strategy \`${own['x-kubernetes-patch-strategy']}\``);
  if (own['x-kubernetes-patch-merge-key']) merge.push(`patch merge key \`${own['x-kubernetes-patch-merge-key']}\` (strategic merge patch merges list elements by it)`);
  if (own['x-kubernetes-list-type']) merge.push(`list-type \`${own['x-kubernetes-list-type']}\``);
  if (own['x-kubernetes-list-map-keys']) merge.push(`list-map-keys \`${own['x-kubernetes-list-map-keys'].join(', ')}\` (server-side apply merges list elements by them)`);
  if (own['x-kubernetes-map-type']) merge.push(`map-type \`${own['x-kubernetes-map-type']}\``);
  if (own['x-kubernetes-preserve-unknown-fields']) merge.push('preserve-unknown-fields');
  if (own['x-kubernetes-embedded-resource']) merge.push('embedded-resource');
  if (merge.length) lines.push(merge.join(' · '));
  for (const rule of own['x-kubernetes-validations'] ?? []) lines.push(`CEL \`${rule.rule}\`${rule.message ? `: ${rule.message}` : ''}`);
  return lines.join('\n\n');
}

function safeTypeLabel(doc: OpenApiDocument, s: Schema): string {
  try {
    return typeLabel(doc, s);
  } catch {
    return s.type ?? 'any';
  }
}

/** The schema's own keys merged over the single-`allOf` or `$ref` target it wraps (for hover facts). */
function ownAndTarget(doc: OpenApiDocument, s: Schema, depth = 0): Schema {
  if (depth > 32) return s;
  if (s.$ref) {
    const target = doc.components?.schemas?.[refName(s.$ref)];
    const { $ref: _r, ...own } = s;
    return target ? { ...ownAndTarget(doc, target, depth + 1), ...own } : own;
  }
  if (s.allOf?.length === 1) {
    const { allOf, ...own } = s;
    return { ...ownAndTarget(doc, allOf[0]!, depth + 1), ...own };
  }
  return s;
}

class Converter {
  readonly definitions: Record<string, JsonSchema> = {};
  private readonly pending: string[] = [];

  constructor(private readonly doc: OpenApiDocument) {}

  private ref(name: string): JsonSchema {
    if (!(name in this.definitions)) {
      this.definitions[name] = {};
      this.pending.push(name);
    }
    return { $ref: `#/definitions/${name}` };
  }

  /** Converts every component reached so far (and those they reach). */
  drain(): void {
    for (let name = this.pending.shift(); name !== undefined; name = this.pending.shift()) {
      const s = this.doc.components?.schemas?.[name];
      this.definitions[name] = s ? this.node(s, name) : {};
    }
  }

  /** One schema node. `component` names the component it is, for the type-specific rules. */
  node(s: Schema, component?: string, field?: { name: string; required: boolean }): JsonSchema {
    const out: JsonSchema = {};
    const own = field ? ownAndTarget(this.doc, s) : s;
    if (field || s.description) {
      out.markdownDescription = hoverText(this.doc, s, own, field?.name, field?.required ?? false);
      if (own.description) out.description = own.description;
    }
    if (s.$ref) {
      // Description and default next to a $ref are the field's own; the target stays shared.
      if (s.default !== undefined) out.default = s.default;
      return Object.keys(out).length ? { ...out, allOf: [this.ref(refName(s.$ref))] } : this.ref(refName(s.$ref));
    }
    if (component === QUANTITY || s['x-kubernetes-int-or-string'] || s.format === 'int-or-string') {
      out.anyOf = [{ type: 'integer' }, { type: 'string' }];
      if (component === QUANTITY) out.anyOf = [{ type: 'number' }, { type: 'string' }];
      if (s.nullable) out.anyOf.push({ type: 'null' });
      for (const k of CONSTRAINTS) if (s[k] !== undefined && k !== 'enum') (out as Record<string, unknown>)[k] = s[k];
      if (s.default !== undefined) out.default = s.default;
      return out;
    }
    if (s.type) out.type = s.nullable ? [s.type, 'null'] : s.type;
    if (s.default !== undefined) out.default = s.default;
    for (const k of CONSTRAINTS) if (s[k] !== undefined) (out as Record<string, unknown>)[k] = s[k];
    if (s.nullable && out.enum && !out.enum.includes(null)) out.enum = [...out.enum, null];
    for (const k of ['allOf', 'anyOf', 'oneOf'] as const) {
      const list = s[k];
      if (list) out[k] = list.map((x) => this.node(x));
    }
    if (s.properties) {
      const required = new Set(s.required ?? []);
      out.properties = {};
      for (const [name, p] of Object.entries(s.properties)) out.properties[name] = this.node(p, undefined, { name, required: required.has(name) });
    }
    if (s.required?.length) out.required = s.required;
    if (s.items) out.items = this.node(s.items);
    if (s.additionalProperties !== undefined) {
      out.additionalProperties = typeof s.additionalProperties === 'boolean' ? s.additionalProperties : this.node(s.additionalProperties);
    } else if (s.properties && !s['x-kubernetes-preserve-unknown-fields']) {
      out.additionalProperties = false;
    }
    return out;
  }
}

/**
 * A self-contained JSON Schema for one kind of one group version: its `apiVersion` and `kind` fixed
 * to the values the server serves under this schema, every component it uses under `definitions`.
 */
export function kindJsonSchema(doc: OpenApiDocument, componentName: string, apiVersion: string, kind: string): JsonSchema {
  const component = doc.components?.schemas?.[componentName];
  if (!component) throw new Error(`the OpenAPI document has no component ${componentName}`);
  const c = new Converter(doc);
  const root = c.node(component, componentName);
  c.drain();
  const props = { ...(root.properties ?? {}) };
  const fixed = (name: string, value: string): JsonSchema => ({ ...(props[name] ?? {}), type: 'string', enum: [value] });
  props.apiVersion = fixed('apiVersion', apiVersion);
  props.kind = fixed('kind', kind);
  return {
    ...root,
    title: `${kind} (${apiVersion})`,
    markdownDescription: `**${kind}** \`${apiVersion}\` · ${shortTypeName(componentName)}${component.description ? `\n\n${component.description}` : ''}`,
    properties: props,
    definitions: c.definitions,
  };
}
