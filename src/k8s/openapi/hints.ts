// The schema facts the patch builders need (merge keys, patch strategies, list types), from a
// kind's OpenAPI v3 schema. Custom resources carry list types and map keys but no patch strategy
// (the server answers 415 to strategic merge patches for them).
import type { FieldHint, FieldHints } from '../patch/hints';
import { describeSchema, type OpenApiDocument, type Schema, schemaAt } from './openapi';

export function fieldHintsFrom(doc: OpenApiDocument, root: Schema): FieldHints {
  const cache = new Map<string, FieldHint | undefined>();
  return (path) => {
    const key = path.join('\u0000');
    if (!cache.has(key)) {
      const s = schemaAt(doc, root, [...path]);
      const e = s ? describeSchema(doc, s).extensions : undefined;
      cache.set(key, e && (e.patchMergeKey || e.patchStrategy || e.listType || e.listMapKeys || e.mapType) ? { mergeKey: e.patchMergeKey, strategy: e.patchStrategy, listType: e.listType, mapKeys: e.listMapKeys, mapType: e.mapType } : undefined);
    }
    return cache.get(key);
  };
}
