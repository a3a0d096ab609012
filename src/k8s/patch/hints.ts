// What the schema says about a list or map, for the patch builders: the OpenAPI extensions
// x-kubernetes-patch-merge-key / x-kubernetes-patch-strategy (strategic merge patch) and
// x-kubernetes-list-type / x-kubernetes-list-map-keys / x-kubernetes-map-type (Server-Side Apply). The builders only take
// this function, so they stay pure; src/k8s/openapi builds one from a kind's schema.

export interface FieldHint {
  /** x-kubernetes-patch-merge-key: the field that identifies an element in a strategic merge patch. */
  mergeKey?: string;
  /** x-kubernetes-patch-strategy: `merge`, `retainKeys`, `merge,retainKeys` or `replace`. */
  strategy?: string;
  /** x-kubernetes-list-type: `atomic`, `set` or `map`. */
  listType?: string;
  /** x-kubernetes-list-map-keys. */
  mapKeys?: string[];
  /** x-kubernetes-map-type: `atomic` (a map or struct that is one value for Server-Side Apply) or `granular`. */
  mapType?: string;
  /**
   * The schema's defaults of key fields (x-kubernetes-list-map-keys) that may be left out: the
   * server defaults them before it keys the element (a container port without `protocol` is
   * keyed with `TCP`), so an element without them is still keyed, not an atomic list.
   */
  keyDefaults?: Record<string, unknown>;
}

/** Hints for the field at a path of field names from the object's root (list elements add no step). */
export type FieldHints = (path: readonly string[]) => FieldHint | undefined;

export const NO_HINTS: FieldHints = () => undefined;

export function strategyHas(hint: FieldHint | undefined, s: 'merge' | 'retainKeys' | 'replace'): boolean {
  return !!hint?.strategy?.split(',').includes(s);
}

/** The fields that identify an element of a keyed list, for Server-Side Apply or JSON Patch. */
export function listKeys(hint: FieldHint | undefined): string[] | undefined {
  if (hint?.mapKeys?.length) return hint.mapKeys;
  if (hint?.listType === 'map') return undefined;
  if (hint?.mergeKey && strategyHas(hint, 'merge')) return [hint.mergeKey];
  return undefined;
}
