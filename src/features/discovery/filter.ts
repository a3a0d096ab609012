// Filtering discovery by what a person might type: resource name, singular, short name, kind,
// category (`all`), or group.
import type { ApiResource } from '../../k8s/discovery';

export function matchesResource(r: ApiResource, text: string): boolean {
  const t = text.trim().toLowerCase();
  if (!t) return true;
  return (
    r.resource.toLowerCase().includes(t) ||
    r.singular.toLowerCase() === t ||
    r.kind.toLowerCase().includes(t) ||
    r.shortNames.some((s) => s.toLowerCase() === t) ||
    r.categories.some((c) => c.toLowerCase() === t) ||
    r.group.toLowerCase().includes(t)
  );
}
