// The command palette's entries and their ranking: every view, every resource discovery lists
// (preferred versions), every lesson, every context, and, once the query names a resource
// ("cm web", "deploy api"), that resource's objects by name. Fuzzy matching is fuzzysort's
// (SublimeText-like: the letters in order, word starts and runs scoring higher).
import fuzzysort from 'fuzzysort';
import { type ApiResource, type Discovery, preferredResources, resolveResource } from '../../k8s/discovery';
import type { Route, View } from '../../routing';

export type EntryKind = 'view' | 'resource' | 'object' | 'lesson' | 'context';

export interface PaletteEntry {
  kind: EntryKind;
  /** What is matched and shown: "Lists", "configmaps (ConfigMap, v1)". */
  label: string;
  /** A second line: what choosing it does. */
  detail: string;
  to: Partial<Route> & { extra?: Record<string, string> };
}

export interface PaletteSources {
  views: readonly { view: View; label: string }[];
  discovery?: Discovery;
  lessons: readonly { id: string; title: string }[];
  contexts: readonly string[];
  /** The current context, left out of the context entries. */
  context?: string;
  /** Objects of the resource the query names (see `objectQuery`). */
  objects?: { resource: ApiResource; items: readonly { name: string; namespace?: string }[] };
}

const KIND_WORD: Record<EntryKind, string> = { view: 'View', resource: 'Resource', object: 'Object', lesson: 'Lesson', context: 'Context' };
export const kindWord = (k: EntryKind) => KIND_WORD[k];

/** Every entry the sources give, before matching. */
export function paletteEntries(s: PaletteSources): PaletteEntry[] {
  const out: PaletteEntry[] = [];
  for (const v of s.views) out.push({ kind: 'view', label: v.label, detail: `open the ${v.label} view`, to: { view: v.view, extra: {} } });
  for (const l of s.lessons) out.push({ kind: 'lesson', label: l.title, detail: `lesson ${l.id}`, to: { view: 'lessons', extra: { lesson: l.id } } });
  if (s.discovery)
    for (const r of preferredResources(s.discovery))
      if (r.verbs.includes('list'))
        out.push({
          kind: 'resource',
          label: `${r.resource}${r.group ? `.${r.group}` : ''}`,
          detail: `${r.kind}, ${r.group ? `${r.group}/` : ''}${r.version}${r.shortNames.length ? `, short name ${r.shortNames.join(', ')}` : ''}: list them`,
          to: { view: 'lists', group: r.group, version: r.version, resource: r.resource, name: undefined, extra: {} },
        });
  for (const c of s.contexts)
    if (c !== s.context) out.push({ kind: 'context', label: c, detail: `switch to the context ${c}`, to: { context: c, namespace: undefined, allNamespaces: false } });
  if (s.objects) {
    const r = s.objects.resource;
    for (const o of s.objects.items)
      out.push({
        kind: 'object',
        label: `${r.resource}/${o.name}`,
        detail: `${r.kind} ${o.namespace ? `${o.namespace}/` : ''}${o.name}: open it in the Edit view`,
        to: { view: 'edit', group: r.group, version: r.version, resource: r.resource, name: o.name, ...(o.namespace ? { namespace: o.namespace } : {}), extra: {} },
      });
  }
  return out;
}

/**
 * "<resource> <name>": the first word names a resource (plural, singular, short name or kind, as
 * kubectl reads it) and the rest is matched against its objects' names. Undefined otherwise.
 */
export function objectQuery(d: Discovery | undefined, query: string): { resource: ApiResource; name: string } | undefined {
  const m = /^\s*(\S+)\s+(.*)$/.exec(query);
  if (!d || !m) return undefined;
  const resource = resolveResource(d, m[1]!).find((r) => r.verbs.includes('list'));
  return resource ? { resource, name: m[2]!.trim() } : undefined;
}

/** The entries matching the query, best first; with an object query, its objects (by the name part) first. */
export function rankEntries(entries: readonly PaletteEntry[], query: string, objectName?: string, limit = 50): PaletteEntry[] {
  const q = query.trim();
  if (objectName !== undefined) {
    const objects = entries.filter((e) => e.kind === 'object');
    const named = objectName ? fuzzysort.go(objectName, objects, { key: (e) => e.label.slice(e.label.indexOf('/') + 1), limit, threshold: 0 }).map((r) => r.obj) : objects.slice(0, limit);
    if (named.length) return named;
  }
  if (!q) return entries.filter((e) => e.kind === 'view' || e.kind === 'context').slice(0, limit);
  return fuzzysort.go(q, entries, { keys: ['label', (e) => `${KIND_WORD[e.kind]} ${e.detail}`], limit, threshold: 0, scoreFn: (r) => Math.max(r[0]!.score, r[1]!.score * 0.8) }).map((r) => r.obj);
}
