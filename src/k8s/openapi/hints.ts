// The schema facts the patch builders need (merge keys, patch strategies, list types), from a
// kind's OpenAPI v3 schema. Custom resources carry list types and map keys but no patch strategy
// (the server answers 415 to strategic merge patches for them).
import type { FieldHint, FieldHints } from '../patch/hints';
import { describeSchema, type OpenApiDocument, resolve, type Schema, schemaAt } from './openapi';

export function fieldHintsFrom(doc: OpenApiDocument, root: Schema): FieldHints {
  const cache = new Map<string, FieldHint | undefined>();
  return (path) => {
    const key = path.join('\u0000');
    if (!cache.has(key)) {
      const s = schemaAt(doc, root, [...path]);
      const e = s ? describeSchema(doc, s).extensions : undefined;
      const hint = e && (e.patchMergeKey || e.patchStrategy || e.listType || e.listMapKeys || e.mapType) ? { mergeKey: e.patchMergeKey, strategy: e.patchStrategy, listType: e.listType, mapKeys: e.listMapKeys, mapType: e.mapType } : undefined;
      if (hint?.mapKeys) {
        // Key fields with a default (ContainerPort.protocol: TCP): the server keys an element that
        // leaves them out by the default (it defaults an apply configuration before merging it).
        const defaults = Object.fromEntries(hint.mapKeys.flatMap((k) => {
          const ks = schemaAt(doc, root, [...path, k]);
          const d = ks ? resolve(doc, ks).schema.default : undefined;
          return d === undefined ? [] : [[k, d]];
        }));
        if (Object.keys(defaults).length > 0) Object.assign(hint, { keyDefaults: defaults });
      }
      cache.set(key, hint);
    }
    return cache.get(key);
  };
}
