// The questions the views ask of one group version's OpenAPI v3 document, answered from the
// parsed document wherever it lives (in the schema worker, or in the page where there is no
// worker). Each answer is only what its view needs, so that the page never holds the document:
// the Pod's document (/openapi/v3/api/v1, every core type) is several MB, and parsing it and
// walking it on the main thread held the page for over 100 ms.
import { apiVersionOf } from '../paths';
import { type JsonSchema, kindJsonSchema } from './jsonSchema';
import { type CelRule, describeSchema, fieldsOf, findKindSchema, type MergeExtensions, type OpenApiDocument, refName, type Schema, type SchemaField, schemaAt, shortTypeName } from './openapi';

export interface KindRef {
  group: string;
  version: string;
  kind: string;
}

export type SchemaQuestion =
  /** One level of fields at a path of the kind, as `kubectl explain kind.path` prints it. */
  | (KindRef & { q: 'explain'; path: string[] })
  /** The kind as a self-contained JSON Schema for the editor (jsonSchema.ts). */
  | (KindRef & { q: 'editor' })
  /** The kind's subtree without descriptions: what the patch builders' field hints read. */
  | (KindRef & { q: 'hints' });

export type Explanation =
  | { found: 'no-kind' }
  | { found: 'no-field' }
  | {
      found: 'field';
      info: { type: string; description?: string; extensions: MergeExtensions; validations: CelRule[] };
      fields: SchemaField[];
    };

export type EditorAnswer = { found: 'no-kind' } | { found: 'schema'; schema: JsonSchema } | { found: 'problem'; problem: string };

/** A document holding only the components the kind reaches, each without its descriptions. */
export type HintsAnswer = { found: 'no-kind' } | { found: 'subtree'; doc: OpenApiDocument; root: Schema };

export interface Answers {
  explain: Explanation;
  editor: EditorAnswer;
  hints: HintsAnswer;
}

export function explain(doc: OpenApiDocument, q: KindRef & { path: string[] }): Explanation {
  const kind = findKindSchema(doc, q.group, q.version, q.kind);
  if (!kind) return { found: 'no-kind' };
  const node = q.path.length ? schemaAt(doc, kind.schema, q.path) : kind.schema;
  if (!node) return { found: 'no-field' };
  const described = describeSchema(doc, node);
  // The kind's own component is not a reference, so name its type from the component.
  const info = q.path.length ? described : { ...described, type: shortTypeName(kind.refName ?? q.kind) };
  return { found: 'field', info, fields: fieldsOf(doc, node, q.path.length ? `.${q.path.join('.')}` : '') };
}

export function editorSchema(doc: OpenApiDocument, q: KindRef): EditorAnswer {
  const found = findKindSchema(doc, q.group, q.version, q.kind);
  if (!found?.refName) return { found: 'no-kind' };
  try {
    return { found: 'schema', schema: kindJsonSchema(doc, found.refName, apiVersionOf(q.group, q.version), q.kind) };
  } catch (e) {
    return { found: 'problem', problem: e instanceof Error ? e.message : String(e) };
  }
}

/** Keys of a schema node the hints never read: texts and rules. */
const PROSE = new Set(['description', 'x-kubernetes-validations', 'example', 'externalDocs']);

export function hintsSubtree(doc: OpenApiDocument, q: KindRef): HintsAnswer {
  const found = findKindSchema(doc, q.group, q.version, q.kind);
  if (!found?.refName) return { found: 'no-kind' };
  const all = doc.components?.schemas ?? {};
  const out: Record<string, Schema> = {};
  const pending = [found.refName];
  const strip = (s: Schema): Schema => {
    const c: Schema = {};
    for (const [k, v] of Object.entries(s)) {
      if (PROSE.has(k)) continue;
      if (k === '$ref' && typeof v === 'string') pending.push(refName(v));
      if (k === 'properties' && v && typeof v === 'object') c.properties = Object.fromEntries(Object.entries(v as Record<string, Schema>).map(([n, p]) => [n, strip(p)]));
      else if ((k === 'items' || k === 'additionalProperties') && v && typeof v === 'object') c[k] = strip(v as Schema);
      else if ((k === 'allOf' || k === 'oneOf' || k === 'anyOf') && Array.isArray(v)) c[k] = (v as Schema[]).map(strip);
      else c[k] = v;
    }
    return c;
  };
  for (let name = pending.pop(); name !== undefined; name = pending.pop()) {
    const target = all[name];
    if (name in out || !target) continue;
    out[name] = strip(target);
  }
  return { found: 'subtree', doc: { openapi: doc.openapi, components: { schemas: out } }, root: out[found.refName]! };
}

export function answer<Q extends SchemaQuestion>(doc: OpenApiDocument, q: Q): Answers[Q['q']] {
  switch (q.q) {
    case 'explain':
      return explain(doc, q) as Answers[Q['q']];
    case 'editor':
      return editorSchema(doc, q) as Answers[Q['q']];
    case 'hints':
      return hintsSubtree(doc, q) as Answers[Q['q']];
  }
  throw new Error(`unknown schema question ${(q as { q: string }).q}`);
}
